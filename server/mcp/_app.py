"""The MCP server: tools generated from the operation registry, over one service.

Tools are listed from the registry (input schema = the operation's argument model, output
schema = its result model, annotations from its flags) and every call goes through
`invoke`, so validation and errors are exactly those of the CLI and the HTTP API. A failed
call is a tool result with `isError: true` and `{"error": {...}}` as structured content.

Resources, subscriptions and prompts are installed by `build_mcp` (_build.py): each adds
handlers to the same low-level server (see `McpApp.handlers`).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
import mcp_types as types
import orjson
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.shared.exceptions import MCPError

from limpet.model import InternalError, LimpetError
from limpet.server.core import Service
from limpet.server.mcp._payload import carry_payload, hand_over, hand_over_json
from limpet.server.operations import Encoded, Operation, invoke, json_text, operations_for

__all__ = ["McpApp", "error_result"]

log = logging.getLogger("limpet.mcp")
SERVER_NAME = "limpet"
INSTRUCTIONS = (
    "limpet keeps review threads attached to code. Start threads with comment_add (or add_comment), "
    "list them with comment_list / get_file_comments, reply, resolve with a decision. Positions are "
    "re-anchored automatically when code changes; health tells whether a thread still sits on its code."
)


def error_result(exc: LimpetError, text: Callable[[LimpetError], str] | None = None) -> types.CallToolResult:
    payload = {"error": exc.to_dict()}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text(exc) if text else orjson.dumps(payload).decode())],
        structured_content=payload,
        is_error=True,
    )


def _content_block(block: dict[str, Any]) -> Any:
    if block["type"] == "resource_link":
        return types.ResourceLink(type="resource_link", uri=block["uri"], name=block["name"],
                                  mime_type=block.get("mimeType"), size=block.get("size"),
                                  description=block.get("description"))
    return types.EmbeddedResource(type="resource", resource=types.TextResourceContents(
        uri=block["uri"], mime_type=block.get("mimeType"), text=block["text"]))


def _tool_of(op: Operation) -> types.Tool:
    return types.Tool(
        name=op.name,
        title=op.title,
        description=op.description,
        input_schema=op.input_schema(),
        output_schema=op.output_schema(),
        annotations=types.ToolAnnotations(
            title=op.title,
            read_only_hint=op.read_only,
            destructive_hint=op.destructive,
            idempotent_hint=op.idempotent,
            open_world_hint=False,
        ),
    )


class _Server(Server[Any]):
    """The SDK's server, advertising what limpet sends on every transport. The Streamable HTTP
    session manager answers `initialize` from `create_initialization_options()` called with no
    arguments (stdio passes its options itself), which would advertise
    `resources.listChanged: false` while list_changed notifications are sent."""

    def __init__(self, *args: Any, notification_options: NotificationOptions, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.notification_options = notification_options

    def create_initialization_options(self, notification_options: NotificationOptions | None = None,
                                      *args: Any, **kwargs: Any) -> Any:
        return super().create_initialization_options(notification_options or self.notification_options,
                                                     *args, **kwargs)


class McpApp:
    """One MCP server over one service; `handlers` collects the low-level callbacks."""

    def __init__(self, service: Service, groups: set[str] | None = None) -> None:
        self.service = service
        self.groups = groups
        self.ops = {op.name: op for op in operations_for(groups)}
        self.tools = [_tool_of(op) for op in self.ops.values()]
        # One worker at a time: the service is synchronous and keeps per-process caches.
        self.limiter = anyio.CapacityLimiter(1)
        self.handlers: dict[str, Any] = {"on_list_tools": self._list_tools, "on_call_tool": self._call_tool}
        self.lifespan_hooks: list[Callable[[McpApp], contextlib.AbstractAsyncContextManager[Any]]] = [
            _flush_when_idle
        ]
        self.last_call = time.monotonic()
        self.notification_options = NotificationOptions(resources_changed=True)
        # The transport's writer embeds pre-serialized structured content (stdio's OrjsonWrites):
        # a result written as JSON already (`Encoded`) then never becomes dicts.
        self.writes_serialized = False

    async def run_sync(self, fn: Callable[[], Any]) -> Any:
        return await anyio.to_thread.run_sync(fn, limiter=self.limiter)

    async def _invoke(self, op: Operation, arguments: Any) -> Any:
        if op.read_only and self.limiter.borrowed_tokens == 0:
            # Reads take microseconds: a worker-thread hop would cost more than the call.
            return invoke(self.service, op.name, arguments, encoded=True)[1]
        return (await self.run_sync(lambda: invoke(self.service, op.name, arguments, encoded=True)))[1]

    async def _list_tools(self, ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self.tools)

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        self.last_call = time.monotonic()
        op = self.ops.get(params.name)
        if op is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}",
                           data={"tool": params.name, "available": sorted(self.ops)})
        try:
            result = await self._invoke(op, params.arguments)
        except LimpetError as exc:
            return error_result(exc, op.error_text)
        except Exception:  # the door's last line: a bug must not kill the server or leak a traceback
            log.exception("tool %s failed", op.name)
            return error_result(InternalError(f"Internal error in {op.name}"))
        if type(result) is Encoded:
            if op.text is json_text and op.structured is None and op.extra_content is None:
                structured, text = hand_over_json(result.json, result.payload, embedded=self.writes_serialized)
                return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                            structured_content=structured)
            result = result.payload()
        structured, text = hand_over(op.structured_content(result), op.text(result),
                                     text_is_json=op.text_is_json(result))
        content: list[Any] = [types.TextContent(type="text", text=text)]
        if op.extra_content is not None:
            content.extend(_content_block(block) for block in op.extra_content(result))
        return types.CallToolResult(content=content, structured_content=structured)

    @contextlib.asynccontextmanager
    async def lifespan(self, _server: Server[Any]) -> AsyncIterator[dict[str, Any]]:
        async with contextlib.AsyncExitStack() as stack:
            for hook in self.lifespan_hooks:
                await stack.enter_async_context(hook(self))
            yield {"limpet": self}

    def lowlevel(self) -> Server[Any]:
        from importlib.metadata import PackageNotFoundError, version

        try:
            ver = version("limpet")
        except PackageNotFoundError:  # running from a source tree
            ver = "0"
        server = _Server(SERVER_NAME, version=ver, instructions=INSTRUCTIONS, lifespan=self.lifespan,
                         notification_options=self.notification_options, **self.handlers)
        server.middleware.append(carry_payload)  # innermost: it edits the wire dict the SDK made
        return server


IDLE_FLUSH_SECONDS = 0.5


@contextlib.asynccontextmanager
async def _flush_when_idle(app: McpApp) -> AsyncIterator[None]:
    """Write staged re-anchoring results when no tool call came for a moment, and on exit."""

    async def loop() -> None:
        while True:
            await anyio.sleep(IDLE_FLUSH_SECONDS)
            if app.service.pending_writes and time.monotonic() - app.last_call >= IDLE_FLUSH_SECONDS:
                await app.run_sync(app.service.flush)

    async with anyio.create_task_group() as tg:
        tg.start_soon(loop)
        try:
            yield
        finally:
            tg.cancel_scope.cancel()
            with anyio.CancelScope(shield=True):
                await app.run_sync(app.service.flush)


