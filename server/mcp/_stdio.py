"""MCP over stdio: what agents configure (`limpet serve --workspace DIR`)."""

from __future__ import annotations

import logging
from typing import Any

import anyio
import mcp_types as types

from limpet.server.core import Service, serving
from limpet.server.mcp._build import build_mcp
from limpet.server.mcp._payload import OrjsonWrites

__all__ = ["AnswerMalformed", "serve_stdio"]


def serve_stdio(workspace: str, groups: set[str] | None = None) -> None:
    from mcp.server.stdio import stdio_server

    # stdout belongs to the protocol: logs go to stderr, quietly.
    logging.basicConfig(level=logging.WARNING)
    serving()
    app = build_mcp(Service(workspace), groups)
    app.writes_serialized = True  # OrjsonWrites below
    server = app.lowlevel()

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            writes = OrjsonWrites(write_stream)
            await server.run(AnswerMalformed(read_stream, writes), writes,
                             server.create_initialization_options(app.notification_options))

    anyio.run(main)


class AnswerMalformed:
    """The stdio read stream, minus lines that are not JSON-RPC messages: each of those gets
    the standard error (-32700 parse error, -32600 invalid request; id null, as JSON-RPC 2.0
    says when the id cannot be read) instead of the SDK's silence, so a client never waits
    forever for an answer to a malformed request."""

    def __init__(self, inner: Any, write_stream: Any) -> None:
        self._inner = inner
        self._write = write_stream

    @property
    def last_context(self) -> Any:  # the SDK's context-carrying streams expose the sender's context
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        from mcp.shared.message import SessionMessage
        from pydantic import ValidationError

        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            unparsable = not isinstance(item, ValidationError) or item.errors()[0]["type"] == "json_invalid"
            error = (types.ErrorData(code=types.PARSE_ERROR, message="Parse error: not a JSON document")
                     if unparsable else
                     types.ErrorData(code=types.INVALID_REQUEST, message="Invalid request: not a JSON-RPC 2.0 message"))
            await self._write.send(SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=None, error=error)))

    def __aiter__(self) -> AnswerMalformed:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    def close(self) -> None:
        self._inner.close()

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> AnswerMalformed:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
