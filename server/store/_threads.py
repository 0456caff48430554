"""The workspace store: threads as committed text under `.limpet/`.

Layout (one file per thread, so two branches adding threads never touch the same file and
git merges them without a conflict):

    .limpet/store.json            {"schema": N} — refused when N is newer than we understand
    .limpet/threads/<id>.json     one thread, sorted keys, 2-space indent, trailing newline
    .limpet/reviews/current.json  the current review (present_review)
    .limpet/.gitignore            keeps the derived and private folders below out of git
    .limpet/backups/...           last good copy of every store file (written before the file)
    .limpet/corrupt/...           corrupt files moved aside for inspection
    .limpet/cache/, exports/, lock

Reads are served from memory while nothing changed on disk: a generation counter bumped by
every writer (under the lock) plus the threads folder's mtime (which git checkouts change).
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

from limpet.model import (
    SCHEMA_VERSION,
    FileNotFound,
    StoreError,
    StoreTooNew,
    Thread,
    ThreadNotFound,
    is_thread_id,
)
from limpet.server.store._files import atomic_write, cross_process_lock, remove_stale_temps
from limpet.server.store._gc import gc_paused
from limpet.server.store._order import ThreadOrder
from limpet.server.store._paths import FileState, Workspace
from limpet.server.store._recovery import DAMAGE, recover
from limpet.server.store._staging import StagedPositions, merge_staged

__all__ = ["DEFAULT_LOCK_TIMEOUT", "GITIGNORE", "ThreadStore", "dump_record"]

GITIGNORE = "# derived, private or disposable: never commit\nbackups/\ncache/\ncorrupt/\nexports/\nlock\n*.tmp-*\n"
DEFAULT_LOCK_TIMEOUT = float(os.environ.get("LIMPET_LOCK_TIMEOUT", "10"))


def dump_record(record: dict[str, Any]) -> bytes:
    """Deterministic bytes: identical content gives identical files on every machine."""
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


class ThreadStore:
    def __init__(self, workspace: Workspace, lock_timeout: float = DEFAULT_LOCK_TIMEOUT) -> None:
        self.ws = workspace
        self.dir = workspace.store_dir
        self.threads_dir = self.dir / "threads"
        self._threads_str = str(self.threads_dir)
        self.backup_dir = self.dir / "backups"
        self.corrupt_dir = self.dir / "corrupt"
        self.cache_dir = self.dir / "cache"
        self._generation_str = str(self._generation_file())
        self.lock_timeout = lock_timeout
        self._cache: dict[str, tuple[FileState, Thread]] = {}
        self._all_key: tuple[Any, ...] | None = None
        self._order = ThreadOrder(lambda: (t for _, t in self._cache.values()), lambda i: self._cache[i][1])
        self._locked = False
        self._dirty = False
        self._initialized = False
        self.staged = StagedPositions()

    # -- locking & setup -------------------------------------------------------------------
    @contextlib.contextmanager
    def transaction(self) -> Iterator[ThreadStore]:
        """Hold the cross-process lock; every read-modify-write happens inside one."""
        if self._locked:  # re-entrant within this store object
            yield self
            return
        if not self.ws.root.is_dir():  # deleted under us: never recreate it just to write a store
            raise FileNotFound(f"Workspace directory no longer exists: {self.ws.root}", field="workspace",
                               details={"workspace": str(self.ws.root)})
        self.dir.mkdir(exist_ok=True)
        with cross_process_lock(self.dir / "lock", self.lock_timeout):
            self._locked = True
            self._dirty = False
            try:
                self._initialize()
                # Nobody else can write while we hold the lock: if our snapshot is current
                # now, it is still current after our own writes (which update it).
                fresh = self._all_key is not None and self._snapshot_key() == self._all_key
                yield self
                if self._dirty:
                    self._bump_generation()
                    self._all_key = self._snapshot_key() if fresh else None
            finally:
                self._locked = False

    def _initialize(self) -> None:
        # Once per store object: checked again only if the store folder vanished.
        if self._initialized and self.threads_dir.is_dir():
            return
        meta = self.dir / "store.json"
        if not self.check_schema():  # missing, or damaged: keep a damaged one aside, write it anew
            with contextlib.suppress(FileNotFoundError):
                atomic_write(self.corrupt_dir / f"store.json.{time.time_ns()}", meta.read_bytes())
            atomic_write(meta, dump_record({"schema": SCHEMA_VERSION}))
        gitignore = self.dir / ".gitignore"
        if not gitignore.exists() or gitignore.read_text() != GITIGNORE:
            atomic_write(gitignore, GITIGNORE.encode())
        self.threads_dir.mkdir(exist_ok=True)
        # A writer killed mid-write leaves a temp file: in any folder written under the lock.
        for folder in (self.dir, self.threads_dir, self.backup_dir, self.backup_dir / "threads",
                       self.dir / "reviews", self.backup_dir / "reviews", self.corrupt_dir):
            remove_stale_temps(folder)
        remove_stale_temps(self.cache_dir, only_dead_writers=True)  # also written lock-free
        self._initialized = True

    def check_schema(self) -> bool:
        """StoreTooNew for a newer store; False when the marker is missing or damaged."""
        meta = self.dir / "store.json"
        try:
            data = orjson.loads(meta.read_bytes())
            version = int(data["schema"])
        except FileNotFoundError:
            return False
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            return False  # rewritten by _initialize; thread files carry their own version too
        if version > SCHEMA_VERSION:
            raise StoreTooNew(
                f"This store was written by a newer limpet (schema {version}; this limpet reads {SCHEMA_VERSION})",
                details={"schema": version, "supported": SCHEMA_VERSION},
            )
        return True

    @property
    def initialized(self) -> bool:
        return self.dir.is_dir()

    def _generation_file(self) -> Path:
        return self.cache_dir / "generation"

    def _bump_generation(self) -> None:
        # A cache hint, not data: no fsync needed.
        gen = self._generation_file()
        gen.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(gen, str(time.time_ns()).encode(), durable=False)

    def _snapshot_key(self) -> tuple[Any, ...]:
        # On every read: plain os calls on strings (a Path read costs several times more).
        try:
            dir_mtime = os.stat(self._threads_str).st_mtime_ns
        except OSError:
            dir_mtime = None
        try:
            fd = os.open(self._generation_str, os.O_RDONLY)
        except OSError:
            return (dir_mtime, None)
        try:
            return (dir_mtime, os.read(fd, 64))
        except OSError:
            return (dir_mtime, None)
        finally:
            os.close(fd)

    # -- reading ---------------------------------------------------------------------------
    def _cache_set(self, thread_id: str, entry: tuple[FileState, Thread] | None) -> None:
        if entry is None:
            old = self._cache.pop(thread_id, None)
            if old is None:
                return
        else:
            old = self._cache.get(thread_id)
            self._cache[thread_id] = entry
            if old is not None and old[1] is entry[1]:
                return
        self._order.changed(old[1] if old else None, entry[1] if entry else None)

    def path_of(self, thread_id: str) -> Path:
        return self.threads_dir / f"{thread_id}.json"

    def _path_str(self, thread_id: str) -> str:
        return f"{self._threads_str}{os.sep}{thread_id}.json"  # no Path object on the read path

    def exists(self, thread_id: str) -> bool:
        return self.path_of(thread_id).exists()

    def get(self, thread_id: str, field: str = "thread_id") -> Thread:
        path = self._path_str(thread_id)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            self._cache_set(thread_id, None)
            raise ThreadNotFound(
                f"Thread not found: {thread_id}", field=field, details={"thread_id": thread_id}
            ) from None
        state = FileState(st.st_size, st.st_mtime_ns, st.st_ino)
        cached = self._cache.get(thread_id)
        if cached and cached[0] == state:
            return cached[1]
        thread = self._load_file(thread_id, Path(path))
        self._cache_set(thread_id, (state, thread))
        return thread

    def holds_disk_version(self, thread_id: str) -> bool:
        """Is the thread's file on disk the version this process holds (read or wrote)? A
        change watcher asks, to tell other processes' writes from the echo of its own."""
        try:
            st = os.stat(self._path_str(thread_id))
        except FileNotFoundError:
            return thread_id not in self._cache
        except OSError:
            return True
        cached = self._cache.get(thread_id)
        return cached is not None and cached[0] == FileState(st.st_size, st.st_mtime_ns, st.st_ino)

    def all(self) -> list[Thread]:
        """Every thread, sorted by (file, line_start, id)."""
        self._refresh()
        return self._order.sorted()

    def _refresh(self) -> None:
        """Bring the cache up to date with the threads folder (nothing to do when unchanged)."""
        key = self._snapshot_key()
        if key == self._all_key and key[0] is not None:
            return
        try:
            names = [e.name for e in os.scandir(self.threads_dir) if e.name.endswith(".json")]
        except FileNotFoundError:
            for stale in list(self._cache):
                self._cache_set(stale, None)
            self._all_key = key
            return
        ids = {n[:-5] for n in names if is_thread_id(n[:-5])}
        for stale in set(self._cache) - ids:
            self._cache_set(stale, None)
        with gc_paused():
            for thread_id in ids:
                with contextlib.suppress(ThreadNotFound):
                    self.get(thread_id)
        self._all_key = key

    def version(self) -> int:
        """Changes whenever any thread does (after catching up with the disk)."""
        self._refresh()
        return self._order.version

    def by_file(self) -> dict[str, list[Thread]]:
        """file → its threads by line, from the same snapshot as `all` (do not mutate)."""
        self._refresh()
        return self._order.by_file()

    def for_file(self, rel: str) -> list[Thread]:
        """Threads on one file, by line."""
        return list(self.by_file().get(rel, ()))

    def _load_file(self, thread_id: str, path: Path) -> Thread:
        try:
            with open(path, "rb") as fh:
                return self._parse(fh.read())
        except FileNotFoundError:
            raise ThreadNotFound(f"Thread not found: {thread_id}", field="thread_id") from None
        except StoreTooNew:
            raise
        except DAMAGE as exc:
            self._recover(thread_id, path, exc)  # always raises

    @staticmethod
    def _parse(data: bytes) -> Thread:
        record = orjson.loads(data)
        if not isinstance(record, dict):
            raise ValueError("not a JSON object")
        version = record.get("schema")
        if not isinstance(version, int):
            raise ValueError("missing schema version")
        if version > SCHEMA_VERSION:
            raise StoreTooNew(
                f"A thread file was written by a newer limpet (schema {version})",
                details={"schema": version, "supported": SCHEMA_VERSION},
            )
        return Thread.from_record(record)

    def _recover(self, thread_id: str, path: Path, exc: Exception) -> None:
        """Restore the backup of a damaged thread file and report STORE_CORRUPTED once."""
        with self.transaction():
            recover(path, self.backup_dir / "threads" / path.name, self.corrupt_dir, self.ws.root,
                    self._parse, exc)
        self._cache_set(thread_id, None)  # only reached when the file vanished meanwhile
        raise ThreadNotFound(f"Thread not found: {thread_id}", field="thread_id")

    # -- writing (inside transaction) -----------------------------------------------------------
    def put(self, thread: Thread, *, derived: bool = False) -> None:
        """Write one thread. `derived=True` is for re-anchoring updates: positions can be
        recomputed from the previous anchor, so they skip the fsyncs and the backup (a crash
        or a restore from backup costs one re-anchor, never a comment)."""
        if not self._locked:
            raise StoreError("internal: write outside a store transaction")
        self._dirty = True
        self.staged.discard(thread.id)  # this write carries the thread's current position
        data = dump_record(thread.to_record())
        path = self.path_of(thread.id)
        if not derived:
            # Backup first: if we die between the two writes the main file is still the old,
            # valid version, and the backup already holds what the next good read needs.
            atomic_write(self.backup_dir / "threads" / path.name, data)
        atomic_write(path, data, durable=not derived)
        st = os.stat(path)
        self._cache_set(thread.id, (FileState(st.st_size, st.st_mtime_ns, st.st_ino), thread))

    def stage(self, base: Thread, updated: Thread) -> None:
        """A re-anchoring result: visible to this process now, written by `flush_staged`."""
        entry = self._cache.get(base.id)
        self.staged.stage(base, updated)
        if entry is None:
            return
        if self._order.moved_within(entry[1], updated.anchor.file):
            self._cache[base.id] = (entry[0], updated)  # same file: re-sorted when next read
        else:
            self._cache_set(base.id, (entry[0], updated))

    def flush_staged(self) -> int:
        """Write staged positions whose origin is still on disk (compare-and-swap)."""
        if not self._locked:
            raise StoreError("internal: write outside a store transaction")
        written = 0
        for thread_id, entry in self.staged.take():
            try:
                merged = merge_staged(self.read_fresh(thread_id), entry)
            except (ThreadNotFound, StoreError):
                continue  # gone or unreadable: nothing to put a position on
            if merged is not None:
                self.put(merged, derived=True)
                written += 1
        return written

    def read_fresh(self, thread_id: str) -> Thread:
        """The thread as on disk now, bypassing this process's cache and staged positions."""
        return self._load_file(thread_id, self.path_of(thread_id))

    def put_many(self, threads: list[Thread]) -> None:
        """Bulk write (imports, benchmarks): same files, one sync at the end instead of two
        fsyncs per thread; a crash mid-way leaves whole files only (rename is still atomic)."""
        if not self._locked:
            raise StoreError("internal: write outside a store transaction")
        self._dirty = True
        for thread in threads:
            self.staged.discard(thread.id)
        backup_dir = self.backup_dir / "threads"
        backup_dir.mkdir(parents=True, exist_ok=True)
        self.threads_dir.mkdir(parents=True, exist_ok=True)
        for thread in threads:
            data = dump_record(thread.to_record())
            path = self.path_of(thread.id)
            atomic_write(backup_dir / path.name, data, durable=False)
            atomic_write(path, data, durable=False)
        os.sync()

    def delete(self, thread_id: str) -> None:
        if not self._locked:
            raise StoreError("internal: write outside a store transaction")
        self._dirty = True
        self.staged.discard(thread_id)
        self.path_of(thread_id).unlink(missing_ok=True)
        (self.backup_dir / "threads" / f"{thread_id}.json").unlink(missing_ok=True)
        self._cache_set(thread_id, None)

    # -- other documents (reviews, caches) ----------------------------------------------------
    def read_document(self, rel: str, check: Callable[[dict[str, Any]], None] | None = None,
                      ) -> dict[str, Any] | None:
        """A store document (e.g. the review), or None when there is none. `check` vets its
        shape (ValueError: corrupt; StoreTooNew: written by a newer limpet, refused as is).
        A corrupt one is kept aside, restored from its backup and reported once, like threads."""
        path = self.dir / rel
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            return _parse_document(data, check)
        except DAMAGE as exc:
            self._recover_document(rel, check, exc)  # raises, unless the document vanished meanwhile
            return None

    def _recover_document(self, rel: str, check: Callable[[dict[str, Any]], None] | None, exc: Exception) -> None:
        """Restore the backup of a damaged document; raises StoreCorrupted unless it vanished."""
        with self.transaction():
            recover(self.dir / rel, self.backup_dir / rel, self.corrupt_dir, self.ws.root,
                    functools.partial(_parse_document, check=check), exc)

    def write_document(self, rel: str, record: dict[str, Any]) -> None:
        if not self._locked:
            raise StoreError("internal: write outside a store transaction")
        self._dirty = True
        data = dump_record(record)
        atomic_write(self.backup_dir / rel, data)
        atomic_write(self.dir / rel, data)


def _parse_document(data: bytes, check: Callable[[dict[str, Any]], None] | None) -> dict[str, Any]:
    record = orjson.loads(data)
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    if check is not None:
        check(record)
    return record
