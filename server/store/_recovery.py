"""Recovering a damaged store file: keep the damaged bytes aside, restore the backup, report once.

One routine for every kind of store file (threads, the review): the caller says how to vet
the bytes (`parse` raises ValueError/TypeError/KeyError on damage) and what a vanished
file means.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from limpet.model import StoreCorrupted
from limpet.server.store._files import atomic_write

__all__ = ["DAMAGE", "recover"]

# What vetting raises on damaged bytes (orjson.JSONDecodeError is a ValueError).
DAMAGE = (ValueError, TypeError, KeyError, AttributeError)


def recover(path: Path, backup: Path, corrupt_dir: Path, root: Path, parse: Callable[[bytes], Any],
            exc: Exception) -> None:
    """Call under the store lock. Returns only when the file vanished meanwhile (the caller
    decides what that means); otherwise raises StoreCorrupted, whether or not a valid backup
    was restored (`details.recovered`)."""
    shown = path.relative_to(root).as_posix()
    try:
        damaged = path.read_bytes()
    except FileNotFoundError:
        return
    try:
        parse(damaged)
    except DAMAGE:
        pass
    else:  # another process repaired it while we waited for the lock
        raise StoreCorrupted(f"Store file {shown} was corrupted and has been repaired; retry the call",
                             details={"file": shown, "recovered": True})
    aside = corrupt_dir / f"{path.name}.{time.time_ns()}"
    aside.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(aside, damaged)
    try:
        good = backup.read_bytes()
        parse(good)
        atomic_write(path, good)
        restored = True
    except (OSError, *DAMAGE):
        path.unlink(missing_ok=True)  # kept aside above; the next read finds no file
        restored = False
    kept = aside.relative_to(root).as_posix()
    raise StoreCorrupted(
        f"Store file {shown} was corrupted; "
        + (f"recovered from backup, corrupt copy kept at {kept}. Retry the call." if restored
           else f"no valid backup exists; the corrupt copy is kept at {kept}"),
        details={"file": shown, "recovered": restored, "kept_at": kept, "reason": str(exc)[:200]},
    )
