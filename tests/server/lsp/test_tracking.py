"""Carrying thread ranges through the editor's edits between two engine passes, and mapping
unsaved lines to saved ones: the text a range covers is the same before and after any edit
that does not touch it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from limpet.server.lsp._tracking import Pos, Span, disk_line_of, edit_of, shift_span

LINE = st.text(alphabet="ab é😀\t", max_size=6)
LINES = st.lists(LINE, min_size=1, max_size=12)


def offset(lines: list[str], p: Pos) -> int:
    return sum(len(line) + 1 for line in lines[: p.line]) + p.character


def text_at(lines: list[str], span: Span) -> str:
    return "\n".join(lines)[offset(lines, span.start): offset(lines, span.end)]


@st.composite
def pos_in(draw, lines: list[str]) -> Pos:
    line = draw(st.integers(0, len(lines) - 1))
    return Pos(line, draw(st.integers(0, len(lines[line]))))


@st.composite
def case(draw):
    lines = draw(LINES)
    a, b = sorted([draw(pos_in(lines)), draw(pos_in(lines))])
    c, d = sorted([draw(pos_in(lines)), draw(pos_in(lines))])
    return lines, Span(a, b), (c, d), draw(st.text(alphabet="xy\n", max_size=5))


def apply(lines: list[str], start: Pos, end: Pos, new: str) -> list[str]:
    text = "\n".join(lines)
    return (text[: offset(lines, start)] + new + text[offset(lines, end):]).split("\n")


@given(case())
def test_a_range_the_edit_does_not_touch_covers_the_same_text_after_it(example):
    lines, span, (start, end), new = example
    after = shift_span(span, edit_of(start, end, new, len))
    edited = apply(lines, start, end, new)
    assert after.start <= after.end
    if end < span.start or (end == span.start and start < end) or span.end < start:
        assert text_at(edited, after) == text_at(lines, span)
    else:  # touched: still inside the new text, covering what remains of it
        assert after.end.line < len(edited) and after.end.character <= len(edited[after.end.line])


def test_a_line_inserted_at_a_ranges_start_pushes_it_down_and_text_typed_after_it_stays_out():
    span = Span(Pos(3, 0), Pos(4, 10))
    assert shift_span(span, edit_of(Pos(3, 0), Pos(3, 0), "new line\n", len)) == Span(Pos(4, 0), Pos(5, 10))
    assert shift_span(span, edit_of(Pos(4, 10), Pos(4, 10), "  # typed", len)) == span


def test_deleting_a_range_collapses_it_where_the_text_was():
    span = Span(Pos(3, 0), Pos(4, 10))
    assert shift_span(span, edit_of(Pos(2, 0), Pos(6, 0), "", len)) == Span(Pos(2, 0), Pos(2, 0))


def test_edits_count_in_the_clients_units():
    utf16 = lambda s: len(s.encode("utf-16-le")) // 2  # noqa: E731
    edit = edit_of(Pos(0, 2), Pos(0, 2), "😀😀", utf16)  # two surrogate pairs: 4 units
    assert shift_span(Span(Pos(0, 5), Pos(0, 8)), edit) == Span(Pos(0, 9), Pos(0, 12))
    assert edit_of(Pos(1, 0), Pos(1, 0), "a\r\nbc\rd", len).new_end == Pos(3, 1)  # every line break counts


@given(LINES, LINES, LINES, LINES)
def test_unsaved_lines_outside_the_edit_map_to_the_same_saved_line(head, old, new, tail):
    disk, buffer = head + old + tail, head + new + tail
    mapped = [disk_line_of(buffer, disk, line) for line in range(len(buffer))]
    for line, saved in enumerate(mapped):
        if saved is not None:
            assert disk[saved] == buffer[line]
    known = [m for m in mapped if m is not None]
    assert known == sorted(set(known))  # in order, one to one
    assert mapped.count(None) <= len(new)  # the edited region is what may not map, never more


def test_a_line_inside_the_unsaved_edit_does_not_map():
    disk = ["a", "b", "c"]
    buffer = ["a", "x", "y", "c"]
    assert [disk_line_of(buffer, disk, i) for i in range(4)] == [0, None, None, 2]
