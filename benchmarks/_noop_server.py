"""The reference: a bare MCP server of the same SDK with one no-op tool, over stdio.

With a path argument it also has `echo`, which answers every call with that file's JSON as
structured content and as text: what carrying a given result costs the SDK and the pipe
alone (bench_scale compares a 100-thread page against it)."""

from __future__ import annotations

import json
import sys

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server

TOOL = types.Tool(name="noop", description="does nothing", input_schema={"type": "object", "properties": {}})


ECHO = types.Tool(name="echo", description="answers with a fixed result", input_schema={"type": "object"})
PAYLOAD: dict = {}  # the echo's result, read from the path argument when run as a script


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[TOOL, ECHO])


async def call_tool(ctx, params):
    result = PAYLOAD if params.name == "echo" else {}
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(result))],
                                structured_content=result)


async def main() -> None:
    server = Server("noop", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    if len(sys.argv) > 1:
        PAYLOAD = json.loads(open(sys.argv[1], "rb").read())
    anyio.run(main)
