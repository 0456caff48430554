#!/usr/bin/env python3
"""The anchoring benchmark as a fresh process meets it after a commit: run.py's cases and
scoring, through limpet's service in a real git repository.

For each group: the before files are committed, the anchors are added as threads (Service),
committed, the after files are committed, and a new Service (a process that never saw the
before version, as a `limpet list` after a pull) reads every thread. Where the in-process
runner's index watched the change, this one learns it from git (docs/git.md); `--no-git`
runs the same without a repository (every file then counts as changed).

    .venv/bin/python benchmarks/anchoring_fresh.py --cases ~/.cache/limpet-compound-d/cases-compound-d.jsonl.gz
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.anchoring_inprocess import BENCH, load_runner  # noqa: E402
from limpet.server.core import Service  # noqa: E402

_ENV = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@x", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env={**os.environ, **_ENV})


def _write(root: Path, files: dict[str, str | None]) -> None:
    for rel, text in files.items():
        path = root / rel
        if text is None:
            path.unlink(missing_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def run_group(g: dict, root: Path, use_git: bool) -> tuple[list[tuple[dict, dict]], float]:
    _write(root, g["files_before"])
    if use_git:
        _git(root, "init", "-q", "-b", "main")
        _git(root, "add", "-A")
        _git(root, "commit", "-qm", "before")
    specs = [{"file": a["file"], "line_start": a["line_start"], "line_end": a["line_end"], "body": a["id"]}
             for a in g["anchors"]]
    threads = Service(root).add_many(specs)
    if use_git:
        _git(root, "add", "-A")
        _git(root, "commit", "-qm", "threads")
    _write(root, g["files_after"])
    if use_git:
        _git(root, "add", "-A")
        _git(root, "commit", "-qm", "after")
    t0 = time.perf_counter()
    by_id = {t.id: t for t in Service(root).threads()}
    elapsed = time.perf_counter() - t0
    rows = []
    for a, made in zip(g["anchors"], threads, strict=True):
        t = by_id[made.id]
        rows.append((a, dict(file=t.anchor.file, line_start=t.anchor.line_start, line_end=t.anchor.line_end,
                             orphan=t.health == "orphaned")))
    return rows, elapsed


def main(argv: list[str] | None = None) -> int:
    run = load_runner()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default=str(BENCH / "cases-public.jsonl.gz"))
    ap.add_argument("--limit", type=int)
    ap.add_argument("--no-git", action="store_true", help="no repository: a fresh process learns nothing")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every non-correct anchor")
    args = ap.parse_args(argv)
    groups = run.select_groups(run.load_cases(args.cases), None, None, args.limit, 0)
    results, times = [], []
    t_start = time.perf_counter()
    for i, g in enumerate(groups):
        random.Random(i).shuffle(g["anchors"])
        with tempfile.TemporaryDirectory() as tmp:
            rows, elapsed = run_group(g, Path(tmp) / "ws", not args.no_git)
        times.append(elapsed)
        for a, got in rows:
            outcome, near = run.judge(a, got)
            results.append(dict(id=a["id"], repo=g["repo"], category=a["category"], outcome=outcome,
                                near=near, got=got, expected=a["expected"]))
            if args.verbose and outcome != "correct":
                print(f"{outcome:24} {a['category']:10} {a['id']} exp {a['expected']} got {got}")
    timing = dict(groups=len(groups), total_s=time.perf_counter() - t_start, reconcile_total_s=sum(times),
                  reconcile_p50_ms=1000 * run.percentile(times, 0.5),
                  reconcile_p95_ms=1000 * run.percentile(times, 0.95), reconcile_max_ms=1000 * max(times))
    run.print_table(run.summarize(results), timing, "fresh service after a commit" + (" (no git)" if args.no_git else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
