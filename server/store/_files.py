"""Durable file primitives: atomic writes, the cross-process lock, stale temp cleanup."""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import filelock

from limpet.model import LockTimeout

__all__ = ["atomic_write", "cross_process_lock", "remove_stale_temps", "TEMP_MARK"]

TEMP_MARK = ".tmp-"
_counter = itertools.count()


def atomic_write(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write `data` to `path` so readers see the old bytes or the new ones, never a mix.

    temp file in the same directory + fsync + rename + fsync(dir): after a crash the file is
    either fully old or fully new, and an acknowledged write survives power loss.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}{TEMP_MARK}{os.getpid()}-{next(_counter)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        with os.fdopen(fd, "wb", closefd=True) as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        _fsync_dir(path.parent)


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
def cross_process_lock(path: Path, timeout: float) -> Iterator[None]:
    """An flock-based lock: the kernel releases it when a holder dies, so it never goes stale."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = filelock.FileLock(str(path), timeout=timeout, thread_local=False)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise LockTimeout(
            f"Could not acquire the store lock within {timeout:g}s",
            details={"lock": str(path), "timeout_seconds": timeout},
        ) from None
    try:
        yield
    finally:
        lock.release()
