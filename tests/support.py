"""Test helpers shared by every test folder (importable as `support`; see pytest pythonpath)."""

from __future__ import annotations

import contextlib
import json
import shutil
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

SAMPLE = {
    "src/auth.py": (
        "import hashlib\n"
        "\n"
        "\n"
        "class AuthService:\n"
        "    \"\"\"Checks tokens.\"\"\"\n"
        "\n"
        "    def __init__(self, secret):\n"
        "        self.secret = secret\n"
        "\n"
        "    def validate_token(self, token):\n"
        "        if not token:\n"
        "            return False\n"
        "        digest = hashlib.sha256(token.encode()).hexdigest()\n"
        "        return digest == self.secret\n"
        "\n"
        "\n"
        "def helper(x):\n"
        "    return x * 2\n"
    ),
    "PLAN.md": "# Plan\n\nShip the piecewise model.\n\n## Risks\n\nLatency.\n",
    "src/app.ts": (
        "export class App {\n"
        "  start(port: number): void {\n"
        "    console.log(`listening on ${port}`);\n"
        "  }\n"
        "}\n"
        "\n"
        "export const add = (a: number, b: number) => a + b;\n"
    ),
    "main.go": (
        "package main\n"
        "\n"
        "type Server struct{ port int }\n"
        "\n"
        "func (s *Server) Start() error {\n"
        "\treturn nil\n"
        "}\n"
    ),
}


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


def limpet_argv() -> list[str]:
    """The installed console script next to this interpreter (what users and CI run)."""
    exe = Path(sys.executable).with_name("limpet")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("limpet")
    return [found] if found else [sys.executable, "-m", "limpet.server"]


@contextlib.asynccontextmanager
async def stdio_session(workspace: Path, *extra: str, message_handler=None, errlog=None) -> AsyncIterator[Any]:
    """The official MCP client connected over real stdio to `limpet serve --workspace DIR`
    (the server's stderr goes to `errlog`, a file, when one is given)."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    argv = limpet_argv()
    params = StdioServerParameters(
        command=argv[0], args=[*argv[1:], "serve", "--workspace", str(workspace), *extra], cwd=str(workspace)
    )
    async with stdio_client(params, **({"errlog": errlog} if errlog else {})) as (read, write):
        kwargs = {"message_handler": message_handler} if message_handler else {}
        async with ClientSession(read, write, **kwargs) as session:
            await session.initialize()
            yield session


async def call(session: Any, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any], Any]:
    """(is_error, structuredContent, parsed JSON of the first text block)."""
    res = await session.call_tool(tool, args)
    text = res.content[0].text if res.content else None
    parsed = json.loads(text) if text else None
    return bool(res.is_error), res.structured_content or {}, parsed


@contextlib.contextmanager
def http_server(workspace: Path, *, groups: set[str] | None = None, token: str | None = None,
                loopback: bool = True) -> Any:
    """limpet's HTTP app (MCP + seed 003 + API + page) on a free loopback port, in a thread.

    Yields the base URL (http://127.0.0.1:PORT); the server stops when the block ends."""
    import threading
    import time

    import uvicorn

    from limpet.server.core import Service
    from limpet.server.http import HttpServer, bind_socket, build_app
    from limpet.server.http._events import EventHub
    from limpet.server.mcp import build_mcp

    sock = bind_socket("127.0.0.1", 0)
    hub = EventHub()
    app = build_app(build_mcp(Service(workspace, lock_timeout=5), groups), loopback=loopback, token=token, hub=hub)
    server = HttpServer(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1), hub)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("limpet HTTP server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.stop()
        thread.join(15)
        sock.close()


def page_token(base: str, **headers: str) -> str:
    """The token the page reads from its own HTML: a state-changing call to /api carries it in
    X-Limpet-Token (without it the server refuses the call, as it refuses a foreign page's)."""
    import re

    import httpx

    html = httpx.get(f"{base}/", headers=headers).text
    found = re.search(r'<meta name="limpet-token" content="([^"]+)">', html)
    assert found, "the page carries no token"
    return found.group(1)


def api_post(base: str, path: str, args: Any) -> Any:
    """POST /api/... as the page does: JSON with the page's token."""
    import httpx

    return httpx.post(f"{base}{path}", json=args, headers={"x-limpet-token": page_token(base)})


def write_override(workspace, name, text):
    """A workspace override of prompt NAME (`.limpet/prompts/NAME.md.j2`)."""
    folder = workspace / ".limpet" / "prompts"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.md.j2"
    path.write_text(text)
    return path
