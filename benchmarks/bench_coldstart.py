"""Cold start: process spawn → first tools/list answer, limpet vs a bare MCPServer."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from ._common import Row, median

HERE = Path(__file__).resolve().parent


async def _spawn_to_list(argv: list[str], cwd: Path) -> float:
    params = StdioServerParameters(command=argv[0], args=argv[1:], cwd=str(cwd))
    t0 = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.list_tools()
        return (time.perf_counter() - t0) * 1000


def main(reps: int = 9) -> list[Row]:
    exe = Path(sys.executable).with_name("limpet")
    limpet = [str(exe)] if exe.exists() else [sys.executable, "-m", "limpet.server"]
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp)
        (ws / "a.py").write_text("def f():\n    return 1\n")
        ours, bare = [], []
        for _ in range(reps):  # interleaved so machine noise hits both alike
            bare.append(anyio.run(_spawn_to_list, [sys.executable, str(HERE / "_bare_mcpserver.py")], ws))
            ours.append(anyio.run(_spawn_to_list, [*limpet, "serve", "--workspace", str(ws)], ws))
    o, b = median(ours), median(bare)
    return [Row("cold start: spawn → first tools/list", f"{o:.0f} ms", f"bare MCPServer, one no-op tool {b:.0f} ms",
                o / b, "≤ 1.2×", o / b <= 1.2)]


if __name__ == "__main__":
    for r in main():
        print(r.markdown())
