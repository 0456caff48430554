"""The workspace store: threads as committed event files under `.limpet/` (see _layout, _events).

Reads are served from memory while nothing changed on disk. What changed is asked of the
kernel (inotify, _loaded.DirTracker: one ioctl when nothing did) or, where it cannot say, found by a
stat of every thread file (size, mtime, inode and ctime, so an in-place rewrite by another
program is noticed too). Reads never write a committed byte: positions re-anchored for the
current code go to the derived cache in the private folder (_derived.py).

Writes append one event to one thread's file, under a lock on the workspace folder
(_layout.cross_process_lock), atomically; the write is acknowledged only once its file is on
disk, and a write the disk refuses leaves nothing behind (STORAGE_FAILED). The first write to
a store of the older layout converts it (`.json` documents become `.jsonl` event files).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from typing import NoReturn

from limpet.model import Anchor, FileNotFound, StoreError, Thread
from limpet.server.store._confined import Confined, SafeDir, Unconfined
from limpet.server.store._derived import NEVER, DerivedCache, FileHashes, Positions
from limpet.server.store._documents import Documents
from limpet.server.store._entries import (
    Entry,
    EntryCache,
    code_key,
    gc_paused,
    load_entries,
    load_entry,
    unreadable,
)
from limpet.server.store._events import Apply, Event, fold
from limpet.server.store._layout import (
    cross_process_lock,
    locate,
    prepare_store,
    private_problems,
    remove_private_temps,
    scratch_folder,
    storage_failed,
    usable_private,
)
from limpet.server.store._loaded import ALL, DirTracker, PlacedFiles, ThreadOrder
from limpet.server.store._paths import Workspace
from limpet.server.store._threadfiles import (
    EVENTS_SUFFIX,
    LEGACY_SUFFIX,
    IdTaken,
    ThreadFiles,
    folder_problem,
    plan_append,
    thread_id_of_name,
    thread_ids_of_names,
    write_backup,
)
from limpet.server.store._untrusted import log, vet_thread

__all__ = ["DEFAULT_LOCK_TIMEOUT", "NEVER", "Apply", "IdTaken", "ThreadStore"]

DEFAULT_LOCK_TIMEOUT = float(os.environ.get("LIMPET_LOCK_TIMEOUT", "10"))


class ThreadStore:
    def __init__(self, workspace: Workspace, apply: Apply, lock_timeout: float = DEFAULT_LOCK_TIMEOUT, *,
                 one_shot: bool = False) -> None:
        """one_shot: the process reads the store for one command and exits (no folder watch)."""
        self.ws = workspace
        self.dir = workspace.store_dir
        self.lock_timeout = lock_timeout
        self.places = locate(workspace.root)
        self._apply = apply
        self._files = ThreadFiles(self.places.threads)
        self._entries: dict[str, Entry] = {}
        self._troubled: set[str] = set()  # ids of the entries with problems (kept by _set)
        self._threads: dict[str, Thread] = {}  # the readable threads (what listings show)
        self._placed = PlacedFiles()  # the stale check's per-file summary
        self._order = ThreadOrder(lambda: iter(self._threads.values()), self._threads.__getitem__)
        self._tracker = DirTracker(self.places.threads.path, watch=not one_shot)
        self._legacy_possible = True  # until a full scan finds no `.json` thread file
        derived = DerivedCache(self.private_folder)
        self._positions = Positions(derived, workspace.normalize)
        self.file_hashes = FileHashes(derived)  # for the service's content checks
        self._entry_cache = EntryCache(self.private_folder, code_key(Thread, Anchor, Event, apply, fold, vet_thread))
        self._reported: dict[str, tuple[str, ...]] = {}
        self._guard = threading.Lock()
        self._owner: int | None = None
        self._prepared = False
        self.documents = Documents(self.places.store, self.private_folder, self.prepare_for_write)

    # -- locking & setup -------------------------------------------------------------------
    @contextlib.contextmanager
    def transaction(self) -> Iterator[ThreadStore]:
        """Hold the cross-process lock; every read-modify-write happens inside one."""
        if self._owner == threading.get_ident():  # re-entrant within this thread
            yield self
            return
        if not self.ws.root.is_dir():  # deleted under us: never recreate it just to write a store
            raise FileNotFound(f"Workspace directory no longer exists: {self.ws.root}", field="workspace",
                               details={"workspace": str(self.ws.root)})
        with cross_process_lock(self.ws.root, self.lock_timeout, self._guard):
            self._owner = threading.get_ident()
            try:
                self.places = locate(self.ws.root)
                yield self
            finally:
                self._owner = None

    def _require_lock(self) -> None:
        if self._owner != threading.get_ident():
            raise StoreError("internal: write outside a store transaction")

    def _prepare_write(self) -> None:
        """Before the first committed write: the store's marker and git files, the threads
        folder, and the conversion of an older layout (under the lock)."""
        problem = folder_problem(self.places.threads)
        if problem is not None:
            raise StoreError(f"Refusing to write: {problem}", details={"store": str(self.dir)})
        if self._prepared and self._still_prepared():
            return
        try:
            converted = prepare_store(self.places.store, self.places.threads, self._files.converted)
        except OSError as exc:
            raise storage_failed(exc, self.dir, "prepare the store in") from None
        for thread_id in converted:
            self._refresh_one(thread_id)
        remove_private_temps(self.places)
        self._prepared = True

    def _still_prepared(self) -> bool:
        """The marker and the threads folder are still there (a checkout may remove them)."""
        with contextlib.suppress(OSError, Unconfined):
            store = self.places.store.open()
            if store is not None:
                with store:
                    return store.regular_or_absent("store.json") is not None and store.lstat("threads") is not None
        return False

    def private_folder(self, create: bool = True) -> Confined | None:
        """This checkout's private folder (see _layout), or None when there is none to use
        (absent and not to be created, or refused: a symlink in a component)."""
        return usable_private(self.places, create)

    @property
    def backup_dir(self) -> Confined | None:
        folder = self.private_folder(create=False)
        return folder.child("backups", "threads") if folder is not None else None

    def prepare_for_write(self) -> None:
        """Make the store ready for a committed write (caller holds the lock)."""
        self._require_lock()
        self._prepare_write()

    # -- reading ---------------------------------------------------------------------------
    def get(self, thread_id: str, field: str = "thread_id") -> Thread:
        with self._files.held():
            self._usable()
            entry = self._refresh_one(thread_id)
        if entry is not None and entry.thread is not None:
            return entry.thread
        raise unreadable(thread_id, entry, field)

    def exists(self, thread_id: str) -> bool:
        """A file for this id exists (even a deleted or damaged thread's: ids are never reused)."""
        return any(s is not None for s in self._files.states(thread_id))

    def holds_disk_version(self, thread_id: str) -> bool:
        """Is the thread's file on disk the version this process holds (read or wrote)? A
        change watcher asks, to tell other processes' writes from the echo of its own."""
        entry = self._entries.get(thread_id)
        states = self._files.states(thread_id, self._legacy_possible)
        if entry is None:
            return all(s is None for s in states)
        return entry.states == states

    # refresh=False: the snapshot the caller's last read caught up with (one look per read)
    def all(self, *, refresh: bool = True) -> list[Thread]:
        """Every thread, sorted by (file, line_start, id)."""
        if refresh:
            self._refresh()
        return self._order.sorted()

    def version(self) -> int:
        """Changes whenever any thread does (after catching up with the disk)."""
        self._refresh()
        return self._order.version

    def by_file(self, *, refresh: bool = True) -> dict[str, list[Thread]]:
        """file → its threads by line, from the same snapshot as `all` (do not mutate)."""
        if refresh:
            self._refresh()
        return self._order.by_file()

    def for_file(self, rel: str) -> list[Thread]:
        return list(self.by_file().get(rel, ()))

    def problems(self, *, refresh: bool = True) -> dict[str, list[str]]:
        """Thread files limpet could not fully read, and why (after catching up with the disk,
        unless the caller just did: `refresh=False`)."""
        if refresh:
            self._refresh()
        # From the ids kept aside: a reconcile asks each time, and most threads have none.
        out = {f".limpet/threads/{tid}{EVENTS_SUFFIX}": list(self._entries[tid].problems)
               for tid in sorted(self._troubled)}
        problem = folder_problem(self.places.threads)
        if problem:
            out[".limpet/threads"] = [problem]
        out.update(private_problems(self.places, self.ws.root))
        out.update(self.documents.problems())
        return out

    def checked(self, thread_id: str) -> tuple[object, str | None]:
        """(file content hash, workspace version) the thread's current position was computed
        against: a thread is stale when its file's hash differs (NEVER: not computed yet)."""
        entry = self._entries.get(thread_id)
        return entry.checked if entry is not None else (NEVER, None)

    def checked_against(self, path: str, threads: list[Thread], digest: str | None) -> list[Thread]:
        """The threads of `path` whose position was not computed against file content `digest`
        (see `checked`): a file's hundred threads in one call, not a hundred."""
        return self._placed.stale(self._entries, path, threads, digest)

    def _usable(self) -> None:
        """StoreError when the threads folder held now was refused (a symlink, not a folder)."""
        problem = self._files.problem
        if problem is not None:
            raise StoreError(f"The store cannot be read: {problem}", details={"store": str(self.dir)},
                             suggestion="Make .limpet/ and .limpet/threads/ plain folders of the workspace.")

    def _refresh(self) -> None:
        """Catch up with the threads folder: only the files that changed, when known. Every
        thread file is reached relative to the folder, held open (proved real) meanwhile."""
        with self._files.held() as folder:
            self._usable()
            changed = self._tracker.changed()
            if changed is ALL:
                self._scan(folder)
                return
            for name in changed:
                thread_id = thread_id_of_name(name)
                if thread_id is not None:
                    if name.endswith(LEGACY_SUFFIX):
                        self._legacy_possible = True
                    self._refresh_one(thread_id, force=True)

    def _scan(self, folder: SafeDir | None) -> None:
        names: set[str] = set()
        if folder is not None:
            with contextlib.suppress(OSError):
                names = set(folder.names())
        ids = thread_ids_of_names(names)
        self._legacy_possible = any(n.endswith(LEGACY_SUFFIX) for n in names)
        for stale in set(self._entries) - ids:
            self._set(stale, None)
        with gc_paused():
            new = [tid for tid in ids if tid not in self._entries]
            if new and not self._legacy_possible:
                self._add_all(new)
            else:
                for thread_id in new:  # first sight: its read stats it
                    self._set(thread_id, self._load(thread_id))
            for thread_id in ids.difference(new):
                self._refresh_one(thread_id)

    def _add_all(self, thread_ids: list[str]) -> None:
        """_set(_load()) of threads this process has not seen (all of them, in a fresh one),
        with the per-thread steps a clean cached fold does not need taken out of the loop."""
        added: list[Thread] = []
        overlay = self._positions.overlay
        entries, threads, loaded = self._entries, self._threads, self._placed.loaded
        for thread_id, entry in load_entries(self._files, self._entry_cache, thread_ids, self._apply,
                                             lambda: self.backup_dir, self.ws.normalize):
            if entry is None:
                continue
            if entry.problems or thread_id in threads:  # reported, kept aside: the general path
                self._report(thread_id, entry)
                self._set(thread_id, entry)
                continue
            entries[thread_id] = entry
            self._reported.pop(thread_id, None)
            if entry.base is not None:
                entry.thread, entry.checked = thread, _ = overlay(thread_id, entry.base, entry.anchor_key)
                threads[thread_id] = thread
                added.append(thread)
                loaded(thread.anchor.file, entry.checked[0])
        self._order.added(added)

    def _refresh_one(self, thread_id: str, force: bool = False) -> Entry | None:
        states = self._files.states(thread_id, self._legacy_possible)
        entry = self._entries.get(thread_id)
        if entry is not None and not force and entry.states == states:
            return entry
        if all(s is None for s in states):
            self._set(thread_id, None)
            return None
        return self._set(thread_id, self._load(thread_id))

    def _load(self, thread_id: str) -> Entry | None:
        entry = load_entry(self._files, self._entry_cache, thread_id, self._legacy_possible, self._apply,
                           lambda: self.backup_dir, self.ws.normalize)
        if entry is not None:
            self._report(thread_id, entry)
        return entry

    def _set(self, thread_id: str, entry: Entry | None) -> Entry | None:
        if entry is None:
            self._entries.pop(thread_id, None)
            self._troubled.discard(thread_id)
            self._reported.pop(thread_id, None)
            self._show(thread_id, None)
            return None
        self._entries[thread_id] = entry
        (self._troubled.add if entry.problems else self._troubled.discard)(thread_id)
        if entry.base is not None:
            entry.thread, entry.checked = self._positions.overlay(thread_id, entry.base, entry.anchor_key)
        self._show(thread_id, entry.thread)
        return entry

    def _show(self, thread_id: str, thread: Thread | None) -> None:
        old = self._threads.get(thread_id)
        self._placed.changed(old, thread)
        if thread is None:
            if old is None:
                return
            del self._threads[thread_id]
        else:
            if old is thread:
                return
            self._threads[thread_id] = thread
        self._order.changed(old, thread)

    def _report(self, thread_id: str, entry: Entry) -> None:
        """Each problem of a thread file is logged once (and listed by `problems`)."""
        if entry.problems and self._reported.get(thread_id) != entry.problems:
            log.warning("thread file %s: %s", thread_id, "; ".join(entry.problems))
        self._reported[thread_id] = entry.problems

    # -- derived positions -------------------------------------------------------------------
    def stage(self, base: Thread, updated: Thread, checked: str | None, checked_ws: str | None = None) -> None:
        """A re-anchoring result: visible to this process now, saved by `flush_staged`."""
        entry = self._entries.get(base.id)
        if entry is None or entry.base is None:
            return
        entry.checked = self._positions.stage(base.id, entry.anchor_key, entry.base, updated, checked, checked_ws)
        self._placed.changed(entry.thread, updated)
        if entry.thread is not updated:
            old = entry.thread
            entry.thread = updated
            if old is not None and self._order.moved_within(old, updated.anchor.file):
                self._threads[base.id] = updated  # same file: re-sorted when next read
            else:
                self._show(base.id, updated)

    @property
    def pending(self) -> int:
        return self._positions.pending + self._entry_cache.worth_saving + self.file_hashes.pending

    def flush_staged(self) -> int:
        """Save staged positions to the derived cache, and the folded threads read from their
        files to the thread cache when worth it (best effort: they are caches)."""
        saved = self._positions.flush()
        self.file_hashes.flush()  # after the positions: into the cache they created
        self._entry_cache.save(lambda: set(self._entries))
        return saved

    # -- writing (inside a transaction) -------------------------------------------------------
    def append(self, thread_id: str, event: Event, *, durable: bool = True) -> Thread | None:
        """Apply `event` to the thread as it is on disk now and, if that changes it, write it.
        Returns the thread after the event (None once deleted)."""
        self._require_lock()
        self._prepare_write()
        plan = plan_append(self._files, thread_id, event, self._apply, self.backup_dir, self.ws.normalize,
                           lambda: self._missing(thread_id))
        if plan.after is plan.base:
            return self.get(thread_id) if plan.base is not None else None
        self._files.write(thread_id, plan.new, legacy=plan.states[1] is not None, durable=durable,
                          scratch=scratch_folder(self.places))
        backups = self.private_folder(create=True)
        write_backup(backups.child("backups", "threads") if backups is not None else None, thread_id, plan.new)
        if plan.reread:  # read it back as any reader will
            entry = self._refresh_one(thread_id, force=True)
        else:
            event = plan.event
            key = event.id if event.anchor is not None or event.event == "snapshot" else plan.anchor_key
            entry = self._set(thread_id, Entry(self._files.states(thread_id, self._legacy_possible), plan.after,
                                                key, (), None, plan.deleted or plan.after is None))
        return entry.thread if entry is not None else None

    def _missing(self, thread_id: str) -> NoReturn:
        raise unreadable(thread_id, self._refresh_one(thread_id, force=True))

    def append_many(self, items: list[tuple[str, Event]]) -> list[Thread | None]:
        """Bulk appends (imports, benchmarks): the same writes, without an fsync each but one
        sync at the end (a crash mid-way leaves whole files only: renames are atomic)."""
        out = [self.append(thread_id, event, durable=False) for thread_id, event in items]
        os.sync()
        return out
