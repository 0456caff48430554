"""limpet: code comments that cling to the code. This is the Python API (docs/api.md).

    >>> import limpet
    >>> ws = limpet.Workspace("path/to/checkout")
    >>> t = ws.add("src/app.py", 10, 14, "Handle expired tokens", tag="TODO")
    >>> [c.body for c in ws.thread(t.id).comments]
    ['Handle expired tokens']

    Workspace    one checkout's threads: add, read, reply, resolve, move, delete, reconcile, export
    Thread, Comment, Decision, HistoryEvent, Snapshot, Anchor   the values it returns (limpet.model)
    LimpetError and its subclasses   every failure, typed, with a code, a message and the field

The package is the library door: it calls the core's Service, as the operations do; of the
server, only the command line imports it (its thin layer). Every package of limpet imports
this one first (it is their parent), so the server loads only when `Workspace` is asked for.
"""

from types import ModuleType
from typing import TYPE_CHECKING

from limpet.model import (
    AUTHOR_TYPES,
    FORMATS,
    HEALTHS,
    STATUSES,
    TAGS,
    Anchor,
    Comment,
    Decision,
    Deferred,
    FileNotFound,
    HistoryEvent,
    InternalError,
    InvalidAnchor,
    InvalidArgument,
    InvalidPath,
    LimpetError,
    LockTimeout,
    ParseFailure,
    Snapshot,
    StorageFailed,
    StoreCorrupted,
    StoreError,
    StoreTooNew,
    Thread,
    ThreadNotFound,
)

if TYPE_CHECKING:
    from limpet._workspace import Workspace

__all__ = [
    "AUTHOR_TYPES",
    "FORMATS",
    "HEALTHS",
    "STATUSES",
    "TAGS",
    "Anchor",
    "Comment",
    "Decision",
    "FileNotFound",
    "HistoryEvent",
    "InternalError",
    "InvalidAnchor",
    "InvalidArgument",
    "InvalidPath",
    "LimpetError",
    "LockTimeout",
    "ParseFailure",
    "Snapshot",
    "StorageFailed",
    "StoreCorrupted",
    "StoreError",
    "StoreTooNew",
    "Thread",
    "ThreadNotFound",
    "Workspace",
]


# `Workspace`, imported when first asked for: every `import limpet.model` (or exporters,
# prompts, anchoring) runs this package first, and must not load the server with it.
def _load_workspace() -> ModuleType:
    from limpet import _workspace
    return _workspace


__getattr__ = _DEFERRED = Deferred(globals(), {_load_workspace: ("Workspace",)})
__dir__ = _DEFERRED.dir
