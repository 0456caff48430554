"""Parquet: read back by pyarrow, queried by DuckDB and polars, schema asserted, streamed."""

from __future__ import annotations

import io
import math
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from limpet.exporters import PARQUET_SCHEMA, ExportItem, ExportOptions, get_exporter
from limpet.model import InvalidArgument

TS = pa.timestamp("us", tz="UTC")
CONTRACT = {  # the contract's minimum columns and their types
    "thread_id": pa.string(), "file": pa.string(), "line_start": pa.int32(), "line_end": pa.int32(),
    "symbol": pa.string(), "author": pa.string(), "body": pa.string(),
    "created_at": TS, "resolved_at": TS,
    "tag": pa.dictionary(pa.int32(), pa.string()), "status": pa.dictionary(pa.int32(), pa.string()),
    "health": pa.dictionary(pa.int32(), pa.string()), "author_type": pa.dictionary(pa.int32(), pa.string()),
}  # fmt: skip


def _write(items, out, **opts):
    return get_exporter("parquet").write(iter(items), out, ExportOptions(**opts))


@pytest.fixture
def parquet_file(items, tmp_path) -> Path:
    result = _write(items, tmp_path / "threads.parquet")
    assert result.count == len(items) and result.media_type == "application/vnd.apache.parquet"
    return Path(result.path)


def test_pyarrow_schema_and_values(parquet_file, items):
    table = pq.read_table(parquet_file)
    assert table.schema.equals(PARQUET_SCHEMA, check_metadata=False)
    assert table.schema.metadata[b"limpet.schema"] == b"limpet.parquet/2"
    for name, typ in CONTRACT.items():
        assert table.schema.field(name).type == typ, name
    comments = table.schema.field("comments").type
    assert pa.types.is_list(comments) and pa.types.is_struct(comments.value_type)
    assert {"id", "body", "author", "created_at"} <= {f.name for f in comments.value_type}
    row = table.slice(0, 1).to_pylist()[0]
    t = items[0].thread
    assert row["thread_id"] == t.id and row["workspace"] == "alpha"
    assert (row["line_start"], row["line_end"], row["symbol"]) == (8, 12, "AuthService.validate_token")
    assert row["created_at"] == datetime(2026, 11, 22, 10, 1, tzinfo=UTC) and row["resolved_at"] is None
    assert row["body"] == "Handle expired tokens" and row["comment_count"] == 2
    assert [c["author"] for c in row["comments"]] == ["claude", "dana"]
    assert row["comments"][1]["edited_at"] == datetime(2026, 11, 22, 10, 6, tzinfo=UTC)
    assert row["ai_meta"] == {"model": "claude-sonnet-4.5", "confidence": 0.95, "reasoning": "Security"}
    fixed = table.filter(pa.compute.field("thread_id") == "c_1763790000000020").to_pylist()[0]
    assert fixed["decision"]["decider"] == "dana" and fixed["code_at_creation"].endswith("pass")
    assert fixed["resolved_at"] == datetime(2026, 11, 23, 9, tzinfo=UTC)


def test_duckdb_queries_it(parquet_file):
    con = duckdb.connect()
    rel = f"read_parquet('{parquet_file}')"
    types = dict(
        con.execute(f"SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM {rel})").fetchall()
    )
    assert types["line_start"] == "INTEGER" and types["line_end"] == "INTEGER"
    assert types["created_at"] == types["resolved_at"] == "TIMESTAMP WITH TIME ZONE"
    assert types["tag"] == "VARCHAR" and types["comments"].endswith("[]")
    by_tag = con.execute(f"SELECT tag, count(*) FROM {rel} GROUP BY tag ORDER BY tag").fetchall()
    assert by_tag == [("FIXME", 1), ("NOTE", 2), ("QUESTION", 1), ("STAR", 1), ("TODO", 1)]
    authors = con.execute(
        f"SELECT c.author FROM (SELECT unnest(comments) AS c FROM {rel}) ORDER BY c.created_at"
    ).fetchall()
    assert [a for (a,) in authors] == ["claude", "dana", "claude", "claude", "dana", "erin", "claude"]
    resolved = con.execute(f"SELECT count(*) FROM {rel} WHERE resolved_at IS NOT NULL").fetchone()
    assert resolved == (2,)
    late = con.execute(f"SELECT count(*) FROM {rel} WHERE created_at >= TIMESTAMPTZ '2026-11-22 10:04:00+00'")
    assert late.fetchone() == (3,)


def test_polars_reads_it(parquet_file):
    df = pl.read_parquet(parquet_file)
    s = df.schema
    assert s["line_start"] == pl.Int32 and s["line_end"] == pl.Int32
    assert s["created_at"] == pl.Datetime("us", "UTC") and s["resolved_at"] == pl.Datetime("us", "UTC")
    assert s["tag"] == pl.Categorical
    assert isinstance(s["comments"], pl.List) and isinstance(s["comments"].inner, pl.Struct)
    open_todo = df.filter((pl.col("tag") == "TODO") & (pl.col("status") == "open"))
    assert open_todo["thread_id"].to_list() == ["c_1763790000000010"]
    assert df.select(pl.col("comments").list.len().sum()).item() == 7


def test_streams_in_row_groups(items):
    n, size = 1000, 64
    pulled, reported = [0], [0]

    def feed():
        for k in range(n):
            # never more than one row group read ahead of what has been written
            assert pulled[0] - reported[0] <= size
            pulled[0] += 1
            yield items[k % len(items)]

    buf = io.BytesIO()
    result = get_exporter("parquet").write(feed(), buf, ExportOptions(row_group_size=size),
                                           progress=lambda done: reported.__setitem__(0, done))  # fmt: skip
    assert result.count == n and reported[0] == n and result.bytes_written == len(buf.getvalue())
    f = pq.ParquetFile(io.BytesIO(buf.getvalue()))
    assert f.metadata.num_row_groups == math.ceil(n / size) and f.metadata.num_rows == n
    assert f.metadata.row_group(0).column(0).compression == "ZSTD"


def test_deterministic_bytes(items):
    a, b = io.BytesIO(), io.BytesIO()
    _write(items, a)
    _write(items, b)
    assert a.getvalue() == b.getvalue()


def test_partitioned_dataset(items, tmp_path):
    out = tmp_path / "dataset"
    result = _write(items, out, partition_by=("workspace", "tag"))
    assert result.path == str(out) and result.count == len(items)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.parquet"))
    assert (
        "workspace=alpha/tag=TODO/part-0.parquet" in files
        and "workspace=beta/tag=NOTE/part-0.parquet" in files
    )
    assert result.bytes_written == sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    assert not list(tmp_path.glob(".*limpet-tmp"))

    table = ds.dataset(out, format="parquet", partitioning="hive").to_table()
    assert table.num_rows == len(items) and table.schema.field("line_start").type == pa.int32()

    con = duckdb.connect()
    rows = con.execute(
        f"SELECT workspace, tag, count(*), max(typeof(line_start)) FROM read_parquet('{out}/**/*.parquet', "
        "hive_partitioning=true) GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert rows[0] == ("alpha", "FIXME", 1, "INTEGER") and rows[-1] == ("beta", "NOTE", 1, "INTEGER")

    df = pl.scan_parquet(out, hive_partitioning=True).collect()
    assert df.height == len(items) and df.schema["created_at"] == pl.Datetime("us", "UTC")
    assert sorted(df["workspace"].unique().to_list()) == ["alpha", "beta"]


def test_partitioned_refuses_streams_and_non_empty_dirs(items, tmp_path):
    with pytest.raises(InvalidArgument) as err:
        _write(items, io.BytesIO(), partition_by=("tag",))
    assert err.value.field == "output"
    (tmp_path / "old.txt").write_text("mine")
    with pytest.raises(InvalidArgument) as err:
        _write(items, tmp_path, partition_by=("tag",))
    assert err.value.field == "output" and (tmp_path / "old.txt").read_text() == "mine"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _write(items, empty, partition_by=("status",)).count == len(items)


def test_timestamps_without_zone_are_utc_and_garbage_is_refused(items):
    t = items[0].thread
    naive = ExportItem(t.evolve(created_at="2026-11-22T10:00:00"), "alpha", None)
    buf = io.BytesIO()
    _write([naive], buf)
    got = pq.read_table(io.BytesIO(buf.getvalue())).column("created_at")[0].as_py()
    assert got == datetime(2026, 11, 22, 10, tzinfo=UTC)
    with pytest.raises(InvalidArgument) as err:
        _write([ExportItem(t.evolve(updated_at="soon"), "alpha", None)], io.BytesIO())
    assert err.value.field == "updated_at"


def test_partition_values_are_uri_encoded_and_read_back(items, tmp_path):
    odd = [ExportItem(i.thread.evolve(author="a/b c%d"), "team/repo x", i.source) for i in items]
    out = tmp_path / "ds"
    _write(odd, out, partition_by="workspace,author")
    assert [p.name for p in out.iterdir()] == ["workspace=team%2Frepo%20x"]
    got = duckdb.connect().execute(
        f"SELECT DISTINCT workspace, author FROM read_parquet('{out}/**/*.parquet', hive_partitioning=true)"
    )
    assert got.fetchall() == [("team/repo x", "a/b c%d")]
    df = pl.scan_parquet(out, hive_partitioning=True).select("workspace", "author").unique().collect()
    assert df.rows() == [("team/repo x", "a/b c%d")]
