"""What every thread row says besides the thread's own fields, for every format of rows
(Parquet and Delta columns, JSONL metadata), each defined once here: the repository's split,
the file's language, and what an agent said of the thread (AiMeta); and where a column of a
thread field reads its value (the path limpet.model.Thread declares).

The split is decided by the repository alone (a stable hash of its identity against the
shares), so one repository's threads never straddle train and test, every run and every
machine agrees, and a repository keeps its split as others are added.
"""

from __future__ import annotations

import types
import typing
from functools import lru_cache

import msgspec

from limpet.anchoring import language_for
from limpet.model import Thread, WireField, blake2b, wire_fields

__all__ = ["AI_META_KEYS", "AiMeta", "Languages", "ai_meta_value", "split_of", "thread_field"]

_SPLITS = ("train", "validation", "test")


@lru_cache(maxsize=4096)
def split_of(repository: str, shares: tuple[float, float, float]) -> str:
    """train / validation / test for `repository`: where its hash falls among the shares."""
    point = int.from_bytes(blake2b(repository.encode(), digest_size=8).digest(), "big") / 2.0**64
    edge = 0.0
    for name, share in zip(_SPLITS, shares, strict=True):
        edge += share
        if point < edge:
            return name
    return next(n for n, s in zip(reversed(_SPLITS), reversed(shares), strict=True) if s > 0)


class Languages:
    """limpet's language name for a file (the engine's registry), each path decided once."""

    def __init__(self) -> None:
        self._known: dict[str, str | None] = {}

    def of(self, path: str, source: bytes | None = None) -> str | None:
        known = self._known.get(path, False)
        if known is not False:
            return known  # type: ignore[return-value]
        if len(self._known) > 65536:
            self._known.clear()
        lang = self._known[path] = language_for(path, source or b"")
        return lang


_THREAD = {f.name: f for f in wire_fields(Thread)}
_COLUMN_OF = {"thread_id": "id"}  # a column named otherwise than its field


def thread_field(column: str) -> WireField:
    """The field of the thread JSON (limpet.model.Thread's declaration) a column holds."""
    return _THREAD[_COLUMN_OF.get(column, column)]


class AiMeta(msgspec.Struct, frozen=True):
    """What an agent said of its comment as a row keeps it: the three keys the tools document
    (comment_add's aiMeta). The model keeps ai_meta free-form (what an agent sent)."""

    model: str | None = None
    confidence: float | None = None  # always a float: one inferred type
    reasoning: str | None = None


AI_META_KEYS = AiMeta.__struct_fields__
_AI_META_TYPES = {name: next(a for a in typing.get_args(tp) if a is not types.NoneType)
                  for name, tp in typing.get_type_hints(AiMeta).items()}  # str | None -> str


def ai_meta_value(meta: object, key: str) -> object:
    """One key of what an agent put in ai_meta, as its AiMeta field's type: text as str,
    a confidence as a float (a number that is not a bool), else null."""
    value = meta.get(key) if isinstance(meta, dict) else None
    if _AI_META_TYPES[key] is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return float(value) if ok else None
    return None if value is None else str(value)
