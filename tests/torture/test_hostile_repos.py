"""Hostile repositories (issue 33), from the generator in hostile_repos.py: each is read by
`limpet list` and by a real `limpet serve` (comment_list, comment_reconcile, search_comments,
prompts/get), both under a 512 MB address-space limit and a CPU limit of 2 s per hostile file
above what the same call costs on the honest workspace, measured in this run (RLIMIT_CPU;
wall-clock time only guards against a hang). Nothing outside the workspace is created,
changed or deleted; no answer is INTERNAL; no traceback on stderr; every answer is a result or
one of the contract's typed errors.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from hostile_layout import outside_snapshot
from support import SAMPLE, limpet_argv, write_files
from torture.harness import KNOWN_CODES, TRACEBACK_MARKS, RpcServer
from torture.hostile_repos import Repo, main_event, repositories

from limpet.server.core import Service

MEMORY = 512 << 20
BUDGET_CPU = 2.0  # seconds per hostile file
HANG = 120  # wall seconds: a hang guard only, never a measurement


def _limits(cpu: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _list(ws: Path, cpu_limit: int) -> tuple[int, str, float]:
    proc = subprocess.Popen([*limpet_argv(), "list"], cwd=ws, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=lambda: _limits(cpu_limit))
    _out, err = proc.communicate(timeout=HANG)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return proc.returncode, err.decode(errors="replace"), usage.ru_utime + usage.ru_stime


def _answer(reply: dict) -> str:
    """'ok', a typed error's code, or what is wrong with the answer."""
    if "error" in reply:  # prompts/get answers a JSON-RPC error carrying the contract's code
        code = reply["error"].get("data", {}).get("code") or str(reply["error"].get("code"))
        assert code in KNOWN_CODES, reply
        return code
    result = reply["result"]
    text = json.dumps(result)
    assert not any(mark in text for mark in TRACEBACK_MARKS), text[:2000]
    if result.get("isError"):
        code = result["structuredContent"]["error"]["code"]
        assert code in KNOWN_CODES, result
        return code
    return "ok"


CALLS = (("comment_list", {}), ("comment_reconcile", {}))


def _serve(ws: Path, repo: Repo) -> list[tuple[str, str, float]]:
    """Each read through a real server: (call, answer, CPU seconds it took)."""
    out = []
    server = RpcServer(ws, timeout=HANG, preexec=lambda: _limits(HANG))  # CPU: a hang guard; per call below
    try:
        steps = [*CALLS, *(("search_comments", {"query": q, "limit": 100}) for q in repo.queries)]
        for tool, args in [*steps, ("prompts/get", None)]:
            before = _cpu_of(server.proc.pid)
            if tool == "prompts/get":
                reply = server.request("prompts/get", {"name": "review_code", "arguments": {"filePath": "src/auth.py"}})
            else:
                reply = server.call(tool, args)
            out.append((tool, _answer(reply), _cpu_of(server.proc.pid) - before))
        stderr = server.stderr()
    finally:
        server.close()
    assert server.proc.returncode in (0, None), (repo.name, server.stderr()[-2000:])
    assert not any(mark in stderr for mark in TRACEBACK_MARKS) and "INTERNAL" not in stderr, stderr[-3000:]
    return out


def _honest(tmp_path: Path) -> Path:
    ws = tmp_path / "honest"
    ws.mkdir()
    write_files(ws, SAMPLE)
    Service(ws).add("src/auth.py", 10, 12, "a good comment")
    return ws


CLASSES = tuple(dict.fromkeys(repo.cls for repo in repositories()))  # in the generator's order


@pytest.mark.slow
@pytest.mark.timeout(1200)  # a class of 70 repositories, each read by `limpet list` and a server
@pytest.mark.parametrize("cls", CLASSES)
def test_every_hostile_repository_is_read_within_budget_and_escapes_nothing(tmp_path, figures, cls):
    honest = _honest(tmp_path)
    created = main_event(honest)
    rc, err, cpu0 = _list(honest, 60)
    assert rc == 0, err
    startup = int(cpu0) + 1  # what `limpet list` costs here (imports included), rounded up
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "sentinel.txt").write_text("keep me\n")
    row: Counter[str] = Counter()
    for n, repo in enumerate(r for r in repositories() if r.cls == cls):
        ws = tmp_path / f"r{n}"
        shutil.copytree(honest, ws, symlinks=True)
        sub = outside / f"r{n}"
        sub.mkdir()
        repo.make(ws, sub, created)
        before = outside_snapshot(outside)
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        rc, err, cpu = _list(ws, startup + int(BUDGET_CPU))
        spent = cpu - (used.ru_utime + used.ru_stime)
        row["repositories"] += 1
        assert rc != -9 and rc != -24, (repo.name, "killed by a limit", err[-500:])  # SIGKILL / SIGXCPU
        assert not any(mark in err for mark in TRACEBACK_MARKS) and "INTERNAL" not in err, (repo.name, err[-3000:])
        answers = _serve(ws, repo)
        assert all(took <= BUDGET_CPU for _t, _a, took in answers), (repo.name, answers)
        row["answered within budget"] += 1 if spent <= startup + BUDGET_CPU else 0
        if rc:
            row[f"list exit {rc}"] += 1
        for _tool, answer, _took in answers:
            row[answer] += 1
        assert outside_snapshot(outside) == before, repo.name
        row["escapes"] += 0  # asserted just above: a difference fails the test
        shutil.rmtree(ws, ignore_errors=True)
    figures.setdefault("hostile repositories per class", {})[cls] = dict(row)
    assert row["answered within budget"] == row["repositories"], (cls, row)
