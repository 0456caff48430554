"""Derived state: where each thread's code is now, kept out of the committed files.

A thread's committed record holds the anchor a person or agent chose. Where that code is in
the current checkout (its re-anchored position, health, method, confidence, the `reanchored`
history) and what content that was checked against are derived: any checkout recomputes
them from the committed anchor and the code. They live in one SQLite table in the private
folder (see _layout), so reads and reconciles never change a committed byte, and a fresh
process does not re-anchor what another one already placed.

    derived(thread TEXT PRIMARY KEY, base TEXT, record BLOB)
    files(path TEXT PRIMARY KEY, state TEXT, hash TEXT)      (FileHashes)

`base` is the id of the event that set the committed anchor: a row whose base is not the
thread's current one (someone moved the thread since) is ignored. Every failure here (a
read-only or full disk, a damaged database, a busy one) is logged once and costs only
recomputation: this is a cache. A damaged database is deleted and started anew.

`Positions` lays a derived position over the committed thread as reads show it. `checked`
says what content a position was computed against; a thread is stale when its file's content
hash differs (NEVER: not computed yet, e.g. an orphan read from the older layout). A position
is current only for a file that exists with the content it was placed against: a placed
thread (anchored, drifted) checked against an absent file (hash None) counts as never
checked, whatever file it points at. Otherwise a thread re-anchored into b.py while its old
file a.py was being checked (absent: renamed) would read as current once a checkout removes
b.py too (absent equals absent), pointing into a file that is not there. Only an orphan is
current for an absent file: there is nothing in it to place the thread on.

`FileHashes` keeps workspace files' content hashes in the `files` table, each with the stat
(size, mtime, inode, ctime) it was computed at: whether a position is current depends on the
file's hash, and a fresh process (every CLI command) would otherwise read and hash every file
that has threads. A later process trusts a hash while the stat is the same, as git trusts its
index; one computed in the seconds after the file was written is not kept (a second write
within the clock tick could leave the stat unchanged: "racily clean"). Rows are checked as
they are read: a row that does not parse counts as absent.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable
from operator import attrgetter
from pathlib import Path
from typing import TypeVar

import msgspec
import orjson

from limpet.model import Anchor, Health, HistoryEvent, Thread
from limpet.server.store._confined import Confined, SafeDir, Unconfined
from limpet.server.store._paths import FileState
from limpet.server.store._untrusted import bounded, check_keys, check_record, log, vet_anchor, vet_history

__all__ = ["Checked", "Derived", "DerivedCache", "FileHashes", "NEVER", "Positions"]


_SCHEMA = 1
_NAME = "derived.sqlite"
_FILES = (_NAME, f"{_NAME}-wal", f"{_NAME}-shm", f"{_NAME}-journal")  # SQLite's own names: the only ones removed
_TABLES = ("CREATE TABLE derived (thread TEXT PRIMARY KEY, base TEXT NOT NULL, record BLOB NOT NULL)",
           "CREATE TABLE files (path TEXT PRIMARY KEY, state TEXT NOT NULL, hash TEXT NOT NULL)")
_SCHEMA_ROWS = {("table", "derived", _TABLES[0]), ("index", "sqlite_autoindex_derived_1", None),
                ("table", "files", _TABLES[1]), ("index", "sqlite_autoindex_files_1", None)}  # as sqlite_master has them


_T = TypeVar("_T")


def _connect(folder: SafeDir) -> sqlite3.Connection:
    conn = folder.connect(_NAME, timeout=0.5, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA trusted_schema=OFF")  # no function with side effects run from a view or trigger
    return conn


class Derived(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One thread's position in this checkout, and what it was computed against (immutable
    values only, never a cycle: untracked by the cyclic GC, as a reconcile stages thousands)."""

    base: str  # the event that set the committed anchor this was derived from
    anchor: Anchor
    health: Health
    method: str
    confidence: float
    checked: str | None  # content hash of the thread's file when checked (None: it was absent)
    checked_ws: str | None = None  # the workspace version an orphan was searched against
    history: tuple[HistoryEvent, ...] = ()  # `reanchored` events since the committed anchor
    moved_at: str | None = None  # when re-anchoring last changed its lines, file or health: its updated_at


_RECORD = msgspec.json.Decoder(Derived)
_METHOD = re.compile(r"[a-z_]{1,40}")  # the engine's and the core's names of how a thread was placed
_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z")


def _vetted(d: Derived) -> Derived:
    """The row, if its values are ones limpet writes (ValueError otherwise: a confidence of
    1e308, a megabyte of method or an integer of 30 digits in its history read back as the
    thread's)."""
    if not 0.0 <= d.confidence <= 1.0 or not _METHOD.fullmatch(d.method) or \
            (d.moved_at is not None and not _TIMESTAMP.fullmatch(d.moved_at)):
        raise ValueError("a value limpet never writes")
    vet_history(d.history)
    return d


class _Db(msgspec.Struct, frozen=True):
    path: Path
    place: Confined
    conn: sqlite3.Connection


class DerivedCache:
    """The derived table of one workspace; `folder(create)` says where the private folder is
    now (None: nowhere to keep it, or refused: a symlink in a component). The database is
    opened through the confinement layer (SafeDir.connect: no symlink in any component, nor
    as the database or its -wal/-shm/-journal)."""

    def __init__(self, folder: Callable[[bool], Confined | None]) -> None:
        self._folder = folder
        self._db: _Db | None = None
        self._lock = threading.Lock()
        self._warned = False

    def load(self) -> dict[str, Derived]:
        """Every row that parses within the read budgets (the others are dropped from the
        table: anyone could have written the file, and every row can be computed again)."""
        rows = self._with_db(lambda conn: conn.execute("SELECT thread, record FROM derived").fetchall(), [],
                             create=False)
        out: dict[str, Derived] = {}
        bad: list[str] = []
        for thread_id, record in rows:
            try:
                check_record(record)  # before parsing: a row nested 1,000 deep is dropped, not recursed into
                out[thread_id] = _vetted(_RECORD.decode(record))
                check_keys(record)
            except (msgspec.DecodeError, ValueError, TypeError):  # Refused is a ValueError; a non-bytes row
                out.pop(thread_id, None)
                bad.append(thread_id)
        if bad:  # untrusted and rebuildable: the positions are computed again
            log.info("derived-state cache: %d unreadable row(s) dropped; recomputed", len(bad))
            self.save({}, drop=bad)
        return out

    def save(self, entries: dict[str, Derived], drop: Iterable[str] = ()) -> int:
        """Upsert `entries`, delete `drop`; the number written (0 when the cache is unavailable)."""
        dropped = [(t,) for t in drop]
        if not entries and not dropped:
            return 0

        def write(conn: sqlite3.Connection) -> int:
            with conn:  # a record as declared, by orjson (what load_record reads back)
                conn.executemany("INSERT INTO derived(thread, base, record) VALUES (?, ?, ?) ON CONFLICT(thread) "
                                 "DO UPDATE SET base=excluded.base, record=excluded.record",
                                 [(tid, d.base, orjson.dumps(msgspec.to_builtins(d))) for tid, d in entries.items()])
                conn.executemany("DELETE FROM derived WHERE thread = ?", dropped)
            return len(entries)

        return self._with_db(write, 0, create=True)

    def file_rows(self, paths: list[str]) -> list[tuple[object, object, object]]:
        """The `files` rows (path, state, hash) of `paths`. Only the files a process asks about:
        the table holds every file an orphan search hashed, most of them never asked for."""
        def read(conn: sqlite3.Connection) -> list[tuple[object, object, object]]:
            chunks = (paths[at:at + 500] for at in range(0, len(paths), 500))  # SQLite's limit on parameters
            return [row for chunk in chunks for row in conn.execute(
                f"SELECT path, state, hash FROM files WHERE path IN ({','.join('?' * len(chunk))})", chunk)]

        return self._with_db(read, [], create=False)

    def save_files(self, rows: list[tuple[str, str, str]]) -> int:
        """Upsert `files` rows (into a private folder that exists: hashes never create one)."""
        def write(conn: sqlite3.Connection) -> int:
            with conn:
                conn.executemany("INSERT INTO files(path, state, hash) VALUES (?, ?, ?) ON CONFLICT(path) "
                                 "DO UPDATE SET state=excluded.state, hash=excluded.hash", rows)
            return len(rows)

        return self._with_db(write, 0, create=True, new_folder=False) if rows else 0

    def _with_db(self, work: Callable[[sqlite3.Connection], _T], unavailable: _T, *, create: bool,
                 new_folder: bool = True) -> _T:
        """`work` on the open database, under the lock; `unavailable` when there is none or it
        fails (then it is started anew: a cache)."""
        with self._lock:
            db = self._open(create=create, new_folder=new_folder)
            if db is None:
                return unavailable
            try:
                return work(db.conn)
            except sqlite3.Error as exc:
                self._damaged(db, exc)
                return unavailable

    def close(self) -> None:
        with self._lock:
            self._let_go()

    def _let_go(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.conn.close()
            self._db = None

    # -- the database file ------------------------------------------------------------------
    def _open(self, *, create: bool, new_folder: bool = True) -> _Db | None:
        place = self._folder(create and new_folder)
        if place is None:
            return None
        path = place.path / _NAME
        if self._db is not None and self._db.path == path:
            return self._db
        self._let_go()
        try:
            folder = place.open(create=create)
            if folder is None:
                return None
            with folder:
                if not create and folder.lstat(_NAME) is None:
                    return None
                conn = _connect(folder)
                if set(conn.execute("SELECT type, name, sql FROM sqlite_master")) - _SCHEMA_ROWS:
                    # not only the tables limpet makes (a view named derived that never ends, a
                    # trigger, other columns): anyone could have made the file; it is started anew
                    log.info("derived-state cache %s holds what limpet never made; started anew", path)
                    conn.close()
                    for name in _FILES:
                        folder.remove(name, _FILES)
                    conn = _connect(folder)
            conn.isolation_level = ""  # transactions via `with conn`
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=OFF")  # a cache: a crash costs recomputation, never data
            for table in _TABLES:
                conn.execute(table.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1))
            if conn.execute("PRAGMA user_version").fetchone()[0] != _SCHEMA:
                with conn:
                    for table in ("derived", "files"):
                        conn.execute(f"DELETE FROM {table}")
                conn.execute(f"PRAGMA user_version={_SCHEMA}")
        except (sqlite3.Error, OSError, Unconfined) as exc:
            self._warn(f"derived-state cache unavailable at {path} ({exc}); positions are recomputed")
            return None
        self._db = _Db(path, place, conn)
        return self._db

    def _damaged(self, db: _Db, exc: Exception) -> None:
        self._warn(f"derived-state cache {db.path} failed ({exc}); starting it anew")
        self._let_go()
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
            with contextlib.suppress(OSError, Unconfined):  # damaged, not busy: it is only a cache
                folder = db.place.open()
                if folder is not None:
                    with folder:
                        for name in _FILES:
                            folder.remove(name, _FILES)

    def _warn(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            log.warning(message)


# -- positions: the derived row laid over the committed thread -----------------------------------
NEVER = object()  # "checked against nothing yet": never equal to a content hash
Checked = tuple[object, str | None]  # (file content hash, workspace version)


class Positions:
    def __init__(self, cache: DerivedCache, normalize: Callable[[str, str], str]) -> None:
        self._cache = cache
        self._normalize = normalize
        self._rows: dict[str, Derived] | None = None  # the derived table, loaded on first use
        self._staged: dict[str, Derived] = {}  # results not yet saved

    def overlay(self, thread_id: str, base: Thread, anchor_key: str) -> tuple[Thread, Checked]:
        """The thread as reads show it: its derived position when one fits its committed anchor."""
        d = self._staged.get(thread_id) or self._loaded().get(thread_id)
        if d is not None and d.base == anchor_key:
            try:
                vet_anchor(d.anchor, self._normalize)  # a private file, but a file all the same
            except ValueError:
                d = None
            else:
                updated = d.moved_at if d.moved_at is not None and d.moved_at > base.updated_at else base.updated_at
                return base.evolve(anchor=bounded(d.anchor), health=d.health, anchor_method=d.method,
                                   anchor_confidence=d.confidence, history=in_time_order(base.history, d.history),
                                   updated_at=updated), \
                    (_current(d.checked, d.health), d.checked_ws)
        return base, (base.anchor.content_hash if base.health != "orphaned" else NEVER, None)

    def stage(self, thread_id: str, anchor_key: str, committed: Thread, updated: Thread, checked: str | None,
              checked_ws: str | None) -> Checked:
        """A re-anchoring result, kept in memory until `flush`."""
        self._staged[thread_id] = Derived(
            base=anchor_key, anchor=updated.anchor, health=updated.health,  # type: ignore[arg-type]
            method=updated.anchor_method, confidence=float(updated.anchor_confidence), checked=checked,
            checked_ws=checked_ws, history=_derived_only(updated.history, committed.history),
            moved_at=updated.updated_at if updated.updated_at > committed.updated_at else None)
        return (_current(checked, updated.health), checked_ws)

    @property
    def pending(self) -> int:
        return len(self._staged)

    def flush(self) -> int:
        """Save staged positions (best effort: it is a cache)."""
        if not self._staged:
            return 0
        staged, self._staged = self._staged, {}
        self._loaded().update(staged)
        return self._cache.save(staged)

    def _loaded(self) -> dict[str, Derived]:
        if self._rows is None:
            self._rows = self._cache.load()
        return self._rows


def _current(checked: str | None, health: str) -> object:
    """What a position counts as checked against: an absent file (None) only for an orphan."""
    return NEVER if checked is None and health != "orphaned" else checked


def in_time_order(committed: tuple[HistoryEvent, ...], derived: tuple[HistoryEvent, ...]) -> tuple[HistoryEvent, ...]:
    """A thread's history as reads show it: what people and agents did and where limpet moved
    it, oldest first (a re-anchoring before a later reply is listed before it)."""
    if not derived:
        return committed
    return tuple(sorted((*committed, *derived), key=attrgetter("at")))  # stable: ties keep their order


def _derived_only(history: tuple[HistoryEvent, ...], committed: tuple[HistoryEvent, ...]) -> tuple[HistoryEvent, ...]:
    """The entries of `history` re-anchoring added: those that are not the committed ones
    (the very objects: the overlay shows the committed history's own)."""
    ids = {id(h) for h in committed}
    return tuple(h for h in history if id(h) not in ids)


# -- content hashes of workspace files, with the stat they were computed at -------------------------
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
    try:
        return FileState(*map(int, text.split(","))) if isinstance(text, str) else None
    except (TypeError, ValueError):  # not four integers
        return None
