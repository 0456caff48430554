"""limpet.server.mcp: the MCP door, over stdio or (inside limpet.server.http) Streamable HTTP.

    build_mcp(service, groups)   the server: tools from the operation registry, comment:// and
                                 export:// resources with live subscriptions, review://current,
                                 the prompts
    serve_stdio(workspace)       `limpet serve`: MCP over stdio
    host_config(host, ...)       the snippet each MCP host's config file takes for limpet
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from limpet.server.mcp._hosts import HOSTS, TOKEN_ENV, HostConfig, host_config

if TYPE_CHECKING:
    from limpet.server.mcp._app import McpApp, error_result
    from limpet.server.mcp._build import build_mcp
    from limpet.server.mcp._stdio import serve_stdio

__all__ = ["HOSTS", "TOKEN_ENV", "HostConfig", "McpApp", "build_mcp", "error_result", "host_config", "serve_stdio"]


def __getattr__(name: str) -> Any:
    # The MCP SDK takes ~0.4 s to import; `limpet mcp-config` and the other one-shot commands
    # need only the host table, so the SDK-backed names load on first use.
    if name in ("McpApp", "error_result"):
        from limpet.server.mcp import _app
        return getattr(_app, name)
    if name == "build_mcp":
        from limpet.server.mcp._build import build_mcp
        return build_mcp
    if name == "serve_stdio":
        from limpet.server.mcp._stdio import serve_stdio
        return serve_stdio
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
