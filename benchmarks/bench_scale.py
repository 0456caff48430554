"""Scale: 100,000 threads in one workspace.

- load: a fresh process opens the store and answers its first full listing (in a child
  process, so its peak RSS is its own), against reading the same thread files raw; like every
  limpet command and server, each child saves what it derived when it is done (the thread
  cache among it); after two warm-up pairs, five interleaved pairs are measured and their
  median ratio reported, as a process finds the store after others have used it;
- p95 of comment_list(file) and search_comments over stdio against ping to the same server;
  a page of 100 threads is ~95 KB twice over (structured content and its text), so the same
  call with 10 threads a page (what a file holds at 3,000 threads) shows what the store's size
  costs, a bare SDK server answering with the very same 100-thread result shows what
  carrying those bytes costs the SDK and the pipe alone, and limpet's own server answering
  each page from a memo (no store work) shows the floor the page's bytes set for it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ._common import Row, make_workspace, median, percentile
from ._rawclient import RawClient
from .bench_latency import HERE, _file, _time_sync, limpet_serve

WARM_LOADS, LOADS = 2, 5  # one load is one sample of a noisy machine: the median of five pairs

CHILD = r"""
import json, os, sys, time
root = sys.argv[1]
t0 = time.perf_counter()
if sys.argv[2] == "limpet":
    from limpet.server.core import Service, flush_all
    n = len(Service(root).threads())
else:  # the reference: read and parse every thread file, nothing else
    import orjson
    d = os.path.join(root, ".limpet", "threads")
    n = sum(1 for name in os.listdir(d) if orjson.loads(open(os.path.join(d, name), "rb").read()))
ms = (time.perf_counter() - t0) * 1000
# VmHWM, not ru_maxrss: the latter starts from the (big) benchmark process this one was forked from
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
if sys.argv[2] == "limpet":
    flush_all()  # as a command does when it exits (after the measurement)
print(json.dumps({"n": n, "ms": ms, "rss_mb": hwm / 1024}))
"""


def _child(root: Path, mode: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(root), mode], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _stdio(root: Path, files: int, n: int = 200) -> dict[str, list[float]]:
    """Raw stdio client (see bench_latency), calls interleaved with their ping reference."""
    with RawClient(limpet_serve(root), root) as c:
        tools = {t["name"] for t in c.request("tools/list")["tools"]}
        calls = {"ping": lambda i: c.ping(),
                 "comment_list(file)": lambda i: c.call_tool("comment_list", {"file": _file(i, files)}),
                 "comment_list(file, limit 10)": lambda i: c.call_tool("comment_list",
                                                                       {"file": _file(i, files), "limit": 10})}
        if "search_comments" in tools:
            calls["search_comments (regex + tag filter)"] = lambda i: c.call_tool(
                "search_comments", {"query": f"handler {i % files}\\.1\\d", "limit": 100, "filters": {"tag": "TODO"}})
        t0 = time.perf_counter()
        c.call_tool("search_comments", {"query": "never matches 42", "limit": 1})
        first = (time.perf_counter() - t0) * 1000
        out = _time_sync(calls, n)
        out["first search (cold server)"] = [first]
        page = c.call_tool("comment_list", {"file": _file(1, files)})["structuredContent"]
    out.update(_bare_echo(root, page, n))
    out.update(_from_memo(root, files, n))
    return out


def _from_memo(root: Path, files: int, n: int) -> dict[str, list[float]]:
    """The same server answering each 100-thread page from a memo of its first answer (every page
    asked once before), and its own ping: what the page's bytes cost with no store work."""
    with RawClient([sys.executable, str(HERE / "_memo_server.py"), str(root)], root) as memo:
        for i in range(min(files, n + 20)):
            memo.call_tool("comment_list", {"file": _file(i, files)})
        return _time_sync({"memo ping": lambda i: memo.ping(),
                           "memo list": lambda i: memo.call_tool("comment_list", {"file": _file(i, files)})}, n)


def _bare_echo(root: Path, result: dict, n: int) -> dict[str, list[float]]:
    """The bare SDK server answering with `result` (a 100-thread page), and its own ping."""
    fd, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "wb") as f:
        f.write(json.dumps(result).encode())
    try:
        with RawClient([sys.executable, str(HERE / "_noop_server.py"), path], root) as bare:
            timed = _time_sync({"bare ping": lambda i: bare.ping(),
                                "bare echo": lambda i: bare.call_tool("echo", {})}, n)
    finally:
        os.unlink(path)
    return timed


def main(files: int = 1000, per_file: int = 100) -> list[Row]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        t0 = time.perf_counter()
        make_workspace(root, files, per_file)
        build = time.perf_counter() - t0
        total = files * per_file
        for _ in range(WARM_LOADS):  # warm the page cache and limpet's caches (each child saves them)
            _child(root, "limpet"), _child(root, "raw")
        pairs = [(_child(root, "limpet"), _child(root, "raw")) for _ in range(LOADS)]  # interleaved
        ours_ms, raw_ms = median([o["ms"] for o, _ in pairs]), median([r["ms"] for _, r in pairs])
        ratio = median([o["ms"] / r["ms"] for o, r in pairs])
        rows.append(Row(f"load {total:,} threads in a fresh process (bulk-created in {build:.0f} s; median of "
                        f"{LOADS} interleaved pairs, ratios {min(o['ms'] / r['ms'] for o, r in pairs):.2f}–"
                        f"{max(o['ms'] / r['ms'] for o, r in pairs):.2f}×)",
                        f"{ours_ms:.0f} ms, RSS {max(o['rss_mb'] for o, _ in pairs):.0f} MB",
                        f"raw read+parse of the files {raw_ms:.0f} ms, RSS {max(r['rss_mb'] for _, r in pairs):.0f} MB",
                        ratio, "≤ 1.5×", ratio <= 1.5))
        lat = _stdio(root, files)
        ping = median(lat.pop("ping"))
        first = lat.pop("first search (cold server)")[0]
        bare_ping, echo = median(lat.pop("bare ping")), lat.pop("bare echo")
        memo_ping, memo = median(lat.pop("memo ping")), percentile(lat.pop("memo list"), 0.95)
        rows.append(Row(f"first search_comments of a fresh server, {total:,} threads (stdio)", f"{first:.0f} ms",
                        f"ping p50 {ping:.2f} ms", None, "report", None))
        for name, values in lat.items():
            p95 = percentile(values, 0.95)
            rows.append(Row(f"{name}, {total:,} threads (stdio)", f"p50 {median(values):.2f} / p95 {p95:.2f} ms",
                            f"ping p50 {ping:.2f} ms", p95 / ping, "p95 ≤ 2×", p95 / ping <= 2))
        listed = lat["comment_list(file)"]
        listed = percentile(lat["comment_list(file)"], 0.95)
        rows.append(Row(f"comment_list(file), 100 threads a page, {total:,} threads, vs a bare SDK server (stdio) "
                        "answering with the same result", f"p95 {listed:.2f} ms",
                        f"bare echo p95 {percentile(echo, 0.95):.2f} ms (its ping p50 {bare_ping:.2f} ms)",
                        listed / percentile(echo, 0.95), "report", None))
        rows.append(Row(f"comment_list(file), 100 threads a page, {total:,} threads, answered from a memo by the same "
                        "server (no store work: what the page's bytes cost the pipeline and the pipe)",
                        f"p95 {memo:.2f} ms", f"its ping p50 {memo_ping:.2f} ms", memo / memo_ping, "report", None))
    return rows


if __name__ == "__main__":
    for r in main():
        print(r.markdown())
