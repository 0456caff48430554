"""The rules a thread read from disk must meet before limpet uses it.

Types are checked when a record is parsed (strict msgspec types, _events.py); these are
the rules the types cannot say, the same ones tool input meets: the vocabulary (tags,
statuses, healths, author types), body length, line bounds, and a file path that is a
canonical workspace path (`Workspace.normalize`, the tools' own check: no `..`, nothing
absolute, nothing under `.git/` or `.limpet/`), and the read budgets on an anchor's evidence
(limpet.model's READ_BUDGETS). A thread that fails is skipped and reported; it is never
opened, shown or written back. Evidence that only guides the engine (the rows around the
anchor, symbol names) is cut to its budget instead (`bounded`): the engine compares it with
every candidate place, so a 1 MB suffix cost ~20 s of CPU a read.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import msgspec

from limpet.model import (
    AUTHOR_TYPES,
    HEALTHS,
    MAX_ANCHORED_TEXT,
    MAX_BODY,
    MAX_CONTEXT_CHARS,
    MAX_FINGERPRINT,
    MAX_LINE,
    MAX_NAME_CHARS,
    STATUSES,
    TAGS,
    Anchor,
    LimpetError,
    Thread,
)

__all__ = ["bounded", "vet_anchor", "vet_thread"]

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
    """ValueError naming what is wrong with a thread folded from disk."""
    for name, allowed in (("tag", TAGS), ("status", STATUSES), ("health", HEALTHS), ("author_type", AUTHOR_TYPES)):
        if getattr(t, name) not in allowed:
            raise ValueError(f"{name} {str(getattr(t, name))[:50]!r} is not one of {', '.join(allowed)}")
    vet_anchor(t.anchor, normalize)
    if not t.comments:
        raise ValueError("a thread without comments")
    for c in t.comments:
        if not c.body or len(c.body) > MAX_BODY:
            raise ValueError(f"comment {c.id[:60]!r}: body empty or longer than {MAX_BODY} characters")
        if c.author_type not in AUTHOR_TYPES:
            raise ValueError(f"comment {c.id[:60]!r}: author_type {c.author_type[:50]!r}")
    if t.decision is not None and t.decision.status not in ("resolved", "wontfix"):
        raise ValueError(f"decision status {t.decision.status[:50]!r}")
    if not 0.0 <= t.anchor_confidence <= 1.0:
        raise ValueError("anchor_confidence outside 0..1")


def bounded(a: Anchor) -> Anchor:
    """The anchor with its guiding evidence cut to the read budgets (itself when within them)."""
    if len(a.prefix) <= MAX_CONTEXT_CHARS and len(a.suffix) <= MAX_CONTEXT_CHARS and \
            len(a.symbol or "") <= MAX_NAME_CHARS and len(a.symbol_name or "") <= MAX_NAME_CHARS and \
            len(a.symbol_kind or "") <= MAX_NAME_CHARS:
        return a  # (every thread read passes here: one expression, not a loop)
    cut = {name: value[:limit] for name, limit in _CUT
           if isinstance(value := getattr(a, name), str) and len(value) > limit}
    return msgspec.structs.replace(a, **cut)
