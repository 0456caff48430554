"""Watching the workspace: what other processes and editors change, as workspace paths.

`watch_workspace(root)` yields, per debounced burst, the set of changed workspace-relative
paths: source files, and the store documents other processes write
(`.limpet/threads/<id>.json`, `.limpet/reviews/current.json`). limpet's derived and private
folders (cache, backups, corrupt, exports, the lock, temp files) and `.git/` are ignored.
Built on the `watchfiles` library (inotify, with its own debounce).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import anyio

from ._files import TEMP_MARK
from ._paths import IGNORED_DIRS, STORE_DIRNAME

__all__ = ["watch_workspace", "thread_id_of", "DEBOUNCE_MS"]

DEBOUNCE_MS = 150
_STORE_DOCS = ("threads/", "reviews/")


def _relevant(root: str, path: str) -> str | None:
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    if rel.startswith("../") or TEMP_MARK in rel:
        return None
    first, _, rest = rel.partition("/")
    if first == STORE_DIRNAME:
        return rel if rest.startswith(_STORE_DOCS) and rel.endswith(".json") else None
    if first in IGNORED_DIRS or any(part in IGNORED_DIRS for part in rel.split("/")[:-1]):
        return None
    return rel


def thread_id_of(rel: str) -> str | None:
    """`.limpet/threads/c_123.json` → `c_123` (a store change from another process)."""
    prefix = f"{STORE_DIRNAME}/threads/"
    if rel.startswith(prefix) and rel.endswith(".json"):
        return rel[len(prefix):-5]
    return None


async def watch_workspace(root: str | os.PathLike[str], stop: anyio.Event | None = None) -> AsyncIterator[set[str]]:
    from watchfiles import awatch

    base = str(Path(root).resolve())

    def keep(_change: object, path: str) -> bool:
        return _relevant(base, path) is not None

    async for changes in awatch(base, watch_filter=keep, debounce=DEBOUNCE_MS, step=20, stop_event=stop,
                                ignore_permission_denied=True):
        paths = {rel for _, p in changes if (rel := _relevant(base, p)) is not None}
        if paths:
            yield paths
