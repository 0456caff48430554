"""The exporters' public value types: what the service passes in, what comes back.

Options validate themselves on construction so every door (CLI, MCP, HTTP) gets the same
field-level INVALID_ARGUMENT errors without re-checking bounds of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from limpet.model import FORMATS, TASKS, ExportFormat, ExportTask, InvalidArgument, Thread

__all__ = [
    "FORMATS",
    "MAX_CONTEXT_LINES",
    "PARTITION_COLUMNS",
    "TASKS",
    "ExportFormat",
    "ExportItem",
    "ExportOptions",
    "ExportResult",
    "ExportTask",
    "Progress",
]

MAX_CONTEXT_LINES = 20
# Low-cardinality columns only: a Hive partition per distinct value must stay a small number.
PARTITION_COLUMNS = ("workspace", "tag", "status", "health", "author_type", "author")
MAX_ROW_GROUP = 1 << 20

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class ExportItem:
    """One thread to export, with the workspace it came from and its file's current bytes."""

    thread: Thread
    workspace: str
    source: bytes | None = None  # current bytes of thread.file; None when the file is gone (or unread: reads_source)


@dataclass(frozen=True, slots=True)
class ExportOptions:
    context_lines: int = 3
    include_source_context: bool = True
    task: ExportTask = "comments"
    all_pairs: bool = False  # review-pairs: also threads whose code did not change (no-op pairs)
    partition_by: tuple[str, ...] = ()
    row_group_size: int = 65536
    exported_at: str | None = None  # stamped into headers only when given: output stays deterministic

    def __post_init__(self) -> None:
        # Accept "tag,status" and lists from doors, store a normalized tuple.
        parts = self.partition_by or ()
        if isinstance(parts, str):
            parts = tuple(p.strip() for p in parts.split(",") if p.strip())
        object.__setattr__(self, "partition_by", tuple(parts))
        self._validate()

    def _validate(self) -> None:
        cl = self.context_lines
        if not _is_int(cl) or not 0 <= cl <= MAX_CONTEXT_LINES:
            raise InvalidArgument(
                f"context_lines must be an integer between 0 and {MAX_CONTEXT_LINES}, got {cl!r}",
                field="context_lines",
                details={"minimum": 0, "maximum": MAX_CONTEXT_LINES, "value": cl},
            )
        if not isinstance(self.include_source_context, bool):
            raise InvalidArgument("include_source_context must be a boolean", field="include_source_context")
        if not isinstance(self.all_pairs, bool):
            raise InvalidArgument("all_pairs must be a boolean", field="all_pairs")
        if self.task not in TASKS:
            raise InvalidArgument(
                f"Unknown task {self.task!r}; expected one of {', '.join(TASKS)}",
                field="task",
                details={"allowed": list(TASKS)},
            )
        _check_partition_by(self.partition_by)
        rg = self.row_group_size
        if not _is_int(rg) or not 1 <= rg <= MAX_ROW_GROUP:
            raise InvalidArgument(
                f"row_group_size must be an integer between 1 and {MAX_ROW_GROUP}, got {rg!r}",
                field="row_group_size",
            )
        if self.exported_at is not None and not _is_utc_iso(self.exported_at):
            raise InvalidArgument(
                "exported_at must be a UTC ISO 8601 timestamp such as 2026-11-22T10:00:00Z",
                field="exported_at",
            )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_partition_by(parts: tuple[str, ...]) -> None:
    for p in parts:
        if p not in PARTITION_COLUMNS:
            raise InvalidArgument(
                f"Cannot partition by {p!r}; allowed columns: {', '.join(PARTITION_COLUMNS)}",
                field="partition_by",
                details={"allowed": list(PARTITION_COLUMNS), "value": p},
            )
    if len(set(parts)) != len(parts):
        raise InvalidArgument("partition_by lists a column twice", field="partition_by")


def _is_utc_iso(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return False
    return parsed.tzinfo is not None and parsed.utcoffset().total_seconds() == 0


@dataclass(frozen=True, slots=True)
class ExportResult:
    format: str
    count: int  # threads written
    bytes_written: int  # for a partitioned dataset: the sum over its files
    path: str | None  # None when written to a stream
    media_type: str
