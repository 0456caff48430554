"""Where things are and preparing the store: which workspace a folder means, what is committed
with the code and what is private to a checkout, what a store needs before its first write,
and the lock its writers take.

    <workspace>/.limpet/                committed (shared through git)
        store.json                      {"schema": N}
        threads/<thread id>.jsonl       one thread: its events, one JSON object a line
        reviews/current.json            the current review (present_review)
        .gitignore, .gitattributes      keep temp files out; merge thread files as a union
        exports/                        export_comments' files (a folder that ignores itself)
        prompts/<name>.md.j2            workspace overrides of the prompts
    <private>/                          never committed, disposable
        derived.sqlite (-wal, -shm)     current positions, health, what they were checked against
        threads.cache                   threads as folded from their files, with each file's stat
        backups/threads/<id>.jsonl      last good copy of each thread file this checkout wrote
        backups/reviews/current.json    last good copy of the review
        tmp/                            (in git) thread files being written, before their rename
        selection.json                  what the web page has selected
        review.json                     the review's current positions

The private folder is `<git dir>/limpet/` when the workspace is (inside) a git checkout: git
never tracks, cleans (`git clean -fdx`) or shows it, and a branch switch never brings it into
the working tree. Each worktree has its own git dir, so its own positions. Outside git it is
`.limpet/cache/` (a folder that ignores itself). It is looked up again for each transaction
(a few stats): a `git init` under a running server moves it for every process at once.

Every one of these is reached through the confinement layer (_confined.py): `Places` names
them as `Confined` folders, never as paths to open.

What a store needs before its first committed write (`prepare_store`; never made by a read,
so a checkout with no `.limpet/` stays without one until someone writes a thread), and the
conversion of the older layout:

    .limpet/store.json      {"schema": 2}; a store of a newer schema is refused untouched
    .limpet/.gitignore      temp files of interrupted writes, and the private folders an
                            older limpet kept here
    .limpet/.gitattributes  `threads/*.jsonl merge=union`: git's built-in union driver keeps
                            the events both sides of a merge, rebase, cherry-pick or stash
                            appended to one thread (events carry their own ids and order)

Writers hold the cross-process lock on the workspace folder (`cross_process_lock`); a write
the disk refuses is STORAGE_FAILED (`storage_failed`).

Which workspace a command run in some folder means (`locate_workspace`) is found as git
finds its repository: from that folder up, the first folder holding `.limpet/` (a store) or
`.git` (the top of a worktree, where `limpet add` makes the store), else the folder itself.
A command run in `src/` of a checkout lists the checkout's threads, never a second store in
`src/`; paths typed there (`limpet add util.py:3`) are relative to it, as git's are
(`prefix`: where the folder lies in the workspace).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath

import msgspec
import orjson

from limpet.model import LockTimeout, StorageFailed, StoreTooNew, blake2b
from limpet.server.store._confined import Confined, SafeDir, Unconfined
from limpet.server.store._events import STORE_SCHEMA
from limpet.server.store._paths import STORE_DIRNAME
from limpet.server.store._untrusted import load_record, log

__all__ = ["GITATTRIBUTES", "GITIGNORE", "Located", "Places", "SELF_IGNORING", "cross_process_lock",
           "ensure_private", "git_dir_of", "locate", "locate_workspace", "prepare_store",
           "private_problems", "read_schema", "remove_private_temps", "scratch_folder", "storage_failed",
           "usable_private"]


# Written into private folders that live inside the working tree: they then ignore themselves.
SELF_IGNORING = "# limpet: private to this checkout, never committed\n*\n"
SELF_IGNORING_NAME = ".gitignore"


class Places(msgspec.Struct, frozen=True):
    store: Confined  # <workspace>/.limpet
    threads: Confined  # <workspace>/.limpet/threads
    private: Confined  # derived state, backups, the page's selection
    in_git: bool

    @property
    def backups(self) -> Confined:
        return self.private.child("backups", "threads")


def git_dir_of(root: Path) -> tuple[Path, Path] | None:
    """(the git dir, the top of the working tree) of the checkout holding `root`, or None.
    Reads `.git` itself (a folder, or a file `gitdir: PATH` in worktrees and submodules):
    no git process is started. The git dir is trusted as git trusts it: it anchors the
    private folder, whose own components are checked by the confinement layer. A `.git`
    that is a symlink, or a `gitdir:` naming a folder without a HEAD, anchors nothing: the
    checkout is then treated as outside git (its private folder `.limpet/cache/`)."""
    for top in (root, *root.parents):
        dot_git = top / ".git"
        try:
            if dot_git.is_symlink():  # a link to anywhere (a crafted checkout): not trusted to anchor anything
                return None
            if dot_git.is_dir():
                return dot_git, top
            if dot_git.is_file():
                text = dot_git.read_text("utf-8", errors="replace").strip()
                if text.startswith("gitdir:"):
                    target = Path(text[len("gitdir:"):].strip())
                    target = target if target.is_absolute() else (top / target)
                    if (target / "HEAD").is_file():  # a git dir, as git checks it: not any folder named
                        return target.resolve(), top
        except OSError:
            continue
    return None


def locate(root: Path) -> Places:
    store = Confined(root, (STORE_DIRNAME,))
    found = git_dir_of(root)
    if found is None:
        private = store.child("cache")
    else:
        git_dir, top = found
        rel = root.relative_to(top).as_posix() if root != top else ""
        # Several workspaces inside one checkout each get their own folder.
        private = Confined(git_dir, ("limpet",) if not rel else ("limpet", "nested", _key(rel)))
    return Places(store, store.child("threads"), private, found is not None)


def _key(rel: str) -> str:
    return blake2b(rel.encode(), digest_size=8).hexdigest()


def ensure_private(places: Places) -> bool:
    """Create the private folder (inside the working tree, one that ignores itself, so it
    never shows in `git status`). Returns whether it exists now, real: a symlink in any of
    its components means no private folder (logged; reads run without the caches)."""
    try:
        folder = places.private.open(create=True)
        if folder is None:
            return False
        with folder:
            if not places.in_git and folder.regular_or_absent(SELF_IGNORING_NAME) is None:
                folder.write_atomic(SELF_IGNORING_NAME, SELF_IGNORING.encode(), durable=False)
    except Unconfined as exc:
        _refused(exc)
        return False
    except OSError:
        return False
    return True


def usable_private(places: Places, create: bool) -> Confined | None:
    """The private folder when it can be used (made first when `create`), else None: absent,
    or refused (a symlink in a component: logged once, listed by reconcile's problems)."""
    if create:
        return places.private if ensure_private(places) else None
    try:
        folder = places.private.open()
    except Unconfined as exc:
        _refused(exc)
        return None
    except OSError:
        return None
    if folder is None:
        return None
    folder.close()
    return places.private


def private_problems(places: Places, root: Path) -> dict[str, list[str]]:
    """Why the private folder cannot be used (a symlink in a component, a file), as the
    store's `problems` lists it: {the folder, workspace-relative when inside: [why]}, or {}."""
    problem = places.private.problem()
    if problem is None:
        return {}
    path = places.private.path
    shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    return {shown: [f"{problem}: limpet runs without it (positions recomputed, no backups)"]}


_told: set[str] = set()


def _refused(exc: Unconfined) -> None:
    if exc.message not in _told:  # once per process and path: every read would say it again
        _told.add(exc.message)
        log.warning("%s; limpet runs without its private folder (positions recomputed, no backups)", exc.message)


def remove_private_temps(places: Places) -> None:
    """A killed writer's temp files in the private folders written under the lock."""
    private = usable_private(places, False)
    with contextlib.suppress(OSError, Unconfined):
        folder = private.child("backups", "threads").open() if private is not None else None
        if folder is not None:
            with folder:
                folder.remove_stale_temps()
    scratch = scratch_folder(places)
    if scratch is not None:
        with scratch:
            scratch.remove_stale_temps()


def scratch_folder(places: Places) -> SafeDir | None:
    """Inside git, where committed files are written before their rename: the private folder,
    which `git clean -fdx` never reaches (a cleanup in a loop kept deleting temp files written
    beside their thread file). None outside git: temp files then sit beside their file."""
    if not places.in_git or not ensure_private(places):
        return None
    try:
        return places.private.child("tmp").open(create=True)
    except (Unconfined, OSError):
        return None


# -- the cross-process lock, and what a refused write means ----------------------------------------
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

# What the disk says when it refuses a write, and what a person can do about it.
_CAUSES = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
}


def storage_failed(exc: OSError, path: Path | str, what: str = "write") -> StorageFailed:
    cause = _CAUSES.get(exc.errno or 0) or exc.strerror or str(exc)
    name = errno.errorcode.get(exc.errno or 0, "EIO")
    return StorageFailed(f"Could not {what} {path}: {cause}; nothing was written",
                         details={"path": str(path), "errno": name})


@contextlib.contextmanager
def cross_process_lock(root: Path, timeout: float, guard: threading.Lock | None = None) -> Iterator[None]:
    """An exclusive flock on the workspace folder itself.

    Nothing a cleanup does can remove it while it is held (`git clean -fdx`, deleting ignored
    or private files): a lock file could be deleted under its holder, letting a second
    writer lock a new file of the same name. The kernel releases a flock when its holder
    dies, so it never goes stale. `guard` serializes the threads of this process first
    (flock is per open file, so threads would also exclude each other, but waiting on a
    thread lock is cheaper than polling)."""
    deadline = time.monotonic() + timeout
    if guard is not None and not guard.acquire(timeout=max(timeout, 0)):
        raise _timeout(root, timeout)
    try:
        with _flock(root, deadline, timeout):
            yield
    finally:
        if guard is not None:
            guard.release()


@contextlib.contextmanager
def _flock(root: Path, deadline: float, timeout: float) -> Iterator[None]:
    import fcntl

    try:
        fd = os.open(root, os.O_RDONLY | _CLOEXEC)
    except OSError as exc:
        raise storage_failed(exc, root, "lock the store in") from None
    try:
        delay = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise _timeout(root, timeout) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.05)
            except OSError as exc:  # a file system that cannot lock a folder (some network ones)
                raise storage_failed(exc, root, "lock the store in") from None
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _timeout(root: Path, timeout: float) -> LockTimeout:
    return LockTimeout(f"Could not acquire the store lock within {timeout:g}s",
                       details={"lock": str(root), "timeout_seconds": timeout})


# -- what a store needs before its first committed write -------------------------------------------
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
        if not name.endswith(".json") or st is None or not stat.S_ISREG(st.st_mode):
            continue
        thread_id = name[: -len(".json")]
        data = migrate(thread_id)
        if data is None:  # unreadable or from a newer limpet: left as it is, still reported
            continue
        threads_dir.write_atomic(f"{thread_id}.jsonl", data)
        threads_dir.remove(name, (name,))
        converted.append(thread_id)
    return converted


# -- which workspace a command run in some folder means --------------------------------------------
class Located(msgspec.Struct, frozen=True):
    root: Path  # the workspace
    prefix: str  # the folder the command runs in, relative to root ("" at the top)

    def path(self, typed: str) -> str:
        """A path typed in that folder, as a workspace path (`../x.py` from `src/` is `x.py`);
        one that leaves the workspace stays as typed, for the workspace to refuse it."""
        if not self.prefix or os.path.isabs(typed):
            return typed
        joined = os.path.normpath(os.path.join(self.prefix, typed))
        return typed if joined == ".." or joined.startswith("../") else PurePosixPath(joined).as_posix()


def locate_workspace(start: str | os.PathLike[str]) -> Located:
    here = Path(start).absolute()
    # The nearest folder with a store or a `.git` (the worktree's top): nothing above a checkout
    # is its workspace, as git never looks past the repository it found.
    found = next((p for p in (here, *here.parents) if (p / STORE_DIRNAME).is_dir() or (p / ".git").exists()), None)
    if found is None:
        return Located(here, "")
    prefix = here.relative_to(found).as_posix()
    return Located(found, "" if prefix == "." else prefix)
