"""`limpet export --format delta`: one table for many repositories, refreshed in place, by
several processes at once."""

from __future__ import annotations

import json
import shutil
import subprocess

import pyarrow as pa
import pytest
from deltalake import DeltaTable, write_deltalake

from limpet.server.core import Service


def run(cmd, cwd, *args, check=True):
    proc = subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, timeout=180)
    if check:
        assert proc.returncode == 0, proc.stderr.decode()
    return proc


def rows(table) -> list[dict]:
    """The table's rows as Polars reads a Delta table (its current version, columns merged)."""
    import polars as pl

    return sorted(pl.read_delta(str(table)).to_dicts(), key=lambda r: (r["repository"], r["thread_id"]))


@pytest.fixture
def three(workspace, tmp_path):
    repos = []
    for name in ("alpha", "beta", "gamma"):
        root = tmp_path / name
        shutil.copytree(workspace, root)
        svc = Service(root)
        svc.add("main.go", 5, 7, f"{name}: return an error", tag="FIXME")
        svc.add("src/app.ts", 2, 2, f"{name}: a note", tag="NOTE")
        repos.append(root)
    return repos


def test_each_run_replaces_its_repositories_rows_and_leaves_the_others(limpet_cmd, three, tmp_path):
    table = tmp_path / "lake" / "threads"
    a, b, c = three
    run(limpet_cmd, tmp_path, "export", "-f", "delta", "-o", str(table), "-w", str(a), "-w", str(b))
    run(limpet_cmd, tmp_path, "export", "-f", "delta", "-o", str(table), "-w", str(c))
    assert [r["repository"] for r in rows(table)] == ["alpha"] * 2 + ["beta"] * 2 + ["gamma"] * 2
    gone = Service(a).threads()[0]
    Service(a).delete(gone.id)
    Service(a).reply(Service(a).threads()[0].id, "done", author="dana", author_type="human")
    run(limpet_cmd, tmp_path, "export", "-f", "delta", "-o", str(table), "-w", str(a))
    after = rows(table)
    assert gone.id not in {r["thread_id"] for r in after}  # deleted in its repository: gone from the table
    assert [r["repository"] for r in after] == ["alpha"] + ["beta"] * 2 + ["gamma"] * 2
    assert [r["comment_count"] for r in after if r["repository"] == "alpha"] == [2]
    assert DeltaTable(str(table)).version() == 2  # one transaction per run


def test_two_processes_into_one_table_both_land(limpet_cmd, three, tmp_path):
    table = tmp_path / "threads"
    a, b, c = three
    procs = [subprocess.Popen([*limpet_cmd, "export", "-f", "delta", "-o", str(table), *ws], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for ws in (["-w", str(a), "-w", str(b)], ["-w", str(c)])]
    for p in procs:
        _, err = p.communicate(timeout=180)
        assert p.returncode == 0, err.decode()
    assert sorted({r["repository"] for r in rows(table)}) == ["alpha", "beta", "gamma"]
    assert len(rows(table)) == 6


def test_columns_are_only_added_and_an_older_table_keeps_its_rows(limpet_cmd, three, tmp_path):
    table = tmp_path / "threads"
    old = pa.table({"repository": ["legacy"], "thread_id": ["c_1"], "body": ["kept"]})
    write_deltalake(str(table), old, partition_by=["repository"])
    run(limpet_cmd, tmp_path, "export", "-f", "delta", "-o", str(table), "-w", str(three[0]))
    got = rows(table)
    assert [r["repository"] for r in got] == ["alpha", "alpha", "legacy"]
    assert got[-1]["body"] == "kept" and got[-1]["split"] is None
    assert {"split", "language", "commit", "comments"} <= set(DeltaTable(str(table)).schema().to_arrow().names)


def test_an_incremental_run_merges_by_key(limpet_cmd, three, tmp_path):
    table = tmp_path / "threads"
    a = three[0]
    run(limpet_cmd, tmp_path, "export", "-f", "delta", "-o", str(table), "-w", str(a))
    first = Service(a).threads()[0]
    Service(a).reply(first.id, "later", author="dana", author_type="human")
    done = run(limpet_cmd, tmp_path, "export", "-f", "delta", "-o", str(table), "-w", str(a), "--since",
               "2000-01-01", "--tag", first.tag, "--json")
    assert json.loads(done.stdout)["count"] == 1
    got = rows(table)
    assert len(got) == 2 and [r["comment_count"] for r in got if r["thread_id"] == first.id] == [2]


def test_a_folder_that_is_no_table_is_refused(limpet_cmd, three, tmp_path):
    other = tmp_path / "photos"
    other.mkdir()
    (other / "cat.jpg").write_bytes(b"x")
    refused = run(limpet_cmd, tmp_path, "export", "-f", "delta", "-o", str(other), "-w", str(three[0]), check=False)
    assert refused.returncode == 2 and b"holds no Delta table" in refused.stderr
