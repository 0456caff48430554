"""The Delta Lake export: one table of thread rows for many repositories, refreshed in place.

`limpet export --format delta -o TABLE -w R1 -w R2` writes with delta-rs (the `deltalake`
package: no JVM). The table holds one row per thread, keyed by (repository, thread_id), the
Parquet schema's columns (dictionary columns as plain strings), partitioned by repository.
Each run replaces, in one transaction, the rows of the repositories it exports (a predicate
overwrite: threads deleted since leave the table, other repositories' rows stay), or with
`upsert` (an incremental run, `--since`) merges its rows by key and deletes nothing. Columns
are only ever added (schema merge): a table written by an older limpet keeps its rows.

Runs from several processes or machines into one table all land: delta-rs commits with
put-if-absent on the log, and a commit that lost a race to a conflicting one is tried again
(the rows were spilled to a local Parquet file first, so a retry re-reads them, and memory
stays bounded by one row group). TABLE is a local path or an object-store URI (s3://,
gs://, az://, abfss://...) with `storage_options` as delta-rs names them (docs/datasets.md).
"""

from __future__ import annotations

import itertools
import os
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq

from limpet.exporters._arrow import PARQUET_SCHEMA
from limpet.exporters._base import Exporter
from limpet.exporters._parquet import batches
from limpet.exporters._secrets import Redactor
from limpet.exporters._sink import ProgressTicker
from limpet.exporters._types import ExportItem, ExportOptions, ExportResult
from limpet.model import InvalidArgument, StorageFailed

__all__ = ["DELTA_SCHEMA", "DeltaExporter", "table_uri", "thread_batches"]

KEY = ("repository", "thread_id")
ATTEMPTS = 40
_spills = itertools.count()


def _plain(t: pa.DataType) -> pa.DataType:
    return t.value_type if pa.types.is_dictionary(t) else t


DELTA_SCHEMA = pa.schema([pa.field(f.name, _plain(f.type), f.nullable) for f in PARQUET_SCHEMA],
                         metadata=PARQUET_SCHEMA.metadata)


def table_uri(out: str | os.PathLike) -> str:
    """The table's URI: an object-store URI as given, a local path made absolute."""
    text = os.fspath(out)
    if "://" in text and not text.startswith("file://"):
        return text
    path = Path(text.removeprefix("file://")).absolute()
    if path.exists() and not path.is_dir():
        raise InvalidArgument(f"{path} is a file; a Delta table is a folder", field="output")
    if path.is_dir() and any(path.iterdir()) and not (path / "_delta_log").is_dir():
        raise InvalidArgument(f"{path} is a folder that holds no Delta table; give a new or a Delta table's path",
                              field="output")
    return str(path)


class DeltaExporter(Exporter):
    name = "delta"
    media_type = "application/vnd.delta-lake"  # a folder (or prefix) of Parquet files and a _delta_log
    extension = ""
    binary = True
    supports_stdout = False
    reads_source = False
    progress_every = 1

    def write_items(
        self, items: Iterable[ExportItem], out: BinaryIO | str | os.PathLike, options: ExportOptions,
        ticker: ProgressTicker,
    ) -> ExportResult:
        if not isinstance(out, str | os.PathLike) or os.fspath(out) == "-":
            raise InvalidArgument("A Delta table is written to a path or URI, not a stream", field="output")
        uri = table_uri(out)
        red = None if options.keep_secrets else Redactor()
        spill = Path(tempfile.gettempdir()) / f"limpet-delta-{os.getpid()}-{next(_spills)}.parquet"
        try:
            repositories, size = _spill(items, options, ticker, red, spill)
            replace = tuple(dict.fromkeys((*options.repositories, *repositories)))
            _commit(uri, spill, replace, options)
        finally:
            spill.unlink(missing_ok=True)
        return ExportResult(self.name, ticker.count, size, uri, self.media_type,
                            secrets=dict(red.counts) if red is not None else {})


def _spill(items: Iterable[ExportItem], options: ExportOptions, ticker: ProgressTicker, red: Redactor | None,
           spill: Path) -> tuple[list[str], int]:
    """The rows, built one row group at a time, into a local Parquet file; the repositories seen."""
    seen: dict[str, None] = {}
    with pq.ParquetWriter(spill, DELTA_SCHEMA, compression="zstd") as writer:
        for batch in batches(items, options, ticker, red):
            seen.update(dict.fromkeys(batch.column(PARQUET_SCHEMA.get_field_index("repository"))
                                      .dictionary.to_pylist()))
            writer.write_batch(_plain_batch(batch), row_group_size=options.row_group_size)
    return list(seen), spill.stat().st_size


def thread_batches(items: Iterable[ExportItem], options: ExportOptions,
                   red: Redactor | None = None) -> Iterator[pa.RecordBatch]:
    """Thread rows as Arrow record batches of DELTA_SCHEMA (plain strings where Parquet has
    dictionaries: what engines such as Spark take), `row_group_size` rows at most, secrets
    redacted by `red` (None: kept). The building block of the Delta export and of Spark's source."""
    ticker = ProgressTicker(None)
    for batch in batches(items, options, ticker, red):
        yield _plain_batch(batch)


def _plain_batch(batch: pa.RecordBatch) -> pa.RecordBatch:
    arrays = [c.cast(f.type) if c.type != f.type else c for c, f in zip(batch.columns, DELTA_SCHEMA, strict=True)]
    return pa.RecordBatch.from_arrays(arrays, schema=DELTA_SCHEMA)


def _reader(spill: Path) -> pa.RecordBatchReader:
    source = pq.ParquetFile(spill)
    return pa.RecordBatchReader.from_batches(DELTA_SCHEMA, source.iter_batches())


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _commit(uri: str, spill: Path, repositories: tuple[str, ...], options: ExportOptions) -> None:
    from deltalake import DeltaTable, write_deltalake
    from deltalake.exceptions import CommitFailedError, DeltaError, TableNotFoundError

    storage = dict(options.storage_options) or None
    for attempt in range(ATTEMPTS):
        try:
            if options.upsert and DeltaTable.is_deltatable(uri, storage_options=storage):
                (DeltaTable(uri, storage_options=storage)
                 .merge(_reader(spill), predicate=" AND ".join(f"t.{k} = s.{k}" for k in KEY),
                        source_alias="s", target_alias="t", merge_schema=True)
                 .when_matched_update_all().when_not_matched_insert_all().execute())
            elif not repositories:
                return  # nothing exported, nothing to replace
            else:
                where = f"repository IN ({', '.join(map(_quoted, repositories))})"
                write_deltalake(uri, _reader(spill), partition_by=["repository"], mode="overwrite",
                                predicate=where, schema_mode="merge", storage_options=storage)
            return
        except (CommitFailedError, TableNotFoundError) as exc:
            last: Exception = exc
        except DeltaError as exc:
            if not _lost_a_race(exc):
                raise StorageFailed(f"Cannot write the Delta table {uri}: {exc}", field="output") from None
            last = exc
        except OSError as exc:
            raise StorageFailed(f"Cannot write the Delta table {uri}: {exc}", field="output") from None
        time.sleep(min(1.0, 0.02 * (attempt + 1)) + (os.getpid() % 7) * 0.005)  # no random source
    raise StorageFailed(f"The Delta table {uri} kept changing under this export ({ATTEMPTS} tries): {last}",
                        field="output", suggestion="Run the export again.")


def _lost_a_race(exc: Exception) -> bool:
    text = str(exc).lower()
    return any(w in text for w in ("conflict", "already exists", "version", "protocol changed", "concurrent"))
