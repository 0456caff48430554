"""Content hashes of workspace files kept between processes, each with the stat it was
computed at.

Whether a thread's position is current depends on its file's content hash; computing it
means reading the file. A fresh process (every CLI command) would read and hash every file
that has threads, which for an export of a large store is most of its time. The derived
cache (_derived.py, in the private folder) keeps each hash with the file's stat (size,
mtime, inode, ctime); a later process trusts it while the stat is the same, as git trusts
its index. A hash computed in the seconds after the file was written is not kept: a second
write within the file system's clock tick could leave the stat unchanged ("racily clean").
Rows are checked as they are read (a private file, but a file all the same): a row that does
not parse counts as absent.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable

from limpet.server.store._derived import DerivedCache
from limpet.server.store._paths import FileState

__all__ = ["FileHashes"]

_HASH = re.compile(r"[0-9a-f]{16,128}")


class FileHashes:
    """path -> (stat, content hash) from earlier processes, and the ones to keep for later."""

    def __init__(self, cache: DerivedCache) -> None:
        self._cache = cache
        self._known: dict[str, tuple[FileState, str] | None] = {}  # rows looked up so far (None: no usable row)
        self._fresh: dict[str, tuple[FileState, str]] = {}
        self._lock = threading.Lock()

    def get(self, rel: str, state: FileState) -> str | None:
        """The hash an earlier process computed for this file at this very stat."""
        known = self._row(rel)
        return known[1] if known is not None and known[0] == state else None

    def put(self, rel: str, state: FileState, digest: str) -> None:
        if not state.settled():
            return
        with self._lock:
            if self._known.get(rel) != (state, digest):
                self._fresh[rel] = (state, digest)

    @property
    def pending(self) -> int:
        return len(self._fresh)

    def flush(self) -> int:
        """Save the hashes computed since the last flush (best effort: it is a cache)."""
        with self._lock:
            fresh, self._fresh = self._fresh, {}
            self._known.update(fresh)
        if not fresh:
            return 0
        return self._cache.save_files([(rel, ",".join(map(str, st)), digest) for rel, (st, digest) in fresh.items()])

    def prefetch(self, paths: Iterable[str]) -> None:
        """Look up the rows of many files at once (a reconcile is about to ask for each)."""
        wanted = [p for p in paths if p not in self._known]
        if not wanted:
            return
        found: dict[str, tuple[FileState, str] | None] = dict.fromkeys(wanted)
        for rel, state, digest in self._cache.file_rows(wanted):
            parsed = _state(state)
            if rel in found and parsed is not None and isinstance(digest, str) and _HASH.fullmatch(digest):
                found[rel] = (parsed, digest)  # type: ignore[index]
        with self._lock:
            for rel, row in found.items():
                self._known.setdefault(rel, row)

    def _row(self, rel: str) -> tuple[FileState, str] | None:
        if rel not in self._known:
            self.prefetch([rel])
        return self._known.get(rel)


def _state(text: object) -> FileState | None:
    if not isinstance(text, str):
        return None
    try:
        return FileState(*map(int, text.split(",")))
    except (TypeError, ValueError):  # not four integers
        return None
