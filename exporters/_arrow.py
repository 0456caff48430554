"""The Parquet schema ("limpet.parquet/1") and the columnar builder for one row group.

Columns are built column-at-a-time from a list of items (list comprehensions, no per-row
dicts), and timestamps are parsed by Arrow's vectorized cast: this is what keeps the
exporter within a small factor of a hand-written pyarrow write.
"""

from __future__ import annotations

import operator
import types
import typing
from datetime import UTC, datetime
from itertools import accumulate
from typing import Any

import msgspec
import pyarrow as pa

from limpet.exporters._provenance import AiMeta, Languages, ai_meta_value, split_of, thread_field
from limpet.exporters._secrets import Redactor
from limpet.exporters._types import DEFAULT_SHARES, ExportItem
from limpet.model import PLACE, Comment, Decision, InvalidArgument, Record

__all__ = ["PARQUET_SCHEMA", "PARQUET_SCHEMA_ID", "build_batch"]

PARQUET_SCHEMA_ID = "limpet.parquet/2"  # /2 added repository, commit, language, split (columns only added)
TS = pa.timestamp("us", tz="UTC")
DICT = pa.dictionary(pa.int32(), pa.string())


def _arrow(tp: Any, name: str, top: bool) -> tuple[pa.DataType, bool]:
    """The Arrow type of a model field and whether it may be null, read off its Python type:
    text, a timestamp (a field named `*_at`: UTC ISO 8601 by contract), int32, float64, a
    vocabulary word (dictionary-encoded as a column, plain text inside a struct), a record (a
    struct of its fields), a tuple of records (a list of them)."""
    args = typing.get_args(tp)
    if types.NoneType in args:
        (inner,) = (a for a in args if a is not types.NoneType)
        return _arrow(inner, name, top)[0], True
    if typing.get_origin(tp) is typing.Literal:
        return (DICT if top else pa.string()), False
    if typing.get_origin(tp) is tuple:
        return pa.list_(pa.field("element", _struct(args[0], nullable=False), nullable=False)), False
    if isinstance(tp, type) and issubclass(tp, Record):
        return _struct(tp, nullable=True), True
    if tp is str:
        return (TS if name.endswith("_at") else pa.string()), False
    return {int: pa.int32(), float: pa.float64(), bool: pa.bool_()}[tp], False


def _struct(record: type[msgspec.Struct], nullable: bool) -> pa.StructType:
    """A record as an Arrow struct; inside one that may be null every field may be."""
    hints = typing.get_type_hints(record)
    fields = []
    for name in record.__struct_fields__:
        tp, optional = _arrow(hints[name], name, top=False)
        fields.append(pa.field(name, tp, nullable=optional or nullable))
    return pa.struct(fields)


def _column(name: str) -> pa.Field:
    """The column of a field of the thread JSON (limpet.model.Thread's declaration)."""
    tp, optional = _arrow(thread_field(name).type, name, top=True)
    return pa.field(name, tp, nullable=optional)


COMMENT = _struct(Comment, nullable=False)
DECISION = _struct(Decision, nullable=True)
AI_META = _struct(AiMeta, nullable=True)  # free-form in the model; a row keeps the documented keys

# The dataset's columns, in order: the thread's fields (their types read off Thread), what is
# computed per thread (the first comment, the code at creation and at resolution), and where
# each thread comes from.
PARQUET_SCHEMA = pa.schema(
    [
        pa.field("workspace", DICT, nullable=False),
        _column("thread_id"),
        *(_column(name) for name in PLACE),
        *(_column(name) for name in ("tag", "status", "health", "author", "author_type")),
        pa.field("ai_meta", AI_META),
        pa.field("body", pa.string(), nullable=False),
        *(_column(name) for name in ("comment_count", "created_at", "updated_at", "resolved_at", "decision",
                                     "anchor_method", "anchor_confidence")),
        pa.field("code_at_creation", pa.string()),
        pa.field("code_at_resolution", pa.string()),
        _column("comments"),
        pa.field("repository", DICT, nullable=False),
        pa.field("commit", pa.string()),
        pa.field("language", DICT),
        pa.field("split", DICT, nullable=False),
    ],
    metadata={b"limpet.schema": PARQUET_SCHEMA_ID.encode()},
)
_PEOPLES_WORDS = frozenset({"body", "summary"})  # text fields of nested records that redaction cleans


def _ts(values: list[str | None], column: str) -> pa.Array:
    try:
        return pa.array(values, pa.string()).cast(TS)
    except pa.ArrowInvalid:
        return pa.array([_parse_ts(v, column) for v in values], TS)


def _parse_ts(value: str | None, column: str) -> datetime | None:
    """Slow path for what Arrow's cast refuses: offset-less times are UTC by contract."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except (TypeError, ValueError) as exc:
        raise InvalidArgument(f"{column} {value!r} is not an ISO 8601 timestamp", field=column) from exc
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def _dict(values: list[str]) -> pa.Array:
    return pa.array(values, pa.string()).dictionary_encode()


def _int32(values: list[int]) -> pa.Array:
    return pa.array(values, pa.int32())


def _str(values: list[str | None]) -> pa.Array:
    return pa.array(values, pa.string())


def _records(values: list, struct: pa.StructType, clean, where: str, mask: pa.Array | None = None) -> pa.StructArray:
    """Records (None where `mask` says) as a struct array of their fields, each built by type."""
    children = []
    for field in struct:
        get = operator.attrgetter(field.name)
        column = list(map(get, values)) if mask is None else [get(v) if v is not None else None for v in values]
        if field.name in _PEOPLES_WORDS and clean is not _as_is:
            column = [clean(x) if x is not None else None for x in column]
        name = f"{where}.{field.name}"
        children.append(_ts(column, name) if field.type == TS else pa.array(column, field.type))
    return pa.StructArray.from_arrays(children, fields=list(struct), mask=mask)


def _listed(lists: list, field: pa.Field, clean) -> pa.Array:
    offsets = _int32(list(accumulate((len(x) for x in lists), initial=0)))
    flat = [v for x in lists for v in x]
    return pa.ListArray.from_arrays(offsets, _records(flat, field.type.value_type, clean, field.name), type=field.type)


def _of_thread(field: pa.Field, threads: list, clean) -> pa.Array:
    """A column of a thread field, built by its type (column at a time)."""
    values = list(map(operator.attrgetter(thread_field(field.name).path), threads))
    if pa.types.is_list(field.type):
        return _listed(values, field, clean)
    if pa.types.is_struct(field.type):
        return _records(values, field.type, clean, field.name, mask=pa.array([v is None for v in values], pa.bool_()))
    if field.type == TS:
        return _ts(values, field.name)
    if field.type == DICT:
        return _dict(values)
    return pa.array(values, field.type)


def _ai_meta(threads: list, clean=None) -> pa.Array:
    metas = [t.ai_meta for t in threads]
    if clean is not None and clean is not _as_is:
        metas = [{**m, "reasoning": clean(m["reasoning"])} if isinstance(m, dict) and isinstance(
            m.get("reasoning"), str) else m for m in metas]
    try:  # fast path: well-formed ai_meta (str model/reasoning, numeric confidence)
        return _ai_struct(metas, lambda m, k: m.get(k) if m else None)
    except (pa.ArrowInvalid, pa.ArrowTypeError, AttributeError):
        return _ai_struct([m if isinstance(m, dict) else None for m in metas], ai_meta_value)


def _ai_struct(metas: list, get) -> pa.Array:
    children = [pa.array([get(m, key) for m in metas], f.type) for key, f in zip(AI_META.names, AI_META, strict=True)]
    return pa.StructArray.from_arrays(children, fields=list(AI_META), mask=pa.array([m is None for m in metas], pa.bool_()))


def _snapshot_text(snaps: list, key: str, clean) -> pa.Array:
    return _str([clean(s[key].text, s[key].file) if key in s else None for s in snaps])


def _as_is(text: str | None, file: str = "") -> str | None:
    return text


def build_batch(items: list[ExportItem], shares: tuple[float, float, float] = DEFAULT_SHARES,
                languages: Languages | None = None, red: Redactor | None = None) -> pa.RecordBatch:
    """One row per thread, in PARQUET_SCHEMA's column order; `red`: secrets redacted from
    every text column (code, comments, decisions, reasoning)."""
    languages = languages or Languages()
    clean = red.text if red is not None else _as_is
    repos = [it.repository for it in items]
    ts = [it.thread for it in items]
    an = [t.anchor for t in ts]
    snaps = [t.snapshots for t in ts]
    computed = {
        "workspace": lambda: _dict([it.workspace for it in items]),
        "selected_text": lambda: _str([clean(a.selected_text, a.file) for a in an]),
        "ai_meta": lambda: _ai_meta(ts, clean),
        "body": lambda: _str([clean(t.comments[0].body) if t.comments else "" for t in ts]),
        "code_at_creation": lambda: _snapshot_text(snaps, "created", clean),
        "code_at_resolution": lambda: _snapshot_text(snaps, "resolved", clean),
        "repository": lambda: _dict(repos),
        "commit": lambda: _str([it.commit for it in items]),
        "language": lambda: _dict([languages.of(a.file, it.source) for a, it in zip(an, items, strict=True)]),
        "split": lambda: _dict([split_of(r, shares) for r in repos]),
    }
    arrays = [computed[f.name]() if f.name in computed else _of_thread(f, ts, clean) for f in PARQUET_SCHEMA]
    return pa.RecordBatch.from_arrays(arrays, schema=PARQUET_SCHEMA)
