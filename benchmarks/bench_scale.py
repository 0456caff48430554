"""Scale: 100,000 threads in one workspace.

- load: a fresh process opens the store and answers its first full listing (in a child
  process, so its peak RSS is its own), against reading the same thread files raw;
- p95 of comment_list(file) and search_comments over stdio against ping to the same server.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

from ._common import Row, make_workspace, median, percentile
from .bench_latency import _limpet_argv, _session, _time

CHILD = r"""
import json, os, resource, sys, time
root = sys.argv[1]
t0 = time.perf_counter()
if sys.argv[2] == "limpet":
    from limpet.server import Service
    n = len(Service(root).threads())
else:  # the reference: read and parse every thread file, nothing else
    import orjson
    d = os.path.join(root, ".limpet", "threads")
    n = sum(1 for name in os.listdir(d) if orjson.loads(open(os.path.join(d, name), "rb").read()))
ms = (time.perf_counter() - t0) * 1000
print(json.dumps({"n": n, "ms": ms, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _child(root: Path, mode: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(root), mode], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


async def _stdio(root: Path, files: int, n: int = 200) -> dict[str, list[float]]:
    async with _session([*_limpet_argv(), "serve", "--workspace", str(root)], root) as s:
        tools = {t.name for t in (await s.list_tools()).tools}
        out = {"ping": await _time(lambda i: s.send_ping(), n)}
        out["comment_list(file)"] = await _time(
            lambda i: s.call_tool("comment_list", {"file": f"src/pkg{(i % files) // 50}/mod_{i % files}.py"}), n)
        if "search_comments" in tools:
            out["search_comments (regex + tag filter)"] = await _time(
                lambda i: s.call_tool("search_comments", {"query": f"handler {i % files}\\.1\\d", "limit": 100,
                                                          "filters": {"tag": "TODO"}}), n)
        return out


def main(files: int = 1000, per_file: int = 100) -> list[Row]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        t0 = time.perf_counter()
        make_workspace(root, files, per_file)
        build = time.perf_counter() - t0
        total = files * per_file
        for _ in range(2):  # warm the page cache once; the second pair is what we report
            ours, raw = _child(root, "limpet"), _child(root, "raw")
        rows.append(Row(f"load {total:,} threads in a fresh process (bulk-created in {build:.0f} s)",
                        f"{ours['ms']:.0f} ms, RSS {ours['rss_mb']:.0f} MB",
                        f"raw read+parse of the files {raw['ms']:.0f} ms, RSS {raw['rss_mb']:.0f} MB",
                        ours["ms"] / raw["ms"], "report", None))
        lat = anyio.run(_stdio, root, files)
        ping = median(lat.pop("ping"))
        for name, values in lat.items():
            p95 = percentile(values, 0.95)
            rows.append(Row(f"{name}, {total:,} threads (stdio)", f"p50 {median(values):.2f} / p95 {p95:.2f} ms",
                            f"ping p50 {ping:.2f} ms", p95 / ping, "p95 ≤ 2×", p95 / ping <= 2))
    return rows


if __name__ == "__main__":
    for r in main():
        print(r.markdown())
