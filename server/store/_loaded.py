"""What a process holds of the store between reads, and how it knows it is still current.

`ThreadOrder`: the store's threads in reading order, kept up to date as threads change. Two
derived views of the cached threads: every thread sorted by (file, line, id), and the
same grouped by file. A write changes them in place of a re-sort: the thread is taken out
of its old place and inserted at its new one (bisect), so a write to a store of 100,000
threads costs a list insertion, not a sort of everything. Re-anchoring stages many moves at
once; those files are re-sorted once, when the order is next read.

`by_file` hands out its dict and lists: once handed out they are replaced, never mutated.

`PlacedFiles`: which threads of a file were placed against which content of it (the stale
check's per-file summary).

`DirTracker`: which files of a folder changed since I last asked (the threads folder's
freshness check). A whole-store read must notice every change to a thread file, including an in-place rewrite
by another program (same folder mtime, maybe the same size), without a stat per thread on
every read (thousands of stats cost milliseconds). On Linux the kernel says exactly what
changed: one inotify instance per process (instances are a scarce per-user resource)
watches each threads folder; every `DirTracker` (one per store object) collects the names
its folder's events carry. Asking costs one ioctl when nothing happened.

`changed()` answers a set of file names, or ALL when it cannot tell (first call, the folder
was replaced or deleted, the kernel's queue overflowed, no inotify): the caller then checks
every file itself. `LIMPET_NO_INOTIFY=1` always answers ALL: for a store on a network file
system, where the kernel does not see other machines' writes.

`FolderChanges`: the same question for the workspace files threads are on, one tracker per
folder holding them: a reconcile of the whole store stats only the files an event named
since they were last looked at, not every file with threads.
"""

from __future__ import annotations

import functools
import os
import stat
import threading
import weakref
from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Mapping
from operator import attrgetter
from pathlib import Path
from typing import NamedTuple

from limpet.model import Thread
from limpet.server.store._derived import NEVER
from limpet.server.store._entries import Entry
from limpet.server.store._untrusted import log

__all__ = ["ALL", "DirTracker", "FolderChanges", "PlacedFiles", "ThreadOrder", "position"]


_FEW = 64  # see ThreadOrder.added


# (file, line, id) of a thread: a listing's order. attrgetter builds the tuple in C (a sort
# of 100,000 threads calls it 100,000 times).
position: Callable[[Thread], tuple[str, int, str]] = attrgetter("anchor.file", "anchor.line_start", "id")
_in_file: Callable[[Thread], tuple[int, str]] = attrgetter("anchor.line_start", "id")


class ThreadOrder:
    def __init__(self, current: Callable[[], Iterable[Thread]], lookup: Callable[[str], Thread]) -> None:
        self._current = current  # every cached thread, any order
        self._lookup = lookup  # a cached thread by id
        self._sorted: list[Thread] | None = None
        self._by_file: dict[str, list[Thread]] | None = None
        self._restage: set[str] = set()  # files whose threads moved within them (staged)
        self._shared = False  # _by_file was handed out: copy the dict before changing it
        self.version = 0  # bumped by every change: derived selections can be cached against it

    def changed(self, old: Thread | None, new: Thread | None) -> None:
        """One thread replaced (`old` and `new`), added (old None) or removed (new None)."""
        self.version += 1
        if self._restage:
            self._apply_restage()
        if self._sorted is not None:
            if old is not None and not _remove(self._sorted, old):
                self._sorted = None
            if new is not None and self._sorted is not None:
                insort(self._sorted, new, key=position)
        if self._by_file is not None:
            by_file = dict(self._by_file) if self._shared else self._by_file
            self._shared = False
            if old is not None:
                kept = [t for t in by_file.get(old.anchor.file, ()) if t.id != old.id]
                if kept:
                    by_file[old.anchor.file] = kept
                else:
                    by_file.pop(old.anchor.file, None)
            if new is not None:
                threads = list(by_file.get(new.anchor.file, ()))
                insort(threads, new, key=position)
                by_file[new.anchor.file] = threads
            self._by_file = by_file

    def added(self, threads: list[Thread]) -> None:
        """Many threads added at once (a store's load): `changed(None, t)` for each, but past a
        few dozen the order is dropped and rebuilt when next read (one sort, not an insertion
        per thread)."""
        if len(threads) <= _FEW:
            for t in threads:
                self.changed(None, t)
            return
        self.version += 1
        self._sorted = self._by_file = None
        self._restage.clear()
        self._shared = False

    def moved_within(self, old: Thread, path: str) -> bool:
        """A staged move inside `path` (the cache already holds the new thread): re-sort that
        file when next read. False when it cannot be deferred (the caller calls `changed`)."""
        if self._by_file is None or old.anchor.file != path or path not in self._by_file:
            return False
        self.version += 1
        self._restage.add(path)
        return True

    def sorted(self) -> list[Thread]:
        """Every thread by (file, line, id): a new list the caller may keep."""
        if self._restage:
            self._apply_restage()
        if self._sorted is None:
            by_file = self._by_file if self._by_file is not None else self._grouped()
            self._sorted = [t for path in sorted(by_file) for t in by_file[path]]
        return list(self._sorted)

    def by_file(self) -> dict[str, list[Thread]]:
        """file → its threads by line (do not mutate)."""
        if self._restage:
            self._apply_restage()
        if self._by_file is None:
            self._grouped()
        self._shared = True
        return self._by_file  # type: ignore[return-value]

    def _grouped(self) -> dict[str, list[Thread]]:
        """Build `_by_file` from the threads: grouped by file first, then each file's few
        threads sorted by (line, id) — at 100,000 threads ~3× faster than one sort by
        (file, line, id), whose comparisons mostly find two equal paths first."""
        by_file: dict[str, list[Thread]] = {}
        if self._sorted is not None:
            for t in self._sorted:
                by_file.setdefault(t.anchor.file, []).append(t)
        else:
            for t in self._current():
                by_file.setdefault(t.anchor.file, []).append(t)
            for threads in by_file.values():
                threads.sort(key=_in_file)
        self._by_file, self._shared = by_file, False
        return by_file

    def _apply_restage(self) -> None:
        # New lists in a new dict: callers may still hold the old ones.
        by_file = dict(self._by_file or {})
        for path in self._restage:
            by_file[path] = sorted((self._lookup(t.id) for t in by_file[path]), key=position)
        self._restage.clear()
        self._by_file, self._shared = by_file, False
        self._sorted = None  # rebuilt from by_file, without a sort, when next read


def _remove(ordered: list[Thread], thread: Thread) -> bool:
    """Take `thread` (by id, at its position) out of `ordered`; False if it is not there."""
    i = bisect_left(ordered, position(thread), key=position)
    while i < len(ordered) and position(ordered[i]) == position(thread):
        if ordered[i].id == thread.id:
            del ordered[i]
            return True
        i += 1
    return False


# -- which threads of a file were placed against which content of it ------------------------------
_MIXED = object()  # a file whose threads were placed against different contents (no digest is it)


class PlacedFiles:
    """Per file, the content hash every one of its threads was placed against when the store
    was loaded (None when the file was gone), until one of them changes. A file found so is
    checked by one lookup: a first look at each of a hundred threads of a big store is a cache
    miss each (~1 µs), most of a search's cost on a file it had not touched."""

    def __init__(self) -> None:
        self._uniform: dict[str, object] = {}
        self._changed: set[str] = set()  # files a thread of which changed: never summed up again

    def loaded(self, file: str, checked: object) -> None:
        """A thread of `file` loaded, placed against content `checked`. A file one of whose
        threads changed is not summed up again: a later load (another process's new thread)
        sees only its own threads, not the changed one's placement."""
        if file in self._changed:
            return
        if self._uniform.setdefault(file, checked) != checked:
            self._uniform[file] = _MIXED

    def changed(self, *threads: Thread | None) -> None:
        for thread in threads:
            if thread is not None:
                self._uniform.pop(thread.anchor.file, None)
                self._changed.add(thread.anchor.file)

    def stale(self, entries: Mapping[str, Entry], path: str, threads: list[Thread], digest: str | None,
              ) -> list[Thread]:
        """The threads of `path` whose position was not computed against content `digest`."""
        if self._uniform.get(path, NEVER) == digest:
            return []
        return [t for t in threads if (e := entries.get(t.id)) is None or e.checked[0] != digest]


# -- which files of a folder changed since I last asked (inotify) ---------------------------------
ALL = None  # "anything may have changed"

class _Api(NamedTuple):
    INotify: type
    mask: int
    gone: int
    overflow: int
    ignored: int


@functools.cache
def _api() -> _Api | None:
    """inotify_simple, imported when the first watch is set: its library lookup (ctypes.util)
    costs a command that never asks twice ~15 ms. None where there is no inotify (not Linux):
    every whole-store read then checks every file (correct, slower)."""
    try:
        from inotify_simple import INotify
        from inotify_simple import flags as f
    except ImportError:  # pragma: no cover - not Linux
        return None
    mask = (f.CREATE | f.DELETE | f.MODIFY | f.CLOSE_WRITE | f.MOVED_FROM | f.MOVED_TO | f.ATTRIB
            | f.DELETE_SELF | f.MOVE_SELF | f.ONLYDIR)
    return _Api(INotify, mask, f.IGNORED | f.DELETE_SELF | f.MOVE_SELF | f.UNMOUNT, f.Q_OVERFLOW, f.IGNORED)


class _Hub:
    """The process's one inotify instance and the trackers listening to each watch."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.inotify = None
        self.failed = False
        self.listeners: dict[int, weakref.WeakSet[DirTracker]] = {}

    def watch(self, tracker: DirTracker, path: str) -> int | None:
        if self.failed or os.environ.get("LIMPET_NO_INOTIFY"):  # e.g. NFS: other machines' writes go unseen
            return None
        try:
            api = _api()
            if api is None:
                self.failed = True
                return None
            if self.inotify is None:
                self.inotify = api.INotify(nonblocking=True)
            wd = self.inotify.add_watch(path, api.mask)
        except OSError as exc:  # no instances or watches left, or the folder is gone
            if self.inotify is None:
                self.failed = True
                log.info("no inotify (%s): whole-store reads check every thread file", exc)
            return None
        self.listeners.setdefault(wd, weakref.WeakSet()).add(tracker)
        return wd

    def drain(self) -> None:
        """Hand the pending events to the trackers they concern (caller holds the lock)."""
        api = _api()
        if self.inotify is None or api is None:
            return
        try:
            events = list(self.inotify.read(timeout=0))
        except OSError:
            events = []
        for event in events:
            if event.mask & api.overflow:
                for trackers in self.listeners.values():
                    for tracker in trackers:
                        tracker.pending = ALL
                continue
            trackers = self.listeners.get(event.wd)
            if not trackers:
                continue
            gone = bool(event.mask & api.gone)
            if gone and event.mask & api.ignored:
                self.listeners.pop(event.wd, None)  # the kernel dropped the watch
            for tracker in trackers:
                if gone:
                    tracker.pending, tracker.wd = ALL, None
                elif tracker.pending is not ALL and event.name:
                    tracker.pending.add(event.name)


_HUB = _Hub()

# A folder's own size grows with its entries (ext4: a 4 KiB block per ~100 thread files;
# tmpfs: ~20 bytes an entry): below this, a few hundred threads, a rescan is cheaper than a watch.
SMALL_FOLDER_BYTES = 16 * 1024


def _entries_bytes(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


class DirTracker:
    """Changes to the files directly inside one folder, as seen by one reader."""

    def __init__(self, path: Path, *, watch: bool = True, at_once: bool = False) -> None:
        """watch=False: never ask the kernel (a process that reads the folder once and exits:
        the first answer is ALL anyway, and inotify's import is ~8 ms of it). at_once: watch
        from the first look, however small the folder (its owner will ask again)."""
        self.path = str(path)
        self.watch = watch
        self.at_once = at_once
        self.wd: int | None = None
        self.ino: int | None = None
        self.pending: set[str] | None = ALL
        self.asked = False

    def changed(self) -> set[str] | None:
        """Names changed since the last call, or ALL. Checks that the folder is still the
        one being watched (a checkout may have removed and recreated it).

        A small folder is watched from the second ask on: the first answer is ALL either way,
        a command that reads once and exits (`limpet list`) then never loads inotify (~8 ms),
        and a second full look at a small folder costs less than that. A big one is watched
        from the first ask: a second full look at 20,000 thread files would cost far more."""
        if not self.watch:
            return ALL
        if not self.asked:
            self.asked = True
            if not self.at_once and _entries_bytes(self.path) <= SMALL_FOLDER_BYTES:
                return ALL
        try:
            ino = os.stat(self.path).st_ino
        except OSError:
            ino = None
        with _HUB.lock:
            _HUB.drain()
            if ino is None or ino != self.ino or self.wd is None:
                self.pending = ALL
                self.ino = ino
                self.wd = _HUB.watch(self, self.path) if ino is not None else None
                if self.wd is not None:
                    _HUB.drain()  # events queued before the watch moved are no longer ours
                    self.pending = ALL
            out, self.pending = self.pending, (set() if self.wd is not None else ALL)
        return out


class FolderChanges:
    """Workspace files no kernel event named since they were last looked at (one DirTracker per
    folder, watching from its first look). Only a regular file of one link counts: a write
    through a symlink or another link lands in a folder nobody watches. Calls are serialized."""

    def __init__(self, root: str, *, watch: bool = True) -> None:
        self._root = root
        self._watch = watch  # False: a process that looks once (every answer is "look again")
        self._trackers: dict[str, DirTracker] = {}
        self._quiet: dict[str, set[str]] = {}  # folder -> its quiet files' names

    def settle(self, paths: Iterable[str]) -> set[str]:
        """Of `paths`, those no event named since `looked_at` (the kernel asked once a folder)."""
        if not self._watch:
            return set()
        out: set[str] = set()
        folders: dict[str, list[str]] = {}
        for path in paths:
            folder, _, name = path.rpartition("/")
            folders.setdefault(folder, []).append(name)
        for folder, names in folders.items():
            tracker = self._trackers.get(folder)
            if tracker is None:  # (a process that looks once has watch=False: never here)
                tracker = self._trackers[folder] = DirTracker(Path(self._root, folder), at_once=True)
            changed = tracker.changed()
            quiet = self._quiet.get(folder)
            if changed is ALL or quiet is None:
                self._quiet.pop(folder, None)
                continue
            quiet -= changed
            prefix = f"{folder}/" if folder else ""
            out.update(prefix + name for name in names if name in quiet)
        return out

    def looked_at(self, path: str) -> None:
        """`path` was just stat'ed (its hash is current as of now): quiet until an event names
        it, if its folder is watched and it is a regular file of one link."""
        folder, _, name = path.rpartition("/")
        tracker = self._trackers.get(folder)
        if tracker is None or tracker.wd is None:
            return
        try:
            st = os.lstat(os.path.join(self._root, path))
        except OSError:
            return
        if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
            self._quiet.setdefault(folder, set()).add(name)
