"""The GitHub bridges at the doors: `limpet import --format github`, `limpet export --format
github-review|sarif` (end to end, as people run them) and MCP's export_comments."""

from __future__ import annotations

import json
import subprocess

import pytest
from github_support import FIXTURES, build_pull_request_repo, sarif_errors
from gitrepo import git

from limpet.server.core import Service
from limpet.server.operations import invoke

COMMENTS = FIXTURES / "pull_comments.json"


def run(cmd, cwd, *args, code=0):
    proc = subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, timeout=120, text=True)
    assert proc.returncode == code, proc.stderr
    return proc


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "calc"
    commits = build_pull_request_repo(root)
    return root, commits


def test_import_prints_where_each_thread_landed(limpet_cmd, repo):
    root, _ = repo
    out = run(limpet_cmd, root, "import", "--format", "github", str(COMMENTS),
              "--review-threads", str(FIXTURES / "review_threads.json")).stdout
    assert out.splitlines()[0] == "imported 6, updated 0, unchanged 0, left out 0"
    line = next(x for x in out.splitlines() if "#104 ->" in x)
    assert line.endswith("#104 -> src/calc.py:15 anchored  (from line 8 at 75a1c4b; outdated)")
    assert "#106 -> src/calc.py:10 orphaned  (from line 10; LEFT side: deleted lines)" in out
    assert "whole file: anchored at line 1" in out and "outdated, resolved" in out
    again = run(limpet_cmd, root, "import", "--format", "github", str(COMMENTS), "--json").stdout
    assert json.loads(again)["unchanged"] == 6


def test_review_and_sarif_exports_of_the_imported_threads(limpet_cmd, repo, tmp_path):
    root, commits = repo
    run(limpet_cmd, root, "import", "--format", "github", str(COMMENTS))
    review, sarif = tmp_path / "review.json", tmp_path / "threads.sarif"
    run(limpet_cmd, root, "export", "--format", "github-review", "-o", str(review))
    body = json.loads(review.read_text())
    assert body["commit_id"] == commits["second"] and body["event"] == "COMMENT"
    assert [(c["path"], c.get("start_line"), c["line"]) for c in body["comments"]] == [
        ("src/calc.py", None, 1), ("src/calc.py", 12, 15), ("src/calc.py", 13, 14), ("src/calc.py", None, 15)]
    assert "src/old.py" in body["body"]  # the open orphans, listed
    run(limpet_cmd, root, "export", "--format", "sarif", "-o", str(sarif), "--tag", "NOTE")
    doc = json.loads(sarif.read_text())
    assert sarif_errors(doc) == []
    assert len(doc["runs"][0]["results"]) == 6 and doc["runs"][0]["properties"]["revision"] == commits["second"]


def test_formats_for_one_repository_refuse_two_workspaces(limpet_cmd, repo, workspace, tmp_path):
    root, _ = repo
    proc = run(limpet_cmd, root, "export", "--format", "sarif", "-o", str(tmp_path / "x.sarif"), "-w", str(root),
               "-w", str(workspace), "--json", code=2)
    assert json.loads(proc.stdout or proc.stderr)["error"]["field"] == "workspace"


def test_malformed_comments_exit_with_the_typed_error(limpet_cmd, repo, tmp_path):
    root, _ = repo
    bad = tmp_path / "bad.json"
    bad.write_text('[{"id": 1, "path": "src/calc.py", "body": "x", "created_at": "2026-11-22T11:00:00Z", '
                   '"line": "two"}]')
    proc = run(limpet_cmd, root, "import", "--format", "github", str(bad), "--json", code=2)
    error = json.loads(proc.stdout or proc.stderr)["error"]
    assert (error["code"], error["field"]) == ("INVALID_ARGUMENT", "comments[0].line")
    proc = run(limpet_cmd, root, "import", str(bad), "--review-threads", str(bad), code=2)
    assert "--review-threads goes with --format github" in proc.stderr


def test_mcp_export_comments_writes_both_formats(repo):
    root, commits = repo
    svc = Service(root)
    svc.import_github(COMMENTS.read_bytes())
    _, review = invoke(svc, "export_comments", {"format": "github-review"})
    _, sarif = invoke(svc, "export_comments", {"format": "sarif"})
    assert review["uri"].endswith(".review.json") and sarif["uri"].endswith(".sarif")
    assert sarif["mimeType"] == "application/sarif+json"
    assert json.loads(review["text"])["commit_id"] == commits["second"]
    assert sarif_errors(json.loads(sarif["text"])) == []
    assert svc.read_export(review["uri"]) == ("application/json", review["text"].encode())


def test_an_export_for_github_warns_when_files_differ_from_the_commit_it_names(limpet_cmd, repo, tmp_path):
    root, _ = repo  # src/calc.py has uncommitted edits: GitHub would read its lines against the commit
    run(limpet_cmd, root, "import", "--format", "github", str(COMMENTS))
    proc = run(limpet_cmd, root, "export", "--format", "sarif", "-o", str(tmp_path / "t.sarif"))
    assert "warning: 1 file(s) differ from commit a2641973c954 (src/calc.py)" in proc.stderr
    _, result = invoke(Service(root), "export_comments", {"format": "github-review"})
    assert result["warnings"] == [proc.stderr.split("warning: ", 1)[1].strip()]
    git(root, "commit", "-qam", "third")
    proc = run(limpet_cmd, root, "export", "--format", "github-review", "-o", str(tmp_path / "r.json"), "--json")
    assert "warnings" not in json.loads(proc.stdout)


def test_import_says_when_a_comment_s_commit_is_not_in_the_clone(limpet_cmd, tmp_path):
    from github_support import CALC_SECOND

    plain = tmp_path / "plain"
    (plain / "src").mkdir(parents=True)
    (plain / "src" / "calc.py").write_text(CALC_SECOND)
    out = run(limpet_cmd, plain, "import", "--format", "github", str(COMMENTS)).stdout
    line = next(x for x in out.splitlines() if "#104 ->" in x)
    assert line.endswith("src/calc.py:8 anchored  (from line 8; outdated, its commit is not in this clone: found "
                         "by its diff hunk)")


def test_base_keeps_the_review_to_lines_the_pull_request_shows(limpet_cmd, repo, tmp_path):
    root, commits = repo
    git(root, "checkout", "-q", "src/calc.py")  # the pull request's head, as committed
    svc = Service(root)
    svc.add("src/calc.py", 2, 2, "add() could take any number of arguments")  # line 2: outside the diff (3-8)
    svc.import_github(COMMENTS.read_bytes())
    review = tmp_path / "review.json"
    run(limpet_cmd, root, "export", "--format", "github-review", "-o", str(review), "--base", commits["main"])
    body = json.loads(review.read_text())
    assert all(3 <= c.get("start_line", c["line"]) and c["line"] <= 8 for c in body["comments"])
    assert "diff does not show:\n- `src/calc.py` (at line 1) **NOTE** This module needs tests" in body["body"]
    assert "(at line 2) **NOTE** add() could take any number of arguments" in body["body"]
    proc = run(limpet_cmd, root, "export", "--format", "github-review", "-o", str(review), "--base", "nope",
               "--json", code=2)
    assert json.loads(proc.stdout or proc.stderr)["error"]["field"] == "base"
    proc = run(limpet_cmd, root, "export", "--format", "sarif", "-o", str(tmp_path / "t.sarif"), "--base", "main",
               "--json", code=2)
    assert json.loads(proc.stdout or proc.stderr)["error"]["field"] == "base"
