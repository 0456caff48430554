"""The thread model: threads, comments, decisions, history, snapshots.

Each record is declared once, here, as a msgspec struct (`Record`, model/_record.py). What
the store writes, exports carry and imports read (`Thread.to_record`, `from_record`) is
msgspec's encoding of these declarations, and the thread JSON clients read (`to_wire`, and
the tools' result schema) is a view of them read off the field types (`Extra`, `Hidden`,
`flat`, `counted`, `places`). Positions come from the thread's `Anchor`, which the engine
builds.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

import msgspec

from limpet.model._anchor import PLACE, Anchor
from limpet.model._record import (
    Extra,
    Hidden,
    Record,
    WireView,
    counted,
    flat,
    places,
    plain_numbers,
    rounded_fields,
    sequence_fields,
)
from limpet.model._vocabulary import MAX_BODY, SCHEMA_VERSION, AuthorType, Health, Status, Tag

__all__ = ["Comment", "Decision", "HistoryEvent", "Snapshot", "Thread"]


class Comment(Record):
    id: str
    body: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_BODY)]
    author: str
    author_type: AuthorType
    created_at: str
    edited_at: str | None = None


class Decision(Record):
    summary: str
    decider: str
    decided_at: str
    status: Literal["resolved", "wontfix"] = "resolved"  # what the decision closed the thread as


class HistoryEvent(Record):
    """One thing that happened to a thread. Reopening appends; nothing is erased."""

    at: str
    event: str  # created, replied, edited, resolved, reopened, moved, reanchored, imported
    by: str | None = None
    # What limpet writes here holds strings, integers and the engine's confidence (0 to 1): its
    # JSON is written by msgspec as orjson writes it, with no conversion (a reconcile answers
    # with hundreds of histories); the store refuses other numbers when it reads one.
    details: Annotated[dict[str, Any], plain_numbers()] = msgspec.field(default_factory=dict)


class Snapshot(Record, omit_defaults=True):
    """The anchored code at a moment (creation, resolution): what review-pairs exports need.
    `gone`: the thread was orphaned then (its code no longer existed; `text` is what it last
    held); written only when true, so older records read and write unchanged."""

    at: str
    file: str
    line_start: int
    line_end: int
    text: str
    gone: bool = False


class Thread(Record, kw_only=True):
    """A thread as its events fold it. The vocabulary's words are its types (`Tag`, `Status`,
    `Health`, `AuthorType`), and the bounds tool input meets are on them (a comment's body, a
    decision's status, the confidence, at least one comment): a record read from disk (a
    snapshot event, an older store's document, the thread cache) that breaks one is refused
    as it is decoded, like any malformed field.

    Fields are in the order of the record and of the wire. On the wire the anchor is its
    place (`PLACE`, flat), the history and what anchoring said are extras, the snapshots are
    left out (exports carry them)."""

    id: str
    anchor: Annotated[Anchor, flat(*PLACE)]
    health: Health
    status: Status
    tag: Tag
    author: str
    author_type: AuthorType
    ai_meta: dict[str, Any] | None = None
    created_at: str
    updated_at: Extra[str]
    resolved_at: str | None = None
    decision: Annotated[Decision | None, msgspec.Meta(description="once resolved")] = None
    anchor_method: Extra[str] = "created"
    anchor_confidence: Annotated[Extra[float], places(4), msgspec.Meta(ge=0.0, le=1.0)] = 1.0
    comments: Annotated[tuple[Comment, ...], counted("comment_count"), msgspec.Meta(min_length=1)]
    history: Extra[tuple[HistoryEvent, ...]] = ()
    snapshots: Hidden[dict[str, Snapshot]] = msgspec.field(default_factory=dict)

    @property
    def file(self) -> str:
        return self.anchor.file

    @property
    def line_start(self) -> int:
        return self.anchor.line_start

    @property
    def line_end(self) -> int:
        return self.anchor.line_end

    @property
    def body(self) -> str:
        return self.comments[0].body if self.comments else ""

    def __repr__(self) -> str:
        """Short enough for a notebook's list of threads (the anchor's hashes are not for reading)."""
        lines = f"{self.line_start}" if self.line_start == self.line_end else f"{self.line_start}-{self.line_end}"
        return (f"Thread({self.id} {self.file}:{lines} {self.tag} {self.status} {self.health}, "
                f"{len(self.comments)} comment{'s' if len(self.comments) != 1 else ''}: {self.body[:40]!r})")

    def written_against(self) -> Snapshot | None:
        """The code the thread was written against: its creation snapshot; for a thread kept
        without one, the anchor's text while that still is the original (anchored, or
        orphaned: an orphan keeps its last text); None when only today's code is known."""
        snap = self.snapshots.get("created")
        if snap is not None:
            return snap
        if self.health == "drifted":
            return None
        a = self.anchor
        return Snapshot(self.created_at, a.file, a.line_start, a.line_end, a.selected_text)

    def evolve(self, **changes: Any) -> Thread:
        """A copy with `changes` (TypeError naming a field a thread does not have)."""
        return msgspec.structs.replace(self, **changes)

    @property
    def comment_count(self) -> int:
        return len(self.comments)

    # -- derived from the declaration ------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """The full document (store snapshots, exports, imports): every field, full fidelity,
        deterministic (dict keys sorted; callers dump with sorted keys)."""
        out = {"schema": SCHEMA_VERSION, **msgspec.to_builtins(self, order="deterministic")}
        sequences, rounded = _record_rules()
        for name in sequences:  # msgspec's builtins keep tuples; JSON reads back lists
            out[name] = list(out[name])
        for name, n in rounded:
            out[name] = round(float(out[name]), n)
        return out

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> Thread:
        """A document of `to_record` (or of an older limpet: a record without `updated_at`
        was updated when created), checked against the types (msgspec.ValidationError, a
        ValueError naming the field); `schema` and fields this limpet does not know are ignored."""
        if "updated_at" not in d and "created_at" in d:
            d = {**d, "updated_at": d["created_at"]}
        return msgspec.convert(d, cls)

    def to_wire(self) -> dict[str, Any]:
        """The contract's thread JSON (flat), plus extras (anchor method/confidence, history)."""
        return _wire().encode(self)

    def wire_struct(self) -> msgspec.Struct:
        """`to_wire` as a struct: `encode_json` of it is the JSON orjson writes of `to_wire()`,
        without building the dict (a reconcile's answer of hundreds of threads)."""
        return _wire().struct(self)


# Read off the declaration when first needed (a command that prints no thread JSON, such as
# a fresh `limpet list`, does not pay for reading the types).
@functools.cache
def _record_rules() -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
    return sequence_fields(Thread), rounded_fields(Thread)


@functools.cache
def _wire() -> WireView:
    return WireView(Thread)
