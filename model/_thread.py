"""The thread model: threads, comments, decisions, history, and their wire/storage dicts.

A thread is stored as one JSON document (the store's record) and sent on the wire in the
contract's flat shape (`Thread.to_wire`). Both are produced here so no door re-spells a
field. Positions come from the thread's `Anchor`, which the engine builds.
"""

from __future__ import annotations

from typing import Any

import msgspec

from limpet.model._anchor import Anchor
from limpet.model._vocabulary import SCHEMA_VERSION, AuthorType, Health, Status, Tag

__all__ = ["Comment", "Decision", "HistoryEvent", "Snapshot", "Thread"]


class Comment(msgspec.Struct, frozen=True, gc=False):
    id: str
    body: str
    author: str
    author_type: AuthorType
    created_at: str
    edited_at: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "body": self.body,
            "author": self.author,
            "author_type": self.author_type,
            "created_at": self.created_at,
            "edited_at": self.edited_at,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Comment:
        return cls(
            id=d["id"],
            body=d["body"],
            author=d["author"],
            author_type=d["author_type"],
            created_at=d["created_at"],
            edited_at=d.get("edited_at"),
        )


class Decision(msgspec.Struct, frozen=True, gc=False):
    summary: str
    decider: str
    decided_at: str
    status: str = "resolved"  # resolved or wontfix: what the decision closed the thread as

    def to_dict(self) -> dict[str, Any]:
        return {
            "summary": self.summary,
            "decider": self.decider,
            "decided_at": self.decided_at,
            "status": self.status,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Decision:
        return cls(d["summary"], d["decider"], d["decided_at"], d.get("status", "resolved"))


class HistoryEvent(msgspec.Struct, frozen=True, gc=False):
    """One thing that happened to a thread. Reopening appends; nothing is erased."""

    at: str
    event: str  # created, replied, edited, resolved, reopened, moved, reanchored, imported
    by: str | None = None
    details: dict[str, Any] = msgspec.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at, "event": self.event, "by": self.by, "details": dict(self.details)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HistoryEvent:
        return cls(d["at"], d["event"], d.get("by"), dict(d.get("details") or {}))


class Snapshot(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """The anchored code at a moment (creation, resolution): what review-pairs exports need.
    `gone`: the thread was orphaned then (its code no longer existed; `text` is what it last
    held); written only when true, so older records read and write unchanged."""

    at: str
    file: str
    line_start: int
    line_end: int
    text: str
    gone: bool = False

    def to_dict(self) -> dict[str, Any]:
        out = {
            "at": self.at,
            "file": self.file,
            "line_start": self.line_start,
            "line_end": self.line_end,
            "text": self.text,
        }
        if self.gone:
            out["gone"] = True
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Snapshot:
        return cls(d["at"], d["file"], d["line_start"], d["line_end"], d["text"], bool(d.get("gone", False)))


class Thread(msgspec.Struct, frozen=True, gc=False):
    """A thread as its events fold it. The vocabulary's words are its types (`Tag`, `Status`,
    `Health`, `AuthorType`): a record read from disk (a snapshot event, an older store's
    document) with any other word is refused as it is decoded, like any malformed field."""

    id: str
    anchor: Anchor
    health: Health
    status: Status
    tag: Tag
    author: str
    author_type: AuthorType
    created_at: str
    updated_at: str
    comments: tuple[Comment, ...]
    ai_meta: dict[str, Any] | None = None
    resolved_at: str | None = None
    decision: Decision | None = None
    anchor_method: str = "created"
    anchor_confidence: float = 1.0
    history: tuple[HistoryEvent, ...] = ()
    snapshots: dict[str, Snapshot] = msgspec.field(default_factory=dict)

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

    # -- storage -------------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        """The fields the record and the wire spell alike: health, status, who, when, decision."""
        return {
            "health": self.health,
            "status": self.status,
            "tag": self.tag,
            "author": self.author,
            "author_type": self.author_type,
            "ai_meta": self.ai_meta,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "resolved_at": self.resolved_at,
            "decision": self.decision.to_dict() if self.decision else None,
            "anchor_method": self.anchor_method,
            "anchor_confidence": round(float(self.anchor_confidence), 4),
        }

    def to_record(self) -> dict[str, Any]:
        """The full document (exports, imports): full fidelity, deterministic (callers dump with
        sorted keys)."""
        return {
            "schema": SCHEMA_VERSION,
            "id": self.id,
            "anchor": self.anchor.to_dict(),
            **self._state(),
            "comments": [c.to_dict() for c in self.comments],
            "history": [h.to_dict() for h in self.history],
            "snapshots": {k: v.to_dict() for k, v in sorted(self.snapshots.items())},
        }

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> Thread:
        return cls(
            id=d["id"],
            anchor=Anchor.from_dict(d["anchor"]),
            health=d["health"],
            status=d["status"],
            tag=d["tag"],
            author=d["author"],
            author_type=d["author_type"],
            created_at=d["created_at"],
            updated_at=d.get("updated_at", d["created_at"]),
            comments=tuple(Comment.from_dict(c) for c in d["comments"]),
            ai_meta=d.get("ai_meta"),
            resolved_at=d.get("resolved_at"),
            decision=Decision.from_dict(d["decision"]) if d.get("decision") else None,
            anchor_method=d.get("anchor_method", "created"),
            anchor_confidence=float(d.get("anchor_confidence", 1.0)),
            history=tuple(HistoryEvent.from_dict(h) for h in d.get("history", ())),
            snapshots={k: Snapshot.from_dict(v) for k, v in (d.get("snapshots") or {}).items()},
        )

    # -- wire ----------------------------------------------------------------------------
    def to_wire(self) -> dict[str, Any]:
        """The contract's thread JSON (flat), plus extras (anchor method/confidence, history)."""
        a = self.anchor
        return {
            "id": self.id,
            "file": a.file,
            "line_start": a.line_start,
            "line_end": a.line_end,
            "start_character": a.start_character,
            "end_character": a.end_character,
            "symbol": a.symbol,
            "symbol_kind": a.symbol_kind,
            "selected_text": a.selected_text,
            **self._state(),
            "comment_count": len(self.comments),
            "comments": [c.to_dict() for c in self.comments],
            "history": [h.to_dict() for h in self.history],
        }


