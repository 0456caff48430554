"""What changed in the workspace: live, as other processes and editors change it (the watch),
and since a commit, from the git repository the workspace is in (`GitHistory`).

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

Earlier versions of workspace files come from git: a process that never saw the workspace before a change (a fresh `limpet list` after a pull)
cannot tell which files changed with a thread's code, or what those files held before. Git
can: the commit that last held the file a thread was anchored to (the very bytes: its
content hash) is the version the thread knew, and `git diff` against it names every file
changed since. Everything here is read-only and best effort: no repository, no git, a
version git does not hold (an anchor written on uncommitted edits, line endings converted)
or any git failure answers None, and the caller does without.

Paths in and out are workspace-relative; git is run in the workspace folder (`--relative`
keeps the diff to it) with no pager, prompt or system config that could change its output,
and without the optional locks a status-like command takes (a git command of the user's
running at the same moment never finds `index.lock` held by limpet).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from limpet.model import content_hash, is_thread_id
from limpet.server.store._confined import TEMP_MARK
from limpet.server.store._paths import STORE_DIRNAME, is_ignored

__all__ = ["Changes", "DEBOUNCE_MS", "GitHistory", "classify", "repository_facts", "thread_id_of",
           "watch_workspace"]


DEBOUNCE_MS = 150
_STORE_DOCS = ("threads/", "reviews/")
_THREADS = f"{STORE_DIRNAME}/threads/"


class Changes(msgspec.Struct, frozen=True):
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


if TYPE_CHECKING:  # imported when git is first run: most commands never ask it
    import subprocess


# -- earlier versions of workspace files, from git ------------------------------------------------
COMMITS_SEARCHED = 32  # newest commits touching a file that are read for the anchored version
_TIMEOUT = 20.0
_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "GIT_CONFIG_NOSYSTEM": "1", "GIT_OPTIONAL_LOCKS": "0",
        "LC_ALL": "C"}


class GitHistory:
    """Read access to the history of the repository holding `root` (see open)."""

    def __init__(self, root: str, prefix: str) -> None:
        self._root = root
        self._prefix = prefix  # the workspace folder inside the repository ("" at its top)
        self._batch: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    @classmethod
    def open(cls, root: str | os.PathLike[str]) -> GitHistory | None:
        """The history of the repository `root` is in; None when it is in none (or git is missing)."""
        out = _git(str(root), "rev-parse", "--is-inside-work-tree", "--show-prefix")
        if out is None:
            return None
        lines = out.decode("utf-8", "surrogateescape").split("\n")
        if not lines or lines[0] != "true":
            return None
        return cls(str(root), lines[1] if len(lines) > 1 else "")

    @property
    def prefix(self) -> str:
        """The workspace folder's path inside the repository ("" at its top, else ending in "/")."""
        return self._prefix

    def commit_holding(self, path: str, digest: str) -> str | None:
        """The newest of the last COMMITS_SEARCHED commits touching `path` after which the file
        held exactly the bytes of content hash `digest` (None: none of them did)."""
        out = _git(self._root, "log", f"-n{COMMITS_SEARCHED}", "--format=%H", "--", f":(literal){path}")
        if out is None:
            return None
        for commit in out.decode("ascii", "replace").split():
            source = self.read(commit, path)
            if source is not None and content_hash(source) == digest:
                return commit
        return None

    def oldest(self, commits: Iterable[str]) -> str | None:
        """The newest commit every one of `commits` descends from: the oldest of them when they
        are in one line of history, else their merge base (None: they share no history)."""
        distinct = sorted(set(commits))
        if len(distinct) <= 1:
            return distinct[0] if distinct else None
        out = _git(self._root, "merge-base", "--octopus", *distinct)
        base = out.decode("ascii", "replace").strip() if out is not None else ""
        return base or None

    def changed_since(self, commit: str) -> frozenset[str] | None:
        """Workspace files whose bytes differ from `commit`'s: committed since, edited, added,
        deleted, and files git does not track (new ones not yet added)."""
        diff = _git(self._root, "diff", "--name-only", "-z", "--no-renames", "--relative", "--no-ext-diff",
                    commit, "--")
        untracked = _git(self._root, "ls-files", "-z", "--others", "--exclude-standard")
        if diff is None or untracked is None:
            return None
        names = (diff + untracked).decode("utf-8", "surrogateescape").split("\0")
        return frozenset(name for name in names if name)

    def diff_lines(self, base: str) -> dict[str, list[tuple[int, int]]] | None:
        """The lines a pull request from HEAD into `base` shows, per workspace file: the new
        side of each hunk of `git diff base...HEAD` with three lines of context, as GitHub
        shows it (the lines a review comment may be on). None: `base` is no commit git knows."""
        if base.startswith("-") or _git(self._root, "rev-parse", "--verify", "--quiet", f"{base}^{{commit}}") is None:
            return None
        out = _git(self._root, "-c", "core.quotePath=false", "diff", "-U3", "--no-color", "--no-ext-diff",
                   "--relative", f"{base}...HEAD", "--")
        if out is None:
            return None
        ranges: dict[str, list[tuple[int, int]]] = {}
        path: str | None = None
        for line in out.decode("utf-8", "surrogateescape").split("\n"):
            if line.startswith("+++ "):
                name = line[4:]
                path = name[2:] if name.startswith("b/") else None  # /dev/null: a deleted file
            elif line.startswith("@@ ") and path is not None:
                new = line.split(" ")[2]  # +start[,count]
                start, _, count = new[1:].partition(",")
                n = int(count) if count else 1
                if n:
                    ranges.setdefault(path, []).append((int(start), int(start) + n - 1))
        return ranges

    def read(self, commit: str, path: str) -> bytes | None:
        """`path`'s bytes in `commit` (None: no such file there)."""
        with self._lock:
            batch = self._batch
            if batch is None or batch.poll() is not None:
                import subprocess
                try:
                    batch = self._batch = subprocess.Popen(
                        ["git", "cat-file", "--batch"], cwd=self._root, stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**os.environ, **_ENV})
                except OSError:
                    return None
            assert batch.stdin is not None and batch.stdout is not None
            try:
                batch.stdin.write(f"{commit}:{self._prefix}{path}\n".encode("utf-8", "surrogateescape"))
                batch.stdin.flush()
                header = batch.stdout.readline().split()
                if len(header) != 3:
                    return None  # "<name> missing" (or ambiguous): nothing follows
                data = batch.stdout.read(int(header[2]))  # read whatever the object is: the next
                batch.stdout.read(1)  # answer starts after it and its newline
                return data if header[1] == b"blob" else None  # a folder is no file
            except (OSError, ValueError):
                self._stop()
                return None

    def close(self) -> None:
        with self._lock:
            self._stop()

    def __del__(self) -> None:  # the reader outlives the reconcile that asked for it
        self._stop()

    def _stop(self) -> None:
        batch, self._batch = self._batch, None
        if batch is not None:
            batch.kill()
            batch.wait()


def repository_facts(root: str | os.PathLike[str]) -> tuple[str | None, str | None, str]:
    """(the origin remote's URL as configured, the HEAD commit, the workspace folder inside the
    repository: "" at its top) of the repository `root` is in; None (or "") for each that is
    not there (no repository, no origin, no commit yet, no git)."""
    url = _git(str(root), "config", "--get", "remote.origin.url")
    out = _git(str(root), "rev-parse", "--show-prefix", "--verify", "-q", "HEAD")
    lines = out.decode("utf-8", "surrogateescape").split("\n") if out else []
    prefix, head = (lines[0].strip("/"), lines[1].strip() or None) if len(lines) > 1 else ("", None)
    return (url.decode("utf-8", "replace").strip() or None if url else None, head, prefix)


def _git(cwd: str, *args: str) -> bytes | None:
    import subprocess
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=_TIMEOUT,
                              env={**os.environ, **_ENV}, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None
