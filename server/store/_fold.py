"""A thread from its events: the fold, and where a new event goes in the order."""

from __future__ import annotations

from collections.abc import Callable

from limpet.model import Thread
from limpet.server.store._events import Event, event_order

__all__ = ["Apply", "fold", "stamped"]

Apply = Callable[[Thread | None, str, Event], Thread | None]  # the core's rule for one event


def fold(apply: Apply, thread_id: str, events: list[Event], problems: list[str]) -> tuple[Thread | None, str, bool]:
    """(the thread, the id of the event that set its committed anchor, whether it was deleted).
    Events apply in (at, seq, id) order; one the rules refuse is reported and skipped; after
    a deletion nothing brings the thread back (a reply merged in from another branch stays
    in the file, never shown)."""
    thread: Thread | None = None
    key, deleted = "", False
    for event in sorted(events, key=event_order):
        if deleted:
            break
        try:
            after = apply(thread, thread_id, event)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            problems.append(f"event {event.id} ({event.event}) not applied: {exc}")
            continue
        deleted = event.event == "deleted"
        if after is not None and (event.anchor is not None or event.event == "snapshot"):
            key = event.id
        thread = after
    return thread, key, deleted


def stamped(event: Event, existing: list[Event]) -> Event:
    """The event placed after everything the writer saw: `seq` one past the highest and `at`
    never before the latest (a clock behind another machine's still orders causally)."""
    if not existing:
        return event
    latest = max(e.at for e in existing)
    seq = max(e.seq for e in existing) + 1
    return event.replace(seq=max(seq, event.seq), at=max(latest, event.at))
