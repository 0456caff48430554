"""Real-repository cost: fresh-process CLI commands on big git checkouts vs `git status`.

A git repository of N generated Python files (6,000 and 20,000) with 100 threads on 100
files, 10 of those files then deleted (10 orphans), everything committed. Each command is a
new process, as a person or script runs it: `limpet list`, `limpet show ID`, `limpet add
FILE:LINE`, interleaved with `git status` on the same tree (the reference: what the
repository itself costs to look at). Peak RSS is each process's own (wait4, from a small
launcher: see _LAUNCH).

    .venv/bin/python -m benchmarks --only repo
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ._common import Row, median, python_source

SIZES = (6_000, 20_000)
THREADS, ORPHANS, REPS = 100, 10, 5
TARGET = 10.0  # the "now" target; ≤ 3× is the aim


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b",
                        "GIT_COMMITTER_EMAIL": "b@x"})


def build(root: Path, files: int) -> list[str]:
    """The repository; returns the ids of the 90 threads that still have their file."""
    from limpet.server.core import Service

    for i in range(files):
        path = root / "src" / f"pkg{i // 100}" / f"mod_{i}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(python_source(i, 4))
    step = files // THREADS
    specs = [{"file": f"src/pkg{(i * step) // 100}/mod_{i * step}.py", "line_start": 5, "line_end": 10,
              "body": f"Check the limit handling in module {i * step}", "tag": "TODO"} for i in range(THREADS)]
    threads = Service(root).add_many(specs)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "sources and threads")
    for t in threads[:ORPHANS]:
        (root / t.anchor.file).unlink()
    _git(root, "commit", "-qam", "delete ten files with threads")
    return [t.id for t in threads[ORPHANS:]]


# A process forked from this one starts with its memory counted (Linux carries the parent's
# high-water mark through fork and exec into the child's ru_maxrss), and this process is big
# after the other suites: a small launcher forks the measured command and reports its wait4.
_LAUNCH = ("import json, os, subprocess, sys, time\n"
           "t = time.perf_counter()\n"
           "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
           "_, status, usage = os.wait4(p.pid, 0)\n"
           "print(json.dumps([(time.perf_counter() - t) * 1000, usage.ru_maxrss // 1024,"
           " os.waitstatus_to_exitcode(status)]))\n")


def timed(argv: list[str], cwd: Path) -> tuple[float, int]:
    """(wall ms, peak RSS in MB) of one fresh process."""
    out = subprocess.run([sys.executable, "-I", "-S", "-c", _LAUNCH, *argv], cwd=cwd, capture_output=True,
                         text=True, check=True)
    elapsed, rss, code = json.loads(out.stdout)
    if code != 0:
        raise RuntimeError(f"{argv} exited with {code}")
    return elapsed, rss


def compile_limpet() -> None:
    """Bytecode for every limpet module, as an installed package has it. Without it a module
    edited since its last .pyc is compiled again by every process (and this harness may run
    with PYTHONDONTWRITEBYTECODE), which measures the edit, not the command."""
    import importlib.util

    dirs = [d for name in ("limpet.model", "limpet.anchoring", "limpet.exporters", "limpet.prompts", "limpet.server")
            for d in (importlib.util.find_spec(name).submodule_search_locations or [])]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *dirs], check=True, capture_output=True)


def _limpet() -> list[str]:
    exe = Path(sys.executable).with_name("limpet")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "limpet.server"]


def measure(files: int) -> list[Row]:
    limpet = _limpet()
    compile_limpet()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        ids = build(root, files)
        target = next(p for p in sorted((root / "src").rglob("*.py")))
        rel = target.relative_to(root).as_posix()
        commands = {"list": [*limpet, "list"], "show": [*limpet, "show", ids[0]],
                    "add": [*limpet, "add", f"{rel}:5", "benchmark note"]}
        git_first = timed(["git", "status", "--porcelain"], root)[0]
        first = timed([*limpet, "list"], root)  # the first read after the deletions searches for the orphans
        ours: dict[str, list[tuple[float, int]]] = {name: [] for name in commands}
        git: list[float] = []
        for _ in range(REPS):  # interleaved: machine noise hits both alike
            for name, argv in commands.items():
                git.append(timed(["git", "status", "--porcelain"], root)[0])
                ours[name].append(timed(argv, root))
        shutil.rmtree(root, ignore_errors=True)
    ref = median(git)
    rows = [Row(f"first `limpet list` after {ORPHANS} files with threads were deleted, {files:,} files "
                "(searches the workspace for their code once; later processes read the result)",
                f"{first[0]:.0f} ms, peak RSS {first[1]} MB", f"`git status` {git_first:.0f} ms",
                first[0] / git_first, "report", None)]
    for name, runs in ours.items():
        ms = median([r[0] for r in runs])
        rss = max(r[1] for r in runs)
        rows.append(Row(f"fresh `limpet {name}`, {files:,} files, {THREADS} threads, {ORPHANS} orphans",
                        f"{ms:.0f} ms, peak RSS {rss} MB", f"`git status` {ref:.0f} ms", ms / ref,
                        f"≤ {TARGET:g}× (aim 3×)", ms / ref <= TARGET))
    return rows


def main() -> list[Row]:
    return [row for files in SIZES for row in measure(files)]


if __name__ == "__main__":
    for r in main():
        print(r.markdown())
