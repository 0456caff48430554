"""One MCP server over one service: the tools, then resources, prompts and the review resource."""

from __future__ import annotations

from limpet.server.core import Service
from limpet.server.mcp._app import McpApp
from limpet.server.mcp._prompts import install_prompts
from limpet.server.mcp._resources import install_resources
from limpet.server.mcp._review import install_review

__all__ = ["build_mcp"]


def build_mcp(service: Service, groups: set[str] | None = None) -> McpApp:
    """The server a door runs (stdio, or Streamable HTTP inside the HTTP app)."""
    app = McpApp(service, groups)
    install_resources(app)
    install_prompts(app)
    install_review(app)  # wraps the resource handlers installed before it
    return app
