"""limpet.server.store: everything limpet keeps on disk, and the workspace files it reads.

    Workspace            workspace-relative paths: the one place that decides what may be read
    GitHistory           earlier versions of workspace files, from the repository it is in
    repository_facts     the repository's origin remote and HEAD commit (export provenance)
    ThreadStore          `.limpet/`: threads as event files, the review, the derived cache, the lock
    Event                one committed event (what a person or agent did to a thread)
    checked_event        a new event, checked as a line read from disk is
    Confined, SafeDir    the confinement layer: every file of `.limpet/` and of the private
                         folder, reached through directory descriptors proved real
    cross_process_lock   the lock on the workspace folder; storage_failed (STORAGE_FAILED)
    watch_workspace      what other processes and editors change, as workspace paths
    FolderChanges        workspace files no change was seen to since they were last looked at
    leave_frozen_at_exit  a one-shot process ends without the final collection's rescan

What is committed and what stays private to a checkout: _layout.py (and docs/git.md).
Only limpet.server.core uses this package; the doors never do.
"""

from limpet.server.store._changes import (
    Changes,
    GitHistory,
    classify,
    repository_facts,
    thread_id_of,
    watch_workspace,
)
from limpet.server.store._confined import TEMP_MARK, Confined, SafeDir, Unconfined
from limpet.server.store._derived import FileHashes
from limpet.server.store._entries import collect_released, leave_frozen_at_exit
from limpet.server.store._events import EVENT_KINDS, STORE_SCHEMA, Event, checked_event
from limpet.server.store._layout import (
    GITATTRIBUTES,
    GITIGNORE,
    Located,
    cross_process_lock,
    locate_workspace,
    storage_failed,
)
from limpet.server.store._loaded import FolderChanges
from limpet.server.store._paths import IGNORED_DIRS, PROTECTED_DIRS, STORE_DIRNAME, FileState, Workspace
from limpet.server.store._threads import DEFAULT_LOCK_TIMEOUT, NEVER, Apply, IdTaken, ThreadStore
from limpet.server.store._untrusted import LazyLogger

__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "EVENT_KINDS",
    "GITATTRIBUTES",
    "GITIGNORE",
    "IGNORED_DIRS",
    "Located",
    "NEVER",
    "PROTECTED_DIRS",
    "STORE_DIRNAME",
    "STORE_SCHEMA",
    "TEMP_MARK",
    "Apply",
    "Confined",
    "SafeDir",
    "Unconfined",
    "Changes",
    "Event",
    "checked_event",
    "FileHashes",
    "GitHistory",
    "FileState",
    "FolderChanges",
    "IdTaken",
    "LazyLogger",
    "ThreadStore",
    "Workspace",
    "classify",
    "collect_released",
    "cross_process_lock",
    "leave_frozen_at_exit",
    "locate_workspace",
    "repository_facts",
    "storage_failed",
    "thread_id_of",
    "watch_workspace",
]
