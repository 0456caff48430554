"""What the torture tests share: a raw JSON-RPC client for `limpet serve` over stdio, store
snapshots, and the figures the suite reports (see docs/torture.md).

The client speaks newline-delimited JSON-RPC to a real server subprocess, so a test sees
exactly what goes over the wire (no client-side validation hides a bad answer), and every
wait has a timeout: a hang is a failure, never a stuck CI job.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
from pathlib import Path
from typing import Any

from support import limpet_argv

__all__ = ["RpcServer", "store_snapshot", "TRACEBACK_MARKS", "KNOWN_CODES"]

# What a leaked Python traceback looks like in a text.
TRACEBACK_MARKS = ("Traceback (most recent call last)", 'File "/', "  File \"")
# The contract's error codes (model/_errors.py); INTERNAL (a bug) is deliberately absent.
KNOWN_CODES = {"INVALID_ARGUMENT", "INVALID_PATH", "FILE_NOT_FOUND", "THREAD_NOT_FOUND", "INVALID_ANCHOR",
               "PARSE_ERROR", "LOCK_TIMEOUT", "STORE_CORRUPTED", "STORE_TOO_NEW", "STORAGE_FAILED", "STORE_ERROR"}


class RpcServer:
    """`limpet serve --workspace DIR` as a subprocess, driven line by line over its stdio."""

    def __init__(self, workspace: Path, *extra: str, env: dict[str, str] | None = None,
                 timeout: float = 60, preexec: Any = None) -> None:
        self.timeout = timeout
        self.stderr_path = workspace.parent / f"server-stderr-{os.getpid()}-{id(self)}.log"
        self._stderr = open(self.stderr_path, "wb")  # a file, not a pipe: it can never fill up
        self.proc = subprocess.Popen(
            [*limpet_argv(), "serve", "--workspace", str(workspace), *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, cwd=workspace,
            env={**os.environ, **(env or {})}, preexec_fn=preexec,  # preexec: e.g. resource limits
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._next_id = 0
        self.notifications: list[dict[str, Any]] = []
        init = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                           "clientInfo": {"name": "torture", "version": "1"}})
        assert "result" in init, init
        self.notify("notifications/initialized")
        self.tools = self.request("tools/list")["result"]["tools"]

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send_raw(json.dumps(message).encode())

    def request(self, method: str, params: Any = None) -> dict[str, Any]:
        """Send one request; return its response message (the raw line is in `last_raw`)."""
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send_raw(json.dumps(message).encode())
        return self.wait_for(self._next_id)

    def wait_for(self, request_id: int) -> dict[str, Any]:
        while True:
            try:
                line = self._lines.get(timeout=self.timeout)
            except queue.Empty:
                raise AssertionError(f"no answer to request {request_id} within {self.timeout}s (hang)") from None
            if line is None:
                raise AssertionError(f"server exited (code {self.proc.poll()}): {self.stderr()[-2000:]}")
            message = json.loads(line)
            if "id" in message and "method" not in message:
                # id null: the server could not read the request's id (a parse error), so it is ours
                assert message["id"] in (request_id, None), (message, request_id)
                self.last_raw = line
                return message
            self.notifications.append(message)

    def call(self, tool: str, arguments: Any) -> dict[str, Any]:
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def ok(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """structuredContent of a call that must succeed."""
        reply = self.call(tool, arguments)
        result = reply.get("result")
        assert result is not None and not result.get("isError"), reply
        return result["structuredContent"]

    def error(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The contract's error object of a call that must fail as a tool error."""
        reply = self.call(tool, arguments)
        result = reply.get("result")
        assert result is not None and result.get("isError"), reply
        return result["structuredContent"]["error"]

    def stderr(self) -> str:
        self._stderr.flush()
        return self.stderr_path.read_text(errors="replace")

    def close(self) -> None:
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(15)
        self._stderr.close()

    def __enter__(self) -> RpcServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# Derived state any read may refresh (positions, the threads as last read): rebuildable, never
# what a person or agent wrote. Whether a read saves them depends on timing (the thread cache
# keeps only files older than a few seconds), so "unchanged" cannot include them.
DERIVED = {"cache/threads.cache", "cache/derived.sqlite", "cache/derived.sqlite-wal", "cache/derived.sqlite-shm",
           "cache/derived.sqlite-journal"}


def store_snapshot(workspace: Path) -> dict[str, bytes]:
    """Every file under .limpet/ but the derived caches (relative path → bytes): what
    'unchanged' is checked against."""
    root = workspace / ".limpet"
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if rel not in DERIVED:
                out[rel] = path.read_bytes()
    return out
