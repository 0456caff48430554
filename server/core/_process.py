"""The end of a process: what its services computed reaches the disk before it exits.

Services register themselves when made; a door calls `flush_all` when it stops and a one-shot
command (the CLI) `end_of_command`, which also leaves what the process loaded to its end
instead of a last collection over every module's objects.
"""

from __future__ import annotations

import weakref
from typing import Protocol

from limpet.server.store import leave_frozen_at_exit

__all__ = ["end_of_command", "flush_all", "register"]


class _Flushable(Protocol):
    def flush(self) -> int: ...


_live: weakref.WeakSet[_Flushable] = weakref.WeakSet()  # every live service


def register(service: _Flushable) -> None:
    _live.add(service)


def flush_all() -> None:
    """Staged re-anchoring results of every live service to the derived cache."""
    for service in list(_live):
        service.flush()


def end_of_command() -> None:
    """A one-shot command is done: what it computed reaches the disk, and what it loaded is left
    for the process's end, not collected once more."""
    flush_all()
    leave_frozen_at_exit()
