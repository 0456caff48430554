"""The anchor record: where a thread points and the evidence to find it again.

Lines are 1-based and inclusive at this edge only; inside, positions are byte offsets into
the raw source and 0-based rows. An anchor is either on a whole symbol (`position="symbol"`:
its lines differ from the symbol's by at most a few lines, kept as offsets so a decorator or
comment line still maps), on lines inside a symbol (`position="lines"`), or on file-level
lines (`"file"`). The engine (limpet.anchoring) builds and relocates these records; this
module only holds them (their dict form is derived: model/_record.py).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

import msgspec

from limpet.model._digest import blake2b
from limpet.model._record import Record

__all__ = ["ANCHOR_VERSION", "PLACE", "Anchor", "content_hash", "packed_sketch"]

ANCHOR_VERSION = 1
# What of an anchor a client reads (the thread JSON spells these flat, in this order); the rest
# is the engine's evidence.
PLACE = (
    "file",
    "line_start",
    "line_end",
    "start_character",
    "end_character",
    "symbol",
    "symbol_kind",
    "selected_text",
)


def content_hash(source: bytes) -> str:
    """Hash of a file's raw bytes, as anchors record it: equal hashes mean nothing to
    re-anchor. Here rather than in the engine so that a read that only checks whether files
    changed (a fresh `limpet list`) does not load the engine."""
    return blake2b(source, digest_size=16).hexdigest()


def packed_sketch(values: Iterable[int]) -> str:
    """A sketch's 32-bit values as one hex string (8 digits each, big-endian). One string a
    thread rather than a list of 32 ints: a fresh process loading 100,000 threads allocates
    3.2 million fewer objects (about a quarter of the load's time and memory)."""
    values = tuple(values)
    try:
        return struct.pack(f">{len(values)}I", *values).hex()
    except struct.error as exc:
        raise ValueError(f"fingerprint values must be 32-bit unsigned integers: {exc}") from None


class Anchor(Record):
    file: str
    line_start: int
    line_end: int
    start_character: int
    end_character: int
    selected_text: str
    content_hash: str
    symbol: str | None = None
    symbol_kind: str | None = None
    # -- evidence for re-anchoring (all optional: a v0 record still re-anchors by text)
    symbol_name: str | None = None
    position: str = "file"  # "symbol" | "lines" | "file"
    symbol_start: int | None = None  # 1-based first line of the symbol at creation
    symbol_end: int | None = None
    start_byte: int = 0
    end_byte: int = 0
    text_hash: str = ""  # rstripped text of the anchored lines
    text_norm: str = ""  # whitespace-blind hash of the anchored lines
    origin_hash: str = ""  # text_hash when the thread was written: health compares to it
    symbol_hash: str = ""  # whitespace-blind hash of the symbol's text
    blind_hash: str = ""  # symbol_hash with the symbol's own name blinded
    structure_hash: str = ""  # identifier-blind hash of the symbol (or of the lines)
    # Trigram sketch of the symbol/lines: packed_sketch's hex (records written before it hold
    # the list of values, packed when read).
    fingerprint: str | list[int] = ""
    symbol_tokens: int = 0
    symbol_twins: int = 0  # symbols sharing the qualified name at creation (overloads, setters)
    prefix: str = ""  # stripped non-blank rows before the range
    suffix: str = ""
    sibling_names: str = ""  # Bloom filter of names in the symbol's scope at creation
    # Lines a thread was written on that are gone from their symbol: meanwhile the thread is on the
    # whole symbol (drifted), and it returns to these lines when they reappear.
    lost_text: str = ""
    version: int = ANCHOR_VERSION

    def __post_init__(self) -> None:  # also after decoding: the fingerprint is always packed
        if not isinstance(self.fingerprint, str):
            msgspec.structs.force_setattr(self, "fingerprint", packed_sketch(self.fingerprint))

    @property
    def sketch(self) -> tuple[int, ...]:
        """The fingerprint's values."""
        fp = self.fingerprint
        return struct.unpack(f">{len(fp) // 8}I", bytes.fromhex(fp)) if fp else ()  # type: ignore[arg-type]
