"""Durable file primitives: atomic writes, the cross-process lock, stale temp cleanup, and
what a refused write means (STORAGE_FAILED)."""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from limpet.model import LockTimeout, StorageFailed

__all__ = ["TEMP_MARK", "atomic_write", "cross_process_lock", "read_no_follow", "remove_stale_temps",
           "storage_failed"]

TEMP_MARK = ".tmp-"
_counter = itertools.count()
_ATTEMPTS = 25  # a cleanup running in a loop may delete the temp file more than once
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
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


def atomic_write(path: Path, data: bytes | Callable[[], Iterable[bytes]], *, durable: bool = True,
                 scratch: Path | None = None) -> None:
    """Write `data` (bytes, or a function giving them in chunks: a big file is never whole in
    memory) to `path` so readers see the old bytes or the new ones, never a mix.

    temp file in the same directory + fsync + rename + fsync(dir): after a crash the file is
    either fully old or fully new, and an acknowledged write survives power loss. The rename
    is the commit point: an OSError before it leaves nothing behind (the temp file is
    removed); after it, the write has happened (a failing directory fsync is not reported).
    A temp file deleted under us (`git clean` in a loop) is written again; `scratch`, a folder
    on the same file system that cleanups never touch (the private folder inside `.git/`),
    keeps temp files out of their reach.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    folder = scratch if scratch is not None and _same_device(scratch, path.parent) else path.parent
    for attempt in range(_ATTEMPTS):
        tmp = folder / f"{path.name}{TEMP_MARK}{os.getpid()}-{next(_counter)}"
        # O_EXCL | O_NOFOLLOW: never write through a planted link or into someone else's file.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o644)
        try:
            with os.fdopen(fd, "wb", closefd=True) as fh:
                for chunk in (data,) if isinstance(data, bytes) else data():
                    fh.write(chunk)
                if durable:
                    fh.flush()
                    os.fsync(fh.fileno())
            os.replace(tmp, path)
        except FileNotFoundError:
            if attempt == _ATTEMPTS - 1 or not path.parent.is_dir():
                raise
            continue  # the temp file vanished before the rename: nothing happened, try again
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        break
    if durable:
        _fsync_dir(path.parent)


def _same_device(a: Path, b: Path) -> bool:
    try:  # a rename is atomic only within one file system
        return os.stat(a).st_dev == os.stat(b).st_dev
    except OSError:
        return False


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_no_follow(path: str) -> bytes:
    """A file's bytes, refusing a symlink in its last component (OSError ELOOP)."""
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _CLOEXEC)
    with os.fdopen(fd, "rb", closefd=True) as fh:
        return fh.read()


def remove_stale_temps(directory: Path, *, only_dead_writers: bool = False) -> int:
    """Delete temp files left by killed writers. Call only while holding the store lock:
    no live writer has a temp file open then, so every one found is stale. In a folder that
    is also written without the lock (caches), pass `only_dead_writers`: a temp file is
    removed only when the process named in it (`NAME.tmp-PID-N`) is gone."""
    removed = 0
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return 0
    for entry in entries:
        if TEMP_MARK in entry.name and not (only_dead_writers and _writer_alive(entry.name)):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                removed += 1
    return removed


def _writer_alive(name: str) -> bool:
    try:
        pid = int(name.rsplit(TEMP_MARK, 1)[1].split("-", 1)[0])
    except ValueError:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True


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
