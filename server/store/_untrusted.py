"""JSON read from `.limpet/` and the private folder, held to its budgets (limpet.model's
READ_BUDGETS) before anything parses it for use.

- Size and nesting are measured first: a parser recursing through 1,000 nested `ai_meta`
  objects raised RecursionError and took the whole store down with it.
- A key repeated in one object is refused. Parsers keep the last one silently, so
  `{"body":"LGTM","event":"replied",...,"event":"deleted"}` reads as a reply in a pull
  request's diff and deletes the thread. What limpet writes (orjson, compact or indented)
  is checked in one pass: a record that reads back to its very bytes holds no repeated key (parsing is a
  function of the bytes, and the re-encoding has each key once). Anything else (indented
  documents, hand-edited lines) is checked key by key.

`Refused` is a ValueError: every reader already treats one as a damaged record (a line
skipped and reported, a document restored from its backup, a cache row recomputed).
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from limpet.model import MAX_NESTING, MAX_RECORD_BYTES

__all__ = ["Refused", "check_keys", "check_record", "load_record", "nested_deeper"]

_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"')  # linear on valid JSON (strings are consumed whole)
_BRACKETS_ONLY = bytes(range(256)).translate(None, b"{}[]")  # every byte but the brackets (to delete)
_NOT_OPENING = bytes(range(256)).translate(None, b"{[")
_AS_BRACES = bytes.maketrans(b"[]", b"{}")


class Refused(ValueError):
    """A record over a budget, or repeating a key: never parsed for use, never applied."""


def check_record(data: bytes, *, limit: int = MAX_RECORD_BYTES) -> None:
    """Refused unless `data` is within the size and nesting budgets (before it is parsed)."""
    if len(data) > limit:
        raise Refused(f"{len(data):,} bytes, over the budget of {limit:,}")
    if len(data.translate(None, _NOT_OPENING)) > MAX_NESTING and _nesting(data) > MAX_NESTING:
        raise Refused(f"nested more than {MAX_NESTING} levels deep")  # (fewer openings cannot nest deeper)


def check_keys(data: bytes) -> None:
    """Refused when an object of `data` (a record that parsed) repeats a key."""
    repeated = _repeated_key(data)
    if repeated is not None:
        raise Refused(f"the key {repeated[:80]!r} appears twice in one object")


def load_record(data: bytes, *, limit: int = MAX_RECORD_BYTES) -> Any:
    """The JSON value of `data`, within the budgets (Refused, or orjson.JSONDecodeError)."""
    check_record(data, limit=limit)
    value = orjson.loads(data)
    if (repeated := _repeated_key(data, value)) is not None:
        raise Refused(f"the key {repeated[:80]!r} appears twice in one object")
    return value


def nested_deeper(value: Any, limit: int) -> bool:
    """Do the dicts and lists of `value` (built in memory, not yet JSON) nest more than `limit`
    levels? Walked without recursion: the value may be a thousand levels deep."""
    todo = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, (list, tuple)):
            continue
        if depth >= limit:
            return True
        todo += ((child, depth + 1) for child in item)
    return False


def _nesting(data: bytes) -> int:
    """How deep the record nests (at least; MAX_NESTING + 1 once past it). Invalid JSON
    counts as too deep: only a parser's error would say more, after recursing into it."""
    try:
        orjson.loads(data)  # valid (orjson bounds its own depth without recursing in Python)
    except orjson.JSONDecodeError:
        return MAX_NESTING + 1
    skeleton = _STRING.sub(b"", data).translate(_AS_BRACES, _BRACKETS_ONLY)
    depth = 0
    while b"{}" in skeleton:  # each round removes every innermost pair: rounds = depth
        depth += 1
        if depth > MAX_NESTING:
            break
        skeleton = skeleton.replace(b"{}", b"")
    return depth


def _repeated_key(data: bytes, value: Any = None) -> str | None:
    """A key some object of `data` repeats, or None."""
    try:
        if value is None:
            value = orjson.loads(data)
        again = orjson.dumps(value)
        if again == data or again == (text := data.strip()) or orjson.dumps(value, option=orjson.OPT_INDENT_2) == text:
            return None  # it reads back to itself (as lines, or as documents are written): one of each key
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        pass  # e.g. an integer past 64 bits: the slow check decides
    found: list[str] = []

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs) and not found:
            seen: set[str] = set()
            found.append(next(k for k, _ in pairs if k in seen or seen.add(k)))  # type: ignore[func-returns-value]
        return out

    try:
        json.loads(data, object_pairs_hook=unique)
    except ValueError:
        return None  # not JSON at all: the typed parser reports it
    return found[0] if found else None
