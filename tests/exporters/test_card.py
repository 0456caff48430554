"""A partitioned Parquet export is a dataset folder: its card lets `datasets.load_dataset(DIR)`
read it offline, split by split."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from limpet.exporters import ExportItem, ExportOptions, Origin, get_exporter

LOAD = """
import json, sys
import datasets
d = datasets.load_dataset(sys.argv[1])
print(json.dumps({name: sorted(set(d[name]["repository"])) for name in d}))
"""


def _load(folder, tmp_path) -> dict:
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf")}
    proc = subprocess.run([sys.executable, "-c", LOAD, str(folder)], capture_output=True, env=env, timeout=240)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    return json.loads(proc.stdout.decode().splitlines()[-1])


def test_load_dataset_reads_the_splits_of_a_partitioned_export(items, tmp_path):
    from limpet.exporters._provenance import split_of

    shares = (0.5, 0.25, 0.25)
    repos = [f"github.com/org/r{i}" for i in range(12)]
    many = [ExportItem(i.thread, r, i.source, Origin(r)) for r in repos for i in items[:2]]
    out = tmp_path / "dataset"
    get_exporter("parquet").write(many, out, ExportOptions(partition_by=("split", "tag"), split_shares=shares))
    card = (out / "README.md").read_text()
    assert card.startswith("---\nconfigs:\n- config_name: default\n")
    import polars as pl

    assert pl.scan_parquet(f"{out}/**/*.parquet", hive_partitioning=True).collect().height == len(many)
    expected: dict[str, list[str]] = {}
    for r in repos:
        expected.setdefault(split_of(r, shares), []).append(r)
    assert _load(out, tmp_path) == {k: sorted(v) for k, v in expected.items()}


def test_without_split_partitions_there_is_no_card_and_every_file_is_one_train_split(items, tmp_path):
    out = tmp_path / "by_tag"
    get_exporter("parquet").write(items, out, ExportOptions(partition_by=("tag",)))
    assert not (out / "README.md").exists()
    assert _load(out, tmp_path) == {"train": ["alpha", "beta"]}
