"""What every export format is: its name and what it supports, and one `write` that checks
the options and counts progress before the format writes."""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import BinaryIO

from limpet.exporters._sink import PROGRESS_EVERY, ProgressTicker
from limpet.exporters._types import ExportItem, ExportOptions, ExportResult, Progress
from limpet.model import InvalidArgument

__all__ = ["Exporter"]


class Exporter(ABC):
    """An export format. What every format shares: its options checked (those only some
    formats honour are refused elsewhere, not silently ignored) and progress counted. A
    format says what it is and what it supports, and writes in `write_items`."""

    name: str
    media_type: str
    extension: str  # with the dot; a partitioned Parquet export is a directory instead
    binary = False
    supports_stdout = True
    supports_partitioning = False
    supports_tasks = False
    reads_source = True  # does it show code from the file's current bytes (ExportItem.source)?
    # Does it name files and the commit as the git repository does (options.head_commit and
    # repo_prefix, filled by the service)? Such an export holds one workspace's threads.
    one_repository = False
    open_only = False  # does it hold open threads only (what is still to do: the formats for GitHub)?
    progress_every = PROGRESS_EVERY

    def write(
        self,
        items: Iterable[ExportItem],
        out: BinaryIO | str | os.PathLike,
        options: ExportOptions,
        progress: Progress | None = None,
    ) -> ExportResult:
        if not isinstance(options, ExportOptions):
            raise InvalidArgument("options must be an ExportOptions", field="options")
        if options.partition_by and not self.supports_partitioning:
            raise InvalidArgument(f"{self.name} exports cannot be partitioned (only parquet)", field="partition_by")
        if options.task != "comments" and not self.supports_tasks:
            raise InvalidArgument(f"task {options.task!r} applies to jsonl exports only", field="task")
        ticker = ProgressTicker(progress, self.progress_every)
        result = self.write_items(items, out, options, ticker)
        ticker.done()
        return result

    @abstractmethod
    def write_items(
        self, items: Iterable[ExportItem], out: BinaryIO | str | os.PathLike, options: ExportOptions,
        ticker: ProgressTicker,
    ) -> ExportResult:
        """Write the items (each one passed through `checked`), ticking `ticker` as they go."""
