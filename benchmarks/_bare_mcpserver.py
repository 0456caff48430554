"""Cold-start reference: a bare MCPServer (the SDK's high-level class) with one no-op tool."""

from mcp.server.mcpserver import MCPServer

server = MCPServer("bare")


@server.tool()
def noop() -> str:
    """Does nothing."""
    return "ok"


if __name__ == "__main__":
    server.run()
