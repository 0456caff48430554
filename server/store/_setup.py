"""What a store needs before its first committed write, and the conversion of the older layout.

Written on a real write only (never by a read, so a checkout with no `.limpet/` stays
without one until someone writes a thread):

    .limpet/store.json      {"schema": 2}; a store of a newer schema is refused untouched
    .limpet/.gitignore      temp files of interrupted writes, and the private folders an
                            older limpet kept here
    .limpet/.gitattributes  `threads/*.jsonl merge=union`: git's built-in union driver keeps
                            the events both sides of a merge, rebase, cherry-pick or stash
                            appended to one thread (events carry their own ids and order)
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

import orjson

from limpet.model import StoreTooNew
from limpet.server.store._events import STORE_SCHEMA
from limpet.server.store._files import atomic_write, read_no_follow, remove_stale_temps
from limpet.server.store._untrusted import load_record

__all__ = ["GITATTRIBUTES", "GITIGNORE", "prepare_store", "read_schema"]

GITIGNORE = ("# limpet: never commit these (interrupted writes; private folders of older versions)\n"
             "*.tmp-*\nbackups/\ncache/\ncorrupt/\nexports/\nlock\n")
GITATTRIBUTES = ("# limpet: a thread file is a log of events, each line its own record with its own id;\n"
                 "# a merge keeps the lines both sides appended (limpet orders them and drops repeats)\n"
                 "threads/*.jsonl merge=union\n")


def read_schema(store_dir: Path) -> int | None:
    """The store's schema, or None when the marker is missing or unreadable; StoreTooNew for
    a store written by a newer limpet."""
    try:
        data = load_record(read_no_follow(str(store_dir / "store.json")))
        version = data["schema"]
    except (OSError, ValueError, KeyError, TypeError):  # ValueError: not JSON, or over a read budget
        return None
    if not isinstance(version, int) or isinstance(version, bool):
        return None
    if version > STORE_SCHEMA:
        raise StoreTooNew(
            f"This store was written by a newer limpet (schema {version}; this limpet reads {STORE_SCHEMA})",
            details={"schema": version, "supported": STORE_SCHEMA})
    return version


def prepare_store(store_dir: Path, threads_dir: Path, migrate: Callable[[str], bytes | None]) -> list[str]:
    """Create or update the store's files (under the lock); convert `<id>.json` threads of
    the older layout into `<id>.jsonl` event files. Returns the ids converted."""
    version = read_schema(store_dir)
    store_dir.mkdir(exist_ok=True)
    for name, text in ((".gitignore", GITIGNORE), (".gitattributes", GITATTRIBUTES)):
        _write_if_different(store_dir / name, text.encode())
    threads_dir.mkdir(exist_ok=True)
    for folder in (store_dir, threads_dir, store_dir / "reviews"):
        remove_stale_temps(folder)
    converted = _convert(threads_dir, migrate)
    if version != STORE_SCHEMA:
        atomic_write(store_dir / "store.json", orjson.dumps({"schema": STORE_SCHEMA}) + b"\n")
    return converted


def _write_if_different(path: Path, data: bytes) -> None:
    with contextlib.suppress(OSError):
        if read_no_follow(str(path)) == data:
            return
    atomic_write(path, data)


def _convert(threads_dir: Path, migrate: Callable[[str], bytes | None]) -> list[str]:
    converted = []
    for entry in sorted(os.scandir(threads_dir), key=lambda e: e.name):
        if not entry.name.endswith(".json") or entry.is_symlink():
            continue
        thread_id = entry.name[: -len(".json")]
        data = migrate(thread_id)
        if data is None:  # unreadable or from a newer limpet: left as it is, still reported
            continue
        atomic_write(threads_dir / f"{thread_id}.jsonl", data)
        os.unlink(entry.path)
        converted.append(thread_id)
    return converted
