"""The prompts door: prompts/list and prompts/get over MCP, and the service as a PromptSource.

Prompts are declared in limpet.prompts; this module only lists them, feeds them the
workspace (through the service) and translates errors: a failed prompts/get is a JSON-RPC
error whose code is the error's seed-004 number (-32602 invalid params, -32001 file not
found, ...) and whose data is the contract's error dict.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import mcp_types as types
from mcp.shared.exceptions import MCPError

from limpet.model import InternalError, LimpetError, Thread
from limpet.prompts import PROMPTS, PromptSpec, ToolSpec, get_prompt, prompt_spec
from limpet.server._paths import STORE_DIRNAME

if TYPE_CHECKING:
    from limpet.server._mcp import McpApp
    from limpet.server._operations import Operation
    from limpet.server._service import Service

__all__ = ["ServicePromptSource", "install", "prompt_listing"]

log = logging.getLogger("limpet.mcp")
OVERRIDES = "prompts"  # .limpet/prompts/NAME.md.j2


class ServicePromptSource:
    """limpet.prompts.PromptSource over the one service and the operations a door exposes."""

    def __init__(self, service: Service, ops: Mapping[str, Operation]) -> None:
        self.service = service
        self.ops = ops
        self._index_synced = False

    @property
    def workspace_name(self) -> str:
        return self.service.ws.root.name

    @property
    def templates_dir(self) -> Path:
        return self.service.ws.root / STORE_DIRNAME / OVERRIDES

    def normalize(self, path: str, field: str = "filePath") -> str:
        return self.service.normalize(path, field)

    def read_source(self, rel: str, field: str = "filePath") -> bytes:
        return self.service.read_source(rel, field)

    def threads(self) -> Sequence[Thread]:
        return self.service.threads()

    def tool(self, name: str) -> ToolSpec | None:
        op = self.ops.get(name)
        return ToolSpec.from_schema(op.name, op.description, op.input_schema()) if op else None

    @property
    def default_context_lines(self) -> int:
        from limpet.exporters import ExportOptions

        return ExportOptions().context_lines

    def training_record(self, thread: Thread, context_lines: int) -> dict[str, Any]:
        import io

        import orjson

        from limpet.exporters import ExportItem, ExportOptions, get_exporter

        current = self.service.ws.read_or_none(thread.anchor.file)  # gone: the exporter handles None
        buffer = io.BytesIO()
        options = ExportOptions(context_lines=context_lines, include_source_context=context_lines > 0)
        get_exporter("jsonl").write([ExportItem(thread, self.workspace_name, current)], buffer, options)
        return orjson.loads(buffer.getvalue().splitlines()[0])

    def orphan_candidates(self, thread: Thread, k: int) -> Sequence[Any]:
        from limpet.anchoring import orphan_candidates

        reconciler, ws = self.service.reconciler, self.service.ws
        if not self._index_synced:  # once per prompt: the index learns files changed since
            reconciler.index.update(reconciler.hashes.workspace_hashes(), ws.read_or_none)
            self._index_synced = True
        return orphan_candidates(thread.anchor, ws.read_or_none(thread.anchor.file), reconciler.index, k=k)


def prompt_listing(spec: PromptSpec) -> types.Prompt:
    """prompts/list entry: seed 004's arguments; defaults and allowed values are in each
    description (PromptArgument has no field for them) and, typed, in `_meta`."""
    return types.Prompt(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        arguments=[types.PromptArgument(name=a.name, description=a.full_description(), required=a.required)
                   for a in spec.args],
        meta={"limpet/arguments": {a.name: a.schema() for a in spec.args}},
    )


def install(app: McpApp) -> None:
    listing = [prompt_listing(spec) for spec in PROMPTS.values()]

    async def list_prompts(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=listing)

    async def get_prompt_handler(_ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        try:
            spec = prompt_spec(params.name)
            source = ServicePromptSource(app.service, app.ops)
            text = await app.run_sync(lambda: get_prompt(source, spec.name, params.arguments))
        except LimpetError as exc:
            raise MCPError(code=exc.rpc_code, message=exc.message, data=exc.to_dict()) from None
        except Exception:  # a bug must not kill the server or leak a traceback
            log.exception("prompt %s failed", params.name)
            exc = InternalError(f"Internal error in prompt {params.name}")
            raise MCPError(code=exc.rpc_code, message=exc.message, data=exc.to_dict()) from None
        return types.GetPromptResult(
            description=spec.description,
            messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))],
        )

    app.handlers["on_list_prompts"] = list_prompts
    app.handlers["on_get_prompt"] = get_prompt_handler
