"""One thread file as the store last read it: its committed fold, what reads show, what is
wrong with it. Reading one (`read_entry`) validates everything, as input from other people:
events that do not parse are reported, a damaged file is shown from this checkout's backup
when one exists, and a folded thread that fails the vetting is refused."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from limpet.model import LimpetError, StoreCorrupted, Thread, ThreadNotFound
from limpet.server.store._entrycache import CachedEntry, EntryCache
from limpet.server.store._events import Apply, fold
from limpet.server.store._paths import FileState, file_state
from limpet.server.store._positions import NEVER
from limpet.server.store._threadfiles import EVENTS_SUFFIX, ThreadFiles, restorable, too_new
from limpet.server.store._untrusted import Normalize, bounded, vet_thread

__all__ = ["Entry", "load_entries", "load_entry", "read_entry", "unreadable"]


class Entry:
    """One thread file as last read: the committed fold, what reads show, what is wrong."""

    __slots__ = ("states", "base", "anchor_key", "thread", "checked", "problems", "too_new", "deleted")

    def __init__(self, states: tuple, base: Thread | None, anchor_key: str, problems: tuple[str, ...],
                 too_new: int | None, deleted: bool) -> None:
        self.states = states
        self.base = base  # the thread as its committed events make it (None: deleted or unreadable)
        self.anchor_key = anchor_key  # the event that set the committed anchor
        self.thread: Thread | None = None  # base + derived position: what reads return
        self.checked: tuple[object, str | None] = (NEVER, None)  # (file hash, workspace version) of that position
        self.problems = problems
        self.too_new = too_new
        self.deleted = deleted


def load_entry(files: ThreadFiles, cache: EntryCache, thread_id: str, legacy: bool, apply: Apply,
               backup_dir: Callable[[], Path | None], normalize: Normalize) -> Entry | None:
    """read_entry, or the cached fold of the file when it has not changed since (_entrycache).
    A store that may hold files of the older layout reads everything (rare, and converted on
    the first write)."""
    if legacy:
        return read_entry(files, thread_id, legacy, apply, backup_dir, normalize)
    state = files.states(thread_id, False)[0]
    cached = cache.get(thread_id, state)
    if cached is not None:
        return _from_cache(cached, state)  # type: ignore[arg-type]
    return _read_and_keep(files, cache, thread_id, apply, backup_dir, normalize)


def load_entries(files: ThreadFiles, cache: EntryCache, thread_ids: Iterable[str], apply: Apply,
                 backup_dir: Callable[[], Path | None], normalize: Normalize) -> Iterator[tuple[str, Entry | None]]:
    """(id, load_entry of it) for many threads of a store without files of the older layout:
    what a fresh process does for every thread, so a cache hit costs a stat and a comparison
    here (~1 µs), not the calls of load_entry."""
    hits = cache.entries()
    prefix = files.prefix
    lstat = os.lstat
    for thread_id in thread_ids:
        cached = hits.get(thread_id)
        if cached is not None:
            try:
                state = file_state(lstat(prefix + thread_id + EVENTS_SUFFIX))
            except OSError:
                state = None
            if state is not None and cached.state == state:
                yield thread_id, _from_cache(cached, state)
                continue
        yield thread_id, _read_and_keep(files, cache, thread_id, apply, backup_dir, normalize)


def _from_cache(cached: CachedEntry, state: FileState) -> Entry:
    return Entry((state, None), cached.thread, cached.key, (), None, cached.deleted)


def _read_and_keep(files: ThreadFiles, cache: EntryCache, thread_id: str, apply: Apply,
                   backup_dir: Callable[[], Path | None], normalize: Normalize) -> Entry | None:
    """read_entry, its clean result kept in the cache for other processes."""
    entry = read_entry(files, thread_id, False, apply, backup_dir, normalize)
    if entry is not None and not entry.problems and entry.too_new is None and entry.states[0] is not None \
            and (entry.base is not None or entry.deleted):
        cache.put(thread_id, entry.states[0], entry.anchor_key, entry.deleted, entry.base)
    return entry


def read_entry(files: ThreadFiles, thread_id: str, legacy: bool, apply: Apply,
               backup_dir: Callable[[], Path | None], normalize: Normalize) -> Entry | None:
    """The thread file's entry (None: gone since its folder was listed)."""
    states, parsed, _data = files.read(thread_id, legacy)
    if all(s is None for s in states) and not parsed.problems:
        return None
    problems = list(parsed.problems)
    if parsed.too_new is not None:  # a newer limpet's events may change what the rest means
        problems.append(f"written by a newer limpet (schema {parsed.too_new}): not read, left as it is")
        return Entry(states, None, "", tuple(problems), parsed.too_new, False)
    base, key, deleted = fold(apply, thread_id, parsed.events, problems)
    if base is None and not deleted and (problems or not parsed.events):
        restored = restorable(backup_dir(), thread_id, parsed.events)  # a damaged file: this checkout's last copy
        if restored:
            base, key, deleted = fold(apply, thread_id, [*parsed.events, *restored], [])
            if base is not None:
                problems.append("shown from this checkout's backup (the file itself is damaged)")
    if base is not None:
        if (anchor := bounded(base.anchor)) is not base.anchor:
            base = base.evolve(anchor=anchor)
        try:
            vet_thread(base, normalize)
        except ValueError as exc:
            problems.append(f"refused: {exc}")
            base = None
    if base is None and not deleted and not problems:
        problems.append("no event creates this thread (a reply or change whose thread is not here)")
    return Entry(states, base, key, tuple(problems), parsed.too_new, deleted)


def unreadable(thread_id: str, entry: Entry | None, field: str = "thread_id") -> LimpetError:
    """Why a thread cannot be shown: written by a newer limpet, damaged, or not there."""
    if entry is not None and entry.too_new is not None:
        return too_new(thread_id, entry.too_new)
    if entry is not None and entry.problems and not entry.deleted:
        return StoreCorrupted(
            f"Thread {thread_id}'s file is damaged and was kept as it is: {entry.problems[0]}",
            field=field, details={"thread_id": thread_id, "file": f".limpet/threads/{thread_id}{EVENTS_SUFFIX}",
                                  "recovered": False, "problems": list(entry.problems)},
            suggestion="Repair or remove the file (see `limpet reconcile` for every problem).")
    return ThreadNotFound(f"Thread not found: {thread_id}", field=field, details={"thread_id": thread_id})
