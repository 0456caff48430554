"""Two exports into one path: each writes its own temporary file or folder, the one that
finishes last replaces the target whole, and nothing fails with a raw OSError."""

from __future__ import annotations

import orjson
import pyarrow.parquet as pq
import pytest

from limpet.exporters import ExportOptions, get_exporter
from limpet.model import InvalidArgument


def _inner_export_midway(items, fmt, out, options):
    """The items, with a whole other export to `out` run after the first one: two exports
    into one path, overlapping, deterministically."""
    for i, item in enumerate(items):
        if i == 1:
            get_exporter(fmt).write(iter(items[:1]), out, options)
        yield item


@pytest.mark.parametrize("fmt", ["jsonl", "json", "parquet"])
def test_two_exports_to_one_file_both_finish_and_the_last_one_wins(items, tmp_path, fmt):
    out = tmp_path / f"threads.{fmt}"
    options = ExportOptions()
    result = get_exporter(fmt).write(_inner_export_midway(items, fmt, out, options), out, options)
    assert result.count == len(items)
    if fmt == "parquet":
        assert pq.read_table(out).num_rows == len(items)
    elif fmt == "jsonl":
        assert len(out.read_bytes().splitlines()) == len(items)
    else:
        assert len(orjson.loads(out.read_bytes())["threads"]) == len(items)
    assert not list(tmp_path.glob(".*limpet-tmp"))


def test_two_partitioned_exports_to_one_folder_the_later_is_refused_typed(items, tmp_path):
    out = tmp_path / "parts"
    options = ExportOptions(partition_by=("tag",))
    with pytest.raises(InvalidArgument) as err:
        get_exporter("parquet").write(_inner_export_midway(items, "parquet", out, options), out, options)
    assert err.value.field == "output" and "another export" in str(err.value)
    assert [p.name for p in out.iterdir()] == ["tag=TODO"]  # the first export's dataset, whole
    assert not list(tmp_path.glob(".*limpet-tmp"))

