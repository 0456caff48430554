"""Store documents other than threads.

* `.limpet/reviews/current.json`, the current review (committed, written under the lock).
  Read as untrusted input: a symlink is refused, a file git left with conflict markers is
  read as both sides and the one updated last is shown (the next present_review rewrites
  it), a damaged one is reported once and read as no review; never moved aside.
* files in the private folder (the page's selection, the review's current positions):
  derived or ephemeral, written best effort, never committed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import orjson

from limpet.model import StoreError, StoreTooNew
from limpet.server.store._confined import Confined, Unconfined
from limpet.server.store._events import conflict_sides
from limpet.server.store._layout import storage_failed
from limpet.server.store._threadfiles import folder_problem
from limpet.server.store._untrusted import load_record, log

__all__ = ["Documents"]

Check = Callable[[dict[str, Any]], None]


class Documents:
    """`store`: the workspace's `.limpet/`; `private(create)`: the private folder or None;
    `prepare()`: readies the store for a committed write (the caller holds the lock). Every
    file through the confinement layer (_confined.py)."""

    def __init__(self, store: Confined, private: Callable[[bool], Confined | None], prepare: Callable[[], None]) -> None:
        self._store = store
        self._private = private
        self._prepare = prepare
        self._reported: dict[str, str] = {}

    def read(self, rel: str, check: Check | None = None) -> dict[str, Any] | None:
        """A committed document (e.g. `reviews/current.json`), or None when there is none or
        it cannot be read (reported once). `check` vets its shape (ValueError: damaged;
        StoreTooNew: written by a newer limpet, raised)."""
        where, name = _split(rel)
        folder = self._store.child(*where)
        problem = folder_problem(folder)
        if problem is not None:
            self._report(rel, problem)
            return None
        try:
            data = _read(folder, name)
        except OSError as exc:
            self._report(rel, f"cannot read: {exc.strerror}")
            return None
        if data is None:
            return None
        versions = self._versions(rel, data, check)
        if not versions:
            backup = self._backup(rel)
            with contextlib.suppress(OSError):
                saved = _read(backup, name) if backup is not None else None
                versions = self._versions(rel, saved, check) if saved is not None else []
            if versions:
                self._report(rel, "damaged: shown from this checkout's backup (the file is kept as it is)")
        if not versions:
            return None
        if len(versions) > 1:
            self._report(rel, "git conflict markers: showing the side updated last")
        return max(versions, key=lambda d: str(d.get("updated_at") or ""))

    def _versions(self, rel: str, data: bytes, check: Check | None) -> list[dict[str, Any]]:
        versions = []
        for side in conflict_sides(data):
            try:
                versions.append(_parse(side, check))
            except StoreTooNew:
                raise
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                self._report(rel, f"damaged: {exc}")
        return versions

    def _backup(self, rel: str, create: bool = False) -> Confined | None:
        folder = self._private(create)
        return folder.child("backups", *_split(rel)[0]) if folder is not None else None

    def write(self, rel: str, record: dict[str, Any]) -> None:
        """Write a committed document (caller holds the store lock)."""
        self._prepare()
        where, name = _split(rel)
        folder = self._store.child(*where)
        problem = folder_problem(folder)
        if problem is not None:
            raise StoreError(f"Refusing to write: {problem}", details={"file": rel})
        data = orjson.dumps(record, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"
        try:
            with folder.open(create=True) as held:  # type: ignore[union-attr]  (create: never None)
                held.write_atomic(name, data)
        except OSError as exc:
            raise storage_failed(exc, f".limpet/{rel}") from None
        self._reported.pop(rel, None)
        backup = self._backup(rel, create=True)  # written: the backup is best effort
        if backup is not None:
            with contextlib.suppress(OSError, Unconfined), backup.open(create=True) as held:  # type: ignore[union-attr]
                held.write_atomic(name, data, durable=False)

    # -- the private folder ---------------------------------------------------------------
    def read_private(self, name: str) -> Any:
        folder = self._private(False)
        if folder is None:
            return None
        try:
            data = _read(folder, name)
            return load_record(data) if data is not None else None
        except (OSError, ValueError):  # orjson.JSONDecodeError and Refused are ValueErrors
            return None

    def write_private(self, name: str, record: Any) -> bool:
        """Best effort (a cache, or what the page has selected): False when it could not be kept."""
        folder = self._private(True)
        if folder is None:
            return False
        try:
            with folder.open(create=True) as held:  # type: ignore[union-attr]  (create: never None)
                held.write_atomic(name, orjson.dumps(record, option=orjson.OPT_SORT_KEYS), durable=False)
        except (OSError, Unconfined) as exc:
            log.debug("could not keep %s: %s", name, exc)
            return False
        return True

    def remove_private(self, name: str) -> None:
        folder = self._private(False)
        if folder is not None:
            with contextlib.suppress(OSError, Unconfined):
                held = folder.open()
                if held is not None:
                    with held:
                        held.remove(name, (name,))  # a name limpet writes (write_private), a regular file

    def _report(self, rel: str, problem: str) -> None:
        if self._reported.get(rel) != problem:
            self._reported[rel] = problem
            log.warning(".limpet/%s: %s", rel, problem)

    def problems(self) -> dict[str, list[str]]:
        return {f".limpet/{rel}": [p] for rel, p in sorted(self._reported.items())}


def _parse(data: bytes, check: Check | None) -> dict[str, Any]:
    record = load_record(data)  # within the read budgets (Refused is a ValueError: damaged)
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    if check is not None:
        check(record)
    return record


def _split(rel: str) -> tuple[tuple[str, ...], str]:
    """`reviews/current.json` -> (("reviews",), "current.json")."""
    *where, name = rel.split("/")
    return tuple(where), name


def _read(folder: Confined, name: str) -> bytes | None:
    """The file's bytes; None when it (or its folder) is not there. Unconfined is caught by
    the caller's folder_problem check first; here it counts as absent."""
    try:
        held = folder.open()
    except Unconfined:
        return None
    if held is None:
        return None
    with held:
        try:
            return held.read(name)
        except FileNotFoundError:
            return None
