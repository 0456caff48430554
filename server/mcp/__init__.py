"""limpet.server.mcp: the MCP door, over stdio or (inside limpet.server.http) Streamable HTTP.

    build_mcp(service, groups)   the server: tools from the operation registry, comment:// and
                                 export:// resources with live subscriptions, review://current,
                                 the prompts
    serve_stdio(workspace)       `limpet serve`: MCP over stdio
    host_config(host, ...)       the snippet each MCP host's config file takes for limpet
"""

from limpet.server.mcp._app import McpApp, error_result
from limpet.server.mcp._build import build_mcp
from limpet.server.mcp._hosts import HOSTS, TOKEN_ENV, HostConfig, host_config
from limpet.server.mcp._stdio import serve_stdio

__all__ = ["HOSTS", "TOKEN_ENV", "HostConfig", "McpApp", "build_mcp", "error_result", "host_config", "serve_stdio"]
