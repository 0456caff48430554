"""JSONL training data: one object per thread per line, stable keys (the `datasets` convention).

task "comments" (seed 004): {prompt, completion, metadata} — the anchored code with
`context_lines` around it, and the thread's first comment.
task "review-pairs": the code when the comment was made, the thread, the code when it was
resolved (or as it is now), and the decision; prompt/completion are kept so the same loader
reads both tasks. Only threads whose code changed between the two make pairs worth training
on (most threads are never acted on: their "after" repeats "before"), so only those are
written unless `all_pairs` asks for every thread. Every record of a task has the same keys
in the same order; absent values are null, never missing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any, BinaryIO

import orjson

from limpet.exporters._base import Exporter
from limpet.exporters._excerpt import LineCache, excerpt, fence, fence_language
from limpet.exporters._sink import ProgressTicker, checked, open_sink
from limpet.exporters._types import ExportItem, ExportOptions, ExportResult
from limpet.model import Thread

__all__ = ["JsonlExporter", "code_changed", "comment_record", "review_pair_record"]


def _completion(thread: Thread) -> str:
    # Seed 004 completions read "TODO: Add rate limiting": the tag leads unless the body has it.
    body = thread.body
    if body[: len(thread.tag) + 1].upper() == f"{thread.tag}:":
        return body
    return f"{thread.tag}: {body}"


def _ai_meta(thread: Thread) -> dict[str, Any]:
    meta = thread.ai_meta if isinstance(thread.ai_meta, dict) else {}
    conf = meta.get("confidence")
    ok = isinstance(conf, int | float) and not isinstance(conf, bool)
    return {
        "model": _str_or_none(meta.get("model")),
        "confidence": float(conf) if ok else None,  # always a float: one inferred type
        "reasoning": _str_or_none(meta.get("reasoning")),
    }


def _str_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def _metadata(item: ExportItem, language: str) -> dict[str, Any]:
    t, a = item.thread, item.thread.anchor
    return {
        "thread_id": t.id,
        "workspace": item.workspace,
        "file": a.file,
        "language": language,
        "line_start": a.line_start,
        "line_end": a.line_end,
        "symbol": a.symbol,
        "symbol_kind": a.symbol_kind,
        "tag": t.tag,
        "status": t.status,
        "health": t.health,
        "author": t.author,
        "author_type": t.author_type,
        "ai_meta": _ai_meta(t),
        "created_at": t.created_at,
        "resolved_at": t.resolved_at,
        "reply_count": max(len(t.comments) - 1, 0),
    }


def comment_record(
    item: ExportItem, options: ExportOptions, cache: LineCache | None = None
) -> dict[str, Any]:
    a = item.thread.anchor
    language = fence_language(a.file, item.source)
    context = options.context_lines if options.include_source_context else 0
    ex = excerpt(item, context, cache)
    where = f"lines {a.line_start}-{a.line_end}" if a.line_end != a.line_start else f"line {a.line_start}"
    symbol = f", in {a.symbol}" if a.symbol else ""
    prompt = f"Analyze this code:\nFile: {a.file} ({where}{symbol})\n{fence(ex.text, language)}"
    meta = _metadata(item, language)
    meta.update(context_lines=context, context_start=ex.start, context_end=ex.end, code_origin=ex.origin)
    return {"prompt": prompt, "completion": _completion(item.thread), "metadata": meta}


def _before(thread: Thread) -> dict[str, Any]:
    snap = thread.snapshots.get("created")
    if snap is not None:
        return _code(snap.text, snap.file, snap.line_start, snap.line_end, snap.at, "snapshot")
    a = thread.anchor  # no snapshot kept: the anchor's text is the best record of that code
    return _code(a.selected_text, a.file, a.line_start, a.line_end, thread.created_at, "anchor")


def _after(item: ExportItem, options: ExportOptions, cache: LineCache | None) -> dict[str, Any]:
    thread = item.thread
    snap = thread.snapshots.get("resolved")
    if snap is not None and thread.status != "open":
        if snap.gone:  # resolved as an orphan: its code was gone by then
            return _code(None, snap.file, snap.line_start, snap.line_end, snap.at, "gone")
        return _code(snap.text, snap.file, snap.line_start, snap.line_end, snap.at, "resolved")
    a = thread.anchor
    ex = excerpt(item, 0, cache)
    if ex.origin == "source":
        return _code(ex.text, a.file, a.line_start, a.line_end, options.exported_at, "current")
    return _code(None, a.file, a.line_start, a.line_end, None, "gone")


def _code(text: str | None, file: str, l1: int, l2: int, at: str | None, origin: str) -> dict[str, Any]:
    return {"code": text, "file": file, "line_start": l1, "line_end": l2, "at": at, "origin": origin}


def code_changed(record: dict[str, Any]) -> bool:
    """Did the code change between the pair's two snapshots? (Gone counts as changed.)"""
    before, after = record["before"]["code"], record["after"]["code"]
    return after is None or _normalized(before) != _normalized(after)


def _normalized(code: str | None) -> str:
    # Trailing whitespace and line endings are not a change anyone acted on.
    return "\n".join(line.rstrip() for line in (code or "").splitlines()).strip("\n")


def review_pair_record(
    item: ExportItem, options: ExportOptions, cache: LineCache | None = None
) -> dict[str, Any]:
    thread = item.thread
    language = fence_language(thread.anchor.file, item.source)
    before, after = _before(thread), _after(item, options, cache)
    comments = [
        {
            "id": c.id,
            "author": c.author,
            "author_type": c.author_type,
            "body": c.body,
            "created_at": c.created_at,
        }
        for c in thread.comments
    ]
    lines = "\n".join(f"{c['author']} ({c['author_type']}): {c['body']}" for c in comments)
    prompt = (
        f"Code in {before['file']} (lines {before['line_start']}-{before['line_end']}) "
        f"when the review comment was made:\n{fence(before['code'], language)}\n"
        f"Review thread [{thread.tag}]:\n{lines}\n"
    )
    decision = thread.decision.to_dict() if thread.decision else None
    return {
        "prompt": prompt,
        "completion": after["code"] or "",
        "before": before,
        "thread": comments,
        "after": after,
        "decision": decision,
        "metadata": _metadata(item, language),
    }


class JsonlExporter(Exporter):
    name = "jsonl"
    media_type = "application/x-ndjson"
    extension = ".jsonl"
    supports_tasks = True

    def write_items(
        self, items: Iterable[ExportItem], out: BinaryIO | str | os.PathLike, options: ExportOptions,
        ticker: ProgressTicker,  # threads looked at (the progress bar's unit)
    ) -> ExportResult:
        pairs = options.task == "review-pairs"
        build = review_pair_record if pairs else comment_record
        keep_all = options.all_pairs or not pairs
        cache = LineCache()
        written = 0
        with open_sink(out, allow_stdout=True) as (sink, path):
            for item in items:
                record = build(checked(item), options, cache)
                if keep_all or code_changed(record):
                    sink.write(orjson.dumps(record, option=orjson.OPT_APPEND_NEWLINE))
                    written += 1
                ticker.tick()
        return ExportResult(self.name, written, sink.count, path, self.media_type)
