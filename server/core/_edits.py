"""What each event does to a thread: pure functions from the thread (and the time) to its next
version. A thread on disk is the fold of its events (limpet.server.store); `RULES` are that
fold's steps, given to the store, and the same rules decide whether a write changes anything
(replies append, resolving is idempotent and keeps `resolved_at`, reopening keeps the
decision, every change leaves a history event, two versions of a thread merge without
losing a comment).

The fold works on a `Draft`, whose comments and history grow in place: folding N events is
linear. Rebuilding both tuples at each event made it quadratic (80,000 replies, 10 MB, cost
~27 s a read). A rule checks everything before it changes the draft: one that raises leaves
it as it was (the store reports the event and goes on)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import orjson

from limpet.model import Anchor, Comment, Decision, HistoryEvent, Snapshot, Thread
from limpet.server.core._ids import new_event_id, utc_now
from limpet.server.core._validation import invalid_argument_from_decoding
from limpet.server.store import EVENT_KINDS, Event, checked_event

__all__ = ["RULES", "STEPS", "Draft", "apply", "edited", "merged", "moved", "new_event", "new_thread", "reopened", "replied",
           "resolved", "snapshot_of", "step"]


def new_event(kind: str, by: str, by_type: str | None = None, *, at: str | None = None, **fields: Any) -> Event:
    """A new event, checked (INVALID_ARGUMENT naming the field); its `seq` is set by the store,
    after the events already on disk."""
    try:
        return checked_event(event=kind, id=new_event_id(), at=at or utc_now(), seq=0, by=by, by_type=by_type,
                             **fields)
    except (msgspec.ValidationError, ValueError, TypeError) as exc:
        raise invalid_argument_from_decoding(exc) from None


class Draft:
    """A thread being folded: `comments` and `history` are lists appended in place; `thread`
    holds every other field (its own comments and history are stale until `done`)."""

    __slots__ = ("changed", "comments", "history", "thread", "touched")

    def __init__(self, thread: Thread) -> None:
        self.thread = thread
        self.comments = list(thread.comments)
        self.history = list(thread.history)
        self.changed = False  # by the last step (a write of an event that changes nothing is not written)
        self.touched = False  # by any step since `thread` (most threads are one `created` event)

    def done(self) -> Thread:
        if not self.touched:
            return self.thread
        return self.thread.evolve(comments=tuple(self.comments), history=tuple(self.history))

    def update(self, history: HistoryEvent | None = None, /, **fields: Any) -> Draft:
        if history is not None:
            self.history.append(history)
        if fields:
            self.thread = self.thread.evolve(**fields)
        self.changed = self.touched = True
        return self


def apply(t: Thread | None, thread_id: str, e: Event) -> Thread | None:
    """The thread after event `e` (None: there is no thread, or it was deleted); `t` itself
    when the event changes nothing."""
    before = Draft(t) if t is not None else None
    after = step(before, thread_id, e)
    if after is None:
        return None
    return t if after is before and not after.changed else after.done()


def step(d: Draft | None, thread_id: str, e: Event) -> Draft | None:
    """The fold's step: the draft after event `e` (None: no thread, or deleted)."""
    if d is not None:
        d.changed = False
    rule = STEPS.get(e.event)
    if rule is None:
        raise ValueError(f"unknown event {e.event!r}")
    return rule(d, thread_id, e)


# What each event kind does to a thread, one step per kind, in the order of the store's `Kind`
# (its payload: store/_events.py PAYLOAD; the history line each writes: the rules below). A step
# gets the draft (None: no thread yet, or deleted), the thread's id (its file's) and the event.
def _on_created(d: Draft | None, thread_id: str, e: Event) -> Draft | None:
    if d is not None:
        return d
    assert e.anchor is not None and e.body is not None and e.tag is not None
    return Draft(new_thread(thread_id, e.anchor, e.body, e.tag, e.by, e.by_type, e.ai_meta, e.at))


def _on_replied(d: Draft | None, thread_id: str, e: Event) -> Draft | None:
    assert e.body is not None
    return None if d is None else _replied(d, e.body, e.by, e.by_type, e.at)


def _on_edited(d: Draft | None, thread_id: str, e: Event) -> Draft | None:
    assert e.body is not None
    return None if d is None else _edited(d, e.body, e.by, e.at)


def _on_resolved(d: Draft | None, thread_id: str, e: Event) -> Draft | None:
    return None if d is None else _resolved(d, e.decision, e.wontfix, e.by, e.at, e.snapshot)


def _on_reopened(d: Draft | None, thread_id: str, e: Event) -> Draft | None:
    return None if d is None else _reopened(d, e.by, e.at)


def _on_moved(d: Draft | None, thread_id: str, e: Event) -> Draft | None:
    assert e.anchor is not None
    return None if d is None else _moved(d, e.anchor, e.by, e.at)


def _on_deleted(d: Draft | None, thread_id: str, e: Event) -> Draft | None:
    return None


def _on_snapshot(d: Draft | None, thread_id: str, e: Event) -> Draft | None:
    assert e.thread is not None
    whole = e.thread if e.thread.id == thread_id else e.thread.evolve(id=thread_id)  # the id is the file's
    return Draft(whole if d is None or e.mode == "replace" else merged(d.done(), whole))


Step = Callable[[Draft | None, str, Event], Draft | None]
STEPS: dict[str, Step] = {
    "created": _on_created, "replied": _on_replied, "edited": _on_edited, "resolved": _on_resolved,
    "reopened": _on_reopened, "moved": _on_moved, "deleted": _on_deleted, "snapshot": _on_snapshot,
}
assert tuple(STEPS) == EVENT_KINDS, "every kind the store reads has its step, in the order of Kind"


class _Rules:
    """The rules as the store uses them (limpet.server.store.Apply): `apply` for a write, `step`
    and `done` for a fold."""

    __call__ = staticmethod(apply)
    step = staticmethod(step)
    done = staticmethod(Draft.done)

    @staticmethod
    def undeleted(d: Draft, deletion: Event, unseen: list[Event]) -> Draft:
        """A deletion that did not see every event (replies merged from another branch): the
        thread stays, and its history says who deleted it and what came back with it."""
        return d.update(HistoryEvent(deletion.at, "deleted", deletion.by, {
            "undone": f"{len(unseen)} later {'events' if len(unseen) > 1 else 'event'} it did not see "
                      f"({', '.join(sorted({e.event for e in unseen}))}) were merged in: delete it again to confirm"}))


RULES = _Rules()


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


def _replied(d: Draft, body: str, author: str, author_type: str, now: str) -> Draft:
    comment = Comment(f"{d.thread.id}.{len(d.comments)}", body, author, author_type, now)
    d.comments.append(comment)
    return d.update(HistoryEvent(now, "replied", author), updated_at=now)


def _resolved(d: Draft, decision: str | None, wontfix: bool, decider: str, now: str,
             code: Snapshot | None = None) -> Draft:
    """Idempotent: resolving a resolved thread changes nothing and keeps resolved_at. `code`:
    the code where the thread is now (its current position), kept for review-pair exports."""
    t = d.thread
    target = "wontfix" if wontfix else "resolved"
    if t.status == target and (decision is None or (t.decision and t.decision.summary == decision)):
        return d
    resolved_at = t.resolved_at if t.status != "open" and t.resolved_at else now
    dec = Decision(decision, decider, now, target) if decision is not None else t.decision
    snaps = {**t.snapshots, "resolved": code or _snapshot(now, t.anchor)}
    event = HistoryEvent(now, target, decider, {"decision": decision} if decision is not None else {})
    return d.update(event, status=target, resolved_at=resolved_at, decision=dec, updated_at=now, snapshots=snaps)


def _reopened(d: Draft, by: str, now: str) -> Draft:
    """Reopening keeps the earlier decision: it stays on the thread and in its history."""
    t = d.thread
    if t.status == "open":
        return d
    details = {"previous_status": t.status, "previous_resolved_at": t.resolved_at,
               "decision": t.decision.to_dict() if t.decision else None}
    return d.update(HistoryEvent(now, "reopened", by, details), status="open", resolved_at=None, updated_at=now)


def _edited(d: Draft, body: str, by: str, now: str) -> Draft:
    """The first comment's new text. The old one is not kept (the store removes it from the
    thread's file: someone who pasted a secret can take it out)."""
    first = d.comments[0]
    if first.body == body:
        return d
    d.comments[0] = Comment(first.id, body, first.author, first.author_type, first.created_at, now)
    return d.update(HistoryEvent(now, "edited", by), updated_at=now)


def _moved(d: Draft, anchor: Anchor, by: str, now: str) -> Draft:
    """Re-anchored at a place a person or agent chose: it keeps its id, comments and history."""
    was = d.thread.anchor
    event = HistoryEvent(now, "moved", by, {
        "from": {"file": was.file, "line_start": was.line_start, "line_end": was.line_end},
        "to": {"file": anchor.file, "line_start": anchor.line_start, "line_end": anchor.line_end}})
    return d.update(event, anchor=anchor, health="anchored", anchor_method="moved_by_user", anchor_confidence=1.0,
                    updated_at=now)


def replied(t: Thread, body: str, author: str, author_type: str, now: str) -> Thread:
    return _on(t, _replied, body, author, author_type, now)


def resolved(t: Thread, decision: str | None, wontfix: bool, decider: str, now: str,
             code: Snapshot | None = None) -> Thread:
    return _on(t, _resolved, decision, wontfix, decider, now, code)


def reopened(t: Thread, by: str, now: str) -> Thread:
    return _on(t, _reopened, by, now)


def edited(t: Thread, body: str, by: str, now: str) -> Thread:
    return _on(t, _edited, body, by, now)


def moved(t: Thread, anchor: Anchor, by: str, now: str) -> Thread:
    return _on(t, _moved, anchor, by, now)


def _on(t: Thread, rule: Callable[..., Draft], *args: Any) -> Thread:
    """A rule applied to a whole thread (a write, an import): `t` itself when it changes nothing."""
    d = rule(Draft(t), *args)
    return d.done() if d.changed else t


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
