"""The Parquet export: zstd, streamed one row group at a time, optionally Hive-partitioned.

Memory stays bounded by `row_group_size` items: the iterator is consumed in chunks, each
chunk becomes one Arrow record batch and is written before the next is read. With
`partition_by` the output is a directory `col=value/.../part-0.parquet` that DuckDB
(`read_parquet(..., hive_partitioning=true)`), polars, pandas and Spark read directly.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq

from limpet.exporters._arrow import PARQUET_SCHEMA, build_batch
from limpet.exporters._base import Exporter
from limpet.exporters._card import write_card
from limpet.exporters._provenance import Languages
from limpet.exporters._secrets import Redactor
from limpet.exporters._sink import (
    ProgressTicker,
    checked,
    open_sink,
    remove_tree,
    storage_failed,
    temp_sibling,
    to_path,
)
from limpet.exporters._types import ExportItem, ExportOptions, ExportResult, Grouped
from limpet.model import InvalidArgument

__all__ = ["ParquetExporter", "batches"]

COMPRESSION = "zstd"


def batches(items: Iterable[ExportItem], options: ExportOptions, ticker: ProgressTicker,
            red: Redactor | None) -> Iterator[pa.RecordBatch]:
    """Record batches of at most row_group_size rows, built as the items come; of Grouped items,
    never spanning two repositories: memory holds one repository's row group at most."""
    languages = Languages()
    for chunk in _chunks(items, options.row_group_size):
        try:
            batch = build_batch(chunk, options.split_shares, languages, red)
        except AttributeError:
            for i in chunk:
                checked(i)  # names the offending item as INVALID_ARGUMENT
            raise
        del chunk  # the Thread objects can go before the batch is written
        ticker.tick(batch.num_rows)
        yield batch


def _chunks(items: Iterable[ExportItem], size: int) -> Iterator[list[ExportItem]]:
    for group in items.groups if isinstance(items, Grouped) else (items,):
        it = iter(group)
        while chunk := list(islice(it, size)):
            yield chunk


class ParquetExporter(Exporter):
    name = "parquet"
    media_type = "application/vnd.apache.parquet"
    extension = ".parquet"
    binary = True
    supports_stdout = False
    supports_partitioning = True
    reads_source = False
    progress_every = 1  # ticks come per row group: each is worth a call

    def write_items(
        self, items: Iterable[ExportItem], out: BinaryIO | str | os.PathLike, options: ExportOptions,
        ticker: ProgressTicker,
    ) -> ExportResult:
        red = None if options.keep_secrets else Redactor()
        rows = batches(items, options, ticker, red)
        if options.partition_by:
            size, path = _write_dataset(rows, out, options)
        else:
            size, path = _write_file(rows, out, options)
        return ExportResult(self.name, ticker.count, size, path, self.media_type,
                            secrets=dict(red.counts) if red is not None else {})


def _write_file(
    batches: Iterator[pa.RecordBatch], out: BinaryIO | str | os.PathLike, options: ExportOptions
) -> tuple[int, str | None]:
    with open_sink(out, allow_stdout=False) as (sink, path):
        writer = pq.ParquetWriter(sink, PARQUET_SCHEMA, compression=COMPRESSION)
        try:
            for batch in batches:
                writer.write_batch(batch, row_group_size=options.row_group_size)
        finally:
            writer.close()
    return sink.count, path


def _write_dataset(
    batches: Iterator[pa.RecordBatch], out: BinaryIO | str | os.PathLike, options: ExportOptions
) -> tuple[int, str]:
    target = to_path(out, allow_stdout=False)
    if not isinstance(target, Path):
        raise InvalidArgument("A partitioned export is a directory: give a path", field="output")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InvalidArgument(
            f"{target} exists and is not an empty directory",
            field="output",
            suggestion="Choose a new directory for the partitioned dataset, or remove the old one.",
        )
    tmp = temp_sibling(target)
    try:
        tmp.mkdir(parents=True)
        _dataset(batches, tmp, options)
        write_card(tmp, options)
        size = sum(p.stat().st_size for p in tmp.rglob("*") if p.is_file())
        _move_into_place(tmp, target)
    except OSError as exc:
        remove_tree(tmp)
        raise storage_failed(exc, target) from None
    except BaseException:
        remove_tree(tmp)
        raise
    return size, str(target)


def _move_into_place(tmp: Path, target: Path) -> None:
    """Rename the finished folder onto `target` (absent or empty). Another export that
    finished first into the same folder wins: this one is refused, typed, its files removed."""
    try:
        if target.exists():
            target.rmdir()  # checked empty before writing; not empty now: someone else's
        os.replace(tmp, target)
    except OSError as exc:
        if target.is_dir() and any(target.iterdir()):
            raise InvalidArgument(
                f"{target} was written by another export meanwhile; this export is not kept",
                field="output",
                suggestion="Export into a new directory, or run one export into a folder at a time.",
            ) from exc
        raise


def _dataset(batches: Iterator[pa.RecordBatch], base: Path, options: ExportOptions) -> None:
    import pyarrow.dataset as ds  # only a partitioned export needs it (~60 ms of every export's start)

    part_schema = pa.schema([pa.field(c, pa.string()) for c in options.partition_by])
    schema = _string_partitions(PARQUET_SCHEMA, options.partition_by)
    reader = pa.RecordBatchReader.from_batches(schema, (_cast(b, schema) for b in batches))
    ds.write_dataset(
        reader,
        base,
        format="parquet",
        partitioning=ds.partitioning(part_schema, flavor="hive"),
        file_options=ds.ParquetFileFormat().make_write_options(compression=COMPRESSION),
        basename_template="part-{i}.parquet",
        max_rows_per_group=options.row_group_size,
        existing_data_behavior="overwrite_or_ignore",
        use_threads=False,  # keeps row order and file names deterministic
    )


def _string_partitions(schema: pa.Schema, columns: tuple[str, ...]) -> pa.Schema:
    # Partition values live in directory names: plain strings there, whatever the column type.
    for name in columns:
        i = schema.get_field_index(name)
        schema = schema.set(i, pa.field(name, pa.string(), nullable=False))
    return schema


def _cast(batch: pa.RecordBatch, schema: pa.Schema) -> pa.RecordBatch:
    # column by column: RecordBatch.cast needs a newer pyarrow than we require
    arrays = [
        col if col.type == f.type else col.cast(f.type) for col, f in zip(batch.columns, schema, strict=True)
    ]
    return pa.RecordBatch.from_arrays(arrays, schema=schema)
