"""The JSON export: every thread at full fidelity, under a versioned header.

Layout (schema "limpet.export/1", see docs/export-formats.md): one object with sorted keys,
`threads` last, one thread entry per line so a diff of two exports reads line by line:

    {"exported_at":null,"generator":"limpet","schema":"limpet.export/1","thread_schema":1,"threads":[
    {"thread":{...Thread.to_record()...},"workspace":"repo"},
    ...
    ]}

It is written as a stream (a million threads never sit in memory at once) and read back by
`read_json_export`, which is what `limpet import` uses.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any, BinaryIO

import msgspec
import orjson

from limpet.exporters._base import Exporter
from limpet.exporters._sink import ProgressTicker, checked, open_sink
from limpet.exporters._types import ExportItem, ExportOptions, ExportResult
from limpet.model import (
    SCHEMA_VERSION,
    InvalidArgument,
    Thread,
    is_thread_id,
)

__all__ = ["EXPORT_SCHEMA", "JsonExporter", "read_json_export"]

EXPORT_SCHEMA = "limpet.export/1"
_SCHEMA_PREFIX = "limpet.export/"
_MAJOR = 1
_DUMP = orjson.OPT_SORT_KEYS


def _header(options: ExportOptions) -> dict[str, Any]:
    return {
        "exported_at": options.exported_at,
        "generator": "limpet",
        "schema": EXPORT_SCHEMA,
        "thread_schema": SCHEMA_VERSION,
    }


def _entry(item: ExportItem) -> bytes:
    try:
        entry = {"thread": item.thread.to_record(), "workspace": item.workspace}
        if item.origin is not None:  # where the rows come from; older exports have neither key
            entry.update(repository=item.origin.repository, commit=item.origin.commit)
        return orjson.dumps(entry, option=_DUMP)
    except orjson.JSONEncodeError as exc:
        raise InvalidArgument(
            f"Thread {item.thread.id} holds a value JSON cannot represent: {exc}",
            field="items",
            details={"thread_id": item.thread.id},
        ) from exc


class JsonExporter(Exporter):
    name = "json"
    media_type = "application/json"
    extension = ".json"
    reads_source = False

    def write_items(
        self, items: Iterable[ExportItem], out: BinaryIO | str | os.PathLike, options: ExportOptions,
        ticker: ProgressTicker,
    ) -> ExportResult:
        with open_sink(out, allow_stdout=True) as (sink, path):
            head = orjson.dumps(_header(options), option=_DUMP)
            sink.write(head[:-1] + b',"threads":[')  # reopen the header object for the array
            for item in items:
                sink.write(b"\n" if ticker.count == 0 else b",\n")
                sink.write(_entry(checked(item)))
                ticker.tick()
            sink.write(b"\n]}\n")
        return ExportResult(self.name, ticker.count, sink.count, path, self.media_type)


# -- reading back ------------------------------------------------------------------------


def _bad(message: str, **details: Any) -> InvalidArgument:
    return InvalidArgument(
        message,
        field="file",
        details=details,
        suggestion="Give a file written by `limpet export --format json`.",
    )


def read_json_export(data: bytes) -> tuple[list[tuple[str, Thread]], dict[str, Any]]:
    """Parse a JSON export: ([(workspace, thread), ...], header without `threads`)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # a BOM added by an editor is harmless
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise _bad(f"Not valid JSON: {exc}") from exc
    if not isinstance(doc, dict):
        raise _bad("A limpet export is a JSON object")
    _check_header(doc)
    entries = doc.get("threads")
    if not isinstance(entries, list):
        raise _bad("The export has no `threads` array")
    header = {k: v for k, v in doc.items() if k != "threads"}
    out: list[tuple[str, Thread]] = []
    seen: set[tuple[str, str]] = set()
    for index, entry in enumerate(entries):
        workspace, thread = _read_entry(entry, index)
        if (workspace, thread.id) in seen:
            raise _bad(f"Thread {thread.id} appears twice in workspace {workspace!r}", index=index)
        seen.add((workspace, thread.id))
        out.append((workspace, thread))
    return out, header


def _check_header(doc: dict[str, Any]) -> None:
    schema = doc.get("schema")
    if not isinstance(schema, str) or not schema.startswith(_SCHEMA_PREFIX):
        raise _bad(f"Not a limpet export (schema {schema!r}, expected {EXPORT_SCHEMA!r})")
    major = schema[len(_SCHEMA_PREFIX) :].split(".", 1)[0]
    if major != str(_MAJOR):
        raise _bad(
            f"Export schema {schema!r} is not supported by this limpet (reads {EXPORT_SCHEMA!r})",
            schema=schema,
        )
    ts = doc.get("thread_schema", SCHEMA_VERSION)
    if not isinstance(ts, int) or isinstance(ts, bool) or ts > SCHEMA_VERSION:
        raise _bad(f"Thread schema {ts!r} is newer than this limpet's ({SCHEMA_VERSION})", thread_schema=ts)


def _read_entry(entry: object, index: int) -> tuple[str, Thread]:
    if not isinstance(entry, dict) or not isinstance(entry.get("thread"), dict):
        raise _bad(f"threads[{index}] is not a {{workspace, thread}} object", index=index)
    workspace = entry.get("workspace")
    if not isinstance(workspace, str) or not workspace:
        raise _bad(f"threads[{index}] has no workspace", index=index)
    rec = entry["thread"]
    _check_record(rec, index)
    try:
        thread = Thread.from_record(rec)  # the types are the checks: the vocabulary, shapes, bounds
    except msgspec.ValidationError as exc:
        message, _, where = str(exc).rpartition(" - at `$")
        where = where.rstrip("`").lstrip(".")
        text = f"{where}: {message}" if message and where else str(exc)
        raise _bad(f"Thread {rec.get('id')}: {text}", index=index, thread_id=rec.get("id")) from None
    return workspace, thread


def _check_record(rec: dict[str, Any], index: int) -> None:
    """The checks a thread's types do not make (from_record makes those): its id, the record's
    schema, the anchor's line range."""
    tid = rec.get("id")
    where = {"index": index, "thread_id": tid}
    if not is_thread_id(tid):
        raise _bad(f"threads[{index}] has an invalid thread id {tid!r}", **where)
    version = rec.get("schema", SCHEMA_VERSION)
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise _bad(f"Thread {tid} uses record schema {version!r}, newer than {SCHEMA_VERSION}", **where)
    anchor = rec.get("anchor")
    if not isinstance(anchor, dict) or not isinstance(anchor.get("file"), str):
        raise _bad(f"Thread {tid} has no anchor file", **where)
    l1, l2 = anchor.get("line_start"), anchor.get("line_end")
    if not (_is_int(l1) and _is_int(l2) and 1 <= l1 <= l2):
        raise _bad(f"Thread {tid} has an invalid line range {l1!r}-{l2!r}", **where)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
