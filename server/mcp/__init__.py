"""limpet.server.mcp: the MCP door, over stdio or (inside limpet.server.http) Streamable HTTP.

    build_mcp(service, groups)   the server: tools from the operation registry, comment:// and
                                 export:// resources with live subscriptions, review://current,
                                 the prompts
    serve_stdio(workspace)       `limpet serve`: MCP over stdio
    host_config(host, ...)       the snippet each MCP host's config file takes for limpet
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from limpet.model import Deferred

if TYPE_CHECKING:
    from limpet.server.mcp._app import McpApp, error_result
    from limpet.server.mcp._build import build_mcp
    from limpet.server.mcp._hosts import HOSTS, TOKEN_ENV, HostConfig, host_config
    from limpet.server.mcp._stdio import serve_stdio

__all__ = ["HOSTS", "TOKEN_ENV", "HostConfig", "McpApp", "build_mcp", "error_result", "host_config", "serve_stdio"]


# The MCP SDK takes ~0.4 s to import; `limpet mcp-config` and the other one-shot commands
# need only the host table, so the SDK-backed names load on first use; `limpet serve` needs
# no host table (nor its TOML writer).
def _load_hosts() -> ModuleType:
    from limpet.server.mcp import _hosts
    return _hosts


def _load_app() -> ModuleType:
    from limpet.server.mcp import _app
    return _app


def _load_build() -> ModuleType:
    from limpet.server.mcp import _build
    return _build


def _load_stdio() -> ModuleType:
    from limpet.server.mcp import _stdio
    return _stdio


__getattr__ = _DEFERRED = Deferred(globals(), {
    _load_hosts: ("HOSTS", "TOKEN_ENV", "HostConfig", "host_config"),
    _load_app: ("McpApp", "error_result"),
    _load_build: ("build_mcp",),
    _load_stdio: ("serve_stdio",),
})
__dir__ = _DEFERRED.dir
