"""What the server knows of each open document: its threads, placed on the editor's text.

`marks` are the document's threads with their ranges in the client's positions. An engine
pass (the service re-anchoring the threads against the document's text) replaces them;
between passes they are carried through the editor's edits (see _tracking). A pass is
scheduled after typing pauses (`debounce`), at once when the document opens or is saved,
or when threads or files change (this server's writes, the CLI, an agent, git).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import msgspec

from limpet.model import Thread
from limpet.server.lsp._tracking import Edit, Pos, Span, shift_span

__all__ = ["Mark", "OpenDocument", "marks_for", "split_lines"]

_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The document's lines as LSP counts them (\\n, \\r\\n and \\r all end a line)."""
    return _BREAK.split(text)


class Mark(msgspec.Struct, frozen=True):
    thread: Thread
    span: Span

    @property
    def lines(self) -> range:
        return range(self.span.start.line, self.span.end.line + 1)


def _span_of(t: Thread, lines: list[str], units: Callable[[str], int]) -> Span:
    a = t.anchor
    last_line = len(lines) - 1
    first = min(max(a.line_start - 1, 0), last_line)
    last = min(max(a.line_end - 1, first), last_line)
    if t.health == "orphaned":
        last = first  # a stale place: its first line only
    start = units(lines[first][: a.start_character]) if a.start_character else 0
    if a.end_character and last == a.line_end - 1 and t.health != "orphaned":
        end = units(lines[last][: a.end_character])
    else:  # whole lines (the usual thread): to the end of the last one
        end = units(lines[last])
    return Span(Pos(first, start), Pos(last, max(end, start) if first == last else end))


def marks_for(threads: list[Thread], text: str, units: Callable[[str], int]) -> list[Mark]:
    lines = split_lines(text)
    return [Mark(t, _span_of(t, lines, units)) for t in threads]


class OpenDocument:
    """A document the editor has open: its marks as the last engine pass placed them and the
    edits since moved them, and the state of its next pass (a plain class: all of it changes)."""

    def __init__(self, uri: str, rel: str, version: int | None) -> None:
        self.uri = uri
        self.rel = rel  # workspace-relative path
        self.version = version
        self.marks: list[Mark] = []
        self.placed_version: int | None = None  # the version the last engine pass placed the marks on
        self.timer: asyncio.TimerHandle | None = None
        self.running = False  # an engine pass is under way
        self.again = False  # threads changed while it ran: run another when it ends

    def shift(self, edit: Edit) -> None:
        self.marks = [Mark(m.thread, shift_span(m.span, edit)) for m in self.marks]

    def at_lines(self, first: int, last: int) -> list[Mark]:
        """Marks whose lines meet first..last (0-based, inclusive)."""
        return [m for m in self.marks if m.span.start.line <= last and first <= m.span.end.line]
