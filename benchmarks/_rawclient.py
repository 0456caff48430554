"""A minimal synchronous MCP client over stdio: newline-delimited JSON-RPC on two pipes.

It measures the server, not a client library: a request is written, the response line is
read and parsed, and nothing else happens (the SDK's ClientSession also validates every
result with pydantic and jsonschema, which is the client's cost and is reported apart).
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import orjson

PROTOCOL = "2025-06-18"
READ_BUFFER = 1 << 20


class RawClient:
    def __init__(self, argv: list[str], cwd: Path) -> None:
        # A large read buffer: a response of hundreds of threads (a reconcile's: ~0.8 MB) is read
        # as the pipe delivers it, not in 8 KB pieces (hosts read 64 KB and more at a time).
        self.proc = subprocess.Popen(argv, cwd=str(cwd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=READ_BUFFER)
        self._out = self.proc.stdout
        self._next = 0
        self.received_at = 0.0
        self.request("initialize", {"protocolVersion": PROTOCOL, "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "0"}})
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(orjson.dumps(message) + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any] | None = None) -> Any:
        self._next += 1
        self._send({"jsonrpc": "2.0", "id": self._next, "method": method, "params": params or {}})
        while True:  # skip notifications the server may send in between
            line = self._out.readline()
            self.received_at = time.perf_counter()  # the response's last byte is here (then parsed)
            if not line:
                raise RuntimeError("server closed stdout")
            message = orjson.loads(line)
            if message.get("id") == self._next:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message["result"]

    def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        result = self.request("tools/call", {"name": name, "arguments": arguments})
        if result.get("isError"):
            raise RuntimeError(result)
        return result

    def ping(self) -> Any:
        return self.request("ping")

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self) -> RawClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
