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
import stat
from collections.abc import Callable

import orjson

from limpet.model import StoreTooNew
from limpet.server.store._confined import Confined, SafeDir, Unconfined
from limpet.server.store._events import STORE_SCHEMA
from limpet.server.store._untrusted import load_record, log

__all__ = ["GITATTRIBUTES", "GITIGNORE", "prepare_store", "read_schema"]

GITIGNORE = ("# limpet: never commit these (interrupted writes; private folders of older versions)\n"
             "*.tmp-*\nbackups/\ncache/\ncorrupt/\nexports/\nlock\n")
GITATTRIBUTES = ("# limpet: a thread file is a log of events, each line its own record with its own id;\n"
                 "# a merge keeps the lines both sides appended (limpet orders them and drops repeats)\n"
                 "threads/*.jsonl merge=union\n")
MARKER = "store.json"


def read_schema(store: Confined) -> int | None:
    """The store's schema, or None when the marker is missing or unreadable; StoreTooNew for
    a store written by a newer limpet."""
    try:
        folder = store.open()
        if folder is None:
            return None
        with folder:
            data = load_record(folder.read(MARKER))
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


def prepare_store(store: Confined, threads: Confined, migrate: Callable[[str], bytes | None]) -> list[str]:
    """Create or update the store's files (under the lock); convert `<id>.json` threads of
    the older layout into `<id>.jsonl` event files. Returns the ids converted. Unconfined
    (STORE_ERROR) when a component of `.limpet/`, `threads/` or `reviews/` is a symlink."""
    version = read_schema(store)
    with store.open(create=True) as store_dir:  # type: ignore[union-attr]  (create: never None)
        for name, text in ((".gitignore", GITIGNORE), (".gitattributes", GITATTRIBUTES)):
            _write_if_different(store_dir, name, text.encode())
        store_dir.remove_stale_temps()
        try:
            reviews = store_dir.sub("reviews")
        except Unconfined as exc:  # never cleaned through; present_review refuses it (STORE_ERROR)
            log.warning("%s: its temp files are left alone", exc.message)
            reviews = None
        if reviews is not None:
            with reviews:
                reviews.remove_stale_temps()
        with threads.open(create=True) as threads_dir:  # type: ignore[union-attr]
            threads_dir.remove_stale_temps()
            converted = _convert(threads_dir, migrate)
        if version != STORE_SCHEMA:
            store_dir.write_atomic(MARKER, orjson.dumps({"schema": STORE_SCHEMA}) + b"\n")
    return converted


def _write_if_different(folder: SafeDir, name: str, data: bytes) -> None:
    with contextlib.suppress(OSError):
        if folder.read(name) == data:
            return
    folder.write_atomic(name, data)


def _convert(threads_dir: SafeDir, migrate: Callable[[str], bytes | None]) -> list[str]:
    converted = []
    for name in sorted(threads_dir.names()):
        st = threads_dir.lstat(name)
        if not name.endswith(".json") or st is None or not _regular(st.st_mode):
            continue
        thread_id = name[: -len(".json")]
        data = migrate(thread_id)
        if data is None:  # unreadable or from a newer limpet: left as it is, still reported
            continue
        threads_dir.write_atomic(f"{thread_id}.jsonl", data)
        threads_dir.remove(name, (name,))
        converted.append(thread_id)
    return converted


def _regular(mode: int) -> bool:
    return stat.S_ISREG(mode)
