"""A thread from its events: the fold, and where a new event goes in the order."""

from __future__ import annotations

from typing import Any, Protocol

from limpet.model import MAX_MERGES, Thread
from limpet.server.store._events import Event, event_order

__all__ = ["Apply", "fold", "stamped"]


class Apply(Protocol):
    """The core's rules for events (limpet.server.core's RULES): one event applied to a thread
    (a write), and the fold's steps on a draft that grows in place (a fold is linear in its
    events: N replies cost N appends, not N copies of ever longer tuples)."""

    def __call__(self, thread: Thread | None, thread_id: str, event: Event, /) -> Thread | None: ...

    def step(self, draft: Any, thread_id: str, event: Event, /) -> Any: ...  # None: no thread (yet, or deleted)

    def done(self, draft: Any, /) -> Thread: ...

    def undeleted(self, draft: Any, deletion: Event, unseen: list[Event], /) -> Any: ...


def fold(apply: Apply, thread_id: str, events: list[Event], problems: list[str]) -> tuple[Thread | None, str, bool]:
    """(the thread, the id of the event that set its committed anchor, whether it was deleted).
    Events apply in (at, seq, id) order; one the rules refuse is reported and skipped. A
    deletion ends the thread, unless the file holds events it did not see (a reply merged in
    from a branch that had the thread: its `seq` is not below the deletion's): then the thread
    stays, with those replies and a `deleted` entry in its history, and a person decides
    (delete it again, or keep it). A snapshot that merges a whole thread costs a pass over it:
    past MAX_MERGES of them, the rest are reported, not applied."""
    draft: Any = None
    key, deleted, merges = "", False, 0
    ordered = sorted(events, key=event_order)
    for event in ordered:
        if deleted:
            break
        if event.event == "snapshot" and event.mode != "replace" and draft is not None:
            merges += 1
            if merges > MAX_MERGES:
                problems.append(f"event {event.id} (snapshot) not applied: more than {MAX_MERGES} merges "
                                "(MAX_MERGES)")
                continue
        if event.event == "deleted":
            unseen = [e for e in ordered if e.seq >= event.seq and e.event != "deleted"]
            if unseen:
                if draft is None:  # the merge brought replies, not the thread they answer
                    problems.append(f"deleted by {event.by} at {event.at}, yet {len(unseen)} later event(s) "
                                    f"({', '.join(sorted({e.event for e in unseen}))}) were merged in: kept in the "
                                    "file, not shown (the deletion removed the thread's text)")
                else:
                    draft = apply.undeleted(draft, event, unseen)
                    continue
        try:
            after = apply.step(draft, thread_id, event)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
            problems.append(f"event {event.id} ({event.event}) not applied: {exc}")
            continue
        deleted = event.event == "deleted"
        if after is not None and (event.anchor is not None or event.event == "snapshot"):
            key = event.id
        draft = after
    return (apply.done(draft) if draft is not None else None), key, deleted


def stamped(event: Event, existing: list[Event]) -> Event:
    """The event placed after everything the writer saw: `seq` one past the highest and `at`
    never before the latest (a clock behind another machine's still orders causally)."""
    if not existing:
        return event
    latest = max(e.at for e in existing)
    seq = max(e.seq for e in existing) + 1
    return event.replace(seq=max(seq, event.seq), at=max(latest, event.at))
