"""An anchor carried through an edit elsewhere in its file is exactly what the cascade would
have made of it: same rows, same record, same health and method."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limpet.anchoring import _reanchor
from limpet.anchoring._anchor import create_anchor
from limpet.anchoring._carry import carried
from limpet.anchoring._fileview import file_view
from limpet.anchoring._reanchor import reanchor

HERE = Path(__file__).parent
SYMBOLS = HERE / "fixtures" / "symbols"
FILES = {name: (SYMBOLS / name).read_bytes()
         for name in ("python.py", "java.java", "javascript.js", "go.go", "rust.rs", "cpp.cpp", "ruby.rb",
                      "typescript.ts", "kotlin.kt", "markdown.md")}
FILES["fileview.py"] = (HERE.parents[1] / "anchoring" / "_fileview.py").read_bytes()  # real code, 350 lines

NEW_ROWS = st.sampled_from(["", "# note", "// note", "    x = 1", "def added():", "    return 0", "class Added:",
                            "function added() {", "}", "end", "fn added() {}", "  "])


@contextlib.contextmanager
def _cascade_only():
    kept = _reanchor.carried
    _reanchor.carried = lambda anchor, view: None
    try:
        yield
    finally:
        _reanchor.carried = kept


def _anchors(name: str, source: bytes, ranges: list[tuple[int, int]]):
    view = file_view(name, source)
    spans = {(sv.first, sv.last) for sv in view.symbols}
    spans |= {tuple(sorted((a % view.line_count, b % view.line_count))) for a, b in ranges}
    return [create_anchor(name, source, first + 1, last + 1) for first, last in sorted(spans)]


def _edited(source: bytes, at: int, removed: int, added: list[bytes]) -> bytes:
    rows = source.split(b"\n")
    at = at % (len(rows) + 1)
    return b"\n".join([*rows[:at], *added, *rows[at + removed:]])


@settings(max_examples=int(os.environ.get("CARRY_EXAMPLES", "200")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(FILES)), at=st.integers(0, 400), removed=st.integers(0, 3),
       added=st.lists(NEW_ROWS.map(str.encode), max_size=4), copied=st.lists(st.integers(0, 400), max_size=2),
       ranges=st.lists(st.tuples(st.integers(0, 400), st.integers(0, 400)), max_size=4))
def test_a_carried_anchor_is_what_the_cascade_finds(name, at, removed, added, copied, ranges):
    source = FILES[name]
    rows = source.split(b"\n")
    added = [*added, *(rows[i % len(rows)] for i in copied)]  # a copy of a row: a twin, a moved line
    new = _edited(source, at, removed, added)
    for anchor in _anchors(name, source, ranges):
        fast = reanchor(anchor, new)
        with _cascade_only():
            slow = reanchor(anchor, new)
        assert fast == slow, anchor


def test_anchors_below_an_inserted_line_are_carried():
    source = FILES["fileview.py"]
    anchors = _anchors("fileview.py", source, [])
    new = b"# a new first line\n" + source
    view = file_view("fileview.py", new, previous=anchors[0].content_hash)
    moved = [carried(a, view) for a in anchors]
    assert sum(m is not None for m in moved) >= len(anchors) - 3  # all but those near the edit
    for anchor, m in zip(anchors, moved, strict=True):
        if m is not None:
            assert m.line_start == anchor.line_start + 1 and m.content_hash == view.hash
            with _cascade_only():
                assert reanchor(anchor, new).anchor == m


def test_an_edit_inside_the_context_or_the_outline_is_left_to_the_cascade():
    source = FILES["fileview.py"]
    anchors = _anchors("fileview.py", source, [])
    last = anchors[-1]
    rows = source.split(b"\n")
    # a line changed just above the last symbol: inside its context rows
    near = b"\n".join([*rows[:last.line_start - 2], b"# changed", *rows[last.line_start - 1:]])
    assert carried(last, file_view("fileview.py", near, previous=last.content_hash)) is None
    # a new function at the top: the file's outline changed (twin counts, sibling filters)
    outline = b"def brand_new():\n    return 1\n\n\n" + source
    view = file_view("fileview.py", outline, previous=last.content_hash)
    assert all(carried(a, view) is None for a in anchors)
