"""Exports as a data team runs them: each bug found on the way, pinned by a test that fails without its fix."""

from __future__ import annotations

import json
import subprocess

from limpet.server.core import Service


def run(cmd, cwd, *args, check=True):
    proc = subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, timeout=120)
    if check:
        assert proc.returncode == 0, proc.stderr.decode()
    return proc


def pairs(cmd, cwd, *extra):
    proc = run(cmd, cwd, "export", "--format", "jsonl", "-o", "-", "--task", "review-pairs", *extra)
    return [json.loads(line) for line in proc.stdout.decode().splitlines()]


def test_resolve_right_after_the_fix_keeps_the_fixed_code(limpet_cmd, workspace):
    thread = Service(workspace).add("main.go", 5, 7, "Return an error on bad port", tag="FIXME")
    go = workspace / "main.go"
    go.write_text(go.read_text().replace("return nil", "return validate(s.port)"))
    run(limpet_cmd, workspace, "resolve", thread.id, "--decision", "validated")  # no read in between
    (pair,) = pairs(limpet_cmd, workspace)
    assert "validate(s.port)" in pair["after"]["code"] and "return nil" in pair["before"]["code"]


def test_a_resolved_orphan_counts_as_code_gone(limpet_cmd, workspace):
    thread = Service(workspace).add("main.go", 5, 7, "Return an error on bad port", tag="FIXME")
    (workspace / "main.go").write_text("package main\n")
    run(limpet_cmd, workspace, "resolve", thread.id)
    (pair,) = pairs(limpet_cmd, workspace)
    assert pair["after"]["code"] is None and pair["after"]["origin"] == "gone"


def _git(cwd, *args):
    subprocess.run(["git", "-c", "user.email=t@e", "-c", "user.name=t", *args], cwd=cwd, check=True,
                   capture_output=True)


def _two_checkouts_named_alike(tmp_path, populated_from):
    import shutil

    a, b = tmp_path / "one" / "httpx", tmp_path / "two" / "httpx"
    shutil.copytree(populated_from, a)
    shutil.copytree(populated_from, b)
    return a, b


def test_two_checkouts_of_one_name_never_merge(limpet_cmd, workspace, tmp_path):
    Service(workspace).add("main.go", 5, 7, "Return an error on bad port", tag="FIXME")
    a, b = _two_checkouts_named_alike(tmp_path, workspace)
    out = tmp_path / "all.jsonl"
    refused = run(limpet_cmd, tmp_path, "export", "-f", "jsonl", "-o", str(out), "-w", str(a), "-w", str(b),
                  check=False)
    assert refused.returncode == 2 and b"both repository 'httpx'" in refused.stderr and not out.exists()
    for repo, url in ((a, "https://bob:s3cret@github.com/encode/httpx.git"), (b, "git@github.com:bob/httpx.git")):
        _git(repo, "init", "-q")
        _git(repo, "remote", "add", "origin", url)
    run(limpet_cmd, tmp_path, "export", "-f", "jsonl", "-o", str(out), "-w", str(a), "-w", str(b))
    rows = [json.loads(line)["metadata"] for line in out.read_text().splitlines()]
    assert [r["repository"] for r in rows] == ["github.com/encode/httpx", "github.com/bob/httpx"]
    assert "s3cret" not in out.read_text()


def test_import_of_several_workspaces_takes_only_this_ones_threads(limpet_cmd, workspace, tmp_path):
    import shutil

    other = tmp_path / "other"
    shutil.copytree(workspace, other)
    mine = Service(workspace).add("main.go", 5, 7, "mine", tag="FIXME")
    Service(other).add("src/app.ts", 2, 2, "theirs", tag="NOTE")
    out = tmp_path / "both.json"
    run(limpet_cmd, tmp_path, "export", "-f", "json", "-o", str(out), "-w", str(workspace), "-w", str(other))
    fresh = tmp_path / "ws-copy" / "ws"
    shutil.copytree(workspace, fresh, ignore=shutil.ignore_patterns(".limpet"))
    done = json.loads(run(limpet_cmd, fresh, "import", str(out), "--json").stdout)
    assert done["ids"] == [mine.id]  # its own workspace's, by name: not the other's
    stranger = tmp_path / "stranger"
    shutil.copytree(workspace, stranger, ignore=shutil.ignore_patterns(".limpet"))
    refused = run(limpet_cmd, stranger, "import", str(out), check=False)
    assert refused.returncode == 2 and b"holds workspaces ws, other" in refused.stderr
    taken = json.loads(run(limpet_cmd, stranger, "import", str(out), "--from", "other", "--json").stdout)
    assert taken["imported"] == 1 and Service(stranger).threads()[0].body == "theirs"


def _ids(cmd, cwd, *extra):
    proc = run(cmd, cwd, "export", "-f", "jsonl", "-o", "-", *extra)
    return [json.loads(line)["metadata"]["thread_id"] for line in proc.stdout.decode().splitlines()]


def test_since_is_an_instant_in_any_offset_and_nonsense_is_refused(limpet_cmd, workspace):
    svc = Service(workspace)
    svc.add_many([{"file": "main.go", "line_start": 5, "line_end": 7, "body": "early",
                   "created_at": "2026-11-22T04:00:00.000Z"}])
    late = svc.add_many([{"file": "main.go", "line_start": 1, "line_end": 1, "body": "late",
                          "created_at": "2026-11-22T06:00:00.000Z"}])
    assert _ids(limpet_cmd, workspace, "--since", "2026-11-22T10:00:00+05:00") == [late[0].id]
    assert _ids(limpet_cmd, workspace, "--since", "2026-11-22T05:00:00Z") == [late[0].id]
    refused = run(limpet_cmd, workspace, "export", "-f", "jsonl", "-o", "-", "--since", "yesterday", check=False)
    assert refused.returncode == 2 and b"INVALID_ARGUMENT" in refused.stderr and b"since" in refused.stderr


def test_re_anchoring_moves_updated_at_so_since_finds_the_thread(limpet_cmd, workspace):
    svc = Service(workspace)
    (moved,) = svc.add_many([{"file": "src/auth.py", "line_start": 10, "line_end": 14, "body": "moves",
                              "created_at": "2026-01-01T00:00:00.000Z"}])
    svc.add_many([{"file": "main.go", "line_start": 5, "line_end": 7, "body": "stays",
                   "created_at": "2026-01-01T00:00:00.000Z"}])
    assert _ids(limpet_cmd, workspace, "--since", "2026-06-01") == []
    auth = workspace / "src/auth.py"
    auth.write_text("# a header pushes every line down\n\n" + auth.read_text())
    assert _ids(limpet_cmd, workspace, "--since", "2026-06-01") == [moved.id]
    again = Service(workspace).get(moved.id)  # a later process reads the derived position, with its time
    assert again.updated_at > "2026-06-01" and again.anchor.line_start == 12


def test_cli_pairs_say_when_their_after_was_read(limpet_cmd, workspace):
    Service(workspace).add("main.go", 5, 7, "Return an error on bad port", tag="FIXME")
    (pair,) = pairs(limpet_cmd, workspace, "--all-pairs")
    assert pair["after"]["origin"] == "current" and pair["after"]["at"].endswith("Z")


def test_row_group_size_from_the_cli(limpet_cmd, workspace, tmp_path):
    import pyarrow.parquet as pq

    Service(workspace).add_many([{"file": "main.go", "line_start": 1, "line_end": 1, "body": f"n{i}"}
                                 for i in range(5)])
    out = tmp_path / "t.parquet"
    run(limpet_cmd, workspace, "export", "-f", "parquet", "-o", str(out), "--row-group-size", "2")
    assert pq.ParquetFile(out).metadata.num_row_groups == 3
    refused = run(limpet_cmd, workspace, "export", "-f", "parquet", "-o", str(out), "--row-group-size", "0",
                  check=False)
    assert refused.returncode == 2 and b"row_group_size" in refused.stderr


def test_the_export_tool_takes_a_task_filters_and_partitions(workspace):
    import pyarrow.dataset as ds

    from limpet.server.operations import invoke

    svc = Service(workspace)
    fixme = svc.add("main.go", 5, 7, "Return an error on bad port", tag="FIXME")
    svc.add("src/app.ts", 2, 2, "fine", tag="NOTE")
    go = workspace / "main.go"
    go.write_text(go.read_text().replace("return nil", "return validate(s.port)"))
    _, out = invoke(svc, "export_comments", {"format": "jsonl", "options": {"task": "review-pairs"},
                                             "filters": {"tag": "FIXME", "since": "2020-01-01T05:00:00+05:00"}})
    (pair,) = [json.loads(line) for line in out["text"].splitlines()]
    assert pair["metadata"]["thread_id"] == fixme.id and "validate" in pair["after"]["code"]
    _, parts = invoke(svc, "export_comments", {"format": "parquet", "options": {"partitionBy": ["tag"],
                                                                               "rowGroupSize": 1}})
    folder = workspace / parts["path"]
    assert sorted(p.name for p in folder.iterdir()) == ["tag=FIXME", "tag=NOTE"]
    assert ds.dataset(folder, partitioning="hive").count_rows() == 2


def test_an_export_of_many_repositories_holds_one_at_a_time(workspace, tmp_path):
    import gc
    import shutil

    from limpet.exporters import ExportItem
    from limpet.server.core import RepositorySource, ThreadFilter, export_repositories

    Service(workspace).add_many([{"file": "main.go", "line_start": 1, "line_end": 1, "body": f"n{i}"}
                                 for i in range(50)])
    other = tmp_path / "other"
    shutil.copytree(workspace, other)
    alive_when_opened: list[int] = []

    class Watched(RepositorySource):
        def export_items(self, flt, name=None, *, with_source=True):
            gc.collect()
            alive_when_opened.append(sum(1 for o in gc.get_objects() if isinstance(o, ExportItem)))
            yield from super().export_items(flt, name, with_source=with_source)

    for fmt in ("parquet", "delta"):
        alive_when_opened.clear()
        out = tmp_path / f"all.{fmt}"
        result = export_repositories([Watched(workspace), Watched(other)], fmt, ThreadFilter(), out)
        assert result.count == 100
        assert alive_when_opened == [0, 0]  # the first repository's rows were written and dropped


def test_one_repositorys_rows_as_arrow_batches_for_an_engine(workspace):
    import pyarrow as pa

    from limpet.exporters import DELTA_SCHEMA
    from limpet.server.core import ThreadFilter, repository_batches

    svc = Service(workspace)
    svc.add("main.go", 5, 7, 'token = "ghp_' + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + '" leaks', tag="FIXME")
    svc.add("src/app.ts", 2, 2, "fine", tag="NOTE")
    table = pa.Table.from_batches(list(repository_batches(workspace, ThreadFilter(tag="FIXME"))), DELTA_SCHEMA)
    (row,) = table.to_pylist()
    assert row["repository"] == "ws" and row["language"] == "go" and "<SECRET:GitHubToken>" in row["body"]
