"""Code excerpts for exports: the anchored lines (plus context) and the fence language.

The service hands each item the file's current bytes; a thread whose file is gone, or which
is orphaned, falls back to the text the anchor kept, so no thread exports without code.
"""

from __future__ import annotations

import re
from collections import OrderedDict

import msgspec

from limpet.anchoring import language_for
from limpet.exporters._types import ExportItem

__all__ = ["Excerpt", "LineCache", "excerpt", "fence", "fence_language", "split_lines"]

# Engine (tree-sitter pack) names that markdown renderers spell differently.
_FENCE_NAMES = {
    "commonlisp": "lisp",
    "embeddedtemplate": "erb",
    "fsharp_signature": "fsharp",
    "ocaml_interface": "ocaml",
    "qmljs": "qml",
    "gomod": "go",
    "gosum": "text",
    "requirements": "text",
    "pymanifest": "text",
}


def fence_language(path: str, source: bytes | None = None) -> str:
    """The info string for a fenced block of `path`'s code ("text" when unknown)."""
    lang = language_for(path, source or b"")  # the content decides what a .h holds
    return _FENCE_NAMES.get(lang, lang) if lang else "text"


_BACKTICKS = re.compile(r"`+")


def fence(text: str, language: str) -> str:
    """A fenced block that survives backtick runs inside the code (CommonMark rule)."""
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    ticks = "`" * max(3, longest + 1)
    body = text + "\n" if text else ""  # always add: a trailing blank line is code too
    return f"{ticks}{language}\n{body}{ticks}\n"


def split_lines(source: bytes) -> list[str]:
    """Lines as the anchor engine counts them: split on \\n only, no phantom last line."""
    text = source.decode("utf-8", "replace")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


class LineCache:
    """Split each file once even when many threads in a row point into it."""

    def __init__(self, size: int = 16) -> None:
        self._size = size
        self._entries: OrderedDict[tuple[str, str], tuple[bytes, list[str]]] = OrderedDict()

    def lines(self, workspace: str, file: str, source: bytes) -> list[str]:
        key = (workspace, file)
        hit = self._entries.get(key)
        if hit is not None and (hit[0] is source or hit[0] == source):
            self._entries.move_to_end(key)
            return hit[1]
        lines = split_lines(source)
        self._entries[key] = (source, lines)
        if len(self._entries) > self._size:
            self._entries.popitem(last=False)
        return lines


class Excerpt(msgspec.Struct, frozen=True):
    text: str
    start: int  # 1-based first line shown
    end: int  # 1-based last line shown
    origin: str  # "source" (the file's current bytes) or "anchor" (the anchor's kept text)


def excerpt(item: ExportItem, context: int, cache: LineCache | None = None) -> Excerpt:
    """The anchored lines with `context` lines either side, clipped to the file."""
    thread = item.thread
    a = thread.anchor
    if item.source is not None and thread.health != "orphaned":
        lines = (cache or LineCache(1)).lines(item.workspace, a.file, item.source)
        if 1 <= a.line_start <= a.line_end <= len(lines):
            start = max(1, a.line_start - context)
            end = min(len(lines), a.line_end + context)
            return Excerpt("\n".join(lines[start - 1 : end]), start, end, "source")
    return Excerpt(a.selected_text, a.line_start, a.line_end, "anchor")
