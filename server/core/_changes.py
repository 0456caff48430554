"""One feed of what changed, for every door that shows live state (MCP subscriptions, the
web page's events, the editor).

Two sources, one stream of `Change`s:

* the service's own writes, in this process: whose threads changed, or the review;
* while any door is `watching()`, the workspace on disk (store.watch_workspace): files an
  editor or git wrote, and thread files other processes (the CLI, another server) wrote.

The disk watcher is one thread per service, started by the first door that watches and
stopped with the last. Thread files this process wrote itself arrive twice (as a write and
as a file event); the feed drops that echo (the file on disk is the version this process
holds), so doors see each change once.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import msgspec

from limpet.server.store import LazyLogger, classify, watch_workspace

__all__ = ["Change", "ChangeFeed", "ChangeListener"]

log = LazyLogger("limpet.changes")  # logging loads when something is logged


class Change(msgspec.Struct, frozen=True):
    files: frozenset[str] = frozenset()  # workspace files whose threads (or content) changed
    saved: frozenset[str] = frozenset()  # of those, files written on disk (by an editor, git, ...)
    store: bool = False  # other processes wrote or deleted thread files (which files: read the store)
    review: bool = False  # the current review changed
    thread_ids: frozenset[str] = frozenset()  # threads written or deleted, when known


ChangeListener = Callable[[Change], None]


class ChangeFeed:
    def __init__(self, root: Path, known: Callable[[str], bool]) -> None:
        self._root = root
        self._known = known  # is this thread file on disk the version this process holds?
        self._listeners: list[ChangeListener] = []
        self._lock = threading.Lock()
        self._watchers = 0
        self._stop: threading.Event | None = None
        self._epoch = 0  # one number per span of watching: state kept from events knows its span
        self._armed = 0  # the span whose disk watch is in place (events before it are not seen)

    def subscribe(self, listener: ChangeListener) -> Callable[[], None]:
        """Call `listener` (from any thread) with every change; returns the unsubscribe."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock, contextlib.suppress(ValueError):
                self._listeners.remove(listener)

        return unsubscribe

    def publish(self, change: Change) -> None:
        """Tell every listener. Called after a write landed: a listener's failure is logged,
        never reported as the write's (a retry would write it twice)."""
        if change.files or change.store or change.review:
            for listener in list(self._listeners):
                try:
                    listener(change)
                except Exception:
                    log.warning("a change listener failed", exc_info=True)

    # -- the disk --------------------------------------------------------------------------
    def watch_epoch(self) -> int | None:
        """Which span of watching the disk this is (None: not watching). State kept up to date
        from disk events is complete only within the span it was built in."""
        with self._lock:
            return self._epoch if self._watchers and self._armed == self._epoch else None

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        """Report what other processes change on disk while this is held (reference counted)."""
        with self._lock:
            self._watchers += 1
            if self._watchers == 1:
                self._epoch += 1
                self._stop = threading.Event()
                threading.Thread(target=self._watch, args=(self._stop, self._epoch), name="limpet-watch",
                                 daemon=True).start()
        try:
            yield
        finally:
            with self._lock:
                self._watchers -= 1
                if self._watchers == 0 and self._stop is not None:
                    self._stop.set()
                    self._stop = None

    def _watch(self, stop: threading.Event, epoch: int) -> None:
        try:
            for paths in watch_workspace(self._root, stop):
                if self._armed != epoch:
                    with self._lock:
                        self._armed = max(self._armed, epoch)
                if paths:
                    self._from_disk(paths)
        except Exception:  # live updates are a convenience: a failure must not take a door down
            log.warning("not watching the workspace for changes by other processes", exc_info=True)

    def _from_disk(self, paths: Iterable[str]) -> None:
        changes = classify(paths)
        foreign = frozenset(i for i in changes.thread_ids if not self._known(i))
        review = any(d.startswith(".limpet/reviews/") for d in changes.documents)
        self.publish(Change(files=changes.sources, saved=changes.sources, store=bool(foreign), review=review,
                            thread_ids=foreign))
