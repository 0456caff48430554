"""The Markdown digest: what people read. Grouped by file then line; orphans apart.

Each thread renders to a block as it arrives (the file's bytes are dropped at once); blocks
are sorted at the end, so memory holds the digest text, never the sources.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from typing import BinaryIO, NamedTuple

from limpet.exporters._base import Exporter
from limpet.exporters._excerpt import LineCache, excerpt, fence, fence_language
from limpet.exporters._sink import ProgressTicker, checked, open_sink
from limpet.exporters._types import ExportItem, ExportOptions, ExportResult
from limpet.model import Thread

__all__ = ["MarkdownExporter", "render_digest"]

MAX_EXCERPT_LINES = 40  # a digest shows the code, not whole classes


def code_span(text: str) -> str:
    if "`" not in text:
        return f"`{text}`"
    return f"`` {text} ``"


def _quote(text: str) -> str:
    return "\n".join(f"> {line}".rstrip() for line in text.split("\n"))


def _lines(a_start: int, a_end: int) -> str:
    return f"{a_start}" if a_start == a_end else f"{a_start}-{a_end}"


def _heading(item: ExportItem) -> str:
    t, a = item.thread, item.thread.anchor
    parts = [code_span(f"{a.file}:{_lines(a.line_start, a.line_end)}"), f"**{t.tag}**", t.status, t.health]
    if a.symbol:
        parts.append(code_span(a.symbol))
    parts.append(code_span(t.id))
    return "### " + " · ".join(parts)


def _code(item: ExportItem, cache: LineCache) -> str:
    ex = excerpt(item, 0, cache)
    lines = ex.text.split("\n")
    note = ""
    if len(lines) > MAX_EXCERPT_LINES:
        note = f"\n_… {len(lines) - MAX_EXCERPT_LINES} more lines_\n"
        lines = lines[:MAX_EXCERPT_LINES]
    label = "" if ex.origin == "source" else "_Last known code (the anchor's saved text):_\n\n"
    return label + fence("\n".join(lines), fence_language(item.thread.anchor.file, item.source)) + note


def _comments(thread: Thread) -> str:
    out = []
    for c in thread.comments:
        edited = f" · edited {c.edited_at}" if c.edited_at else ""
        out.append(f"> **{c.author}** ({c.author_type}) · {c.created_at}{edited}\n>\n{_quote(c.body)}\n")
    return "\n".join(out)


def _ai(thread: Thread) -> str:
    meta = thread.ai_meta
    if not isinstance(meta, dict) or not meta:
        return ""
    bits = [str(meta["model"])] if meta.get("model") else []
    if isinstance(meta.get("confidence"), int | float):
        bits.append(f"confidence {meta['confidence']:g}")
    if meta.get("reasoning"):
        bits.append(f"reasoning: {meta['reasoning']}")
    return f"_AI: {'; '.join(bits)}_\n" if bits else ""


def _decision(thread: Thread) -> str:
    d = thread.decision
    if d is None:
        return ""
    label = "Decision" if thread.status != "open" else "Earlier decision (reopened since)"
    summary = f": {d.summary}" if d.summary else ""
    return f"**{label}** — {d.status} by {d.decider} on {d.decided_at}{summary}\n"


class Block(NamedTuple):
    key: tuple  # (orphaned?, workspace, file, line_start, line_end, id): the digest's order
    workspace: str
    file: str
    heading: str
    body: str
    status: str
    health: str


def render_thread(item: ExportItem, cache: LineCache) -> Block:
    t, a = item.thread, item.thread.anchor
    parts = ["", _code(item, cache), _comments(t)]
    tail = _ai(t) + _decision(t)
    if tail:
        parts.append(tail)
    key = (t.health == "orphaned", item.workspace, a.file, a.line_start, a.line_end, t.id)
    return Block(key, item.workspace, a.file, _heading(item), "\n".join(parts), t.status, t.health)


def _summary(blocks: list[Block]) -> str:
    status = Counter(b.status for b in blocks)
    health = Counter(b.health for b in blocks)
    n, files = len(blocks), len({(b.workspace, b.file) for b in blocks})
    by_status = " · ".join(f"{k} {status[k]}" for k in ("open", "resolved", "wontfix"))
    by_health = " · ".join(f"{k} {health[k]}" for k in ("anchored", "drifted", "orphaned"))
    noun = "thread" if n == 1 else "threads"
    return f"**{n} {noun}** in {files} {'file' if files == 1 else 'files'} — {by_status} — {by_health}\n"


def render_digest(blocks: list[Block], exported_at: str | None) -> str:
    blocks = sorted(blocks, key=lambda b: b.key)
    multi = len({b.workspace for b in blocks}) > 1
    out = ["# limpet review digest\n"]
    if exported_at:
        out.append(f"_Exported at {exported_at}_\n")
    out.append(_summary(blocks) if blocks else "No threads.\n")
    current = None
    for b in blocks:
        orphan = b.key[0]
        group = ("orphans",) if orphan else (b.workspace, b.file)
        if group != current:
            current = group
            if orphan:
                out.append(
                    "## Orphaned threads\n\nThe code these threads pointed at is gone; each shows its last location.\n"
                )
            else:
                out.append(f"## {code_span(b.file)}" + (f" ({b.workspace})" if multi else "") + "\n")
        # orphans of several workspaces share one section: name the workspace on each
        out.append(b.heading + (f" · {b.workspace}" if orphan and multi else "") + "\n" + b.body)
    return "\n".join(out)


class MarkdownExporter(Exporter):
    name = "markdown"
    media_type = "text/markdown"
    extension = ".md"

    def write_items(
        self, items: Iterable[ExportItem], out: BinaryIO | str | os.PathLike, options: ExportOptions,
        ticker: ProgressTicker,
    ) -> ExportResult:
        cache = LineCache()
        blocks = []
        for item in items:
            blocks.append(render_thread(checked(item), cache))
            ticker.tick()
        data = render_digest(blocks, options.exported_at).encode("utf-8")
        with open_sink(out, allow_stdout=True) as (sink, path):
            sink.write(data)
        return ExportResult(self.name, ticker.count, sink.count, path, self.media_type)
