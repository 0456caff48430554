"""Code and threads as prompts show them: numbered listings cut to a budget, thread summaries.

Huge files are never sent whole: a listing keeps the lines that matter (given as ranges)
and marks every gap, so the agent knows what it is not seeing and the line numbers it
reads are the file's real ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec

from limpet.anchoring import language_for
from limpet.model import Thread

__all__ = [
    "MAX_BODY_CHARS",
    "MAX_LINE_CHARS",
    "CodeListing",
    "ThreadView",
    "clip_text",
    "file_lines",
    "language_of",
    "listing",
    "thread_view",
]

MAX_LINE_CHARS = 300  # a minified line is cut, not sent whole
MAX_BODY_CHARS = 600
_BACKTICKS = re.compile(r"`{3,}")


class CodeListing(msgspec.Struct, frozen=True):
    language: str  # fence info string ("" when unknown)
    fence: str  # longer than any backtick run inside, so the code cannot close it
    text: str  # "  12 | code" lines, gaps marked
    first_line: int
    last_line: int
    shown_lines: int
    total_lines: int

    @property
    def truncated(self) -> bool:
        return self.shown_lines < self.last_line - self.first_line + 1


class ThreadView(msgspec.Struct, frozen=True):
    id: str
    lines: str  # "line 14" or "lines 14-21"
    symbol: str | None
    tag: str
    status: str
    health: str
    author: str
    author_type: str
    body: str
    replies: int


def language_of(path: str, source: bytes = b"") -> str:
    """The file's language ("" when unknown); its content decides what a .h holds."""
    return language_for(path, source) or ""


def file_lines(source: bytes) -> list[str]:
    """Lines as limpet numbers them (split on LF only; a final newline ends the last line)."""
    text = source.decode("utf-8", "replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def listing(lines: list[str], language: str, keep: Iterable[tuple[int, int]] | None = None,
            budget: int = 400, first: int | None = None, last: int | None = None,
            number_from: int = 1) -> CodeListing:
    """Lines first..last, numbered (lines[0] is line `number_from`). When more than `budget`
    lines, keep the `keep` ranges first, then fill from the top; gaps become marker lines."""
    first = max(first or number_from, number_from)
    last = min(last or len(lines) + number_from - 1, len(lines) + number_from - 1)
    shown = _choose(first, last, list(keep or ()), budget)
    width = len(str(max(last, 1)))
    out: list[str] = []
    previous = first - 1
    for n in sorted(shown):
        if n > previous + 1:
            out.append(_gap(previous + 1, n - 1, width))
        out.append(f"{n:>{width}} | {_clip(lines[n - number_from])}".rstrip())
        previous = n
    if previous < last:
        out.append(_gap(previous + 1, last, width))
    text = "\n".join(out)
    runs = [len(m.group(0)) for m in _BACKTICKS.finditer(text)]
    return CodeListing(language, "`" * max([3, *(r + 1 for r in runs)]), text, first, last, len(shown),
                       len(lines))


def _choose(first: int, last: int, keep: list[tuple[int, int]], budget: int) -> set[int]:
    if last - first + 1 <= budget:
        return set(range(first, last + 1))
    chosen: set[int] = set()
    for start, end in keep:  # relevant code first, in the order given
        for n in range(max(start, first), min(end, last) + 1):
            if len(chosen) >= budget:
                return chosen
            chosen.add(n)
    n = first
    while len(chosen) < budget and n <= last:
        chosen.add(n)
        n += 1
    return chosen


def _gap(start: int, end: int, width: int) -> str:
    count = end - start + 1
    what = f"line {start}" if count == 1 else f"lines {start}-{end}"
    return f"{'':>{width}} | ... [{what} omitted: too long for one prompt] ..."


def _clip(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return line
    return f"{line[:MAX_LINE_CHARS]} ... [+{len(line) - MAX_LINE_CHARS} chars]"


def clip_text(text: str, limit: int = MAX_BODY_CHARS) -> str:
    return text if len(text) <= limit else f"{text[:limit]} ... [+{len(text) - limit} chars]"


def thread_view(t: Thread) -> ThreadView:
    a = t.anchor
    lines = f"line {a.line_start}" if a.line_start == a.line_end else f"lines {a.line_start}-{a.line_end}"
    return ThreadView(t.id, lines, a.symbol, t.tag, t.status, t.health, t.author, t.author_type,
                      clip_text(t.body), max(len(t.comments) - 1, 0))
