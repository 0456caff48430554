"""A method moved elsewhere while its callers still call it by its name (leakcanary 7c149da7:
`FragmentLeakTest.assertLeak` became `TestUtils.assertLeak`, reworked on the way, its two calls
in the test left as they were). The calls still resolve: to the one declaration of that name
new among the changed files. Fewer than two calls kept, a name declared twice, a mention that
is no call (the bare word, as in a string), or a body rewritten past 0.4 likeness: orphaned."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, reanchor

OLD_BODY = '''    def check_leak(self, expected):
        detector = LeakDetector()
        results = detector.detect()
        if len(results.leaks) != 1:
            raise AssertionError("expected one leak, not %d" % len(results.leaks))
        if results.leaks[0].class_name != expected.__name__:
            raise AssertionError("expected a leak of %s" % expected)
'''
NEW_BODY = '''def check_leak(expected):
    detector = LeakDetector()
    analysis = detector.detect()
    if analysis is None:
        raise AssertionError("expected an analysis")
    leaks = analysis.application_leaks()
    if len(leaks) != 1:
        raise AssertionError("expected one leak in %s" % analysis)
    if leaks[0].class_name != expected.__name__:
        raise AssertionError("expected a leak of %s" % expected)
'''
REWRITTEN = '''def check_leak(*checks):
    for check in checks:
        check.run(strict=True, timeout=30)
    return all(c.passed for c in checks)
'''


def _test_file(calls: list[str], method: bool) -> bytes:
    tests = "".join(f"    def test_{i}(self):\n        start_activity()\n        {c}\n\n" for i, c in enumerate(calls))
    return f"class FragmentLeakTest:\n{tests}{OLD_BODY if method else ''}".encode()


def _run(calls_after: list[str], utils: str = NEW_BODY, other: str | None = None):
    calls = ["check_leak(Fragment)", "check_leak(View)"]
    before = {"tests/test_fragment.py": _test_file(calls, True), "tests/helpers.py": b"import os\n"}
    after = {"tests/test_fragment.py": _test_file(calls_after, False), "tests/utils.py": utils.encode(),
             "tests/helpers.py": b"import os\n" + (other or "").encode()}
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in before.items()}, before.get)
    start = 1 + 4 * len(calls) + 1
    anchor = create_anchor("tests/test_fragment.py", before["tests/test_fragment.py"], start, start + 6)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get)
    return reanchor(anchor, after["tests/test_fragment.py"], index)


def test_a_method_whose_calls_stayed_follows_its_name_to_its_one_new_declaration():
    rel = _run(["check_leak(Fragment)", "check_leak(View)"])
    assert (rel.anchor.file, rel.anchor.line_start, rel.anchor.line_end, rel.health) == (
        "tests/utils.py", 1, 10, "drifted")


def test_a_name_declared_twice_among_the_changed_files_says_nothing():
    rel = _run(["check_leak(Fragment)", "check_leak(View)"], other="\n\ndef check_leak(expected):\n    pass\n")
    assert rel.health == "orphaned"


def test_a_body_rewritten_past_likeness_is_orphaned_though_its_calls_stayed():
    assert _run(["check_leak(Fragment)", "check_leak(View)"], utils=REWRITTEN).health == "orphaned"


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from(["check_leak(Fragment)", "check_leak(View)", "# check_leak(Fragment)",
                                 "log('check_leak')", "verify_leak(View)"]), min_size=2, max_size=2))
def test_it_follows_only_when_two_calls_stayed_as_they_were(calls):
    rel = _run(calls)
    if {"check_leak(Fragment)", "check_leak(View)"} <= set(calls):  # both calls left as they were
        assert rel.anchor.file == "tests/utils.py" and rel.health == "drifted"
    else:
        assert rel.health == "orphaned"
