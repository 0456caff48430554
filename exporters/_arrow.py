"""The Parquet schema ("limpet.parquet/1") and the columnar builder for one row group.

Columns are built column-at-a-time from a list of items (list comprehensions, no per-row
dicts), and timestamps are parsed by Arrow's vectorized cast: this is what keeps the
exporter within a small factor of a hand-written pyarrow write.
"""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import accumulate

import pyarrow as pa

from limpet.exporters._provenance import Languages, split_of
from limpet.exporters._secrets import Redactor
from limpet.exporters._types import DEFAULT_SHARES, ExportItem
from limpet.model import InvalidArgument

__all__ = ["PARQUET_SCHEMA", "PARQUET_SCHEMA_ID", "build_batch"]

PARQUET_SCHEMA_ID = "limpet.parquet/2"  # /2 added repository, commit, language, split (columns only added)
TS = pa.timestamp("us", tz="UTC")
DICT = pa.dictionary(pa.int32(), pa.string())

COMMENT = pa.struct(
    [
        pa.field("id", pa.string(), nullable=False),
        pa.field("body", pa.string(), nullable=False),
        pa.field("author", pa.string(), nullable=False),
        pa.field("author_type", pa.string(), nullable=False),
        pa.field("created_at", TS, nullable=False),
        pa.field("edited_at", TS),
    ]
)
DECISION = pa.struct(
    [
        pa.field("summary", pa.string()),
        pa.field("decider", pa.string()),
        pa.field("decided_at", TS),
        pa.field("status", pa.string()),
    ]
)
AI_META = pa.struct(
    [pa.field("model", pa.string()), pa.field("confidence", pa.float64()), pa.field("reasoning", pa.string())]
)

PARQUET_SCHEMA = pa.schema(
    [
        pa.field("workspace", DICT, nullable=False),
        pa.field("thread_id", pa.string(), nullable=False),
        pa.field("file", pa.string(), nullable=False),
        pa.field("line_start", pa.int32(), nullable=False),
        pa.field("line_end", pa.int32(), nullable=False),
        pa.field("start_character", pa.int32(), nullable=False),
        pa.field("end_character", pa.int32(), nullable=False),
        pa.field("symbol", pa.string()),
        pa.field("symbol_kind", pa.string()),
        pa.field("selected_text", pa.string(), nullable=False),
        pa.field("tag", DICT, nullable=False),
        pa.field("status", DICT, nullable=False),
        pa.field("health", DICT, nullable=False),
        pa.field("author", pa.string(), nullable=False),
        pa.field("author_type", DICT, nullable=False),
        pa.field("ai_meta", AI_META),
        pa.field("body", pa.string(), nullable=False),
        pa.field("comment_count", pa.int32(), nullable=False),
        pa.field("created_at", TS, nullable=False),
        pa.field("updated_at", TS, nullable=False),
        pa.field("resolved_at", TS),
        pa.field("decision", DECISION),
        pa.field("anchor_method", pa.string(), nullable=False),
        pa.field("anchor_confidence", pa.float64(), nullable=False),
        pa.field("code_at_creation", pa.string()),
        pa.field("code_at_resolution", pa.string()),
        pa.field("comments", pa.list_(pa.field("element", COMMENT, nullable=False)), nullable=False),
        pa.field("repository", DICT, nullable=False),
        pa.field("commit", pa.string()),
        pa.field("language", DICT),
        pa.field("split", DICT, nullable=False),
    ],
    metadata={b"limpet.schema": PARQUET_SCHEMA_ID.encode()},
)


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


def _comments(threads: list, clean) -> pa.Array:
    offsets = _int32(list(accumulate((len(t.comments) for t in threads), initial=0)))
    flat = [c for t in threads for c in t.comments]
    values = pa.StructArray.from_arrays(
        [
            _str([c.id for c in flat]),
            _str([clean(c.body) for c in flat]),
            _str([c.author for c in flat]),
            _str([c.author_type for c in flat]),
            _ts([c.created_at for c in flat], "comments.created_at"),
            _ts([c.edited_at for c in flat], "comments.edited_at"),
        ],
        fields=list(COMMENT),
    )
    return pa.ListArray.from_arrays(offsets, values, type=PARQUET_SCHEMA.field("comments").type)


def _decisions(threads: list, clean) -> pa.Array:
    ds = [t.decision for t in threads]
    return pa.StructArray.from_arrays(
        [
            _str([clean(d.summary) if d else None for d in ds]),
            _str([d.decider if d else None for d in ds]),
            _ts([d.decided_at if d else None for d in ds], "decision.decided_at"),
            _str([d.status if d else None for d in ds]),
        ],
        fields=list(DECISION),
        mask=pa.array([d is None for d in ds], pa.bool_()),
    )


def _ai_meta(threads: list, clean=None) -> pa.Array:
    metas = [t.ai_meta for t in threads]
    if clean is not None and clean is not _as_is:
        metas = [{**m, "reasoning": clean(m["reasoning"])} if isinstance(m, dict) and isinstance(
            m.get("reasoning"), str) else m for m in metas]
    try:  # fast path: well-formed ai_meta (str model/reasoning, numeric confidence)
        return _ai_struct(metas, lambda m, k: m.get(k) if m else None)
    except (pa.ArrowInvalid, pa.ArrowTypeError, AttributeError):
        return _ai_struct([m if isinstance(m, dict) else None for m in metas], _safe_meta)


def _ai_struct(metas: list, get) -> pa.Array:
    return pa.StructArray.from_arrays(
        [
            _str([get(m, "model") for m in metas]),
            pa.array([get(m, "confidence") for m in metas], pa.float64()),
            _str([get(m, "reasoning") for m in metas]),
        ],
        fields=list(AI_META),
        mask=pa.array([m is None for m in metas], pa.bool_()),
    )


def _safe_meta(meta: dict | None, key: str) -> object:
    """Coerce what an agent put in ai_meta: text to str, confidence to float or null."""
    value = meta.get(key) if meta else None
    if key == "confidence":
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return float(value) if ok else None
    return None if value is None else str(value)


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
    arrays = [
        _dict([it.workspace for it in items]),
        _str([t.id for t in ts]),
        _str([a.file for a in an]),
        _int32([a.line_start for a in an]),
        _int32([a.line_end for a in an]),
        _int32([a.start_character for a in an]),
        _int32([a.end_character for a in an]),
        _str([a.symbol for a in an]),
        _str([a.symbol_kind for a in an]),
        _str([clean(a.selected_text, a.file) for a in an]),
        _dict([t.tag for t in ts]),
        _dict([t.status for t in ts]),
        _dict([t.health for t in ts]),
        _str([t.author for t in ts]),
        _dict([t.author_type for t in ts]),
        _ai_meta(ts, clean),
        _str([clean(t.comments[0].body) if t.comments else "" for t in ts]),
        _int32([len(t.comments) for t in ts]),
        _ts([t.created_at for t in ts], "created_at"),
        _ts([t.updated_at for t in ts], "updated_at"),
        _ts([t.resolved_at for t in ts], "resolved_at"),
        _decisions(ts, clean),
        _str([t.anchor_method for t in ts]),
        pa.array([t.anchor_confidence for t in ts], pa.float64()),
        _snapshot_text(snaps, "created", clean),
        _snapshot_text(snaps, "resolved", clean),
        _comments(ts, clean),
        _dict(repos),
        _str([it.commit for it in items]),
        pa.array([languages.of(a.file, it.source) for a, it in zip(an, items, strict=True)],
                 pa.string()).dictionary_encode(),
        _dict([split_of(r, shares) for r in repos]),
    ]
    return pa.RecordBatch.from_arrays(arrays, schema=PARQUET_SCHEMA)
