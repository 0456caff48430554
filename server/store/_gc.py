"""Loading many long-lived objects without the cyclic collector rescanning them."""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
from collections.abc import Iterator

__all__ = ["gc_paused"]


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


@functools.cache
def _unfreeze_at_exit() -> None:
    # Back into the collector's view at exit: the final collection then frees what was frozen
    # (native objects warn about leaks otherwise).
    atexit.register(gc.unfreeze)
