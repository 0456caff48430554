"""Where each thread is in this checkout: the committed anchor, or the derived position.

A thread's committed events say where a person or agent anchored it; re-anchoring to the
current code gives a derived position (_derived.py keeps them across processes). A derived
row counts only while its `base` is the event that set the committed anchor: once someone
moves the thread, positions derived from the old anchor are ignored. `checked` says what
content a position was computed against; a thread is stale when its file's content hash
differs (NEVER: not computed yet, e.g. an orphan read from the older layout).

A position is current only for a file that exists with the content it was placed against:
a placed thread (anchored, drifted) checked against an absent file (hash None) counts as
never checked, whatever file it points at. Otherwise a thread re-anchored into b.py while
its old file a.py was being checked (absent: renamed) would read as current once a checkout
removes b.py too (absent equals absent), pointing into a file that is not there. Only an
orphan is current for an absent file: there is nothing in it to place the thread on.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from limpet.model import HistoryEvent, Thread
from limpet.server.store._derived import Derived, DerivedCache
from limpet.server.store._untrusted import bounded, vet_anchor

__all__ = ["NEVER", "Checked", "Positions"]

NEVER = object()  # "checked against nothing yet": never equal to a content hash
Checked = tuple[object, str | None]  # (file content hash, workspace version)


class Positions:
    def __init__(self, cache: DerivedCache, normalize: Callable[[str, str], str]) -> None:
        self._cache = cache
        self._normalize = normalize
        self._rows: dict[str, Derived] | None = None  # the derived table, loaded on first use
        self._staged: dict[str, Derived] = {}  # results not yet saved

    def overlay(self, thread_id: str, base: Thread, anchor_key: str) -> tuple[Thread, Checked]:
        """The thread as reads show it: its derived position when one fits its committed anchor."""
        d = self._staged.get(thread_id) or self._loaded().get(thread_id)
        if d is not None and d.base == anchor_key:
            try:
                vet_anchor(d.anchor, self._normalize)  # a private file, but a file all the same
            except ValueError:
                d = None
            else:
                updated = d.moved_at if d.moved_at is not None and d.moved_at > base.updated_at else base.updated_at
                return base.evolve(anchor=bounded(d.anchor), health=d.health, anchor_method=d.method,
                                   anchor_confidence=d.confidence, history=in_time_order(base.history, d.history),
                                   updated_at=updated), \
                    (_current(d.checked, d.health), d.checked_ws)
        return base, (base.anchor.content_hash if base.health != "orphaned" else NEVER, None)

    def stage(self, thread_id: str, anchor_key: str, committed: Thread, updated: Thread, checked: str | None,
              checked_ws: str | None) -> Checked:
        """A re-anchoring result, kept in memory until `flush`."""
        self._staged[thread_id] = Derived(
            base=anchor_key, anchor=updated.anchor, health=updated.health,  # type: ignore[arg-type]
            method=updated.anchor_method, confidence=float(updated.anchor_confidence), checked=checked,
            checked_ws=checked_ws, history=_derived_only(updated.history, committed.history),
            moved_at=updated.updated_at if updated.updated_at > committed.updated_at else None)
        return (_current(checked, updated.health), checked_ws)

    @property
    def pending(self) -> int:
        return len(self._staged)

    def flush(self) -> int:
        """Save staged positions (best effort: it is a cache)."""
        if not self._staged:
            return 0
        staged, self._staged = self._staged, {}
        self._loaded().update(staged)
        return self._cache.save(staged)

    def _loaded(self) -> dict[str, Derived]:
        if self._rows is None:
            self._rows = self._cache.load()
        return self._rows


def _current(checked: str | None, health: str) -> object:
    """What a position counts as checked against: an absent file (None) only for an orphan."""
    return NEVER if checked is None and health != "orphaned" else checked


def in_time_order(committed: tuple[HistoryEvent, ...], derived: tuple[HistoryEvent, ...]) -> tuple[HistoryEvent, ...]:
    """A thread's history as reads show it: what people and agents did and where limpet moved
    it, oldest first (a re-anchoring before a later reply is listed before it)."""
    if not derived:
        return committed
    return tuple(sorted((*committed, *derived), key=attrgetter("at")))  # stable: ties keep their order


def _derived_only(history: tuple[HistoryEvent, ...], committed: tuple[HistoryEvent, ...]) -> tuple[HistoryEvent, ...]:
    """The entries of `history` re-anchoring added: those that are not the committed ones
    (the very objects: the overlay shows the committed history's own)."""
    ids = {id(h) for h in committed}
    return tuple(h for h in history if id(h) not in ids)
