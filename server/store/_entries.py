"""Loading threads: each thread file's entry, read from the file or from the thread cache.

An entry is one thread file as the store last read it: its committed fold, what reads show,
what is wrong with it. Reading one (`read_entry`) validates everything, as input from other people:
events that do not parse are reported, a damaged file is shown from this checkout's backup
when one exists, and a folded thread that fails the vetting is refused.

The thread cache: folded threads kept between processes, so a fresh process does not
re-read unchanged files. Reading a thread file means reading it, decoding and checking every event, folding them and
vetting the result: ~50 µs a thread, most of a big store's load. What that gives for a file
depends only on the file's bytes, so the private folder (see _layout: never committed) keeps
the result per thread, with the stat of the file it came from:

    <private>/threads.cache       a header {version, schema, code}, then chunks of
                                  {thread id: [stat, key, deleted, thread]}, each msgpack,
                                  each after its length (a reader holds one chunk at a time)

An entry is used only while its file's stat (size, mtime, inode, ctime: ctime changes on any
write, even one that restores the mtime) is the same; any other file is read and checked as
usual. Only clean results are kept (no problems, nothing newer, no file of the older layout),
and never one of a file written in the last seconds: a write within the file system's clock
tick could leave the stat unchanged (git's "racily clean" files). The cache was checked when
its files were read; anything wrong with it (damaged, another version, unreadable) counts as
no cache. It is written again only when enough of it was missing, and atomically (readers
see the old file or the new one); two processes writing it at once each write a valid one.

Loading many long-lived objects pauses the cyclic collector (`gc_paused`): it would rescan
them all, again and again, while they are made.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

import msgspec

from limpet.model import LimpetError, StoreCorrupted, Thread, ThreadNotFound
from limpet.server.store._confined import Confined, Unconfined
from limpet.server.store._derived import NEVER
from limpet.server.store._events import STORE_SCHEMA, Apply, fold
from limpet.server.store._paths import FileState, file_state
from limpet.server.store._threadfiles import EVENTS_SUFFIX, ThreadFiles, restorable, too_new
from limpet.server.store._untrusted import Normalize, bounded, log, vet_thread

__all__ = ["CachedEntry", "Entry", "EntryCache", "code_key", "collect_released", "gc_paused",
           "leave_frozen_at_exit", "load_entries", "load_entry", "read_entry", "unreadable"]


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
    """read_entry, or the cached fold of the file when it has not changed since (the thread cache).
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
    lstat = os.lstat
    with files.held() as folder:
        fd = folder.fd if folder is not None else None
        for thread_id in thread_ids:
            cached = hits.get(thread_id)
            if cached is not None and fd is not None:
                try:
                    state = file_state(lstat(thread_id + EVENTS_SUFFIX, dir_fd=fd))
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


# -- the thread cache (threads.cache in the private folder) ----------------------------------------
_VERSION = 1
_NAME = "threads.cache"
_MAGIC = b"LIMPETC1"
_CHUNK = 1000  # entries per chunk
_LENGTH = 4  # bytes of a chunk's length (big-endian)
_MIN_MISSES = 64  # a rewrite costs a write of the whole cache: not for a handful of files


class CachedEntry(msgspec.Struct, array_like=True, frozen=True):
    state: tuple[int, int, int, int]  # FileState of the events file
    key: str  # the event that set the committed anchor
    deleted: bool
    thread: Thread | None


class _Header(msgspec.Struct):
    version: int
    schema: int
    code: list[int]  # code_key of the limpet that folded them


def code_key(*made_by: object) -> list[int]:
    """Size and mtime of the source files defining `made_by` (the fold's rules, the model, the
    checks): a limpet upgraded or edited since the cache was written folds every file anew."""
    out: list[int] = []
    for thing in made_by:
        path = getattr(sys.modules.get(getattr(thing, "__module__", "")), "__file__", None)
        try:
            st = os.stat(path)  # type: ignore[arg-type]
        except (OSError, TypeError):
            out += [0, 0]
            continue
        out += [st.st_size, st.st_mtime_ns]
    return out


_HEADER = msgspec.msgpack.Decoder(_Header)
_CHUNKS = msgspec.msgpack.Decoder(dict[str, CachedEntry])
_ENCODER = msgspec.msgpack.Encoder()


class EntryCache:
    """The cached folds of one store; `folder(create)` is the private folder (or None)."""

    def __init__(self, folder: Callable[[bool], Confined | None], code: list[int]) -> None:
        self._folder = folder
        self._code = code
        self._entries: dict[str, CachedEntry] | None = None  # loaded on first use
        self._fresh: dict[str, CachedEntry] = {}  # read from files since the cache was loaded

    def get(self, thread_id: str, state: FileState | None) -> CachedEntry | None:
        """The cached fold of the thread's file, when the file is as it was then."""
        if state is None:
            return None
        entries = self._load()
        cached = entries.get(thread_id)
        if cached is not None and cached.state == state:
            return cached
        return None

    def entries(self) -> dict[str, CachedEntry]:
        """Every cached fold by thread id (do not mutate); an entry counts only while its
        file's stat equals its `state`."""
        return self._load()

    def put(self, thread_id: str, state: FileState, key: str, deleted: bool, thread: Thread | None) -> None:
        """A clean fold just read from its file (see the docstring for what is kept)."""
        if not state.settled():
            return
        self._fresh[thread_id] = CachedEntry(tuple(state), key, deleted, thread)

    @property
    def worth_saving(self) -> bool:
        entries = self._entries or {}
        return len(self._fresh) >= _MIN_MISSES or (bool(self._fresh) and len(self._fresh) * 10 >= len(entries))

    def save(self, present: Callable[[], set[str]]) -> bool:
        """Write the cache (the loaded entries, updated, for the threads still `present`)."""
        if not self.worth_saving:
            return False
        folder = self._folder(False)  # never the one creating the private folder (reads write nothing else)
        if folder is None:
            return False
        keep = present()
        merged = {tid: e for tid, e in {**self._load(), **self._fresh}.items() if tid in keep}
        try:
            with folder.open(create=True) as held:  # type: ignore[union-attr]  (create: never None)
                held.write_atomic(_NAME, lambda: _encoded(self._code, merged), durable=False)
        except (OSError, Unconfined) as exc:
            log.info("thread cache not written (%s): the next process reads the files", exc)
            return False
        self._entries, self._fresh = merged, {}
        return True

    def _load(self) -> dict[str, CachedEntry]:
        if self._entries is None:
            self._entries = _read(self._folder(False), self._code)
        return self._entries


def _encoded(code: list[int], entries: dict[str, CachedEntry]) -> Iterator[bytes]:
    yield _MAGIC
    yield _framed(_ENCODER.encode(_Header(_VERSION, STORE_SCHEMA, code)))
    ids = list(entries)
    for start in range(0, len(ids), _CHUNK):
        yield _framed(_ENCODER.encode({tid: entries[tid] for tid in ids[start:start + _CHUNK]}))


def _framed(data: bytes) -> bytes:
    return len(data).to_bytes(_LENGTH, "big") + data


def _read(place: Confined | None, code: list[int]) -> dict[str, CachedEntry]:
    if place is None:
        return {}
    try:
        folder = place.open()
        if folder is None:
            return {}
        with folder:
            fh = folder.open_read(_NAME)
    except (OSError, Unconfined):
        return {}
    out: dict[str, CachedEntry] = {}
    try:
        with fh:
            if fh.read(len(_MAGIC)) != _MAGIC:
                return {}
            header = _HEADER.decode(_frame(fh))
            if header.version != _VERSION or header.schema != STORE_SCHEMA or header.code != code:
                return {}
            while (chunk := _frame(fh)) is not None:
                out.update(_CHUNKS.decode(chunk))
    except (OSError, msgspec.DecodeError, ValueError, TypeError, RecursionError) as exc:  # anyone may have made it
        log.info("thread cache not used (%s): the files are read", exc)
        return {}
    return out


def _frame(fh: BinaryIO) -> bytes | None:
    """The next length-prefixed chunk (None at the end; ValueError when cut short)."""
    head = fh.read(_LENGTH)
    if not head:
        return None
    size = int.from_bytes(head, "big")
    data = fh.read(size)
    if len(head) != _LENGTH or len(data) != size:
        raise ValueError("the cache file is cut short")
    return data


# -- the cyclic collector while loading ---------------------------------------------------------
@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Loading a store allocates ~10 objects per thread, all kept: the cyclic collector would
    rescan the growing heap again and again (a third of a cold load). Threads hold no cycles
    (reference counting frees them), so what was loaded is then frozen out of later
    collections too: a server holding 100,000 threads would otherwise rescan a million
    objects on every full collection."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        _unfreeze_at_exit()
        if was:
            gc.enable()


_left_frozen = False


def leave_frozen_at_exit() -> None:
    """The process is about to end (a one-shot command is done): everything it holds is frozen
    and stays so, and the final collection at exit does not rescan every module's objects
    (~10 ms of a fresh `limpet list`, an eighth of it). Reference counting still frees what
    holds no cycle as the interpreter shuts down."""
    global _left_frozen
    _left_frozen = True
    gc.freeze()


@functools.cache
def _unfreeze_at_exit() -> None:
    # Back into the collector's view at exit: the final collection then frees what was frozen
    # (native objects warn about leaks otherwise), unless the process chose to leave it.
    atexit.register(_unfreeze)


def _unfreeze() -> None:
    if not _left_frozen:
        gc.unfreeze()


def collect_released() -> None:
    """A part of a command is done and what it loaded is dropped (one repository of an export
    of many): frozen objects go back into the collector's view and are collected now, so the
    next part starts from the same memory (the store's loads freeze what they load, and a
    service holds reference cycles that only the collector frees)."""
    if not _left_frozen:
        gc.unfreeze()
        gc.collect()
