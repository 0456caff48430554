"""limpet.server.store: everything limpet keeps on disk, and the workspace files it reads.

    Workspace            workspace-relative paths: the one place that decides what may be read
    ThreadStore          `.limpet/`: thread files, store documents (the review), backups, the lock
    atomic_write, ...    durable file primitives: atomic writes, the cross-process lock
    watch_workspace      what other processes and editors change, as workspace paths

Only limpet.server.core uses this package; the doors never do.
"""

from limpet.server.store._files import TEMP_MARK, atomic_write, cross_process_lock, remove_stale_temps
from limpet.server.store._paths import IGNORED_DIRS, PROTECTED_DIRS, STORE_DIRNAME, FileState, Workspace
from limpet.server.store._threads import DEFAULT_LOCK_TIMEOUT, GITIGNORE, ThreadStore, dump_record
from limpet.server.store._watch import Changes, classify, thread_id_of, watch_workspace

__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "GITIGNORE",
    "IGNORED_DIRS",
    "PROTECTED_DIRS",
    "STORE_DIRNAME",
    "TEMP_MARK",
    "Changes",
    "FileState",
    "ThreadStore",
    "Workspace",
    "atomic_write",
    "classify",
    "cross_process_lock",
    "dump_record",
    "remove_stale_temps",
    "thread_id_of",
    "watch_workspace",
]
