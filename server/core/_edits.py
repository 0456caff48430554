"""What each write does to a thread: pure functions from the thread (and the time) to its next
version. The service runs them under the store lock; here they only state the rules
(replies append, resolving is idempotent and keeps `resolved_at`, reopening keeps the
decision, every change leaves a history event)."""

from __future__ import annotations

from typing import Any

from limpet.model import Anchor, Comment, Decision, HistoryEvent, Snapshot, Thread

__all__ = ["edited", "moved", "new_thread", "reopened", "replied", "resolved"]


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


def resolved(t: Thread, decision: str | None, wontfix: bool, decider: str, now: str) -> Thread:
    """Idempotent: resolving a resolved thread changes nothing and keeps resolved_at."""
    target = "wontfix" if wontfix else "resolved"
    if t.status == target and (decision is None or (t.decision and t.decision.summary == decision)):
        return t
    resolved_at = t.resolved_at if t.status != "open" and t.resolved_at else now
    dec = Decision(decision, decider, now, target) if decision is not None else t.decision
    snaps = {**t.snapshots, "resolved": _snapshot(now, t.anchor)}
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


def _snapshot(now: str, anchor: Anchor) -> Snapshot:
    return Snapshot(now, anchor.file, anchor.line_start, anchor.line_end, anchor.selected_text)
