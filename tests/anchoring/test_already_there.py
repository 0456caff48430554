"""Never a twin that was already there: code the change left as it was is never where deleted
code went (httpx-shaped cases: a verbatim copy of a deleted method in a sibling class, a deleted
class whose method has a twin in the class beside it; a file renamed in the commit that deleted
the symbol). A safe orphan instead."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, reanchor

AUTH_BEFORE = b'''import base64


class HTTPBasicAuth:
    def __init__(self, username, password):
        self._auth_header = self._build_auth_header(username, password)

    def _build_auth_header(self, username, password):
        userpass = b":".join((to_bytes(username), to_bytes(password)))
        token = base64.b64encode(userpass).decode()
        return f"Basic {token}"


class NetRCAuth:
    def __init__(self, file=None):
        self._netrc_info = netrc.netrc(file)

    def auth_flow(self, request):
        auth_info = self._netrc_info.authenticators(request.url.host)
        if auth_info is None or not auth_info[2]:
            yield request
        else:
            request.headers["Authorization"] = self._build_auth_header(
                username=auth_info[0], password=auth_info[2]
            )
            yield request

    def _build_auth_header(self, username, password):
        userpass = b":".join((to_bytes(username), to_bytes(password)))
        token = base64.b64encode(userpass).decode()
        return f"Basic {token}"
'''

CHUNKERS_BEFORE = b'''import io


class ByteChunker:
    def __init__(self, chunk_size=None):
        self._buffer = io.BytesIO()
        self._chunk_size = chunk_size

    def flush(self):
        value = self._buffer.getvalue()
        self._buffer.seek(0)
        self._buffer.truncate()
        return [value] if value else []


class TextChunker:
    def __init__(self, chunk_size=None):
        self._buffer = io.StringIO()
        self._chunk_size = chunk_size

    def flush(self):
        value = self._buffer.getvalue()
        self._buffer.seek(0)
        self._buffer.truncate()
        return [value] if value else []


class LineDecoder:
    def __init__(self):
        self.buffer = []
'''


def _lines(source: bytes, needle: bytes, occurrence: int = 0) -> int:
    """1-based line of the `occurrence`-th line holding `needle`."""
    hits = [i for i, line in enumerate(source.split(b"\n"), 1) if needle in line]
    return hits[occurrence]


def _reanchor(before: dict[str, bytes], after: dict[str, bytes], path: str, first: int, last: int):
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in before.items()}, before.get)
    anchor = create_anchor(path, before[path], first, last)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get)
    return reanchor(anchor, after.get(path), index)


def _cut(source: bytes, start_needle: bytes, occurrence: int, end_needle: bytes) -> tuple[bytes, int, int]:
    """Remove the block from the line holding start_needle (its occurrence-th) through the next
    line holding end_needle; returns the new source and the block's 1-based line span."""
    lines = source.split(b"\n")
    first = _lines(source, start_needle, occurrence) - 1
    last = next(i for i in range(first, len(lines)) if end_needle in lines[i])
    return b"\n".join(lines[:first] + lines[last + 1:]), first + 1, last + 1


def test_a_method_deleted_while_a_verbatim_copy_stays_in_a_sibling_class_is_orphaned():
    after, first, last = _cut(AUTH_BEFORE, b"def _build_auth_header", 1, b'return f"Basic')
    for span in ((first, last), (first + 1, last)):  # the whole method, or its body's lines
        got = _reanchor({"_auth.py": AUTH_BEFORE}, {"_auth.py": after}, "_auth.py", *span)
        assert got.health == "orphaned", got


def test_a_deleted_class_leaves_its_methods_threads_orphaned_not_on_the_twin_beside_it():
    after, _, _ = _cut(CHUNKERS_BEFORE, b"class TextChunker", 0, b"return [value]")
    first = _lines(CHUNKERS_BEFORE, b"def flush", 1)
    for span in ((first, first + 4), (first + 1, first + 4)):
        got = _reanchor({"_decoders.py": CHUNKERS_BEFORE}, {"_decoders.py": after}, "_decoders.py", *span)
        assert got.health == "orphaned", got


def test_the_twin_itself_keeps_its_thread_when_the_other_copy_is_deleted():
    after, _, _ = _cut(CHUNKERS_BEFORE, b"class TextChunker", 0, b"return [value]")
    first = _lines(CHUNKERS_BEFORE, b"def flush", 0)
    got = _reanchor({"_decoders.py": CHUNKERS_BEFORE}, {"_decoders.py": after}, "_decoders.py", first + 1, first + 4)
    assert got.health == "anchored" and (got.anchor.line_start, got.anchor.line_end) == (first + 1, first + 4)


def test_a_copy_that_moved_still_follows_when_its_twin_stays():
    """The anchor's own copy moved down the file (a twin stays where it was): it follows."""
    lines = CHUNKERS_BEFORE.split(b"\n")
    text_first = _lines(CHUNKERS_BEFORE, b"class TextChunker") - 1
    line_first = _lines(CHUNKERS_BEFORE, b"class LineDecoder") - 1
    text_class, line_class = lines[text_first:line_first], lines[line_first:]
    after = b"\n".join(lines[:text_first] + line_class + [b"", b""] + text_class)
    first = _lines(CHUNKERS_BEFORE, b"def flush", 1)
    got = _reanchor({"_decoders.py": CHUNKERS_BEFORE}, {"_decoders.py": after}, "_decoders.py", first + 1, first + 4)
    assert got.health != "orphaned"
    assert got.anchor.line_start == _lines(after, b"def flush", 1) + 1


def test_a_file_renamed_in_the_commit_that_deleted_a_symbol_gives_it_no_old_successor():
    """Issue 33, item 15: b.py renamed to a.py and foo deleted in one commit (git diffs run
    --no-renames: a deletion and an addition). bar was there before: it is not foo's successor."""
    before = b'''def foo(items, key):
    total = 0
    for item in items:
        total += item[key]
    return total


def bar(items, key):
    total = 0
    for item in items:
        total += item[key] * 2
    return total


def baz():
    return 1
'''
    after = before[before.index(b"def bar"):]
    got = _reanchor({"b.py": before}, {"a.py": after}, "b.py", 1, 5)
    assert got.health == "orphaned", got
    # ... while a symbol of that file that stayed follows it to its new path
    got = _reanchor({"b.py": before}, {"a.py": after}, "b.py", 8, 12)
    assert got.health == "anchored" and got.anchor.file == "a.py"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([b"first", b"second"]), st.integers(min_value=0, max_value=3))
def test_deleting_one_of_two_identical_methods_never_moves_its_thread_onto_the_other(which, pad):
    """Property: whichever of two identical methods is deleted, and whatever code sits between
    them, a thread on the deleted one's body never lands on the one that stayed."""
    body = b"        value = self.buffer.getvalue()\n        self.buffer.seek(0)\n        return [value]\n"
    filler = b"".join(b"    def other%d(self):\n        return %d\n\n" % (i, i) for i in range(pad))
    source = (b"class A:\n    def flush(self):\n" + body + b"\n" + filler
              + b"\nclass B:\n    def flush(self):\n" + body)
    occurrence = 0 if which == b"first" else 1
    start = _lines(source, b"def flush", occurrence)
    lines = source.split(b"\n")
    after = b"\n".join(lines[:start - 1] + lines[start + 3:])
    got = _reanchor({"m.py": source}, {"m.py": after}, "m.py", start + 1, start + 3)
    assert got.health == "orphaned", got


CHAIN_BEFORE = b'''def random_distribution(n, prng=None):
    """Returns a random distribution over `n` outcomes."""
    if prng is None:
        prng = default_prng
    d = uniform_distribution(n)
    d.pmf = prng.dirichlet(np.ones(len(d)))
    return d


def random_joint_distribution(word_length, alphabet_size, prng=None):
    """Returns a uniform joint distribution over words."""
    if prng is None:
        prng = default_prng
    d = uniform_joint_distribution(word_length, alphabet_size)
    d.pmf = prng.dirichlet(np.ones(len(d)))
    d.normalize()
    return d
'''


def test_a_chain_of_renames_moves_the_thread_with_the_body_not_the_name():
    """dit 5b8629a6: random_distribution -> random_scalar_distribution while
    random_joint_distribution takes the name random_distribution. The old body is new under
    another name, nearly verbatim; the name now holds other code."""
    after = (CHAIN_BEFORE.replace(b"def random_distribution(", b"def random_scalar_distribution(")
             .replace(b"def random_joint_distribution(word_length", b"def random_distribution(outcome_length")
             .replace(b"(word_length, alphabet_size)", b"(outcome_length, alphabet_size)"))
    got = _reanchor({"distconst.py": CHAIN_BEFORE}, {"distconst.py": after}, "distconst.py", 1, 7)
    assert got.health != "orphaned" and got.anchor.line_start == _lines(after, b"def random_scalar_distribution")


def test_the_old_name_kept_as_a_wrapper_lets_the_thread_follow_the_body():
    before = b'''class Adapter:
    def set_empty_view(self, layout_id, parent=None):
        view = self.inflater.inflate(layout_id, parent, False)
        self.empty_layout.remove_all_views()
        self.empty_layout.add_view(view)
        self.empty_view_enabled = True
        self.notify_data_set_changed()
'''
    after = b'''class Adapter:
    def set_empty_view(self, layout_id, parent=None):
        self.set_empty_view_layout(layout_id, parent)

    def set_empty_view_layout(self, layout_id, parent=None):
        view = self.inflater.inflate(layout_id, parent, False)
        self.empty_layout.remove_all_views()
        self.empty_layout.add_view(view)
        self.empty_view_enabled = True
        self.notify_data_set_changed()
'''
    got = _reanchor({"adapter.py": before}, {"adapter.py": after}, "adapter.py", 2, 7)
    assert got.health != "orphaned"
    assert (got.anchor.line_start, got.anchor.line_end) == (5, 10)


def test_a_namesake_edited_in_place_keeps_its_thread_beside_a_new_unlike_function():
    before = b"def parse(text):\n    items = text.split(',')\n    return [i.strip() for i in items]\n"
    after = (b"def parse(text, sep=','):\n    items = text.split(sep)\n    return [i.strip() for i in items if i]\n\n\n"
             b"def render(items):\n    return ', '.join(items)\n")
    got = _reanchor({"p.py": before}, {"p.py": after}, "p.py", 1, 3)
    assert got.health == "drifted" and (got.anchor.line_start, got.anchor.line_end) == (1, 3)


VERSIONED_OLD = b'''package org.example.sheet

import org.example.ui.TouchMode
import org.example.ui.TouchModeView

internal class ShadeTouchModeImpl(
    val shadeView: ShadeView,
) : TouchModeView {
    override fun getTouchMode(): TouchMode = if (shadeView.blocksTouches) TouchMode.AUTO else TouchMode.NONE
}

internal class ShadeTouchModeProxy(
    var touchModeImpl: ShadeTouchModeImpl?,
) : TouchModeView {
    override fun getTouchMode(): TouchMode = touchModeImpl?.touchMode ?: TouchMode.NONE
}
'''

VERSIONED_LATEST = (VERSIONED_OLD
                    .replace(b"override fun getTouchMode(): TouchMode = if",
                             b"override val touchMode: TouchMode\n        get() = if")
                    .replace(b"override fun getTouchMode(): TouchMode = touchModeImpl",
                             b"override val touchMode: TouchMode\n        get() = touchModeImpl"))


def test_two_copies_of_a_file_deleted_and_merged_into_one_take_both_threads_there():
    """react-native-screens 4.20, go-cmp 0.6, react-native-svg 15.15: one copy of a file per
    supported release (or build tag) deleted together, one new file holding the latest copy. Each
    copy's class went there, whichever of the two the new file is said to continue."""
    old, latest, merged = "v77/ShadeTouchMode.kt", "latest/ShadeTouchMode.kt", "main/ShadeTouchMode.kt"
    before = {old: VERSIONED_OLD, latest: VERSIONED_LATEST}
    after = {merged: VERSIONED_LATEST}
    for source, path in ((VERSIONED_OLD, old), (VERSIONED_LATEST, latest)):
        for name in (b"class ShadeTouchModeImpl(", b"class ShadeTouchModeProxy("):
            first = _lines(source, name)
            got = _reanchor(before, after, path, first, first + 4)
            assert got.health != "orphaned" and got.anchor.file == merged, (path, name, got)
            assert got.anchor.line_start == _lines(VERSIONED_LATEST, name)


def test_a_module_deleted_with_a_copy_of_a_class_renamed_elsewhere_is_no_merge():
    """Most of the deleted file must have gone into the new one: a larger file deleted, one of
    its classes a variant of a class whose file was renamed in the same change, leaves that
    class's thread orphaned (a twin that was already there), however much of the new file it held."""
    others = b"".join(b"\ninternal fun helper%d(items: List<Int>, key: Int): Int {\n    var total = %d\n"
                      b"    for (item in items) total += item * key * %d\n    return total\n}\n" % (i, i, i + 2)
                      for i in range(12))
    module = VERSIONED_OLD + others
    before = {"Shade.kt": module, "latest/ShadeTouchMode.kt": VERSIONED_LATEST}
    after = {"main/ShadeTouchMode.kt": VERSIONED_LATEST}
    first = _lines(module, b"class ShadeTouchModeImpl(")
    got = _reanchor(before, after, "Shade.kt", first, first + 4)
    assert got.health == "orphaned", got


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=0, max_value=14))
def test_a_deleted_variant_follows_into_the_merged_file_only_while_most_of_its_file_went_there(extra):
    """Property: a deleted copy of a file, grown by `extra` functions of its own, follows its
    class into the new file the other copy became exactly while at least half of its distinct
    rows are there (and it holds half of the new file's rows, which it always does here)."""
    others = b"".join(b"\ninternal fun helper%d(items: List<Int>, key: Int): Int {\n    var total = %d\n"
                      b"    for (item in items) total += item * key * %d\n    return total\n}\n" % (i, i, i + 2)
                      for i in range(extra))
    module = VERSIONED_OLD + others
    before = {"v77/ShadeTouchMode.kt": module, "latest/ShadeTouchMode.kt": VERSIONED_LATEST}
    after = {"main/ShadeTouchMode.kt": VERSIONED_LATEST}
    first = _lines(module, b"class ShadeTouchModeImpl(")
    got = _reanchor(before, after, "v77/ShadeTouchMode.kt", first, first + 4)
    rows = {r.strip() for r in module.decode().split("\n") if r.strip()}
    merged = {r.strip() for r in VERSIONED_LATEST.decode().split("\n") if r.strip()}
    if len(rows & merged) >= 0.5 * len(rows):
        assert got.health != "orphaned" and got.anchor.file == "main/ShadeTouchMode.kt", (extra, got)
    else:
        assert got.health == "orphaned", (extra, got)
