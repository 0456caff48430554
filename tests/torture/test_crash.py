"""Crash safety: a process adding and replying 300 times is SIGKILLed at 10 seeded random
moments. Every acknowledged write survives, the store loads without repair, and nothing a
killed writer left behind (temp files, its lock) blocks the next writer."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from support import limpet_argv

from limpet.server.core import Service
from limpet.server.store import TEMP_MARK

WORKER = Path(__file__).with_name("crash_worker.py")
TOTAL_WRITES = 300
KILLS = 10
SEED = 20261122


def _start(workspace: Path, log: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(WORKER), str(workspace), str(log), str(TOTAL_WRITES)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _readline(proc: subprocess.Popen[str]) -> str:
    line = proc.stdout.readline()  # type: ignore[union-attr]
    assert line, f"worker exited early: {proc.wait(30)} {proc.stderr.read()}"  # type: ignore[union-attr]
    return line.strip()


def _acks(log: Path) -> list[tuple[str, str, str]]:
    lines = log.read_bytes().split(b"\n")[:-1] if log.exists() else []
    return [tuple(line.decode().split(" ", 2)) for line in lines]  # type: ignore[misc]


def _check_acknowledged_writes_present(workspace: Path, acks: list[tuple[str, str, str]]) -> int:
    """Read the store as a fresh process would; every acked add and reply must be there."""
    service = Service(workspace, lock_timeout=10)
    threads = {t.id: t for t in service.threads(fresh=False)}  # raises if anything needed repair
    for kind, tid, body in acks:
        assert tid in threads, f"acknowledged {kind} {body} on {tid} is lost"
        bodies = [c.body for c in threads[tid].comments]
        if kind == "add":
            assert bodies[0] == body
        else:
            assert body in bodies, f"acknowledged reply {body} on {tid} is lost"
    return len(acks)


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_acknowledged_writes_survive_sigkill_at_random_moments(workspace, figures):
    rng = random.Random(SEED)
    log = workspace.parent / "acks.log"
    kills, checked = 0, 0
    while kills < KILLS:
        proc = _start(workspace, log)
        try:
            assert _readline(proc) == "ready"
            # A random number of acknowledged writes, then a random fraction of the next one.
            for _ in range(rng.randint(0, 24)):
                if _readline(proc) == "done":
                    break
            time.sleep(rng.uniform(0, 0.01))
        finally:
            alive = proc.poll() is None
            proc.send_signal(signal.SIGKILL)
            proc.wait(30)
            proc.stdout.close()  # type: ignore[union-attr]
            proc.stderr.close()  # type: ignore[union-attr]
        assert alive, "the worker finished before it could be killed: raise TOTAL_WRITES"
        kills += 1
        checked += _check_acknowledged_writes_present(workspace, _acks(log))

    # Restarted once more, the worker completes every write (no stale lock or temp file stops it).
    proc = _start(workspace, log)
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0 and out.rstrip().endswith("done"), err
    acks = _acks(log)
    assert len(acks) == TOTAL_WRITES
    checked += _check_acknowledged_writes_present(workspace, acks)

    threads = Service(workspace).threads(fresh=False)
    comments = [c for t in threads for c in t.comments]
    # Each kill may have cut off at most one write after it landed and before its ack.
    assert TOTAL_WRITES <= len(comments) <= TOTAL_WRITES + KILLS
    assert all(len({c.id for c in t.comments}) == len(t.comments) for t in threads)
    assert not (workspace / ".limpet" / "corrupt").exists(), "a store file needed repair"
    assert Service(workspace).problems() == {}, "a kill left a damaged thread file"

    # A fresh process (the CLI) writes at once, and the store holds no temp file afterwards.
    first = acks[0][1]
    done = subprocess.run([*limpet_argv(), "reply", first, "after the storm"], cwd=workspace,
                          capture_output=True, text=True, timeout=60, env=_env(lock_timeout="2"))
    assert done.returncode == 0, done.stderr
    leftovers = [p for p in (workspace / ".limpet").rglob(f"*{TEMP_MARK}*")]
    assert leftovers == [], leftovers
    kinds = Counter(kind for kind, _, _ in acks)
    figures["crash"] = {"kills_survived": kills, "acknowledged_writes": len(acks),
                        "writes_checked": checked, "adds": kinds["add"], "replies": kinds["reply"],
                        "comments_on_disk": len(comments), "seed": SEED,
                        "landed_but_unacknowledged": len(comments) - TOTAL_WRITES}


def _env(**kw: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({f"LIMPET_{k.upper()}": v for k, v in kw.items()})
    return env
