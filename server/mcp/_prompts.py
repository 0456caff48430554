"""prompts/list and prompts/get over MCP.

Prompts are declared in limpet.prompts and filled by the service (Service.prompt); this
module only lists them and translates errors: a failed prompts/get is a JSON-RPC error whose
code is the error's seed-004 number (-32602 invalid params, -32001 file not found, ...) and
whose data is the contract's error dict.
"""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING, Any

import mcp_types as types
from mcp.shared.exceptions import MCPError

from limpet.model import InternalError, LimpetError
from limpet.server.mcp._app import McpApp
from limpet.server.operations import tool_specs

if TYPE_CHECKING:
    from limpet.prompts import PromptSpec, ToolSpec

__all__ = ["install_prompts", "prompt_listing"]

log = logging.getLogger("limpet.mcp")


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


# The prompts (their templates, and the engine they list code with) load when a client first
# lists or asks for one, not before the server can answer tools/list: most sessions never do.
@functools.cache
def _listing() -> list[types.Prompt]:
    from limpet.prompts import PROMPTS

    return [prompt_listing(spec) for spec in PROMPTS.values()]


def _rpc_error(exc: LimpetError) -> MCPError:
    return MCPError(code=exc.rpc_code, message=exc.message, data=exc.to_dict())


def install_prompts(app: McpApp) -> None:
    tools: dict[str, ToolSpec] = {}  # the exposed tools as prompts describe them, made once

    async def list_prompts(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        try:
            return types.ListPromptsResult(prompts=_listing())
        except Exception:  # the prompts could not load: a typed error, never a traceback
            log.exception("listing the prompts failed")
            raise _rpc_error(InternalError("Internal error listing the prompts")) from None

    def render(name: str, arguments: dict[str, str] | None) -> tuple[PromptSpec, str]:
        from limpet.prompts import prompt_spec

        spec = prompt_spec(name)
        if not tools:
            tools.update(tool_specs(app.ops.values()))
        return spec, app.service.prompt(spec.name, arguments, tools)

    async def get_prompt_handler(_ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        try:
            spec, text = await app.run_sync(lambda: render(params.name, params.arguments))
        except LimpetError as exc:
            raise _rpc_error(exc) from None
        except Exception:  # a bug, or the prompts could not load: never kill the server or leak a traceback
            log.exception("prompt %s failed", params.name)
            raise _rpc_error(InternalError(f"Internal error in prompt {params.name}")) from None
        return types.GetPromptResult(
            description=spec.description,
            messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))],
        )

    app.handlers["on_list_prompts"] = list_prompts
    app.handlers["on_get_prompt"] = get_prompt_handler
