"""Watching the workspace: what other processes and editors change, as workspace paths.

    for paths in watch_workspace(root, stop):      # one set per debounced burst (blocking)
        changes = classify(paths)                  # .sources, .thread_ids, .documents

`watch_workspace(root, stop)` yields, per debounced burst, the set of changed
workspace-relative paths: source files, and the store documents any process writes
(`.limpet/threads/<id>.jsonl`, `.limpet/reviews/current.json`). limpet's private folders
(in `.git/`, or `.limpet/cache/`), exports, temp files, `.git/` and the folders the
workspace scan skips (node_modules, .venv, ...) are ignored. Built on the `watchfiles`
library (inotify, with its own debounce); when the OS cannot watch the tree (inotify watches
run out, a file system without notifications) it polls instead. It blocks: the core runs it
in one thread per service, however many doors listen (limpet.server.core's change feed).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from limpet.model import is_thread_id
from limpet.server.store._confined import TEMP_MARK
from limpet.server.store._paths import STORE_DIRNAME, is_ignored

__all__ = ["Changes", "DEBOUNCE_MS", "classify", "thread_id_of", "watch_workspace"]

DEBOUNCE_MS = 150
_STORE_DOCS = ("threads/", "reviews/")
_THREADS = f"{STORE_DIRNAME}/threads/"


@dataclass(frozen=True)
class Changes:
    sources: frozenset[str]  # workspace files (an editor saved, git checked out, ...)
    thread_ids: frozenset[str]  # threads written or deleted, by this or another process
    documents: frozenset[str]  # other store documents, as workspace paths


def _relevant(root: str, path: str) -> str | None:
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    if rel.startswith("../") or TEMP_MARK in rel:
        return None
    first, _, rest = rel.partition("/")
    if first == STORE_DIRNAME:
        return rel if rest.startswith(_STORE_DOCS) and rel.endswith((".json", ".jsonl")) else None
    if is_ignored(first) or any(is_ignored(part) for part in rel.split("/")[:-1]):
        return None
    return rel


def thread_id_of(rel: str) -> str | None:
    """`.limpet/threads/c_123.jsonl` → `c_123` (a store change, possibly from another process;
    `c_123.json` is the same thread in the older layout)."""
    if not rel.startswith(_THREADS) or "/" in rel[len(_THREADS):]:
        return None
    name = rel[len(_THREADS):]
    for suffix in (".jsonl", ".json"):
        if name.endswith(suffix):
            tid = name[: -len(suffix)]
            return tid if is_thread_id(tid) else None
    return None


def classify(paths: Iterable[str]) -> Changes:
    """Split workspace paths (from the watcher or the service's listeners) by what changed."""
    sources, ids, docs = set(), set(), set()
    for rel in paths:
        if (tid := thread_id_of(rel)) is not None:
            ids.add(tid)
        elif rel == STORE_DIRNAME or rel.startswith(f"{STORE_DIRNAME}/"):
            docs.add(rel)
        else:
            sources.add(rel)
    return Changes(frozenset(sources), frozenset(ids), frozenset(docs))


POLL_MS = 500  # the fallback's period when the OS cannot notify
ARMED_WAIT_MS = 200  # the first wait's length: how soon "armed" is said when nothing changes


def watch_workspace(root: str | os.PathLike[str], stop: threading.Event, *,
                    debounce_ms: int = DEBOUNCE_MS) -> Iterator[set[str]]:
    """Changed workspace paths, one set per burst, until `stop` is set (blocking). The first
    set may be empty: it says the watcher is armed (every change from then on is reported;
    state kept from these events is complete only if it was built after that)."""
    base = str(Path(root).resolve())
    try:
        yield from _bursts(base, stop, debounce_ms, polling=False)
    except (OSError, RuntimeError):  # no inotify watches left, or none on this file system
        yield from _bursts(base, stop, debounce_ms, polling=True)


def _bursts(base: str, stop: threading.Event, debounce_ms: int, *, polling: bool) -> Iterator[set[str]]:
    from watchfiles import watch

    def keep(_change: object, path: str) -> bool:
        return _relevant(base, path) is not None

    armed = False
    # The OS watch exists before the first wait times out: an empty yield then says "armed".
    for changes in watch(base, watch_filter=keep, debounce=debounce_ms, step=20, stop_event=stop,
                         ignore_permission_denied=True, raise_interrupt=False, force_polling=polling,
                         poll_delay_ms=POLL_MS, yield_on_timeout=True, rust_timeout=ARMED_WAIT_MS):
        paths = {rel for _, p in changes if (rel := _relevant(base, p)) is not None}
        if paths or not armed:
            armed = True
            yield paths
