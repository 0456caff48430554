"""The workspace as a person browses it: the file tree with thread counts, a file's text."""

from __future__ import annotations

import heapq
import threading
import time
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from limpet.model import InvalidArgument, LimpetError, Thread
from limpet.server.core._changes import Change
from limpet.server.core._filters import is_glob
from limpet.server.store import Workspace

__all__ = ["FileListing", "MAX_SOURCE_BYTES", "file_tree", "looks_binary", "missing_file", "source_of", "text_source",
           "thread_counts"]

MAX_SOURCE_BYTES = 4 * 1024 * 1024
_WALK_INSTEAD = 256  # changed paths in one burst beyond which a fresh walk is cheaper
_CONTINUE_S = 2.0  # how old an unwatched walk may be to serve a listing's later pages


class FileListing:
    """The workspace's files as the page's tree lists them: walked once (a stat per file, no
    content read), then kept current from the change feed's disk events for as long as the
    feed watches the disk. Not watching (a one-shot command), or watching since a moment the
    listing has not seen: it walks again rather than trust what may have changed unseen."""

    def __init__(self, ws: Workspace, watch_epoch: Callable[[], int | None]) -> None:
        self._ws = ws
        self._epoch = watch_epoch  # the current watch's number, None while nothing watches
        self._lock = threading.Lock()
        self._present: set[str] | None = None
        self._built_in: int | None = None
        self._sorted: list[str] | None = None
        self._walked = float("-inf")  # when the last whole walk was made (time.monotonic)
        self._counts: tuple[int, dict[str, dict[str, int]]] | None = None  # (store version, counts)

    def counts(self, version: int, threads: Callable[[], Iterable[Thread]]) -> dict[str, dict[str, int]]:
        """thread_counts of the store at `version`, counted once per version (a tree of 20
        pages asks 20 times; shared: do not change it)."""
        with self._lock:
            if self._counts is None or self._counts[0] != version:
                self._counts = (version, thread_counts(threads()))
            return self._counts[1]

    def paths(self, *, continuing: bool = False) -> list[str]:
        """Every file, sorted (the list is shared: do not change it). continuing: for a later
        page of a listing begun from a walk: until the disk watch is armed (a server's first
        second), a walk up to _CONTINUE_S old serves it, so one tree's pages are one walk."""
        with self._lock:
            epoch = self._epoch()
            kept = epoch is not None and epoch == self._built_in
            young = continuing and self._built_in is None and time.monotonic() - self._walked < _CONTINUE_S
            if self._present is None or not (kept or young):
                self._present = set(self._ws.walk_sources(max_bytes=MAX_SOURCE_BYTES))
                self._built_in, self._sorted, self._walked = epoch, None, time.monotonic()
            if self._sorted is None:
                self._sorted = sorted(self._present)
            return self._sorted

    def on_change(self, change: Change) -> None:
        """Files written, created or deleted on disk (a folder: everything below it)."""
        if not change.saved:
            return
        with self._lock:
            if self._present is None:
                return
            if len(change.saved) > _WALK_INSTEAD:  # a checkout or a big generator: walk anew
                self._present = None
                return
            present, moved = self._present, False
            for path in change.saved:
                state = self._ws.state(path)
                if state is not None or path in present:  # a file written, created or deleted
                    keep = state is not None and state.size <= MAX_SOURCE_BYTES
                    moved = moved or keep != (path in present)
                    if keep:
                        present.add(path)
                    else:
                        present.discard(path)
                        if state is None:  # deleted, or replaced by a folder (no file was below it)
                            found = self._ws.walk_sources(max_bytes=MAX_SOURCE_BYTES, under=path)
                            present.update(found)
                else:  # a folder (created, renamed into place), or gone: only then a look at all
                    below, moved = f"{path}/", True
                    present -= {p for p in present if p.startswith(below)}
                    present.update(self._ws.walk_sources(max_bytes=MAX_SOURCE_BYTES, under=path))
            if moved:  # files came or went (an editor's save keeps the sorted list)
                self._sorted = None


def thread_counts(threads: Iterable[Thread]) -> dict[str, dict[str, int]]:
    """file → counts per status and health (and open threads per health)."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for t in threads:
        c = counts[t.anchor.file]
        c["total"] += 1
        c[t.status] += 1
        c[t.health] += 1
        if t.status == "open":
            c[f"open_{t.health}"] += 1
    return {file: dict(c) for file, c in counts.items()}


def file_tree(listing: FileListing, counts: dict[str, dict[str, int]], *, after: str | None = None,
              limit: int | None = None, only: Iterable[str] | None = None,
              threaded: bool = False) -> dict[str, Any]:
    """Workspace files (and every file threads point at) with counts per status and health,
    in path order: the page after path `after`, at most `limit` rows; `only`: just those
    paths (a page patching its tree after a change); `threaded`: just files with threads.
    counts: thread_counts of the threads (of at least the rows asked for)."""
    present = listing.paths(continuing=after is not None)
    if only is not None:
        paths = sorted(set(only))
    elif threaded:
        paths = sorted(counts)
    else:
        extra = sorted(p for p in counts if not _holds(present, p))
        paths = list(heapq.merge(present, extra)) if extra else present
    start = bisect_right(paths, after) if after is not None else 0
    end = len(paths) if limit is None else start + limit
    rows = [{"path": p, "exists": _holds(present, p), "threads": counts.get(p, {})}
            for p in paths[start:end]]
    return {"files": rows, "more": end < len(paths), "total": len(paths),
            "with_threads": len(counts)}


def _holds(sorted_paths: list[str], path: str) -> bool:
    i = bisect_left(sorted_paths, path)
    return i < len(sorted_paths) and sorted_paths[i] == path


_CONTROL = bytes(b for b in range(32) if b not in b"\t\n\r\f\b\x1b")


def looks_binary(data: bytes) -> bool:
    """Not text a thread can anchor to: a NUL byte anywhere (git's own test), or bytes that
    are not UTF-8 and are mostly control characters (a Latin-1 source is still text)."""
    if b"\x00" in data:
        return True
    head = data[:8192]
    try:
        head.decode("utf-8")
        return False
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 4:  # a character cut at the 8 KB boundary
            return False
    controls = len(head) - len(head.translate(None, _CONTROL))
    return controls * 10 > len(head)


def source_of(ws: Workspace, path: str) -> dict[str, Any]:
    """A file's text for display: None (with the reason) when it is binary or too large."""
    rel = ws.normalize(path, "path")
    data = ws.read(rel, "path")
    if len(data) > MAX_SOURCE_BYTES:
        return {"path": rel, "text": None, "binary": False, "too_large": True, "size": len(data)}
    binary = b"\x00" in data[:8192]
    try:
        text = None if binary else data.decode("utf-8")
    except UnicodeDecodeError:
        text, binary = None, True
    return {"path": rel, "text": text, "binary": binary, "too_large": False, "size": len(data)}


def text_source(ws: Workspace, rel: str) -> bytes:
    """A file a thread may anchor to: text, not binary (INVALID_ARGUMENT)."""
    source = ws.read(rel)
    if looks_binary(source):
        raise InvalidArgument(f"{rel} is a binary file: threads anchor to text", field="file",
                              details={"file": rel})
    return source


def missing_file(ws: Workspace, threads_of: Callable[[str], list[Thread]], path: str) -> bool:
    """Whether `path` names no file of the workspace and no thread (a typo: `limpet list
    --file` says so instead of listing nothing); a glob is never missing."""
    if is_glob(path):
        return False
    try:
        rel = ws.normalize(path)
    except LimpetError:
        return True
    return ws.state(rel) is None and not threads_of(rel)
