"""A minimal synchronous LSP client over stdio (Content-Length framing on two pipes).

It measures the server, not a client library: a notification is written, messages are read
and parsed until the one awaited arrives; requests the server sends are answered with null.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson


class LspClient:
    def __init__(self, argv: list[str], root: Path, options: dict[str, Any] | None = None) -> None:
        self.proc = subprocess.Popen(argv, cwd=str(root), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self._next = 0
        self.request("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {},
                                    "initializationOptions": options or {}})
        self.notify("initialized", {})

    def _send(self, message: dict[str, Any]) -> None:
        body = orjson.dumps(message)
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("server closed stdout")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return orjson.loads(self.proc.stdout.read(length))

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        self._next += 1
        self._send({"jsonrpc": "2.0", "id": self._next, "method": method, "params": params})
        return self.until(lambda m: m.get("id") == self._next and "method" not in m).get("result")

    def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read messages until `wanted` accepts one (answering the server's own requests)."""
        while True:
            message = self._read()
            if "method" in message and "id" in message:
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            if wanted(message):
                return message

    def diagnostics(self, uri: str, version: int, accept: Callable[[list[Any]], bool] = lambda d: True) -> list[Any]:
        """The next publishDiagnostics of `uri` at `version` that `accept` accepts."""
        message = self.until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                             and m["params"]["uri"] == uri and m["params"].get("version") == version
                             and accept(m["params"]["diagnostics"]))
        return message["params"]["diagnostics"]

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except (RuntimeError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()

    def __enter__(self) -> LspClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
