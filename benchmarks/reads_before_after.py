"""What reading the store costs, this checkout against another one, in the same run.

    .venv/bin/python benchmarks/reads_before_after.py --before OTHER/.venv/bin/python [--runs 7]

OTHER is a second worktree at the commit to compare with (`git worktree add --detach OTHER REV`,
with its own `.venv`: `python -m venv .venv; .venv/bin/pip install -e .`). One workspace of 20,000 threads
(`_common.make_workspace(root, 200, 100)`, no git: the private folder is `.limpet/cache/`) is
copied twice, one copy per side, so each keeps its own caches. Per round, sides interleaved
(the order alternating): a cold read (the thread cache removed: every thread file read,
checked and folded), a warm read (the thread cache used: every thread file stat'ed), each the
CPU time of `Service(root).threads()` in a fresh process (which then saves its caches, as a
command does); and the wall time of a fresh
`limpet list` (warm). Prints the medians and after/before ratios.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOAD = ("import sys, time\nfrom limpet.server.core import Service\n"
        "t = time.process_time(); service = Service(sys.argv[1]); n = len(service.threads())\n"
        "print(time.process_time() - t, n)\nservice.flush()")  # the caches a command leaves (limpet list does)
LIST = ("import subprocess, sys, time\nt = time.perf_counter()\n"
        "subprocess.run([sys.argv[2], 'list'], cwd=sys.argv[1], stdout=subprocess.DEVNULL, check=True)\n"
        "print(time.perf_counter() - t)")


def _measure(python: str, root: Path, what: str) -> float:
    if what == "cold":
        (root / ".limpet" / "cache" / "threads.cache").unlink(missing_ok=True)
    if what == "list":
        command = [python, "-c", LIST, str(root), str(Path(python).with_name("limpet"))]
    else:
        command = [python, "-c", LOAD, str(root)]
    return float(subprocess.run(command, capture_output=True, text=True, check=True).stdout.split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the python of the other checkout's .venv")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sides = {"before": args.before, "after": sys.executable}
    base = Path(tempfile.mkdtemp(prefix="limpet-reads-"))
    try:
        made = base / "made"
        subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path; "
                        "from benchmarks._common import make_workspace; make_workspace(Path(sys.argv[2]), 200, 100)",
                        str(ROOT), str(made)], check=True)
        (made / ".limpet" / "cache" / "threads.cache").unlink(missing_ok=True)  # the private folder stays:
        # outside git it is `.limpet/cache/`, which a read never makes (so no cache would be kept)
        roots = {side: base / side for side in sides}
        for root in roots.values():
            shutil.copytree(made, root)
        for side, python in sides.items():  # each side's caches (derived positions, file hashes) made once
            _measure(python, roots[side], "warm")
        times: dict[str, dict[str, list[float]]] = {side: {"cold": [], "warm": [], "list": []} for side in sides}
        for run in range(args.runs):
            order = ("before", "after") if run % 2 == 0 else ("after", "before")
            for what in ("cold", "warm", "list"):
                for side in order:
                    times[side][what].append(_measure(sides[side], roots[side], what))
        for what, label in (("cold", "cold read, CPU s"), ("warm", "warm read, CPU s"), ("list", "limpet list, s")):
            before, after = (statistics.median(times[side][what]) for side in ("before", "after"))
            print(f"{label:18s} before {before:.3f}  after {after:.3f}  after/before {after / before:.2f}x   "
                  f"(runs: before {' '.join(f'{t:.3f}' for t in times['before'][what])}; "
                  f"after {' '.join(f'{t:.3f}' for t in times['after'][what])})")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
