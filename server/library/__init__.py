"""limpet: code comments that cling to the code. This is the Python API (docs/api.md).

    >>> import limpet
    >>> ws = limpet.Workspace("path/to/checkout")
    >>> t = ws.add("src/app.py", 10, 14, "Handle expired tokens", tag="TODO")
    >>> [c.body for c in ws.thread(t.id).comments]
    ['Handle expired tokens']

    Workspace    one checkout's threads: add, read, reply, resolve, move, delete, reconcile, export
    Thread, Comment, Decision, HistoryEvent, Snapshot, Anchor   the values it returns (limpet.model)
    LimpetError and its subclasses   every failure, typed, with a code, a message and the field

The package is the library door: it sits above limpet.server and calls the core's Service, as
the operations do. Nothing below it imports it.
"""

from limpet._workspace import Workspace
from limpet.model import (
    AUTHOR_TYPES,
    FORMATS,
    HEALTHS,
    STATUSES,
    TAGS,
    Anchor,
    Comment,
    Decision,
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
