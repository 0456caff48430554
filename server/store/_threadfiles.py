"""One thread's files on disk: reading them as untrusted input, writing the next version.

A thread `c_1` lives in `.limpet/threads/c_1.jsonl` (events). A store from before the event
layout has `c_1.json` instead; both may exist at once (a branch that still wrote the old
layout merged into one that converted it): their events are read together. Every file is
reached by name relative to the threads folder held open by the confinement layer, never by
a path; a symlink is refused (a committed link would make limpet read or write outside the
workspace), and so is anything that is not a regular file.

What appending one event makes of a thread's file (`plan_append`): read, fold, repair, apply,
check. The store's `append` writes what this plans (under its lock); nothing here writes. A file
damaged since its last write is read together with this checkout's backup of it, so the
write repairs it; an event that would make the thread invalid is refused before any byte
moves.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import msgspec

from limpet.model import (
    MAX_THREAD_FILE_BYTES,
    THREAD_ID_PATTERN,
    InvalidArgument,
    StoreError,
    StoreTooNew,
    Thread,
    is_thread_id,
)
from limpet.server.store._confined import Confined, SafeDir, Unconfined
from limpet.server.store._events import (
    MARKERS,
    Apply,
    Event,
    ParsedFile,
    dump_event,
    event_order,
    fold,
    parse_events,
    parse_legacy,
    stamped,
)
from limpet.server.store._layout import storage_failed
from limpet.server.store._paths import FileState, file_state
from limpet.server.store._untrusted import Normalize, log, vet_thread

__all__ = ["Append", "EVENTS_SUFFIX", "IdTaken", "LEGACY_SUFFIX", "ThreadFiles", "folder_problem",
           "plan_append", "read_backup", "render", "restorable", "thread_id_of_name",
           "thread_ids_of_names", "too_new", "write_backup"]


EVENTS_SUFFIX = ".jsonl"
LEGACY_SUFFIX = ".json"

States = tuple[FileState | None, FileState | None]


def folder_problem(folder: Confined) -> str | None:
    """Why a folder of the store must not be used (a symlink in a component, not a folder),
    or None (usable, or absent)."""
    return folder.problem()


class ThreadFiles:
    """The thread files of one threads folder, each reached by name relative to the folder's
    descriptor (a SafeDir of the confinement layer), never by a path: a component of
    `.limpet/threads` swapped for a symlink once the folder is open cannot redirect a read."""

    def __init__(self, place: Confined) -> None:
        self.place = place
        self.dir = place.path
        self._held = threading.local()  # per thread: the folder `held()` opened, its depth

    @contextlib.contextmanager
    def held(self) -> Iterator[SafeDir | None]:
        """The threads folder opened once (every component proved real) for the calls inside,
        which reach each thread file relative to it; None when it is absent or refused
        (`problem` says why). Re-entrant: inner calls use the outermost one's folder."""
        held = self._held
        if getattr(held, "depth", 0):
            held.depth += 1
            try:
                yield held.folder
            finally:
                held.depth -= 1
            return
        try:
            folder, held.problem = self.place.open(), None
        except Unconfined as exc:
            folder, held.problem = None, exc.message
        except OSError as exc:
            folder, held.problem = None, f"{self.dir}: {exc.strerror}"
        held.folder, held.depth = folder, 1
        try:
            yield folder
        finally:
            held.folder, held.depth = None, 0
            if folder is not None:
                folder.close()

    @property
    def problem(self) -> str | None:
        """Why the folder was refused when this thread last held it (a symlink, not a folder)."""
        return getattr(self._held, "problem", None)

    def states(self, thread_id: str, legacy: bool = True) -> States:
        held = self._held
        if not getattr(held, "depth", 0):  # calls inside a hold (a whole store's read) skip its cost
            with self.held():
                return self.states(thread_id, legacy)
        folder = held.folder
        if folder is None or not _plain(thread_id):
            return (None, None)
        return (_lstate(folder.fd, thread_id + EVENTS_SUFFIX),
                _lstate(folder.fd, thread_id + LEGACY_SUFFIX) if legacy else None)

    def read(self, thread_id: str, legacy: bool = True) -> tuple[States, ParsedFile, bytes | None]:
        """(the files' states, their events and problems, the events file's bytes)."""
        held = self._held
        if not getattr(held, "depth", 0):
            with self.held():
                return self.read(thread_id, legacy)
        parsed = ParsedFile()
        folder = held.folder
        if folder is None or not _plain(thread_id):
            return (None, None), parsed, None
        events_state, events_data = _read(folder, thread_id + EVENTS_SUFFIX, parsed)
        legacy_state, legacy_data = _read(folder, thread_id + LEGACY_SUFFIX, parsed) if legacy else (None, None)
        if events_data is not None:
            parse_events(events_data, parsed)
        if legacy_data is not None:
            parse_legacy(legacy_data, parsed)
        return (events_state, legacy_state), parsed, events_data

    def write(self, thread_id: str, data: bytes, *, legacy: bool, durable: bool, scratch: SafeDir | None) -> None:
        """The thread's events file becomes `data` (atomically); `legacy`: its file of the older
        layout, now converted into it, is removed. STORAGE_FAILED when the disk refuses."""
        name = f"{thread_id}{EVENTS_SUFFIX}"
        try:
            with self.place.open(create=True) as folder:  # type: ignore[union-attr]  (create: never None)
                folder.write_atomic(name, data, durable=durable, scratch=scratch)
                # Written: from here on nothing may fail the call.
                if legacy:
                    with contextlib.suppress(OSError):
                        folder.remove(f"{thread_id}{LEGACY_SUFFIX}", (f"{thread_id}{LEGACY_SUFFIX}",))
        except OSError as exc:
            raise storage_failed(exc, f".limpet/threads/{name}") from None
        finally:
            if scratch is not None:
                scratch.close()

    def converted(self, thread_id: str) -> bytes | None:
        """The events file a thread of the older layout becomes (its events, and the legacy
        document as a snapshot event), or None when it must stay as it is (unreadable in part,
        or from a newer limpet: converting would drop what did not parse)."""
        if not is_thread_id(thread_id):
            return None
        _states, parsed, data = self.read(thread_id, legacy=True)
        if parsed.too_new is not None or parsed.damaged or not parsed.events:
            return None
        out = data
        for event in sorted(parsed.events, key=event_order):
            out = render(out, dump_event(event))
        return out


class IdTaken(StoreError):
    """A new thread's id is already used on disk (the service picks another)."""

    def __init__(self, thread_id: str) -> None:
        super().__init__(f"internal: thread id {thread_id} already exists")
        self.thread_id = thread_id


_THREAD_FILE = re.compile(f"({THREAD_ID_PATTERN.pattern.strip('^$')})(?:{re.escape(EVENTS_SUFFIX)}|{re.escape(LEGACY_SUFFIX)})")


def thread_id_of_name(name: str) -> str | None:
    """`c_1.jsonl` or `c_1.json` → `c_1`; None for any other name."""
    found = _THREAD_FILE.fullmatch(name)
    return found[1] if found is not None else None


def thread_ids_of_names(names: Iterable[str]) -> set[str]:
    """The ids of the thread files among `names` (a folder's 100,000 names: one match each)."""
    match = _THREAD_FILE.fullmatch
    return {found[1] for name in names if (found := match(name)) is not None}


def render(existing: bytes | None, line: bytes) -> bytes:
    """The events file after appending `line`: every line kept as it was (a damaged one too:
    nothing is thrown away), git's conflict markers and repeated lines dropped."""
    out: list[bytes] = []
    seen: set[bytes] = set()
    for raw in (existing or b"").split(b"\n"):
        text = raw.strip()
        if not text or text.startswith(MARKERS) or text in seen:
            continue
        seen.add(text)
        out.append(text + b"\n")
    if line.strip() not in seen:
        out.append(line)
    return b"".join(out)


def write_backup(backup_dir: Confined | None, thread_id: str, data: bytes) -> None:
    """The last version this checkout wrote, for a file later damaged (best effort)."""
    if backup_dir is None:
        return
    try:
        with backup_dir.open(create=True) as folder:  # type: ignore[union-attr]  (create: never None)
            folder.write_atomic(f"{thread_id}{EVENTS_SUFFIX}", data, durable=False)
    except (OSError, Unconfined) as exc:
        log.debug("no backup of %s: %s", thread_id, exc)


def read_backup(backup_dir: Confined | None, thread_id: str) -> ParsedFile | None:
    if backup_dir is None:
        return None
    with contextlib.suppress(OSError, Unconfined):
        folder = backup_dir.open()
        if folder is not None:
            with folder:
                return parse_events(folder.read(f"{thread_id}{EVENTS_SUFFIX}"))
    return None


def _plain(thread_id: str) -> bool:
    """A name in the folder, never a path (an id may come from a request): no separator, no NUL."""
    return "/" not in thread_id and "\x00" not in thread_id


def _lstate(fd: int, name: str) -> FileState | None:
    try:
        return file_state(os.lstat(name, dir_fd=fd))
    except OSError:
        return None


def _read(folder: SafeDir, name: str, parsed: ParsedFile) -> tuple[FileState | None, bytes | None]:
    try:
        st = os.lstat(name, dir_fd=folder.fd)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        parsed.problems.append(f"{name}: {exc.strerror}")
        return None, None
    state = file_state(st)
    if stat.S_ISLNK(st.st_mode):
        parsed.problems.append(f"{name} is a symlink: refused")
        return state, None
    if not stat.S_ISREG(st.st_mode):
        parsed.problems.append(f"{name} is not a regular file: refused")
        return state, None
    if st.st_size > MAX_THREAD_FILE_BYTES:  # measured before a byte is read
        parsed.damaged = True
        parsed.problems.append(f"{name}: larger than {MAX_THREAD_FILE_BYTES:,} bytes "
                               "(MAX_THREAD_FILE_BYTES): not read")
        return state, None
    try:
        return state, folder.read(name)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        parsed.problems.append(f"{name}: {exc.strerror}")
        return state, None


# -- appending one event: what it makes of the file --------------------------------------------
class Append(msgspec.Struct, frozen=True):
    states: States  # of the files as read
    event: Event  # stamped after everything the file holds
    base: Thread | None  # the thread before the event (None: gone, or damaged beyond repair)
    after: Thread | None  # the thread after it (None: deleted)
    anchor_key: str  # the event that set the committed anchor, before this one
    deleted: bool
    reread: bool  # the file had problems, or was repaired: read it back as any reader will
    new: bytes  # the file's bytes with the event appended


def plan_append(files: ThreadFiles, thread_id: str, event: Event, apply: Apply, backup_dir: Path | None,
                normalize: Normalize, missing: Callable[[], None]) -> Append:
    """The append of `event` to the thread's file as it is on disk now. `missing` raises the
    right error when the thread cannot be found (not there, damaged, written by a newer limpet)."""
    states, parsed, data = files.read(thread_id, legacy=True)
    if parsed.too_new is not None:
        raise too_new(thread_id, parsed.too_new)
    problems: list[str] = []
    base, key, deleted = fold(apply, thread_id, parsed.events, problems)
    if event.event in ("created", "snapshot") and event.mode != "replace" and (parsed.events or states[0]):
        raise IdTaken(thread_id)
    events, restored = parsed.events, []
    if base is None and not deleted and event.event not in ("created", "snapshot"):
        restored = restorable(backup_dir, thread_id, parsed.events)  # a damaged file: its backup's events
        events = [*parsed.events, *restored]
        base, key, deleted = fold(apply, thread_id, events, problems)
        if base is None:
            missing()
    event = stamped(event, events)
    after = apply(base, thread_id, event)
    if after is not None and after is not base:
        try:
            vet_thread(after, normalize)
        except ValueError as exc:
            raise InvalidArgument(f"Refusing to write an invalid thread: {exc}",
                                  details={"thread_id": thread_id}) from None
    for lost in sorted(restored, key=event_order):  # the write repairs the file from the backup
        data = render(data, dump_event(lost))
    new = _without_old_text(render(data, dump_event(event)), event) if after is not base else b""
    return Append(states, event, base, after, key, deleted, bool(parsed.problems or problems or restored), new)


def _without_old_text(data: bytes, event: Event) -> bytes:
    """The file as written after `event`, holding no text the thread no longer shows: a
    deletion leaves the tombstone alone (no comment, no code); an edit replaces the first
    comment's earlier texts (in the `created` line, earlier edits, a snapshot's first comment)
    with a note naming their event, so the fold still reads a first comment, and each edit
    after it, ending on the new text.
    Someone who pasted a secret removes it from the working tree (git's history keeps what
    was committed: docs/git.md). Damaged lines and other events stay as they were."""
    if event.event == "deleted":
        return dump_event(event)
    if event.event != "edited" or event.body is None:
        return data
    out: list[bytes] = []
    for raw in data.split(b"\n"):
        parsed = parse_events(raw) if raw.strip() else None
        old = parsed.events[0] if parsed is not None and len(parsed.events) == 1 and not parsed.problems else None
        if old is not None and old.id != event.id:
            new = _first_comment_as(old)
            if new is not old:
                raw = dump_event(new).rstrip(b"\n")
        out.append(raw)
    return b"\n".join(out)


def _removed(old: Event) -> str:
    """What an earlier text of the first comment becomes: distinct for each event, so the fold
    still sees every edit change the text (each keeps its history entry)."""
    return f"(text replaced by a later edit; {old.id})"


def _first_comment_as(old: Event) -> Event:
    if old.event in ("created", "edited") and old.body is not None and old.body != _removed(old):
        return old.replace(body=_removed(old))
    first = old.thread.comments[0] if old.event == "snapshot" and old.thread and old.thread.comments else None
    if first is not None and first.body != _removed(old):
        rest = old.thread.comments[1:]
        return old.replace(thread=old.thread.evolve(comments=(msgspec.structs.replace(first, body=_removed(old)),
                                                              *rest)))
    return old


def restorable(backup_dir: Path | None, thread_id: str, present: list[Event]) -> list[Event]:
    """Events of this checkout's backup of the thread that its (damaged) file lacks."""
    backup = read_backup(backup_dir, thread_id)
    known = {e.id for e in present}
    return [e for e in backup.events if e.id not in known] if backup is not None else []


def too_new(thread_id: str, schema: int) -> StoreTooNew:
    return StoreTooNew(f"Thread {thread_id} was written by a newer limpet (schema {schema})",
                       details={"schema": schema, "thread_id": thread_id})
