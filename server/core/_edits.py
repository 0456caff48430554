"""What each event does to a thread: pure functions from the thread (and the time) to its next
version. A thread on disk is the fold of its events (limpet.server.store); `apply` is that
fold's step, given to the store, and the same rules decide whether a write changes anything
(replies append, resolving is idempotent and keeps `resolved_at`, reopening keeps the
decision, every change leaves a history event, two versions of a thread merge without
losing a comment)."""

from __future__ import annotations

from typing import Any

import msgspec
import orjson

from limpet.model import Anchor, Comment, Decision, HistoryEvent, Snapshot, Thread
from limpet.server.core._ids import new_event_id, utc_now
from limpet.server.core._validation import invalid_argument_from_decoding
from limpet.server.store import Event, checked_event

__all__ = ["apply", "edited", "merged", "moved", "new_event", "new_thread", "reopened", "replied", "resolved",
           "snapshot_of"]


def new_event(kind: str, by: str, by_type: str | None = None, *, at: str | None = None, **fields: Any) -> Event:
    """A new event, checked (INVALID_ARGUMENT naming the field); its `seq` is set by the store,
    after the events already on disk."""
    try:
        return checked_event(event=kind, id=new_event_id(), at=at or utc_now(), seq=0, by=by, by_type=by_type,
                             **fields)
    except (msgspec.ValidationError, ValueError, TypeError) as exc:
        raise invalid_argument_from_decoding(exc) from None


def apply(t: Thread | None, thread_id: str, e: Event) -> Thread | None:
    """The thread after event `e` (None: there is no thread, or it was deleted)."""
    kind = e.event
    if kind == "created":
        if t is not None:
            return t
        assert e.anchor is not None and e.body is not None and e.tag is not None
        return new_thread(thread_id, e.anchor, e.body, e.tag, e.by, e.by_type, e.ai_meta, e.at)
    if kind == "snapshot":
        assert e.thread is not None
        whole = e.thread if e.thread.id == thread_id else e.thread.evolve(id=thread_id)  # the id is the file's
        return whole if t is None or e.mode == "replace" else merged(t, whole)
    if t is None or kind == "deleted":
        return None
    if kind == "replied":
        assert e.body is not None
        return replied(t, e.body, e.by, e.by_type, e.at)
    if kind == "edited":
        assert e.body is not None
        return edited(t, e.body, e.by, e.at)
    if kind == "resolved":
        return resolved(t, e.decision, e.wontfix, e.by, e.at, e.snapshot)
    if kind == "reopened":
        return reopened(t, e.by, e.at)
    if kind == "moved":
        assert e.anchor is not None
        return moved(t, e.anchor, e.by, e.at)
    raise ValueError(f"unknown event {kind!r}")


def new_thread(thread_id: str, anchor: Anchor, body: str, tag: str, author: str, author_type: str,
               ai_meta: dict[str, Any] | None, now: str) -> Thread:
    return Thread(
        id=thread_id,
        anchor=anchor,
        health="anchored",
        status="open",
        tag=tag,
        author=author,
        author_type=author_type,
        created_at=now,
        updated_at=now,
        comments=(Comment(f"{thread_id}.0", body, author, author_type, now),),
        ai_meta=ai_meta,
        history=(HistoryEvent(now, "created", author),),
        snapshots={"created": _snapshot(now, anchor)},
    )


def replied(t: Thread, body: str, author: str, author_type: str, now: str) -> Thread:
    comment = Comment(f"{t.id}.{len(t.comments)}", body, author, author_type, now)
    return t.evolve(comments=(*t.comments, comment), updated_at=now,
                    history=(*t.history, HistoryEvent(now, "replied", author)))


def resolved(t: Thread, decision: str | None, wontfix: bool, decider: str, now: str,
             code: Snapshot | None = None) -> Thread:
    """Idempotent: resolving a resolved thread changes nothing and keeps resolved_at. `code`:
    the code where the thread is now (its current position), kept for review-pair exports."""
    target = "wontfix" if wontfix else "resolved"
    if t.status == target and (decision is None or (t.decision and t.decision.summary == decision)):
        return t
    resolved_at = t.resolved_at if t.status != "open" and t.resolved_at else now
    dec = Decision(decision, decider, now, target) if decision is not None else t.decision
    snaps = {**t.snapshots, "resolved": code or _snapshot(now, t.anchor)}
    event = HistoryEvent(now, target, decider, {"decision": decision} if decision is not None else {})
    return t.evolve(status=target, resolved_at=resolved_at, decision=dec, updated_at=now,
                    snapshots=snaps, history=(*t.history, event))


def reopened(t: Thread, by: str, now: str) -> Thread:
    """Reopening keeps the earlier decision: it stays on the thread and in its history."""
    if t.status == "open":
        return t
    details = {"previous_status": t.status, "previous_resolved_at": t.resolved_at,
               "decision": t.decision.to_dict() if t.decision else None}
    return t.evolve(status="open", resolved_at=None, updated_at=now,
                    history=(*t.history, HistoryEvent(now, "reopened", by, details)))


def edited(t: Thread, body: str, by: str, now: str) -> Thread:
    """The first comment's new text; the old one stays in the history."""
    first = t.comments[0]
    if first.body == body:
        return t
    new_first = Comment(first.id, body, first.author, first.author_type, first.created_at, now)
    event = HistoryEvent(now, "edited", by, {"previous_body": first.body})
    return t.evolve(comments=(new_first, *t.comments[1:]), updated_at=now, history=(*t.history, event))


def moved(t: Thread, anchor: Anchor, by: str, now: str) -> Thread:
    """Re-anchored at a place a person or agent chose: it keeps its id, comments and history."""
    event = HistoryEvent(now, "moved", by, {
        "from": {"file": t.anchor.file, "line_start": t.anchor.line_start, "line_end": t.anchor.line_end},
        "to": {"file": anchor.file, "line_start": anchor.line_start, "line_end": anchor.line_end}})
    return t.evolve(anchor=anchor, health="anchored", anchor_method="moved_by_user", anchor_confidence=1.0,
                    updated_at=now, history=(*t.history, event))


def merged(a: Thread, b: Thread) -> Thread:
    """One thread from two versions of it (the two sides of a merge in the older one-document
    layout): every comment, history event and snapshot of either is kept; status, decision,
    tag and position come from the version changed last."""
    newer = b if b.updated_at > a.updated_at else a
    seen = {(c.author, c.created_at, c.body) for c in a.comments}
    replies = [*a.comments[1:], *(c for c in b.comments[1:] if (c.author, c.created_at, c.body) not in seen)]
    replies.sort(key=lambda c: c.created_at)
    comments = tuple(Comment(f"{a.id}.{i}", c.body, c.author, c.author_type, c.created_at, c.edited_at)
                     for i, c in enumerate((newer.comments[0], *replies)))
    history: dict[tuple[str, str, str | None, bytes], HistoryEvent] = {}
    for h in (*a.history, *b.history):
        history.setdefault((h.at, h.event, h.by, orjson.dumps(h.details, option=orjson.OPT_SORT_KEYS)), h)
    older = a if newer is b else b
    return newer.evolve(comments=comments, history=tuple(sorted(history.values(), key=lambda h: h.at)),
                        snapshots={**older.snapshots, **newer.snapshots},
                        created_at=min(a.created_at, b.created_at))


def snapshot_of(thread: Thread, now: str) -> Snapshot:
    """The code a thread points at, now (what a resolution keeps); an orphan's code is gone."""
    snap = _snapshot(now, thread.anchor)
    return msgspec.structs.replace(snap, gone=True) if thread.health == "orphaned" else snap


def _snapshot(now: str, anchor: Anchor) -> Snapshot:
    return Snapshot(now, anchor.file, anchor.line_start, anchor.line_end, anchor.selected_text)
