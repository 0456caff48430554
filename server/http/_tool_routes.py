"""Plain JSON endpoints for tools (seed 003's), beside MCP Streamable HTTP at /mcp:

    GET|POST /mcp/initialize   server info + environment (JSON-RPC-shaped, id 0)
    GET|POST /mcp/status       running status + environment
    GET      /mcp/list_tools   array of {name, description, inputSchema, ...}
    POST     /mcp/{toolName}   body = the arguments, or JSON-RPC {"params": {"arguments": {...}}}
                               → {"status": <the tool's text block>, "error": null}
                               | {"status": null, "error": "CODE: message", "errorDetails": {...}}

The same tools as MCP (the same `--tools` groups), through the same `invoke`. A tool's own
failure is a 200 with `error` set (the call was served); a request that names no tool or
is not JSON (its Content-Type must be application/json) is a 4xx with the same shape, and
a browser request from any other origin (another port of localhost included) a 403 (the
gate's rule for every state-changing request, _security.py).
"""

from __future__ import annotations

import os
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from limpet.model import InvalidArgument, LimpetError
from limpet.server.http._api import json_response, read_json, run
from limpet.server.mcp import McpApp
from limpet.server.operations import invoke

__all__ = ["tool_routes"]

PROTOCOL_VERSION = "2024-11-05"


def _reply(status: Any, error: LimpetError | str | None = None, http: int = 200) -> Response:
    if isinstance(error, LimpetError):
        return json_response({"status": None, "error": f"{error.code}: {error.message}",
                              "errorDetails": error.to_dict()}, http)
    return json_response({"status": status, "error": error}, http)


def tool_routes(mcp: McpApp, version: str) -> list[Route]:
    svc = mcp.service
    tools = [{"name": t.name, "title": t.title, "description": t.description, "inputSchema": t.input_schema,
              "outputSchema": t.output_schema} for t in mcp.tools]

    async def environment() -> dict[str, Any]:
        state = await run(mcp, svc.selection)
        active = state.get("active_file") or (state.get("selection") or {}).get("file")
        return {"workspaceRoot": str(svc.root), "activeFile": active, "currentDirectory": os.getcwd(),
                "openFiles": [active] if active else []}

    async def initialize(request: Request) -> Response:
        env = await environment()
        env.pop("openFiles")
        result = {"protocolVersion": PROTOCOL_VERSION,
                  "capabilities": {"tools": {"listChanged": False}, "resources": {}},
                  "serverInfo": {"name": "limpet", "version": version}, "environment": env}
        return json_response({"jsonrpc": "2.0", "id": 0, "result": result})

    async def status(request: Request) -> Response:
        result = {"status": "running", "environment": await environment()}
        return json_response({"jsonrpc": "2.0", "id": 0, "result": result})

    async def list_tools(request: Request) -> Response:
        return json_response(tools)

    async def call(request: Request) -> Response:
        name = request.path_params["tool"]
        op = mcp.ops.get(name)
        if op is None:
            return _reply(None, f"Unknown tool: {name}", 404)
        try:
            # JSON only: a form or text/plain body is what a page elsewhere can send without a
            # CORS preflight; application/json cannot be.
            args = _arguments(await read_json(request))
            _, result = await run(mcp, lambda: invoke(svc, name, args))
        except InvalidArgument as exc:
            return _reply(None, exc, 400 if exc.field == "body" else 200)
        except LimpetError as exc:
            return _reply(None, exc)
        return _reply(op.text(result))

    return [
        Route("/mcp/initialize", initialize, methods=["GET", "POST"]),
        Route("/mcp/status", status, methods=["GET", "POST"]),
        Route("/mcp/list_tools", list_tools, methods=["GET", "POST"]),
        Route("/mcp/{tool}", call, methods=["POST"]),
    ]


def _arguments(body: Any) -> Any:
    """Plain arguments, or a JSON-RPC 2.0 envelope carrying them in params.arguments."""
    if not isinstance(body, dict):
        raise InvalidArgument("The body must be a JSON object (the arguments, or JSON-RPC 2.0)", field="body")
    if body.get("jsonrpc") != "2.0":
        return body
    params = body.get("params", {})
    if not isinstance(params, dict):
        raise InvalidArgument("JSON-RPC params must be an object", field="body")
    if "arguments" in params:
        return params["arguments"]
    return {k: v for k, v in params.items() if k not in ("name", "_meta")}
