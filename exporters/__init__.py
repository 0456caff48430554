"""limpet.exporters: threads out as JSON, Markdown, JSONL training data, Parquet, a GitHub
pull request review and SARIF; GitHub's review comments in (`read_github_comments`).

The service gathers `ExportItem`s (thread, workspace name, the file's current bytes) and
calls `get_exporter(fmt).write(items, out, options, progress)`; nothing here reads the
workspace. Schemas are documented in docs/export-formats.md.

Importing this package is cheap: pyarrow loads with the Parquet exporter or the Parquet
schema, when first used.
"""

from typing import Any

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

_GITHUB_NAMES = ("MAX_GITHUB_INPUT", "GithubComment", "GithubThread", "Resolution", "author_of", "limpet_body",
                 "read_github_comments", "read_review_threads")


def __getattr__(name: str) -> Any:
    # The Parquet schema needs pyarrow: built when someone asks for it (PEP 562); the reader of
    # GitHub's comments, when an import asks for it.
    if name in ("PARQUET_SCHEMA", "PARQUET_SCHEMA_ID"):
        from limpet.exporters import _arrow

        return getattr(_arrow, name)
    if name in _GITHUB_NAMES:
        from limpet.exporters import _github_comments

        return getattr(_github_comments, name)
    if name in ("DELTA_SCHEMA", "thread_batches"):  # rows for engines (Delta, Spark): pyarrow too
        from limpet.exporters import _delta

        return getattr(_delta, name)
    if name == "Redactor":  # detect-secrets, loaded when redacting
        from limpet.exporters import _secrets

        return _secrets.Redactor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
