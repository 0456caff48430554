"""Storage failures: a disk that is full, over quota, read-only or refuses permission gives
STORAGE_FAILED with a clear message, never INTERNAL or a traceback; a write reported as failed
did not happen (a retry does not duplicate it) and one reported as done did; reads keep
working on a store they cannot write to (derived state is best effort).

The faults are injected into a real `limpet serve` / `limpet` process: a `sitecustomize`
module on its PYTHONPATH makes `os.open` (how limpet creates every file it writes; a name
relative to a folder the confinement layer holds counts with that folder's path) and
`sqlite3.connect` (the derived cache) fail with the chosen errno for paths matching a
pattern, while a trigger file exists. Root ignores permissions, so this is also how EACCES
is tested."""

from __future__ import annotations

import errno
import os
import subprocess
from pathlib import Path

import pytest
from support import limpet_argv
from torture.harness import KNOWN_CODES, TRACEBACK_MARKS, RpcServer, store_snapshot

SITECUSTOMIZE = r'''
import errno, os, sqlite3

_TRIGGER = os.environ.get("LIMPET_TEST_FAULT")
_open, _connect = os.open, sqlite3.connect


def _fault(path):
    try:
        with open(_TRIGGER) as fh:
            code, _, pattern = fh.read().partition(" ")
    except OSError:
        return None
    return getattr(errno, code) if pattern.strip() in os.fsdecode(path) else None


def _faulty_open(path, flags, *args, **kwargs):
    folder = kwargs.get("dir_fd")  # the confinement layer opens names relative to folders it holds
    full = os.path.join(os.readlink(f"/proc/self/fd/{folder}"), os.fsdecode(path)) if folder is not None else path
    code = _fault(full) if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) else None
    if code:
        raise OSError(code, os.strerror(code), os.fsdecode(full))
    return _open(path, flags, *args, **kwargs)


def _faulty_connect(path, *args, **kwargs):
    if _fault(path):
        raise sqlite3.OperationalError("attempt to write a readonly database")
    return _connect(path, *args, **kwargs)


if _TRIGGER:
    os.open, sqlite3.connect = _faulty_open, _faulty_connect
'''

CAUSES = {"ENOSPC": "disk is full", "EDQUOT": "quota", "EROFS": "read-only", "EACCES": "permission denied"}
WRITES = [
    ("comment_add", lambda t: {"file": "PLAN.md", "line_start": 1, "line_end": 1, "body": "while failing"}),
    ("comment_reply", lambda t: {"thread_id": t, "body": "while failing"}),
    ("comment_resolve", lambda t: {"thread_id": t, "decision": "while failing"}),
    ("present_review", lambda t: {"content": "# R\n\n[`src/auth.py:10`][]\n", "baseUri": "."}),
    ("export_comments", lambda t: {"format": "json"}),
]


@pytest.fixture
def faults(tmp_path: Path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    trigger = tmp_path / "fault"
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
           "LIMPET_TEST_FAULT": str(trigger)}

    def arm(code: str | None, pattern: str = "/.limpet") -> None:
        if code is None:
            trigger.unlink(missing_ok=True)
        else:
            trigger.write_text(f"{code} {pattern}")

    return env, arm


def _no_traceback(server: RpcServer) -> None:
    assert not any(mark in server.last_raw.decode() for mark in TRACEBACK_MARKS)


@pytest.mark.parametrize("code", sorted(CAUSES))
def test_a_refused_write_is_storage_failed_and_did_not_happen(workspace, faults, figures, code):
    env, arm = faults
    with RpcServer(workspace, env=env, timeout=30) as server:
        tid = server.ok("comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14,
                                        "body": "before"})["thread"]["id"]
        before = store_snapshot(workspace)
        arm(code)
        for tool, args in WRITES:
            error = server.error(tool, args(tid))
            _no_traceback(server)
            assert error["code"] == "STORAGE_FAILED" and error["details"]["rpc_code"] == -32008, (tool, error)
            assert CAUSES[code] in error["message"] and "nothing was written" in error["message"], error
        assert {k: v for k, v in store_snapshot(workspace).items() if not k.startswith("cache/")} == \
            {k: v for k, v in before.items() if not k.startswith("cache/")}
        # reads still work on a store nothing can be written to, even after the code changed
        source = workspace / "src" / "auth.py"
        source.write_text("# moved down\n" + source.read_text())
        listed = server.ok("comment_list", {})["threads"]
        assert [(t["id"], t["line_start"]) for t in listed] == [(tid, 11)]
        assert server.ok("comment_show", {"thread_id": tid})["thread"]["line_start"] == 11
        server.ok("comment_reconcile", {})
        arm(None)
        for tool, args in WRITES:  # retried once the disk is back: each lands exactly once
            server.ok(tool, args(tid))
        thread = server.ok("comment_show", {"thread_id": tid})["thread"]
        assert [c["body"] for c in thread["comments"]] == ["before", "while failing"]
        assert len(server.ok("comment_list", {})["threads"]) == 2
        assert "Traceback" not in server.stderr()
    figures.setdefault("storage_failures", {})[code] = {"writes_refused": len(WRITES), "reads_ok": True}


def test_a_write_whose_backup_fails_after_it_landed_is_reported_as_done(workspace, faults):
    env, arm = faults
    with RpcServer(workspace, env=env, timeout=30) as server:
        arm("ENOSPC", "/backups/")
        tid = server.ok("comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14,
                                        "body": "landed"})["thread"]["id"]
        server.ok("comment_reply", {"thread_id": tid, "body": "also landed"})
        arm(None)
        assert len(server.ok("comment_show", {"thread_id": tid})["thread"]["comments"]) == 2


def test_the_cli_reports_a_full_disk_with_an_exit_code_and_no_traceback(workspace, faults):
    env, arm = faults
    arm("ENOSPC")
    proc = subprocess.run([*limpet_argv(), "add", "src/auth.py:10", "x", "--workspace", str(workspace)],
                          capture_output=True, text=True, env={**os.environ, **env}, cwd=workspace)
    assert proc.returncode == 5, proc
    assert "STORAGE_FAILED" in proc.stderr and "disk is full" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert not (workspace / ".limpet" / "threads").exists() or not any((workspace / ".limpet" / "threads").iterdir())
    assert errno.ENOSPC  # the errno the fault used


def test_known_codes_include_storage_failed():
    assert "STORAGE_FAILED" in KNOWN_CODES
