"""A real project after a big pull: mypy 1.4.0 -> 1.13.0 with 300 threads, fresh processes.

The issue that asked for fresh commands to cost what their answer needs was reported on
python/mypy. This suite builds a git repository of mypy 1.4.0's source distribution, puts 300
threads on its functions (every nth function of the sorted files; committed), then commits
1.13.0's tree over it (eighteen months of real history: ~970 files changed, ~480 of them
typeshed's .pyi stubs) and runs the CLI as a person would after `git pull`:

* the first `limpet list` re-anchors every thread whose file changed (it asks git which version
  they were written against, then searches for the code that left its file); the reference is
  a fresh process doing a bare tree-sitter parse of the changed Python files;
* later `limpet list`s read the result (the reference: `git status`; reported: the issue's
  ≤ 10× is set on the 6,000- and 20,000-file repositories of bench_repo, where git itself
  costs 10-33 ms, not on a 1,400-file tree it reads in 6).

The sources come from PyPI (`pip download`, cached in ~/.cache/limpet-bench/pull/; nothing is
committed). Where PyPI cannot be reached the suite says so in its row instead of a figure.

    .venv/bin/python -m benchmarks --only pull --no-write
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from ._common import Row, median
from .bench_repo import _git, _limpet, compile_limpet, timed

PROJECT, BEFORE, AFTER, THREADS, REPS = "mypy", "1.4.0", "1.13.0", 300, 5
CACHE = Path.home() / ".cache" / "limpet-bench" / "pull"

_BARE_PARSE = ("import sys, tree_sitter_language_pack as p\n"
               "parser = p.get_parser('python')\n"
               "for path in sys.argv[1:]:\n"
               "    with open(path, 'rb') as f:\n"
               "        parser.parse(f.read())\n")


def sources(version: str) -> Path:
    """mypy's sdist of `version`, unpacked under CACHE (downloaded once)."""
    tree = CACHE / f"{PROJECT}-{version}"
    if tree.is_dir():
        return tree
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                    f"{PROJECT}=={version}", "-d", str(CACHE)], check=True, capture_output=True, timeout=300)
    with tarfile.open(CACHE / f"{PROJECT}-{version}.tar.gz") as tar:
        tar.extractall(CACHE, filter="data")
    return tree


def _replace_tree(root: Path, tree: Path) -> None:
    for entry in root.iterdir():
        if entry.name not in (".git", ".limpet"):
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    for entry in tree.iterdir():
        (shutil.copytree if entry.is_dir() else shutil.copy2)(entry, root / entry.name)


def build(root: Path, before: Path, after: Path) -> None:
    """The repository: `before` with THREADS threads on its functions, then `after` committed over it."""
    from limpet.anchoring import content_hash
    from limpet.anchoring._fileview import file_view
    from limpet.server.core import Service

    shutil.copytree(before, root)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", PROJECT + " " + BEFORE)
    functions = []
    for path in sorted(root.rglob("*.py")):
        rel, data = path.relative_to(root).as_posix(), path.read_bytes()
        functions += [(rel, sv.first + 1, sv.last + 1) for sv in file_view(rel, data, content_hash(data)).symbols
                      if sv.kind in ("function", "method") and sv.last - sv.first >= 2]
    step = len(functions) // THREADS
    Service(root).add_many([{"file": f, "line_start": a, "line_end": b, "body": "benchmark thread", "tag": "TODO"}
                            for f, a, b in functions[::step][:THREADS]])
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "threads")
    _replace_tree(root, after)
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", PROJECT + " " + AFTER)


def _healths(root: Path) -> dict[str, int]:
    out = subprocess.run([*_limpet(), "list", "--json"], cwd=root, capture_output=True, text=True, check=True)
    counts: dict[str, int] = {}
    for thread in json.loads(out.stdout)["threads"]:
        counts[thread["health"]] = counts.get(thread["health"], 0) + 1
    return counts


def main() -> list[Row]:
    try:
        before, after = sources(BEFORE), sources(AFTER)
    except (subprocess.SubprocessError, OSError) as exc:
        return [Row(f"first `limpet list` after pulling {PROJECT} {BEFORE} → {AFTER}", f"not run: {exc}", "—",
                    None, "report", None)]
    compile_limpet()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        build(root, before, after)
        changed = subprocess.run(["git", "diff", "--name-only", "HEAD~1", "HEAD"], cwd=root, capture_output=True,
                                 text=True, check=True).stdout.split()
        parsed = [str(root / p) for p in changed if p.endswith(".py") and (root / p).exists()]
        bare = timed([sys.executable, "-c", _BARE_PARSE, *parsed], root)
        first = timed([*_limpet(), "list"], root)
        healths = _healths(root)
        later, git = [], []
        for _ in range(REPS):
            git.append(timed(["git", "status", "--porcelain"], root)[0])
            later.append(timed([*_limpet(), "list"], root))
    pulled = f"{PROJECT} {BEFORE} → {AFTER}, {len(changed):,} files changed, {THREADS} threads"
    placed = ", ".join(f"{n} {h}" for h, n in sorted(healths.items()))
    ms, ref = median([r[0] for r in later]), median(git)
    return [
        Row(f"first `limpet list` after pulling {pulled} (then: {placed})", f"{first[0]:.0f} ms, peak RSS {first[1]} MB",
            f"bare tree-sitter parse of the {len(parsed)} changed .py files (a fresh process) {bare[0]:.0f} ms",
            first[0] / bare[0], "report", None),
        Row("later `limpet list`, the same checkout", f"{ms:.0f} ms, peak RSS {max(r[1] for r in later)} MB",
            f"`git status` {ref:.0f} ms", ms / ref, "report", None),
    ]
