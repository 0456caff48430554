"""Write-behind for re-anchoring results.

Re-anchoring is derived data: a thread's new position can always be recomputed from the
anchor on disk. So a reconcile does not rewrite hundreds of thread files on the caller's
clock: it stages the new positions in memory (this process reads them at once) and they are
written later, when the server is idle, when the CLI command ends, or with the thread's next
real write. Flushing is a compare-and-swap under the store lock: a staged position is
written only if the thread's anchor on disk is still the one it was derived from, so it can
never overwrite another process's newer move or lose its comments.
"""

from __future__ import annotations

from dataclasses import dataclass

from limpet.model import Anchor, HistoryEvent, Thread

__all__ = ["StagedPositions", "merge_staged"]


@dataclass
class _Staged:
    origin: Anchor  # the anchor on disk the new position was derived from
    thread: Thread  # the re-anchored thread as this process sees it
    events: tuple[HistoryEvent, ...]


class StagedPositions:
    def __init__(self) -> None:
        self._entries: dict[str, _Staged] = {}

    def __bool__(self) -> bool:
        return bool(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def stage(self, base: Thread, updated: Thread) -> None:
        previous = self._entries.get(base.id)
        origin = previous.origin if previous else base.anchor
        events = (previous.events if previous else ()) + updated.history[len(base.history):]
        self._entries[base.id] = _Staged(origin, updated, events)

    def discard(self, thread_id: str) -> None:
        self._entries.pop(thread_id, None)

    def take(self) -> list[tuple[str, _Staged]]:
        """Every staged entry, by thread id, leaving none behind (the store writes them)."""
        entries, self._entries = self._entries, {}
        return sorted(entries.items())


def merge_staged(disk: Thread, entry: _Staged) -> Thread | None:
    """The staged position applied to the thread as it is on disk now, or None when the
    disk's anchor is no longer the one the position was derived from (moved or re-anchored
    elsewhere since: ours is stale)."""
    if disk.anchor != entry.origin:
        return None
    return disk.evolve(
        anchor=entry.thread.anchor,
        health=entry.thread.health,
        anchor_method=entry.thread.anchor_method,
        anchor_confidence=entry.thread.anchor_confidence,
        history=disk.history + entry.events,
    )
