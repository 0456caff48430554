"""The limpet MCP server over stdio, each tool call answered from a memo of its first answer.

A reference for what a result's bytes cost on their own: the same server, SDK pipeline and
serialization, with no store work at all (bench_scale measures a 100-thread page with it).
Benchmark-only: the memo replaces the operations' entry point in this process."""

from __future__ import annotations

import sys
from typing import Any

import limpet.server.mcp._app as app
from limpet.server.mcp._stdio import serve_stdio

_invoke = app.invoke
_memo: dict[str, Any] = {}


def _remembered(service: Any, name: str, arguments: Any, **options: Any) -> Any:
    key = f"{name} {sorted((arguments or {}).items())!r} {sorted(options.items())!r}"
    if key not in _memo:
        _memo[key] = _invoke(service, name, arguments, **options)
    return _memo[key]


if __name__ == "__main__":
    app.invoke = _remembered
    serve_stdio(sys.argv[1])
