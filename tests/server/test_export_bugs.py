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
