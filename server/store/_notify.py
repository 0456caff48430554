"""Which files of a folder changed since I last asked: the threads folder's freshness check.

A whole-store read must notice every change to a thread file, including an in-place rewrite
by another program (same folder mtime, maybe the same size), without a stat per thread on
every read (thousands of stats cost milliseconds). On Linux the kernel says exactly what
changed: one inotify instance per process (instances are a scarce per-user resource)
watches each threads folder; every `DirTracker` (one per store object) collects the names
its folder's events carry. Asking costs one ioctl when nothing happened.

`changed()` answers a set of file names, or ALL when it cannot tell (first call, the folder
was replaced or deleted, the kernel's queue overflowed, no inotify): the caller then checks
every file itself. `LIMPET_NO_INOTIFY=1` always answers ALL: for a store on a network file
system, where the kernel does not see other machines' writes.
"""

from __future__ import annotations

import functools
import os
import threading
import weakref
from pathlib import Path
from typing import NamedTuple

from limpet.server.store._untrusted import log

__all__ = ["ALL", "DirTracker"]

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

    def __init__(self, path: Path, *, watch: bool = True) -> None:
        """watch=False: never ask the kernel (a process that reads the folder once and exits:
        the first answer is ALL anyway, and inotify's import is ~8 ms of it)."""
        self.path = str(path)
        self.watch = watch
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
            if _entries_bytes(self.path) <= SMALL_FOLDER_BYTES:
                return ALL
        try:
            st = os.stat(self.path)
            ino = st.st_ino
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
