"""limpet.exporters: threads out as JSON, Markdown, JSONL training data, Parquet, a GitHub
pull request review and SARIF; GitHub's review comments in (`read_github_comments`).

The service gathers `ExportItem`s (thread, workspace name, the file's current bytes) and
calls `get_exporter(fmt).write(items, out, options, progress)`; nothing here reads the
workspace. Schemas are documented in docs/export-formats.md.

Importing this package is cheap: pyarrow loads with the Parquet exporter or the Parquet
schema, when first used.
"""

from types import ModuleType

from limpet.exporters._base import Exporter
from limpet.exporters._json import EXPORT_SCHEMA, read_json_export
from limpet.exporters._registry import get_exporter
from limpet.exporters._types import (
    FORMATS,
    MAX_CONTEXT_LINES,
    PAIR_LABELS,
    PARTITION_COLUMNS,
    SPLITS,
    TASKS,
    ExportFormat,
    ExportItem,
    ExportOptions,
    ExportResult,
    ExportTask,
    Grouped,
    Origin,
    Progress,
)
from limpet.model import Deferred


# The Parquet schema and the rows for engines (Delta, Spark) need pyarrow: built when someone
# asks for them; the reader of GitHub's comments, when an import asks for it; detect-secrets,
# when redacting.
def _load_arrow() -> ModuleType:
    from limpet.exporters import _arrow
    return _arrow


def _load_github_comments() -> ModuleType:
    from limpet.exporters import _github_comments
    return _github_comments


def _load_delta() -> ModuleType:
    from limpet.exporters import _delta
    return _delta


def _load_secrets() -> ModuleType:
    from limpet.exporters import _secrets
    return _secrets


__getattr__ = _DEFERRED = Deferred(globals(), {
    _load_arrow: ("PARQUET_SCHEMA", "PARQUET_SCHEMA_ID"),
    _load_github_comments: ("MAX_GITHUB_INPUT", "GithubComment", "GithubThread", "Resolution", "author_of",
                            "limpet_body", "read_github_comments", "read_review_threads"),
    _load_delta: ("DELTA_SCHEMA", "thread_batches"),
    _load_secrets: ("Redactor",),
})
__dir__ = _DEFERRED.dir

__all__ = [
    "DELTA_SCHEMA",
    "EXPORT_SCHEMA",
    "FORMATS",
    "MAX_GITHUB_INPUT",
    "MAX_CONTEXT_LINES",
    "PARQUET_SCHEMA",
    "PAIR_LABELS",
    "PARQUET_SCHEMA_ID",
    "SPLITS",
    "PARTITION_COLUMNS",
    "TASKS",
    "ExportFormat",
    "ExportItem",
    "ExportOptions",
    "ExportResult",
    "ExportTask",
    "Exporter",
    "Grouped",
    "Origin",
    "GithubComment",
    "GithubThread",
    "Progress",
    "Redactor",
    "Resolution",
    "author_of",
    "get_exporter",
    "limpet_body",
    "read_github_comments",
    "read_json_export",
    "read_review_threads",
    "thread_batches",
]
