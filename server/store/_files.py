"""The cross-process lock, and what a refused write means (STORAGE_FAILED). Every file of
`.limpet/` and of the private folder is reached through _confined.py."""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from limpet.model import LockTimeout, StorageFailed

__all__ = ["cross_process_lock", "storage_failed"]

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
