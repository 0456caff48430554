"""Tool latency over stdio: limpet's tools against no-op requests measured in the same run.

References: `ping` to the same limpet server (a no-op request of the same server) and a
no-op tool on a bare server of the same MCP SDK (benchmarks/_noop_server.py).
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from ._common import Row, make_workspace, median, percentile
from ._rawclient import RawClient

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


async def _time_interleaved(calls: dict[str, Callable[[int], Awaitable[Any]]], n: int) -> dict[str, list[float]]:
    """Round-robin over `calls` (the reference among them): on a noisy machine every workload
    sees the same moments of load, so their ratio stays meaningful."""
    for i in range(20):
        for fn in calls.values():
            await fn(i)
    out: dict[str, list[float]] = {name: [] for name in calls}
    for i in range(n):
        for name, fn in calls.items():
            t0 = time.perf_counter()
            await fn(i)
            out[name].append((time.perf_counter() - t0) * 1000)
    return out


def _time_sync(calls: dict[str, Callable[[int], Any]], n: int) -> dict[str, list[float]]:
    """_time_interleaved for the synchronous raw client."""
    for i in range(20):
        for fn in calls.values():
            fn(i)
    out: dict[str, list[float]] = {name: [] for name in calls}
    for i in range(n):
        for name, fn in calls.items():
            t0 = time.perf_counter()
            fn(i)
            out[name].append((time.perf_counter() - t0) * 1000)
    return out


def _file(i: int, files: int) -> str:
    return f"src/pkg{(i % files) // 50}/mod_{i % files}.py"


PING = "ping (same server)"


def tool_calls(s: Any, ids: list[str], files: int, tools: set[str]) -> dict[str, Callable[[int], Any]]:
    """The measured workloads, keyed by row name (PING: the reference). `s` is a RawClient or
    an SDK ClientSession (their calls are spelled alike but for ping)."""
    step = max(1, len(ids) // 400)
    ping = s.ping if isinstance(s, RawClient) else s.send_ping
    calls: dict[str, Callable[[int], Any]] = {
        PING: lambda i: ping(),
        "comment_show": lambda i: s.call_tool("comment_show", {"thread_id": ids[(i * step) % len(ids)]}),
        "comment_list(file)": lambda i: s.call_tool("comment_list", {"file": _file(i, files)}),
    }
    if "get_file_comments" in tools:
        calls["get_file_comments"] = lambda i: s.call_tool("get_file_comments", {"filePath": _file(i, files)})
    if "search_comments" in tools:
        calls["search_comments"] = lambda i: s.call_tool(
            "search_comments", {"query": f"handler {i % files}\\.", "limit": 100})
    return calls


def limpet_serve(ws: Path) -> list[str]:
    return [*_limpet_argv(), "serve", "--workspace", str(ws)]


async def _sdk(ws: Path, ids: list[str], files: int, n: int) -> dict[str, list[float]]:
    async with _session(limpet_serve(ws), ws) as s:
        tools = {t.name for t in (await s.list_tools()).tools}
        return await _time_interleaved(tool_calls(s, ids, files, tools), n)


def measure(files: int = 300, per_file: int = 10, n: int = 400) -> dict[str, dict[str, list[float]]]:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        ids = make_workspace(ws, files, per_file)
        with RawClient([sys.executable, str(HERE / "_noop_server.py")], ws) as bare:
            noop = _time_sync({"noop": lambda i: bare.call_tool("noop", {})}, n)["noop"]
        with RawClient(limpet_serve(ws), ws) as c:
            tools = {t["name"] for t in c.request("tools/list")["tools"]}
            raw = _time_sync(tool_calls(c, ids, files, tools), n)
        sdk = anyio.run(_sdk, ws, ids, files, n)
        return {"raw": raw, "sdk": sdk, "noop": {"noop": noop}}


def rows(results: dict[str, dict[str, list[float]]], threads: int) -> list[Row]:
    raw, sdk = results["raw"], results["sdk"]
    ping, sdk_ping = median(raw[PING]), median(sdk[PING])
    bare = median(results["noop"]["noop"])
    out = [Row("ping to the limpet server (stdio, raw client) — the reference", f"p50 {ping:.2f} ms", "—", None,
               "—", None),
           Row("no-op tool of a bare SDK server (stdio, raw client) — for scale", f"p50 {bare:.2f} ms",
               f"ping p50 {ping:.2f} ms", bare / ping, "report", None)]
    for name, values in raw.items():
        if name == PING:
            continue
        p50, p95 = median(values), percentile(values, 0.95)
        out.append(Row(f"{name}, {threads:,} threads (stdio, raw client) vs ping", f"p50 {p50:.2f} / p95 {p95:.2f} ms",
                       f"ping p50 {ping:.2f} ms", p95 / ping, "p95 ≤ 2×", p95 / ping <= 2))
    for name, values in sdk.items():
        if name == PING:
            continue
        p50, p95 = median(values), percentile(values, 0.95)
        out.append(Row(f"{name}, SDK ClientSession (validates each result) vs its ping",
                       f"p50 {p50:.2f} / p95 {p95:.2f} ms", f"ping p50 {sdk_ping:.2f} ms", p95 / sdk_ping, "report",
                       None))
    return out


def main() -> list[Row]:
    return rows(measure(), 3000)


if __name__ == "__main__":
    for r in main():
        print(r.markdown())
