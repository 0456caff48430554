"""Positions between two engine passes: ranges carried through the editor's edits.

The engine re-anchors a document's threads against its text (limpet.server.core's
`threads_on_text`) a moment after typing pauses. Between two passes each thread's range is
carried through the edits the editor reports (didChange with ranges), the way an editor
keeps its own marks: text inserted or deleted before a range moves it, text after it leaves
it alone, an edit inside it stretches or shrinks it. That is what the engine concludes for
every thread the edit did not touch (its "shifted" step), so diagnostics follow the text at
once; threads the edit touched are re-checked by the next pass.

All positions are the client's (0-based lines, characters in the negotiated encoding).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import msgspec

__all__ = ["Edit", "Pos", "Span", "disk_line_of", "edit_of", "shift_span"]

_BREAK = re.compile(r"\r\n|\r|\n")


class Pos(msgspec.Struct, frozen=True, order=True):
    line: int
    character: int


class Span(msgspec.Struct, frozen=True):
    start: Pos
    end: Pos


class Edit(msgspec.Struct, frozen=True):
    """`start`..`end` (old text) replaced by text ending at `new_end` (new text)."""

    start: Pos
    end: Pos
    new_end: Pos


def edit_of(start: Pos, end: Pos, text: str, units: Callable[[str], int]) -> Edit:
    """The edit an incremental change describes; `units` counts a string in client units."""
    pieces = _BREAK.split(text)
    if len(pieces) == 1:
        return Edit(start, end, Pos(start.line, start.character + units(text)))
    return Edit(start, end, Pos(start.line + len(pieces) - 1, units(pieces[-1])))


def _after(p: Pos, edit: Edit) -> Pos:
    """`p` (at or after the old text's end) in the new text."""
    if p.line == edit.end.line:
        return Pos(edit.new_end.line, edit.new_end.character + p.character - edit.end.character)
    return Pos(p.line + edit.new_end.line - edit.end.line, p.character)


def shift_span(span: Span, edit: Edit) -> Span:
    """`span` after `edit`. Its start sticks to the text after it (a line inserted at its very
    start pushes it down), its end to the text before it (text typed right after it stays
    outside); a position inside replaced text goes to the replacement's edge."""
    s, e = span.start, span.end
    if e < edit.start or (e == edit.start and edit.end > edit.start):
        return span  # wholly before the edit
    start = s if s < edit.start else _after(s, edit) if s >= edit.end else edit.new_end
    end = e if e <= edit.start else _after(e, edit) if e >= edit.end else edit.start
    if end < start:
        end = start
    return Span(start, end)


def disk_line_of(buffer_lines: list[str], disk_lines: list[str], line: int) -> int | None:
    """The saved file's line (0-based) holding the buffer's `line`, when the unsaved edits
    lie wholly before or after it (they are one region: the common head and tail of the two
    texts map one to one); None when the line is inside what was edited."""
    head = 0
    limit = min(len(buffer_lines), len(disk_lines))
    while head < limit and buffer_lines[head] == disk_lines[head]:
        head += 1
    if line < head:
        return line
    tail = 0
    while (tail < limit - head and buffer_lines[len(buffer_lines) - 1 - tail]
           == disk_lines[len(disk_lines) - 1 - tail]):
        tail += 1
    if line >= len(buffer_lines) - tail:
        return line - len(buffer_lines) + len(disk_lines)
    return None
