"""Contention: many processes writing at once never lose an update, and a lock held too long
is a LOCK_TIMEOUT error, never a hang."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from torture.harness import RpcServer, store_snapshot

from limpet.server.core import Service

WORKER = Path(__file__).with_name("contention_worker.py")
HOLD_LOCK = ("import fcntl, os, sys, time\n"
             "fd = os.open(sys.argv[1], os.O_RDONLY)\n"  # the store lock is a flock on the workspace folder
             "fcntl.flock(fd, fcntl.LOCK_EX)\n"
             "print('held', flush=True)\n"
             "time.sleep(600)\n")
CLEAN_LOOP = ("import subprocess, sys, os\n"
              "n = 0\n"
              "while not os.path.exists(sys.argv[2]):\n"
              "    subprocess.run(['git', 'clean', '-fdxq'], cwd=sys.argv[1], stderr=subprocess.DEVNULL)\n"
              "    n += 1\n"
              "print(n, flush=True)\n")


def _run_together(workspace: Path, jobs: list[tuple[str, str, int, str]]) -> list[list[str]]:
    """Start one worker per job, wait until all are ready, release them at once; their output."""
    go = workspace.parent / f"go-{time.monotonic_ns()}"
    procs = [subprocess.Popen([sys.executable, str(WORKER), str(workspace), str(go), mode, target, str(n), name],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for mode, target, n, name in jobs]
    try:
        for proc in procs:
            assert proc.stdout.readline().strip() == "ready", proc.stderr.read()  # type: ignore[union-attr]
        go.touch()
        outputs = []
        for proc in procs:
            out, err = proc.communicate(timeout=180)
            assert proc.returncode == 0, err
            outputs.append(out.split())
        return outputs
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_six_processes_replying_fifty_times_to_one_thread_land_all_301_comments(workspace, figures):
    thread = Service(workspace).add("src/auth.py", 10, 14, "the thread everyone answers")
    names = [f"p{n}" for n in range(6)]
    outputs = _run_together(workspace, [("reply", thread.id, 50, name) for name in names])
    assert all(len(out) == 50 for out in outputs)

    final = Service(workspace).get(thread.id, fresh=False)
    bodies = [c.body for c in final.comments]
    assert len(final.comments) == 301
    assert sorted(bodies[1:]) == sorted(f"{name}-{i:03d}" for name in names for i in range(50))
    assert [c.id for c in final.comments] == [f"{thread.id}.{i}" for i in range(301)]
    for name in names:  # each process's replies appear in the order it made them
        own = [b for b in bodies if b.startswith(f"{name}-")]
        assert own == sorted(own)
    figures["contention_replies"] = {"processes": 6, "replies_each": 50, "comments_on_thread": len(final.comments)}


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_concurrent_adds_on_the_same_file_and_on_different_files_lose_nothing(workspace, figures):
    jobs = [("add", "src/auth.py", 25, f"same{n}") for n in range(3)]
    jobs += [("add", file, 25, f"own{n}") for n, file in enumerate(("PLAN.md", "src/app.ts", "main.go"))]
    outputs = _run_together(workspace, jobs)
    acked = [tid for out in outputs for tid in out]
    assert len(acked) == len(set(acked)) == 150

    threads = {t.id: t for t in Service(workspace).threads(fresh=False)}
    assert set(threads) == set(acked)
    for (_, file, n, name), out in zip(jobs, outputs, strict=True):
        assert [threads[tid].body for tid in out] == [f"{name}-{i:03d}" for i in range(n)]
        assert {threads[tid].anchor.file for tid in out} == {file}
    figures["contention_adds"] = {"processes": len(jobs), "threads_acknowledged": len(acked),
                                  "threads_on_disk": len(threads)}


@pytest.mark.timeout(120)
def test_a_lock_held_past_the_timeout_gives_lock_timeout_never_a_hang(workspace, figures):
    with RpcServer(workspace, env={"LIMPET_LOCK_TIMEOUT": "0.5"}, timeout=30) as server:
        tid = server.ok("comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14,
                                        "body": "before the lock"})["thread"]["id"]
        holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(workspace)],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout.readline().strip() == "held"  # type: ignore[union-attr]
            before = store_snapshot(workspace)
            writes = [("comment_add", {"file": "PLAN.md", "line_start": 1, "line_end": 1, "body": "blocked"}),
                      ("comment_reply", {"thread_id": tid, "body": "blocked"}),
                      ("comment_resolve", {"thread_id": tid, "decision": "blocked"}),
                      ("delete_comment", {"filePath": "src/auth.py", "commentId": tid}),
                      ("present_review", {"content": "# R\n\nsrc/auth.py:10\n", "baseUri": "."})]
            for tool, args in writes:
                started = time.monotonic()
                error = server.error(tool, args)
                assert error["code"] == "LOCK_TIMEOUT" and error["details"]["rpc_code"] == -32004, error
                assert time.monotonic() - started < 20, f"{tool} waited far past the lock timeout"
            # nothing was half-written, and reads still answer while the lock is held
            assert store_snapshot(workspace) == before
            assert [t["id"] for t in server.ok("comment_list", {})["threads"]] == [tid]
        finally:
            holder.kill()
            holder.wait()
        # the kernel released the dead holder's lock: the same server writes again
        assert len(server.ok("comment_reply", {"thread_id": tid, "body": "after"})["thread"]["comments"]) == 2
    figures["lock_timeout"] = {"blocked_writes": len(writes), "all_lock_timeout": True}


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_two_writers_with_git_clean_in_a_loop_land_all_301_comments(workspace, figures):
    from gitrepo import commit_all, git_init

    git_init(workspace)
    thread = Service(workspace).add("src/auth.py", 10, 14, "a committed thread")
    commit_all(workspace, "thread")
    stop = workspace.parent / "stop-cleaning"
    cleaner = subprocess.Popen([sys.executable, "-c", CLEAN_LOOP, str(workspace), str(stop)],
                               stdout=subprocess.PIPE, text=True)
    try:
        outputs = _run_together(workspace, [("reply", thread.id, 150, name) for name in ("p0", "p1")])
    finally:
        stop.touch()
        cleans = int(cleaner.communicate(timeout=60)[0] or 0)
    assert all(len(out) == 150 for out in outputs)
    final = Service(workspace).get(thread.id, fresh=False)
    assert len(final.comments) == 301 and cleans > 0
    figures["contention_with_git_clean"] = {"processes": 2, "replies_each": 150, "git_cleans": cleans,
                                            "comments_on_thread": len(final.comments)}
