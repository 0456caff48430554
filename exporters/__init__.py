"""limpet.exporters: threads out as JSON, Markdown, JSONL training data and Parquet.

The service gathers `ExportItem`s (thread, workspace name, the file's current bytes) and
calls `get_exporter(fmt).write(items, out, options, progress)`; nothing here reads the
workspace. Schemas are documented in docs/export-formats.md.
"""

from limpet.exporters._arrow import PARQUET_SCHEMA, PARQUET_SCHEMA_ID
from limpet.exporters._json import EXPORT_SCHEMA, read_json_export
from limpet.exporters._registry import FORMATS, get_exporter
from limpet.exporters._types import (
    MAX_CONTEXT_LINES,
    PARTITION_COLUMNS,
    TASKS,
    Exporter,
    ExportItem,
    ExportOptions,
    ExportResult,
    Progress,
)

__all__ = [
    "EXPORT_SCHEMA",
    "FORMATS",
    "MAX_CONTEXT_LINES",
    "PARQUET_SCHEMA",
    "PARQUET_SCHEMA_ID",
    "PARTITION_COLUMNS",
    "TASKS",
    "ExportItem",
    "ExportOptions",
    "ExportResult",
    "Exporter",
    "Progress",
    "get_exporter",
    "read_json_export",
]
