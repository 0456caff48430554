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
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from limpet.anchoring import (
    SCHEMA_VERSION,
    StoreCorrupted,
    StoreError,
    StoreTooNew,
    Thread,
    ThreadNotFound,
    is_thread_id,
)
from limpet.server._files import atomic_write, cross_process_lock, remove_stale_temps
from limpet.server._paths import FileState, Workspace
from limpet.server._staging import StagedPositions

__all__ = ["ThreadStore", "dump_record", "GITIGNORE"]

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
        self.backup_dir = self.dir / "backups"
        self.corrupt_dir = self.dir / "corrupt"
        self.cache_dir = self.dir / "cache"
        self.lock_timeout = lock_timeout
        self._cache: dict[str, tuple[FileState, Thread]] = {}
        self._all_key: tuple[Any, ...] | None = None
        self._sorted: list[Thread] | None = None  # derived from _cache; None when stale
        self._by_file: dict[str, list[Thread]] | None = None
        self._restage: set[str] = set()  # files whose threads were staged: re-sort just those
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
        self.dir.mkdir(parents=True, exist_ok=True)
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
        self.check_schema()
        meta = self.dir / "store.json"
        if not meta.exists():
            atomic_write(meta, dump_record({"schema": SCHEMA_VERSION}))
        gitignore = self.dir / ".gitignore"
        if not gitignore.exists() or gitignore.read_text() != GITIGNORE:
            atomic_write(gitignore, GITIGNORE.encode())
        self.threads_dir.mkdir(exist_ok=True)
        remove_stale_temps(self.threads_dir)
        remove_stale_temps(self.backup_dir / "threads")
        self._initialized = True

    def check_schema(self) -> None:
        meta = self.dir / "store.json"
        try:
            data = orjson.loads(meta.read_bytes())
            version = int(data["schema"])
        except FileNotFoundError:
            return
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            return  # rewritten below by _initialize; thread files carry their own version too
        if version > SCHEMA_VERSION:
            raise StoreTooNew(
                f"This store was written by a newer limpet (schema {version}; this limpet reads {SCHEMA_VERSION})",
                details={"schema": version, "supported": SCHEMA_VERSION},
            )

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
        try:
            dir_mtime = os.stat(self.threads_dir).st_mtime_ns
        except OSError:
            dir_mtime = None
        try:
            gen = self._generation_file().read_bytes()
        except OSError:
            gen = None
        return (dir_mtime, gen)

    # -- reading ---------------------------------------------------------------------------
    def _cache_set(self, thread_id: str, entry: tuple[FileState, Thread] | None) -> None:
        if entry is None:
            if self._cache.pop(thread_id, None) is None:
                return
        else:
            old = self._cache.get(thread_id)
            self._cache[thread_id] = entry
            if old is not None and old[1] is entry[1]:
                return
        self._sorted = None
        self._by_file = None
        self._restage.clear()

    def path_of(self, thread_id: str) -> Path:
        return self.threads_dir / f"{thread_id}.json"

    def exists(self, thread_id: str) -> bool:
        return self.path_of(thread_id).exists()

    def get(self, thread_id: str, field: str = "thread_id") -> Thread:
        path = self.path_of(thread_id)
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
        thread = self._load_file(thread_id, path)
        self._cache_set(thread_id, (state, thread))
        return thread

    def all(self) -> list[Thread]:
        """Every thread, sorted by (file, line_start, id)."""
        key = self._snapshot_key()
        if key == self._all_key and key[0] is not None:
            return self._sorted_cache()
        try:
            names = [e.name for e in os.scandir(self.threads_dir) if e.name.endswith(".json")]
        except FileNotFoundError:
            for stale in list(self._cache):
                self._cache_set(stale, None)
            self._all_key = key
            return []
        ids = {n[:-5] for n in names if is_thread_id(n[:-5])}
        for stale in set(self._cache) - ids:
            self._cache_set(stale, None)
        for thread_id in ids:
            with contextlib.suppress(ThreadNotFound):
                self.get(thread_id)
        self._all_key = key
        return self._sorted_cache()

    def _sorted_cache(self) -> list[Thread]:
        if self._restage:
            self._apply_restage()
        if self._sorted is None:
            threads = [t for _, t in self._cache.values()]
            threads.sort(key=_position)
            self._sorted = threads
        return list(self._sorted)

    def _apply_restage(self) -> None:
        # Staged re-anchoring moved threads within their files: re-sort those files only
        # (new lists in a new dict: callers may still hold the old ones).
        by_file = dict(self._by_file or {})
        for path in self._restage:
            by_file[path] = sorted((self._cache[t.id][1] for t in by_file[path]), key=_position)
        self._restage.clear()
        self._by_file = by_file
        self._sorted = [t for path in sorted(by_file) for t in by_file[path]]

    def by_file(self) -> dict[str, list[Thread]]:
        """file → its threads by line, from the same snapshot as `all` (do not mutate)."""
        self.all()
        if self._by_file is None:
            by_file: dict[str, list[Thread]] = {}
            for t in self._sorted or ():
                by_file.setdefault(t.anchor.file, []).append(t)
            self._by_file = by_file
        return self._by_file

    def for_file(self, rel: str) -> list[Thread]:
        """Threads on one file, by line."""
        return list(self.by_file().get(rel, ()))

    def _load_file(self, thread_id: str, path: Path) -> Thread:
        try:
            return self._parse(path.read_bytes())
        except FileNotFoundError:
            raise ThreadNotFound(f"Thread not found: {thread_id}", field="thread_id") from None
        except StoreTooNew:
            raise
        except (ValueError, KeyError, TypeError, AttributeError, orjson.JSONDecodeError) as exc:
            self._recover(thread_id, path, exc)
            raise AssertionError("unreachable") from exc  # _recover always raises

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
        """Move the corrupt file aside, restore the backup, and report STORE_CORRUPTED once."""
        rel = path.relative_to(self.ws.root).as_posix()
        backup = self.backup_dir / "threads" / path.name
        with self.transaction():
            try:
                corrupt_bytes = path.read_bytes()
            except FileNotFoundError:
                raise ThreadNotFound(f"Thread not found: {thread_id}", field="thread_id") from None
            try:
                self._parse(corrupt_bytes)
                return_ok = True  # another process already repaired it
            except Exception:
                return_ok = False
            if return_ok:
                raise StoreCorrupted(
                    f"Store file {rel} was corrupted and has been repaired; retry the call",
                    details={"file": rel, "recovered": True},
                )
            aside = self.corrupt_dir / f"{path.name}.{time.time_ns()}"
            aside.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(aside, corrupt_bytes)
            restored = False
            try:
                good = backup.read_bytes()
                self._parse(good)
                atomic_write(path, good)
                restored = True
            except (OSError, ValueError, KeyError, TypeError, orjson.JSONDecodeError):
                path.unlink(missing_ok=True)
        self._cache_set(thread_id, None)
        raise StoreCorrupted(
            (
                f"Store file {rel} was corrupted; recovered from backup, corrupt copy kept at "
                f"{aside.relative_to(self.ws.root).as_posix()}. Retry the call."
                if restored
                else f"Store file {rel} was corrupted and no valid backup exists; the corrupt copy is kept at "
                f"{aside.relative_to(self.ws.root).as_posix()}"
            ),
            details={"file": rel, "recovered": restored, "kept_at": aside.relative_to(self.ws.root).as_posix(),
                     "reason": str(exc)[:200]},
        )

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
        path = updated.anchor.file
        if self._by_file is not None and path == entry[1].anchor.file and path in self._by_file:
            self._cache[base.id] = (entry[0], updated)  # same file: only its order may change
            self._restage.add(path)
        else:
            self._cache_set(base.id, (entry[0], updated))

    def flush_staged(self) -> int:
        if not self._locked:
            raise StoreError("internal: write outside a store transaction")
        return self.staged.flush(self)

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
    def read_document(self, rel: str) -> dict[str, Any] | None:
        path = self.dir / rel
        try:
            data = orjson.loads(path.read_bytes())
        except FileNotFoundError:
            return None
        except orjson.JSONDecodeError:
            backup = self.backup_dir / rel
            try:
                data = orjson.loads(backup.read_bytes())
            except (OSError, orjson.JSONDecodeError):
                raise StoreCorrupted(f"Store file .limpet/{rel} is corrupted and has no valid backup") from None
            with self.transaction():
                atomic_write(path, backup.read_bytes())
            raise StoreCorrupted(
                f"Store file .limpet/{rel} was corrupted; recovered from backup. Retry the call.",
                details={"file": f".limpet/{rel}", "recovered": True},
            ) from None
        return data if isinstance(data, dict) else None

    def write_document(self, rel: str, record: dict[str, Any]) -> None:
        if not self._locked:
            raise StoreError("internal: write outside a store transaction")
        self._dirty = True
        data = dump_record(record)
        atomic_write(self.backup_dir / rel, data)
        atomic_write(self.dir / rel, data)


def _position(t: Thread) -> tuple[str, int, str]:
    return (t.anchor.file, t.anchor.line_start, t.id)
