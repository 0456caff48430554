"""`limpet export` / `limpet import` end to end: every format read back by real readers."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from support import SAMPLE, write_files

from limpet.server.core import Service


def run(cmd, cwd, *args, check=True):
    proc = subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, timeout=120)
    if check:
        assert proc.returncode == 0, proc.stderr.decode()
    return proc


@pytest.fixture
def populated(workspace):
    svc = Service(workspace)
    a = svc.add("src/auth.py", 10, 14, "Handle expired tokens", tag="TODO", author="claude")
    svc.reply(a.id, "Agreed", author="alice", author_type="human")
    svc.resolve(a.id, decision="Added expiry check", decider="alice")
    svc.add("PLAN.md", 1, 3, "Is the plan current?", tag="QUESTION", author="alice", author_type="human")
    svc.add("main.go", 5, 7, "Return an error on bad port", tag="FIXME")
    return workspace


def test_json_round_trip_through_import_is_lossless(limpet_cmd, populated, tmp_path):
    out = tmp_path / "export.json"
    run(limpet_cmd, populated, "export", "--format", "json", "-o", str(out))
    target = tmp_path / "copy"
    target.mkdir()
    write_files(target, SAMPLE)
    proc = run(limpet_cmd, target, "import", str(out), "--json")
    assert json.loads(proc.stdout)["imported"] == 3
    original = {t.id: t.to_record() for t in Service(populated).threads()}
    copied = {t.id: t.to_record() for t in Service(target).threads()}
    assert copied == original
    again = run(limpet_cmd, target, "import", str(out), "--json")  # idempotent
    assert json.loads(again.stdout)["unchanged"] == 3
    out2 = tmp_path / "export2.json"
    run(limpet_cmd, target, "export", "--format", "json", "-o", str(out2))
    def records(path):
        return [entry["thread"] for entry in json.loads(path.read_bytes())["threads"]]

    assert records(out2) == records(out)


def test_jsonl_to_stdout_one_object_per_line(limpet_cmd, populated):
    proc = run(limpet_cmd, populated, "export", "--format", "jsonl", "-o", "-", "--context-lines", "2")
    records = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(records) == 3
    assert all(set(r) == {"prompt", "completion", "metadata"} for r in records)
    assert any("def validate_token" in r["prompt"] for r in records)


def test_review_pairs_carry_code_before_and_after_and_the_decision(limpet_cmd, populated):
    proc = run(limpet_cmd, populated, "export", "--format", "jsonl", "-o", "-", "--task", "review-pairs",
               "--status", "resolved", "--all-pairs")
    (record,) = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert "validate_token" in json.dumps(record["before"])
    assert record["decision"]["summary"] == "Added expiry check"


def test_review_pairs_are_only_threads_whose_code_changed_unless_all_pairs(limpet_cmd, populated):
    def pairs(*extra):
        proc = run(limpet_cmd, populated, "export", "--format", "jsonl", "-o", "-", "--task", "review-pairs", *extra)
        return [json.loads(line) for line in proc.stdout.decode().splitlines()]

    assert pairs() == []  # nobody changed any code: every pair would be a no-op
    assert len(pairs("--all-pairs")) == 3
    go = populated / "main.go"
    go.write_text(go.read_text().replace("return nil", "return validate(s.port)"))
    (changed,) = pairs()
    assert changed["before"]["code"] != changed["completion"]
    assert "validate(s.port)" in changed["completion"] and changed["metadata"]["file"] == "main.go"
    refused = run(limpet_cmd, populated, "export", "--format", "jsonl", "-o", "-", "--all-pairs", check=False)
    assert refused.returncode == 2 and b"--all-pairs goes with --task review-pairs" in refused.stderr


def test_parquet_of_two_workspaces_queried_by_duckdb_and_polars(limpet_cmd, populated, tmp_path):
    duckdb = pytest.importorskip("duckdb")  # a test dependency: installed by '.[test]'
    polars = pytest.importorskip("polars")
    other = tmp_path / "other"
    shutil.copytree(populated, other)
    out = tmp_path / "all.parquet"
    run(limpet_cmd, tmp_path, "export", "--format", "parquet", "-o", str(out), "-w", str(populated), "-w", str(other))
    rows = duckdb.sql(f"select workspace, count(*) n from '{out}' group by 1 order by 1").fetchall()
    assert rows == [("other", 3), ("ws", 3)]
    df = polars.read_parquet(out)
    assert df.schema["line_start"] == polars.Int32
    assert str(df.schema["created_at"]).startswith("Datetime")
    part = tmp_path / "parts"
    run(limpet_cmd, populated, "export", "--format", "parquet", "-o", str(part), "--partition-by", "tag,status")
    n = duckdb.sql(f"select count(*) from read_parquet('{part}/**/*.parquet', hive_partitioning=1)").fetchall()[0][0]
    assert n == 3


def test_markdown_digest_and_filters(limpet_cmd, populated):
    proc = run(limpet_cmd, populated, "export", "--format", "markdown", "-o", "-", "--tag", "TODO")
    text = proc.stdout.decode()
    assert "src/auth.py" in text and "```python" in text and "Added expiry check" in text
    assert "PLAN.md" not in text


def test_export_errors_are_clear(limpet_cmd, populated):
    proc = run(limpet_cmd, populated, "export", "--format", "parquet", "-o", "-", check=False)
    assert proc.returncode == 2 and b"INVALID_ARGUMENT" in proc.stderr
    bad = populated / "bad.json"
    bad.write_text("{not json")
    proc = run(limpet_cmd, populated, "import", str(bad), check=False)
    assert proc.returncode == 2 and b"INVALID_ARGUMENT" in proc.stderr


def test_formats_that_show_no_code_do_not_read_the_files_again(populated, tmp_path, monkeypatch):
    from limpet.server.core import ThreadFilter, export_workspaces
    from limpet.server.store import Workspace

    svc = Service(populated)
    svc.threads(ThreadFilter())  # positions checked: the files' hashes are known
    reads: list[str] = []
    original = Workspace.read_or_none
    monkeypatch.setattr(Workspace, "read_or_none", lambda self, rel: reads.append(rel) or original(self, rel))
    for fmt in ("json", "parquet"):
        export_workspaces([svc], fmt, ThreadFilter(), str(tmp_path / f"out.{fmt}"))
    assert reads == []
    export_workspaces([svc], "jsonl", ThreadFilter(), str(tmp_path / "out.jsonl"))  # shows code around each anchor
    assert sorted(set(reads)) == ["PLAN.md", "main.go", "src/auth.py"]
