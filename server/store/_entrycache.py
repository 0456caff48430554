"""Folded threads kept between processes: a fresh process does not re-read unchanged files.

Reading a thread file means reading it, decoding and checking every event, folding them and
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
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO

import msgspec

from limpet.model import Thread
from limpet.server.store._confined import Confined, Unconfined
from limpet.server.store._events import STORE_SCHEMA
from limpet.server.store._paths import FileState
from limpet.server.store._untrusted import log

__all__ = ["CachedEntry", "EntryCache", "code_key"]

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
