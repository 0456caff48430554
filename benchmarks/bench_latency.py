"""Tool latency over stdio: limpet's tools against no-op requests measured in the same run.

References: `ping` to the same limpet server (a no-op request of the same server) and a
no-op tool on a bare server of the same MCP SDK (benchmarks/_noop_server.py).
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from ._common import Row, make_workspace, median, percentile

HERE = Path(__file__).resolve().parent


def _limpet_argv() -> list[str]:
    exe = Path(sys.executable).with_name("limpet")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "limpet.server"]


@contextlib.asynccontextmanager
async def _session(argv: list[str], cwd: Path):
    params = StdioServerParameters(command=argv[0], args=argv[1:], cwd=str(cwd))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def _time(fn, n: int) -> list[float]:
    for _ in range(min(20, n)):
        await fn(0)
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        await fn(i)
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def measure(files: int = 300, per_file: int = 10, n: int = 400) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        ids = make_workspace(ws, files, per_file)
        results: dict[str, list[float]] = {}
        async with _session([sys.executable, str(HERE / "_noop_server.py")], ws) as bare:
            results["bare SDK no-op tool"] = await _time(lambda i: bare.call_tool("noop", {}), n)
        async with _session([*_limpet_argv(), "serve", "--workspace", str(ws)], ws) as s:
            tools = {t.name for t in (await s.list_tools()).tools}
            results["ping (same server)"] = await _time(lambda i: s.send_ping(), n)
            step = max(1, len(ids) // n)
            results["comment_show"] = await _time(
                lambda i: s.call_tool("comment_show", {"thread_id": ids[(i * step) % len(ids)]}), n)
            results["comment_list(file)"] = await _time(
                lambda i: s.call_tool("comment_list", {"file": f"src/pkg{(i % files) // 50}/mod_{i % files}.py"}), n)
            if "get_file_comments" in tools:
                results["get_file_comments"] = await _time(
                    lambda i: s.call_tool("get_file_comments",
                                          {"filePath": f"src/pkg{(i % files) // 50}/mod_{i % files}.py"}), n)
            if "search_comments" in tools:
                results["search_comments"] = await _time(
                    lambda i: s.call_tool("search_comments", {"query": f"handler {i % files}\\.", "limit": 100}), n)
        return results


def rows(results: dict[str, list[float]], threads: int) -> list[Row]:
    ping = median(results["ping (same server)"])
    bare = median(results["bare SDK no-op tool"])
    out = [Row("no-op tool call, bare SDK server (stdio) — reference", f"p50 {bare:.2f} ms", "—", None, "—", None)]
    for name, values in results.items():
        if name in ("ping (same server)", "bare SDK no-op tool"):
            continue
        p50, p95 = median(values), percentile(values, 0.95)
        out.append(Row(f"{name}, {threads:,} threads (stdio) vs ping", f"p50 {p50:.2f} / p95 {p95:.2f} ms",
                       f"ping p50 {ping:.2f} ms", p95 / ping, "p95 ≤ 2×", p95 / ping <= 2))
        out.append(Row(f"{name} vs bare-SDK no-op tool", f"p50 {p50:.2f} / p95 {p95:.2f} ms",
                       f"no-op p50 {bare:.2f} ms", p95 / bare, "p95 ≤ 2×", p95 / bare <= 2))
    return out


def main() -> list[Row]:
    results = anyio.run(measure)
    return rows(results, 3000)


if __name__ == "__main__":
    for r in main():
        print(r.markdown())
