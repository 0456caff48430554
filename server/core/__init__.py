"""limpet.server.core: the service, the only seam between the doors and everything else.

    Service          every operation as a typed public method (threads, reconcile, search,
                     the review and selection, exports and imports, the file tree, prompts,
                     change notification)
    ThreadFilter     the one filter listing, search, resources and exports share
    Change           what listeners receive when threads, files or the review change
    search_threads   regex search over comment bodies, bounded in time
    flush_all, end_of_command   what a process's services computed reaches the disk before it exits
    serving          a server process's collector settings (called once by each serving door)

The core alone talks to limpet.server.store and the engine; operations and doors use only
the names exported here.
"""

from types import ModuleType

from limpet.model import Deferred
from limpet.server.core._changes import Change, ChangeListener
from limpet.server.core._datasets import RepositorySource, export_repositories, repository_batches
from limpet.server.core._export import EXPORT_SCHEME, ImportReport, export_workspaces
from limpet.server.core._filters import ThreadFilter, is_glob
from limpet.server.core._ids import format_time, instant, local_author, utc_now
from limpet.server.core._process import end_of_command, flush_all, serving
from limpet.server.core._reconcile import ReconcileReport
from limpet.server.core._service import Service
from limpet.server.core._validation import invalid_argument_from_decoding
from limpet.server.store import Located, locate_workspace

__all__ = [
    "EXPORT_SCHEME",
    "REVIEW_MODES",
    "REVIEW_REFERENCE",
    "Change",
    "ChangeListener",
    "GithubImportReport",
    "ImportReport",
    "Located",
    "ReconcileReport",
    "RepositorySource",
    "ReviewMode",
    "Service",
    "ThreadFilter",
    "end_of_command",
    "export_repositories",
    "export_workspaces",
    "flush_all",
    "serving",
    "format_time",
    "instant",
    "invalid_argument_from_decoding",
    "is_glob",
    "local_author",
    "locate_workspace",
    "repository_batches",
    "search_threads",
    "utc_now",
]


# The review's text rules, GitHub's import and the regex search, imported when first asked
# for: only the operations and the page that use them do (a `limpet list` builds none).
def _load_review_text() -> ModuleType:
    from limpet.server.core import _review_text
    return _review_text


def _load_github() -> ModuleType:
    from limpet.server.core import _github
    return _github


def _load_search() -> ModuleType:
    from limpet.server.core import _search
    return _search


__getattr__ = _DEFERRED = Deferred(globals(), {
    _load_review_text: ("REVIEW_MODES", "REVIEW_REFERENCE", "ReviewMode"),
    _load_github: ("GithubImportReport",),
    _load_search: ("search_threads",),
})
__dir__ = _DEFERRED.dir
