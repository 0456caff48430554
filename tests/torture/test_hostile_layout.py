"""A symlink out of the workspace at every component of `.limpet/` and of the private folder
(issue 33): in a checkout outside git (private folder `.limpet/cache/`) and inside one
(`.git/limpet/`), pointing at a folder of bait (files named as limpet names its own: exports,
temp files, a SQLite database with `files` and `derived` tables) or dangling.

Every read and write of the service is run against each. Nothing outside the workspace is
created, changed or deleted; no answer is INTERNAL or an untyped exception; a refusal names
the path and says "symlink"; a symlinked private folder (or a file in it) costs only its
caches: reads answer from memory. Reads leave `git status` as it was. The rows come from
tests/hostile_layout.py, which a generator of hostile repositories extends.
"""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

import pytest
from gitrepo import git_init
from hostile_layout import Component, components, outside_snapshot, plant
from support import SAMPLE, write_files

from limpet.model import LimpetError
from limpet.server.core import Service, ThreadFilter

TALLY: Counter[str] = Counter()

# What a read touches, then what a write touches: each a call on a fresh service.
READS = {
    "list": lambda svc, tid: svc.threads(),
    "get": lambda svc, tid: svc.get(tid),
    "reconcile": lambda svc, tid: svc.reconcile(),
    "problems": lambda svc, tid: svc.problems(),
    "current_review": lambda svc, tid: svc.current_review(),
    "selection": lambda svc, tid: svc.selection(),
    "read_export": lambda svc, tid: svc.read_export("export://comments-20260101T000000000Z.json"),
    "flush": lambda svc, tid: svc.flush(),
}
WRITES = {
    "reply": lambda svc, tid: svc.reply(tid, "a reply"),
    "add": lambda svc, tid: svc.add("src/auth.py", 17, 18, "about helper"),
    "present_review": lambda svc, tid: svc.present_review("# Review\n\nsee src/auth.py:10\n", "."),
    "report_selection": lambda svc, tid: svc.report_selection({"selection": None, "active_file": "src/auth.py"}),
    "clear_selection": lambda svc, tid: svc.clear_selection(),
    "export": lambda svc, tid: svc.export_to_folder("json", ThreadFilter()),
    "export_again": lambda svc, tid: svc.export_to_folder("markdown", ThreadFilter()),
}


def _git_status(workspace: Path) -> str:
    return subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=workspace, capture_output=True,
                          text=True, check=True).stdout


def _prepared(tmp_path: Path, in_git: bool) -> tuple[Path, str]:
    """A workspace with a thread, a review, an export and a selection: every component exists."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    write_files(workspace, SAMPLE)
    if in_git:
        git_init(workspace)
    svc = Service(workspace, lock_timeout=5)
    tid = svc.add("src/auth.py", 10, 14, "about validate_token").id
    svc.reply(tid, "first reply")
    svc.present_review("# Review\n\nsee src/auth.py:10\n", ".")
    svc.export_to_folder("json", ThreadFilter())
    svc.report_selection({"selection": None, "active_file": "src/auth.py"})
    svc.flush()
    (workspace / ".limpet" / "prompts").mkdir(exist_ok=True)
    return workspace, tid


def _run(calls: dict, workspace: Path, tid: str, answers: dict[str, str]) -> None:
    for name, call in calls.items():
        svc = Service(workspace, lock_timeout=5)  # a fresh process's view each time
        try:
            call(svc, tid)
            answers[name] = "ok"
        except LimpetError as exc:
            assert exc.code != "INTERNAL", (name, exc)
            if "symlink" in exc.message:
                assert str(workspace) in exc.message or ".limpet" in exc.message, (name, exc.message)
            answers[name] = exc.code
        # anything else (an OSError, a sqlite3 error, a RecursionError) fails the test here


CASES = [(in_git, c, dangling) for in_git in (False, True) for c in components(in_git) for dangling in (False, True)]


@pytest.mark.slow
@pytest.mark.parametrize("in_git,component,dangling", CASES,
                         ids=[f"{'git' if g else 'plain'}-{c.id}-{'dangling' if d else 'bait'}" for g, c, d in CASES])
def test_a_symlink_at_any_component_reaches_nothing_outside(tmp_path, in_git, component: Component, dangling, figures):
    workspace, tid = _prepared(tmp_path, in_git)
    # the component may name the first thread's file: the table uses c_1, so retarget it
    component = Component(component.rel.replace("c_1.jsonl", f"{tid}.jsonl"), component.kind, component.private)
    outside = tmp_path / "outside"
    outside.mkdir()
    target = plant(workspace, component, outside, dangling=dangling)
    before = outside_snapshot(outside)
    status = _git_status(workspace) if in_git else None

    answers: dict[str, str] = {}
    _run(READS, workspace, tid, answers)
    if in_git:
        assert _git_status(workspace) == status, "a read changed what git sees"
    assert outside_snapshot(outside) == before, f"a read reached through {component.rel}"
    _run(WRITES, workspace, tid, answers)

    assert outside_snapshot(outside) == before, f"a write reached through {component.rel}"
    assert dangling is False or not target.exists(), "a dangling link's target was created"
    if component.private or component.rel.startswith((".limpet/reviews", ".limpet/exports", ".limpet/prompts")):
        assert answers["list"] == "ok" and answers["get"] == "ok", answers  # served without the cache
    if component.rel in (".limpet", ".limpet/threads"):
        assert answers["list"] == "STORE_ERROR" and answers["add"] == "STORE_ERROR", answers
    if component.rel in (".limpet/exports", ".limpet/exports/.gitignore"):
        assert answers["export"] == "STORE_ERROR", answers
    if component.rel == ".limpet/reviews":
        assert answers["present_review"] == "STORE_ERROR", answers

    place = "private folder" if component.private else ".limpet"
    TALLY["scenarios"] += 1
    TALLY[f"class: {place} {component.kind} link ({'dangling' if dangling else 'to bait'})"] += 1
    TALLY["calls"] += len(answers)
    for code in answers.values():
        TALLY[f"answers {code}"] += 1
    figures["hostile_layout"] = {"components": len(components(False)) + len(components(True)),
                                 **dict(sorted(TALLY.items())), "escapes": 0, "internal": 0}
