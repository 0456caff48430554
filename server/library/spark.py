"""limpet.spark: thread rows of many repositories as a Spark DataFrame, one task per repository.

    df = threads_dataframe(spark, ["/mnt/checkouts/httpx", "/mnt/checkouts/click"], status="resolved")
    df.write.partitionBy("repository").parquet("s3://bucket/threads")        # or Delta, Iceberg

Each repository is one partition of a small DataFrame of paths; `mapInArrow` turns each into
its threads: the task opens the workspace through the library (`limpet.Workspace`), which
re-anchors its threads to the checkout, and yields Arrow record batches of
`limpet.exporters.DELTA_SCHEMA` (secrets redacted unless `keep_secrets`). A cluster of N
executors works through N repositories at a time; the driver holds only the paths.

pyspark is not one of limpet's dependencies: it is imported by `threads_dataframe` only. The
executors need limpet installed and the paths readable (a shared file system, or the same
checkouts on every node).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec

from limpet._workspace import Workspace
from limpet.model import InvalidArgument
from limpet.server.core import instant

__all__ = ["threads_dataframe"]


class _Task(msgspec.Struct, frozen=True):
    """What each Spark task runs (pickled to the executors): paths in, thread rows out."""

    filters: dict[str, Any]
    options: dict[str, Any]

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        for batch in batches:
            for root in batch.column(0).to_pylist():
                with Workspace(root) as ws:
                    yield from ws.record_batches(**self.filters, **self.options)


def threads_dataframe(spark: Any, repositories: Sequence[str | os.PathLike[str]], *, tag: str | None = None,
                      status: str | None = None, health: str | None = None, author: str | None = None,
                      since: str | None = None, keep_secrets: bool = False,
                      split_shares: tuple[float, float, float] = (0.8, 0.1, 0.1),
                      row_group_size: int = 65536) -> Any:
    """A DataFrame of the threads of `repositories` (workspace folders), one Spark task each.
    Filters as `limpet export`'s (`since`: changed at or after this ISO 8601 time); options
    are checked here, on the driver, before any task runs."""
    from pyspark.sql.pandas.types import from_arrow_schema

    from limpet.exporters import DELTA_SCHEMA, ExportOptions

    ExportOptions(keep_secrets=keep_secrets, split_shares=split_shares, row_group_size=row_group_size)
    if since is not None:
        try:
            instant(since)
        except ValueError as exc:
            raise InvalidArgument(f"since {since!r} {exc}", field="since") from None
    roots = [str(Path(r).absolute()) for r in repositories]
    paths = spark.createDataFrame(spark.sparkContext.parallelize([(r,) for r in roots], max(len(roots), 1)),
                                  "root string")
    task = _Task({k: v for k, v in {"tag": tag, "status": status, "health": health, "author": author,
                                    "since": since}.items() if v is not None},
                 {"keep_secrets": keep_secrets, "split_shares": split_shares, "row_group_size": row_group_size})
    return paths.mapInArrow(task, from_arrow_schema(DELTA_SCHEMA))
