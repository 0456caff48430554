"""Options validation, the registry, the shared output handling and progress."""

from __future__ import annotations

import io

import pytest

from limpet.exporters import FORMATS, ExportOptions, get_exporter
from limpet.model import InvalidArgument

FILES = tuple(f for f in FORMATS if f != "delta")  # formats written to one file or stream (delta: a table)


def test_formats_and_registry():
    assert FORMATS == ("json", "markdown", "jsonl", "parquet", "delta", "github-review", "sarif")
    for fmt in FILES:
        e = get_exporter(fmt)
        assert e.name == fmt and e.media_type and e.extension.startswith(".")
    assert get_exporter("delta").binary and not get_exporter("delta").supports_stdout
    assert get_exporter("parquet").binary and not get_exporter("parquet").supports_stdout
    assert [f for f in FORMATS if get_exporter(f).supports_partitioning] == ["parquet"]


@pytest.mark.parametrize("fmt", ["csv", "", None, "JSON ", 3])
def test_unknown_format(fmt):
    with pytest.raises(InvalidArgument) as err:
        get_exporter(fmt)
    assert err.value.field == "format"
    assert err.value.details["allowed"] == list(FORMATS)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"context_lines": -1}, "context_lines"),
        ({"context_lines": 21}, "context_lines"),
        ({"context_lines": True}, "context_lines"),
        ({"context_lines": "3"}, "context_lines"),
        ({"include_source_context": "yes"}, "include_source_context"),
        ({"task": "summaries"}, "task"),
        ({"partition_by": ("tag", "file")}, "partition_by"),
        ({"partition_by": ("tag", "tag")}, "partition_by"),
        ({"row_group_size": 0}, "row_group_size"),
        ({"exported_at": "yesterday"}, "exported_at"),
        ({"exported_at": "2026-11-22T10:00:00+02:00"}, "exported_at"),
    ],
)
def test_invalid_options(kwargs, field):
    with pytest.raises(InvalidArgument) as err:
        ExportOptions(**kwargs)
    assert err.value.field == field
    assert err.value.to_dict()["code"] == "INVALID_ARGUMENT"


def test_valid_options_normalize():
    assert ExportOptions(context_lines=0).context_lines == 0
    assert ExportOptions(context_lines=20).context_lines == 20
    assert ExportOptions(partition_by="tag, status").partition_by == ("tag", "status")
    assert ExportOptions(partition_by=["workspace"]).partition_by == ("workspace",)
    assert ExportOptions(partition_by=None).partition_by == ()
    assert ExportOptions(exported_at="2026-11-22T10:00:00Z").exported_at == "2026-11-22T10:00:00Z"


@pytest.mark.parametrize("fmt", ["json", "markdown", "jsonl"])
def test_partitioning_only_for_parquet(fmt, items):
    with pytest.raises(InvalidArgument) as err:
        get_exporter(fmt).write(items, io.BytesIO(), ExportOptions(partition_by=("tag",)))
    assert err.value.field == "partition_by"


@pytest.mark.parametrize("fmt", ["json", "markdown", "parquet"])
def test_review_pairs_only_for_jsonl(fmt, items):
    with pytest.raises(InvalidArgument) as err:
        get_exporter(fmt).write(items, io.BytesIO(), ExportOptions(task="review-pairs"))
    assert err.value.field == "task"


@pytest.mark.parametrize("fmt", FILES)
def test_items_must_be_export_items(fmt):
    with pytest.raises(InvalidArgument) as err:
        get_exporter(fmt).write([{"thread": 1}], io.BytesIO(), ExportOptions())
    assert err.value.field == "items"


def test_parquet_refuses_stdout(items):
    with pytest.raises(InvalidArgument) as err:
        get_exporter("parquet").write(items, "-", ExportOptions())
    assert err.value.field == "output"


@pytest.mark.parametrize("fmt", FILES)
def test_path_output_is_atomic_and_counted(fmt, items, tmp_path):
    target = tmp_path / "nested" / f"out{get_exporter(fmt).extension}"
    exporter = get_exporter(fmt)
    result = exporter.write(iter(items), target, ExportOptions())
    written = [i for i in items if i.thread.status == "open"] if exporter.open_only else items
    assert result.path == str(target) and result.count == len(written)
    assert result.bytes_written == target.stat().st_size > 0
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]  # no temp file left


@pytest.mark.parametrize("fmt", FORMATS)
def test_failed_export_leaves_nothing(fmt, items, tmp_path):
    def broken():
        yield from items
        raise RuntimeError("store went away")

    target = tmp_path / f"out{get_exporter(fmt).extension}"
    with pytest.raises(RuntimeError):
        get_exporter(fmt).write(broken(), target, ExportOptions())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt", FILES)
def test_progress_is_cumulative_and_final(fmt, items):
    many = items * 400  # 2,400 items
    seen: list[int] = []
    opts = ExportOptions(row_group_size=1000)
    exporter = get_exporter(fmt)
    result = exporter.write(iter(many), io.BytesIO(), opts, progress=seen.append)
    written = [i for i in many if i.thread.status == "open"] if exporter.open_only else many
    assert result.count == len(written)
    assert seen == sorted(seen) and seen[-1] == len(many)  # progress counts every thread read
    assert len(seen) >= 2


@pytest.mark.parametrize("fmt", FILES)
def test_empty_export_reports_zero(fmt):
    seen: list[int] = []
    result = get_exporter(fmt).write(iter(()), io.BytesIO(), ExportOptions(), progress=seen.append)
    assert result.count == 0 and seen == [0]
    assert (result.bytes_written == 0) == (fmt == "jsonl")  # an empty JSONL file is empty


def test_unwritable_output_is_invalid_argument(items, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(InvalidArgument) as err:
        get_exporter("json").write(items, blocker / "out.json", ExportOptions())
    assert err.value.field == "output"
    with pytest.raises(InvalidArgument) as err:
        get_exporter("json").write(items, tmp_path, ExportOptions())  # a directory
    assert err.value.field == "output"
