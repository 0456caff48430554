"""Loading many long-lived objects without the cyclic collector rescanning them."""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
from collections.abc import Iterator

__all__ = ["collect_released", "gc_paused", "leave_frozen_at_exit"]


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Loading a store allocates ~10 objects per thread, all kept: the cyclic collector would
    rescan the growing heap again and again (a third of a cold load). Threads hold no cycles
    (reference counting frees them), so what was loaded is then frozen out of later
    collections too: a server holding 100,000 threads would otherwise rescan a million
    objects on every full collection."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        _unfreeze_at_exit()
        if was:
            gc.enable()


_left_frozen = False


def leave_frozen_at_exit() -> None:
    """The process is about to end (a one-shot command is done): everything it holds is frozen
    and stays so, and the final collection at exit does not rescan every module's objects
    (~10 ms of a fresh `limpet list`, an eighth of it). Reference counting still frees what
    holds no cycle as the interpreter shuts down."""
    global _left_frozen
    _left_frozen = True
    gc.freeze()


@functools.cache
def _unfreeze_at_exit() -> None:
    # Back into the collector's view at exit: the final collection then frees what was frozen
    # (native objects warn about leaks otherwise), unless the process chose to leave it.
    atexit.register(_unfreeze)


def _unfreeze() -> None:
    if not _left_frozen:
        gc.unfreeze()


def collect_released() -> None:
    """A part of a command is done and what it loaded is dropped (one repository of an export
    of many): frozen objects go back into the collector's view and are collected now, so the
    next part starts from the same memory (the store's loads freeze what they load, and a
    service holds reference cycles that only the collector frees)."""
    if not _left_frozen:
        gc.unfreeze()
        gc.collect()
