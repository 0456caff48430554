"""What appending one event makes of a thread's file: read, fold, repair, apply, check.

The store's `append` writes what this plans (under its lock); nothing here writes. A file
damaged since its last write is read together with this checkout's backup of it, so the
write repairs it; an event that would make the thread invalid is refused before any byte
moves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import msgspec

from limpet.model import InvalidArgument, Thread
from limpet.server.store._entries import restorable, too_new
from limpet.server.store._events import Apply, Event, dump_event, event_order, fold, parse_events, stamped
from limpet.server.store._threadfiles import IdTaken, States, ThreadFiles, render
from limpet.server.store._untrusted import Normalize, vet_thread

__all__ = ["Append", "plan_append"]


@dataclass
class Append:
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
