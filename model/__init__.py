"""limpet.model: the domain every part of limpet shares.

Threads and their comments, decisions, history and snapshots; the anchor record; the
vocabulary (tags, statuses, healths, author types, limits); the error tree with its stable
codes, CLI exit codes and HTTP statuses. Plain values only: no I/O, no engine, no server.
"""

from limpet.model._anchor import ANCHOR_VERSION, Anchor, content_hash, packed_sketch
from limpet.model._digest import blake2b
from limpet.model._errors import (
    FileNotFound,
    InternalError,
    InvalidAnchor,
    InvalidArgument,
    InvalidPath,
    LimpetError,
    LockTimeout,
    ParseFailure,
    StorageFailed,
    StoreCorrupted,
    StoreError,
    StoreTooNew,
    ThreadNotFound,
)
from limpet.model._thread import Comment, Decision, HistoryEvent, Snapshot, Thread
from limpet.model._vocabulary import (
    AUTHOR_TYPES,
    DEFAULT_AUTHOR,
    FORMATS,
    HEALTHS,
    MAX_BODY,
    MAX_LINE,
    SCHEMA_VERSION,
    STATUSES,
    TAGS,
    TASKS,
    THREAD_ID_PATTERN,
    AuthorType,
    ExportFormat,
    ExportTask,
    Health,
    Status,
    Tag,
    is_thread_id,
)

__all__ = [
    "ANCHOR_VERSION",
    "AUTHOR_TYPES",
    "DEFAULT_AUTHOR",
    "FORMATS",
    "HEALTHS",
    "MAX_BODY",
    "MAX_LINE",
    "SCHEMA_VERSION",
    "STATUSES",
    "TAGS",
    "TASKS",
    "THREAD_ID_PATTERN",
    "Anchor",
    "AuthorType",
    "Comment",
    "Decision",
    "ExportFormat",
    "ExportTask",
    "FileNotFound",
    "Health",
    "HistoryEvent",
    "InternalError",
    "InvalidAnchor",
    "InvalidArgument",
    "InvalidPath",
    "LimpetError",
    "LockTimeout",
    "ParseFailure",
    "Snapshot",
    "Status",
    "StorageFailed",
    "StoreCorrupted",
    "StoreError",
    "StoreTooNew",
    "Tag",
    "Thread",
    "ThreadNotFound",
    "blake2b",
    "content_hash",
    "packed_sketch",
    "is_thread_id",
]
