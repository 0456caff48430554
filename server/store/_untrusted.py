"""What is read from disk is checked: `.limpet/` and the private folder arrive through git or
from other processes, so nothing read there is used before it passes.

JSON records are held to their budgets (limpet.model's READ_BUDGETS) before anything parses
them for use (`check_record`, `check_keys`, `load_record`):

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

A thread read from disk meets the rules tool input meets before limpet uses it. Types are
checked when a record is parsed (strict msgspec types, _events.py: the model's declarations
carry the vocabulary, body lengths, a decision's status, the confidence); `vet_thread` and
`vet_anchor` check the rules the types cannot say: line bounds and order, and a file path that is a
canonical workspace path (`Workspace.normalize`, the tools' own check: no `..`, nothing
absolute, nothing under `.git/` or `.limpet/`), and the read budgets on an anchor's evidence
(limpet.model's READ_BUDGETS). A thread that fails is skipped and reported; it is never
opened, shown or written back. Evidence that only guides the engine (the rows around the
anchor, symbol names) is cut to its budget instead (`bounded`): the engine compares it with
every candidate place, so a 1 MB suffix cost ~20 s of CPU a read.

What does not pass is logged (`log`, the store's logger; loggers are imported on first use:
a command whose reads go well logs nothing, and the logging package costs a fresh process ~2 ms).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import msgspec
import orjson

from limpet.model import (
    MAX_ANCHORED_TEXT,
    MAX_CONTEXT_CHARS,
    MAX_FINGERPRINT,
    MAX_LINE,
    MAX_NAME_CHARS,
    MAX_NESTING,
    MAX_RECORD_BYTES,
    PLAIN_FLOAT_LIMIT,
    Anchor,
    HistoryEvent,
    LimpetError,
    Thread,
)

__all__ = ["LazyLogger", "Refused", "bounded", "check_keys", "check_record", "load_record", "log",
           "nested_deeper", "vet_anchor", "vet_free_form", "vet_history", "vet_thread"]


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


# -- the rules a thread read from disk must meet ------------------------------------------------
MAX_COLUMN = 10_000_000
_CUT = (("prefix", MAX_CONTEXT_CHARS), ("suffix", MAX_CONTEXT_CHARS), ("symbol", MAX_NAME_CHARS),
        ("symbol_name", MAX_NAME_CHARS), ("symbol_kind", MAX_NAME_CHARS))
_SKETCH = re.compile(r"(?:[0-9a-f]{8})*")

Normalize = Callable[[str, str], str]


def vet_anchor(a: Anchor, normalize: Normalize) -> None:
    """ValueError naming what is wrong with an anchor read from disk."""
    try:
        canonical = normalize(a.file, "anchor.file")
    except LimpetError as exc:
        raise ValueError(f"anchor.file {a.file[:200]!r}: {exc.message}") from None
    if canonical != a.file:
        raise ValueError(f"anchor.file {a.file[:200]!r} is not a canonical workspace path")
    if not 1 <= a.line_start <= a.line_end <= MAX_LINE:
        raise ValueError(f"anchor lines {a.line_start}-{a.line_end} outside 1..{MAX_LINE}")
    if not (0 <= a.start_character <= MAX_COLUMN and 0 <= a.end_character <= MAX_COLUMN):
        raise ValueError("anchor characters out of range")
    for name in ("symbol_start", "symbol_end"):
        value = getattr(a, name)
        if value is not None and not 0 <= value <= MAX_LINE:
            raise ValueError(f"anchor.{name} out of range")
    if not (0 <= a.start_byte <= 2**40 and 0 <= a.end_byte <= 2**40):
        raise ValueError("anchor byte offsets out of range")
    if max(len(a.selected_text), len(a.lost_text)) > MAX_ANCHORED_TEXT:
        raise ValueError(f"anchored text longer than {MAX_ANCHORED_TEXT:,} characters (MAX_ANCHORED_TEXT)")
    if len(a.fingerprint) > 8 * MAX_FINGERPRINT:
        raise ValueError(f"anchor.fingerprint of more than {MAX_FINGERPRINT} values (MAX_FINGERPRINT)")
    if not _SKETCH.fullmatch(a.fingerprint):  # the engine unpacks it when it searches
        raise ValueError("anchor.fingerprint is not a packed sketch (8 hex digits a value)")


def vet_thread(t: Thread, normalize: Normalize) -> None:
    """ValueError naming what is wrong with a thread folded from disk. What its types say (the
    vocabulary, a body's length, a decision's status, the confidence: limpet.model's
    declarations) was checked as its records were decoded; these are the rules they cannot say."""
    vet_anchor(t.anchor, normalize)
    if not t.comments:
        raise ValueError("a thread without comments")
    if t.ai_meta is not None:
        vet_free_form(t.ai_meta, "ai_meta")
    vet_history(t.history)


# What a JSON writer keeps (orjson: a signed or unsigned 64-bit integer; JSON itself sets no
# bound, so a parser reads `1` followed by 30 zeros as an integer no answer could then carry).
_INT_MIN, _INT_MAX = -(1 << 63), (1 << 64) - 1


def vet_free_form(value: Any, what: str, *, plain: bool = False) -> None:
    """ValueError when a free-form value read from disk (`ai_meta`, a history entry's details)
    holds an integer out of the range JSON writers keep: every answer showing the thread (a
    listing of hundreds) would fail on it. `plain`: nor a float of 1e16 or more, which limpet
    never writes there (msgspec and orjson spell those differently: limpet.model's plain_numbers)."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind is int and not _INT_MIN <= item <= _INT_MAX:
            raise ValueError(f"{what} holds an integer of {len(str(abs(item)))} digits, out of the 64-bit range")
        elif plain and kind is float and abs(item) >= PLAIN_FLOAT_LIMIT:  # infinity too
            raise ValueError(f"{what} holds {item!r}, a number limpet never writes there")


def vet_history(history: tuple[HistoryEvent, ...]) -> None:
    """ValueError when a history entry read from disk holds numbers limpet never writes."""
    for event in history:
        if event.details:
            vet_free_form(event.details, f"the details of a `{event.event[:40]}` history entry", plain=True)


def bounded(a: Anchor) -> Anchor:
    """The anchor with its guiding evidence cut to the read budgets (itself when within them)."""
    if len(a.prefix) <= MAX_CONTEXT_CHARS and len(a.suffix) <= MAX_CONTEXT_CHARS and \
            len(a.symbol or "") <= MAX_NAME_CHARS and len(a.symbol_name or "") <= MAX_NAME_CHARS and \
            len(a.symbol_kind or "") <= MAX_NAME_CHARS:
        return a  # (every thread read passes here: one expression, not a loop)
    cut = {name: value[:limit] for name, limit in _CUT
           if isinstance(value := getattr(a, name), str) and len(value) > limit}
    return msgspec.structs.replace(a, **cut)


# -- the store's logger -----------------------------------------------------------------------------
class LazyLogger:
    """`log.warning(...)`, `log.info(...)`, ...: the methods of logging.getLogger(name)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, attr: str) -> Any:
        import logging

        return getattr(logging.getLogger(self.name), attr)


log = LazyLogger("limpet.store")
