"""`limpet serve`'s cold start, this checkout against another one and the bare server, in the same run.

    .venv/bin/python -m benchmarks.coldstart_before_after --before OTHER/.venv/bin/python [--rounds 21]

OTHER is a second worktree at the commit to compare with (`git worktree add --detach OTHER REV`,
with its own `.venv`: `python -m venv .venv; .venv/bin/pip install -e .`). Per round, the three
servers in an order that rotates (so machine noise hits each alike): spawn → first `tools/list`
answered, timed as the suite's coldstart row times it (bench_coldstart: the SDK's client, on
the suite's one-file workspace), the reference being the suite's bare MCPServer with one no-op
tool. Then, per side, a fresh server through the raw client (benchmarks/_rawclient.py; limpet
on a workspace of 300 threads in 30 files, the bare server on the one file): the time to the
first tools/list, the server's CPU time by then (from /proc: what a loaded machine's waiting
does not inflate) and, for limpet, the first `comment_list` after it (what an agent's first
real call costs: what was put off at start is loaded then). Prints medians, the spread
(min–max and the quartiles) and the ratios: each side against the bare server of its round,
after against before.

Bytecode is written (PYTHONDONTWRITEBYTECODE is dropped for the servers) and a first round is
thrown away, so neither side pays for compiling a module the other has cached.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

from ._common import make_workspace, percentile, settle
from ._rawclient import RawClient
from .bench_coldstart import HERE, _spawn_to_list


def _limpet(python: str) -> list[str]:
    exe = Path(python).with_name("limpet")
    return [str(exe)] if exe.exists() else [python, "-m", "limpet.server"]


TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")


def _cpu_ms(pid: int) -> float:
    """The CPU time (user + system) process `pid` has used so far: what a loaded machine's
    waiting does not inflate (in clock ticks, so only a mean over many runs says much)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * TICK_MS


def _first_call(argv: list[str], root: Path, call: bool = True) -> tuple[float, float, float]:
    """Through the raw client: spawn → first tools/list (ms), the server's CPU time by then
    (ms), then the first comment_list (ms; 0 when not `call`)."""
    t0 = time.perf_counter()
    with RawClient(argv, root) as client:
        client.request("tools/list")
        t1 = time.perf_counter()
        cpu = _cpu_ms(client.proc.pid)
        if call:
            client.call_tool("comment_list", {"limit": 100})
        t2 = time.perf_counter()
    return (t1 - t0) * 1000, cpu, (t2 - t1) * 1000 if call else 0.0


def _spread(values: list[float]) -> str:
    return (f"median {statistics.median(values):6.1f}  min {min(values):6.1f}  q1 {percentile(values, 0.25):6.1f}"
            f"  q3 {percentile(values, 0.75):6.1f}  max {max(values):6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the python of the other checkout's .venv")
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the servers keep their bytecode, as installed ones do
    servers = {"bare": [sys.executable, str(HERE / "_bare_mcpserver.py")],
               "before": _limpet(args.before), "after": _limpet(sys.executable)}
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "small"
        small.mkdir()
        (small / "a.py").write_text("def f():\n    return 1\n")
        threaded = {side: Path(tmp) / side for side in ("before", "after")}
        for root in threaded.values():
            make_workspace(root, 30, 10)
        settle()
        start = {side: [] for side in servers}
        cpu = {side: [] for side in servers}
        first = {side: ([], []) for side in threaded}
        for round_ in range(args.rounds + 1):
            sides = list(servers)
            order = sides[round_ % 3:] + sides[:round_ % 3]
            for side in order:
                argv = servers[side] if side == "bare" else [*servers[side], "serve", "--workspace", str(small)]
                took = anyio.run(_spawn_to_list, argv, small)
                if round_:
                    start[side].append(took)
            for side in order:
                root = small if side == "bare" else threaded[side]
                argv = servers[side] if side == "bare" else [*servers[side], "serve", "--workspace", str(root)]
                listed, used, called = _first_call(argv, root, call=side != "bare")
                if round_:
                    cpu[side].append(used)
                    if side != "bare":
                        first[side][0].append(listed)
                        first[side][1].append(called)
    print(f"spawn → first tools/list (the suite's coldstart row), ms, {args.rounds} rounds:")
    for side in servers:
        print(f"  {side:6s} {_spread(start[side])}")
    for side in ("before", "after"):
        ratios = [o / b for o, b in zip(start[side], start["bare"], strict=True)]
        print(f"  {side:6s} / bare: median of medians {statistics.median(start[side]) / statistics.median(start['bare']):.3f}x;"
              f" per round median {statistics.median(ratios):.3f}x, q1 {percentile(ratios, 0.25):.3f}x,"
              f" q3 {percentile(ratios, 0.75):.3f}x, min {min(ratios):.3f}x, max {max(ratios):.3f}x")
    per_round = [a / b for a, b in zip(start["after"], start["before"], strict=True)]
    print(f"  after / before per round: median {statistics.median(per_round):.3f}x,"
          f" q1 {percentile(per_round, 0.25):.3f}x, q3 {percentile(per_round, 0.75):.3f}x")
    print("the server's CPU time by its first tools/list answer (raw client; limpet on 300 threads), ms:")
    for side in servers:
        print(f"  {side:6s} mean {statistics.fmean(cpu[side]):6.1f}  {_spread(cpu[side])}")
    for side in ("before", "after"):
        print(f"  {side:6s} / bare: {statistics.fmean(cpu[side]) / statistics.fmean(cpu['bare']):.3f}x (means)")
    print("300 threads, raw client, ms: spawn → first tools/list; then the first comment_list (limit 100)")
    for side in ("before", "after"):
        print(f"  {side:6s} tools/list    {_spread(first[side][0])}")
        print(f"  {side:6s} comment_list  {_spread(first[side][1])}")


if __name__ == "__main__":
    main()
