"""HTTP latency of comment_show against a no-op request of the same server, same run.

Two doors of one `limpet serve --http` process: MCP Streamable HTTP (official client;
reference: ping) and seed 003's plain POST /mcp/comment_show (httpx; reference:
GET /mcp/status, which does no service work).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
import httpx

from ._common import Row, make_workspace, median, percentile
from .bench_latency import _limpet_argv, _time_sync


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _server(ws: Path):
    port = _free_port()
    proc = subprocess.Popen([*_limpet_argv(), "serve", "--http", "--port", str(port), "--workspace", str(ws)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/mcp/status", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


async def _mcp_http(base: str, ids: list[str], n: int) -> tuple[list[float], list[float]]:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    from .bench_latency import _time_interleaved

    async with streamable_http_client(f"{base}/mcp") as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        out = await _time_interleaved({
            "ping": lambda i: s.send_ping(),
            "show": lambda i: s.call_tool("comment_show", {"thread_id": ids[i % len(ids)]})}, n)
        return out["show"], out["ping"]


def main(n: int = 300) -> list[Row]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        ids = make_workspace(ws, 300, 10)
        with _server(ws) as base, httpx.Client(base_url=base) as client:
            timed = _time_sync({"status": lambda i: client.get("/mcp/status"),
                                "plain": lambda i: client.post("/mcp/comment_show",
                                                               json={"thread_id": ids[i % len(ids)]})}, n)
            status, plain = timed["status"], timed["plain"]
            try:
                show, ping = anyio.run(_mcp_http, base, ids, n)
            except Exception as exc:  # the benchmark reports what it could measure
                print(f"MCP over HTTP failed: {exc!r}", file=sys.stderr)
                show, ping = [], []
        s50, p95 = median(status), percentile(plain, 0.95)
        rows.append(Row("comment_show, seed 003 POST /mcp/comment_show (3,000 threads)",
                        f"p50 {median(plain):.2f} / p95 {p95:.2f} ms", f"GET /mcp/status p50 {s50:.2f} ms",
                        p95 / s50, "p95 ≤ 2×", p95 / s50 <= 2))
        if show:
            q95, pm = percentile(show, 0.95), median(ping)
            rows.append(Row("comment_show, MCP Streamable HTTP (3,000 threads)",
                            f"p50 {median(show):.2f} / p95 {q95:.2f} ms", f"ping p50 {pm:.2f} ms", q95 / pm,
                            "p95 ≤ 2×", q95 / pm <= 2))
    return rows


if __name__ == "__main__":
    for r in main():
        print(r.markdown())
