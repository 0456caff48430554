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
from operator import attrgetter
from typing import Any, BinaryIO

import msgspec
import orjson

from limpet.exporters._base import Exporter
from limpet.exporters._excerpt import Excerpt, LineCache, excerpt, fence, fence_language
from limpet.exporters._pairs import code_changed, normalized, pair_code
from limpet.exporters._provenance import AI_META_KEYS, Languages, ai_meta_value, split_of, thread_field
from limpet.exporters._secrets import Redactor
from limpet.exporters._sink import ProgressTicker, checked, open_sink
from limpet.exporters._types import ExportItem, ExportOptions, ExportResult
from limpet.model import Thread, blake2b

__all__ = ["JsonlExporter", "code_changed", "comment_record", "review_pair_record"]


def _completion(thread: Thread) -> str:
    # Seed 004 completions read "TODO: Add rate limiting": the tag leads unless the body has it.
    body = thread.body
    if body[: len(thread.tag) + 1].upper() == f"{thread.tag}:":
        return body
    return f"{thread.tag}: {body}"


# A record's metadata: columns of the dataset's rows, in the order JSONL has kept since seed
# 004, then the number of replies. A thread field is read by the path limpet.model.Thread
# declares, as Parquet reads it; the split, the language and ai_meta by their one definition
# (exporters/_provenance.py).
_METADATA = ("thread_id", "workspace", "repository", "commit", "split", "file", "language", "line_start",
             "line_end", "symbol", "symbol_kind", "tag", "status", "health", "author", "author_type", "ai_meta",
             "created_at", "resolved_at")
_OF_ITEM = ("workspace", "repository", "commit")  # ExportItem's own
_SET_BELOW = ("split", "language", "ai_meta")
_READ = attrgetter(*(name if name in _OF_ITEM else "workspace" if name in _SET_BELOW  # a stand-in, keeping the place
                     else f"thread.{thread_field(name).path}" for name in _METADATA))  # every key in one call


def _ai_meta(thread: Thread, red: Redactor | None = None) -> dict[str, Any]:
    if thread.ai_meta is None:  # most threads
        return dict.fromkeys(AI_META_KEYS)
    meta = {key: ai_meta_value(thread.ai_meta, key) for key in AI_META_KEYS}
    meta["reasoning"] = _keep(meta["reasoning"], red=red)  # type: ignore[arg-type]
    return meta


def _metadata(item: ExportItem, options: ExportOptions, red: Redactor | None = None,
              languages: Languages | None = None) -> dict[str, Any]:
    meta = dict(zip(_METADATA, _READ(item)))  # noqa: B905 (as many values as names)
    meta["split"] = split_of(meta["repository"], options.split_shares)  # a key set again keeps its place
    meta["language"] = (languages or Languages()).of(meta["file"], item.source)  # limpet's name; null: unknown
    meta["ai_meta"] = _ai_meta(item.thread, red)
    meta["reply_count"] = max(len(item.thread.comments) - 1, 0)
    return meta


def _as_written(item: ExportItem, context: int, cache: LineCache | None) -> Excerpt:
    """The code the comment was written against: the current file's lines (with context) while
    they still hold the creation snapshot's code, else the snapshot itself (no context)."""
    ex = excerpt(item, context, cache)
    snap = item.thread.snapshots.get("created")
    if snap is None:
        return ex
    a = item.thread.anchor
    if ex.origin == "source":
        lines = ex.text.split("\n")
        anchored = "\n".join(lines[a.line_start - ex.start: a.line_end - ex.start + 1])
        if normalized(anchored) == normalized(snap.text):
            return ex
    return Excerpt(snap.text, snap.line_start, snap.line_end, "snapshot")


def _keep(text: str | None, file: str = "comment.txt", red: Redactor | None = None) -> str | None:
    return red.text(text, file) if red is not None else text


def comment_record(
    item: ExportItem, options: ExportOptions, cache: LineCache | None = None, red: Redactor | None = None,
    languages: Languages | None = None,
) -> dict[str, Any]:
    a = item.thread.anchor
    language = fence_language(a.file, item.source)
    context = options.context_lines if options.include_source_context else 0
    ex = _as_written(item, context, cache)
    if ex.origin == "snapshot":  # the lines it was written on, as they were
        snap = item.thread.snapshots["created"]
        a = msgspec.structs.replace(a, file=snap.file, line_start=snap.line_start, line_end=snap.line_end)
    where = f"lines {a.line_start}-{a.line_end}" if a.line_end != a.line_start else f"line {a.line_start}"
    symbol = f", in {a.symbol}" if a.symbol else ""
    code = _keep(ex.text, a.file, red) or ""
    prompt = f"Analyze this code:\nFile: {a.file} ({where}{symbol})\n{fence(code, language)}"
    meta = _metadata(item, options, red, languages)
    meta.update(context_lines=context, context_start=ex.start, context_end=ex.end, code_origin=ex.origin)
    return {"prompt": prompt, "completion": _keep(_completion(item.thread), red=red), "metadata": meta}


def review_pair_record(
    item: ExportItem, options: ExportOptions, cache: LineCache | None = None, red: Redactor | None = None,
    languages: Languages | None = None,
) -> dict[str, Any]:
    thread = item.thread
    language = fence_language(thread.anchor.file, item.source)
    before, after, label = pair_code(item, options, cache)
    if red is not None:
        before = {**before, "code": red.text(before["code"], before["file"])}
        after = {**after, "code": red.text(after["code"], after["file"])}
    comments = [
        {
            "id": c.id,
            "author": c.author,
            "author_type": c.author_type,
            "body": _keep(c.body, red=red),
            "created_at": c.created_at,
        }
        for c in thread.comments
    ]
    lines = "\n".join(f"{c['author']} ({c['author_type']}): {c['body']}" for c in comments)
    prompt = (
        f"Code in {before['file']} (lines {before['line_start']}-{before['line_end']}) "
        f"when the review comment was made:\n{fence(before['code'] or '', language)}\n"
        f"Review thread [{thread.tag}]:\n{lines}\n"
    )
    decision = thread.decision.to_dict() if thread.decision else None
    if decision is not None and red is not None:
        decision["summary"] = red.text(decision["summary"])
    return {
        "prompt": prompt,
        "completion": after["code"] or "",
        "label": label,
        "before": before,
        "thread": comments,
        "after": after,
        "decision": decision,
        "metadata": _metadata(item, options, red, languages),
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
        red = None if options.keep_secrets else Redactor()
        keep = _pair_filter(options) if pairs else None
        cache, languages = LineCache(), Languages()
        written = 0
        with open_sink(out, allow_stdout=True) as (sink, path):
            for item in items:
                record = build(checked(item), options, cache, red, languages)
                if keep is None or keep(record):
                    sink.write(orjson.dumps(record, option=orjson.OPT_APPEND_NEWLINE))
                    written += 1
                ticker.tick()
        return ExportResult(self.name, written, sink.count, path, self.media_type,
                            secrets=dict(red.counts) if red is not None else {})


def _pair_filter(options: ExportOptions):
    """Which pairs are written: changed code only (unless all_pairs), of the chosen labels, at
    most max_chars of prompt and completion, and each exact duplicate (same prompt and
    completion: a thread copied to two places, a comment pasted twice) once."""
    seen: set[bytes] = set()

    def keep(record: dict[str, Any]) -> bool:
        if not options.all_pairs and not code_changed(record):
            return False
        if options.labels and record["label"] not in options.labels:
            return False
        size = len(record["prompt"]) + len(record["completion"])
        if options.max_chars is not None and size > options.max_chars:
            return False
        digest = blake2b(f"{record['prompt']}\0{record['completion']}".encode(), digest_size=16).digest()
        if digest in seen:
            return False
        seen.add(digest)
        return True

    return keep
