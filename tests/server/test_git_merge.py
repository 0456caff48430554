"""Two branches that add threads to the same source file merge without a conflict (real git)."""

from __future__ import annotations

import subprocess

from limpet.server.core import Service


def git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def test_two_branches_adding_threads_to_one_file_merge_cleanly(workspace):
    git(workspace, "init", "-q", "-b", "main")
    git(workspace, "config", "user.email", "t@example.com")
    git(workspace, "config", "user.name", "t")
    Service(workspace).add("src/auth.py", 10, 14, "on main before branching")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-qm", "base")
    git(workspace, "checkout", "-qb", "feature")
    feature = Service(workspace).add("src/auth.py", 10, 14, "from feature")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-qm", "feature thread")
    git(workspace, "checkout", "-q", "main")
    main = Service(workspace).add("src/auth.py", 17, 18, "from main")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-qm", "main thread")
    git(workspace, "merge", "-q", "--no-edit", "feature")  # raises on conflict
    assert git(workspace, "status", "--porcelain") == ""
    ids = {t.id for t in Service(workspace).threads()}
    assert {feature.id, main.id} <= ids and len(ids) == 3
    tracked = git(workspace, "ls-files", ".limpet")
    assert "cache/" not in tracked and "backups/" not in tracked and "lock" not in tracked.split()
