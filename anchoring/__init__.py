"""limpet.anchoring: the pure engine — bytes in, values out, no file or network I/O.

Public surface: the thread model, the error tree (stable codes), anchors and re-anchoring.
"""

from limpet.anchoring._anchor import Anchor, content_hash, create_anchor
from limpet.anchoring._errors import (
    FileNotFound,
    InternalError,
    InvalidAnchor,
    InvalidArgument,
    InvalidPath,
    LimpetError,
    LockTimeout,
    ParseFailure,
    StoreCorrupted,
    StoreError,
    StoreTooNew,
    ThreadNotFound,
)
from limpet.anchoring._model import (
    AUTHOR_TYPES,
    HEALTHS,
    MAX_BODY,
    SCHEMA_VERSION,
    STATUSES,
    TAGS,
    THREAD_ID_PATTERN,
    Comment,
    Decision,
    HistoryEvent,
    Snapshot,
    Thread,
    is_thread_id,
)

# Re-anchoring pulls in tree-sitter: loaded on first use so `limpet --help` and a server's
# first tools/list stay fast (cold start).
_LAZY = {
    "WorkspaceIndex": "._index",
    "Relocation": "._reanchor",
    "Candidate": "._reanchor",
    "reanchor": "._reanchor",
    "orphan_candidates": "._reanchor",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "Candidate",
    "Relocation",
    "WorkspaceIndex",
    "orphan_candidates",
    "reanchor",
    "AUTHOR_TYPES",
    "HEALTHS",
    "MAX_BODY",
    "SCHEMA_VERSION",
    "STATUSES",
    "TAGS",
    "THREAD_ID_PATTERN",
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
    "StoreCorrupted",
    "StoreError",
    "StoreTooNew",
    "Thread",
    "ThreadNotFound",
    "content_hash",
    "create_anchor",
    "is_thread_id",
]
