"""prompts/list and prompts/get over MCP.

Prompts are declared in limpet.prompts and filled by the service (Service.prompt); this
module only lists them and translates errors: a failed prompts/get is a JSON-RPC error whose
code is the error's seed-004 number (-32602 invalid params, -32001 file not found, ...) and
whose data is the contract's error dict.
"""

from __future__ import annotations

import logging
from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError

from limpet.model import InternalError, LimpetError
from limpet.prompts import PROMPTS, PromptSpec, prompt_spec
from limpet.server.mcp._app import McpApp
from limpet.server.operations import tool_specs

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


def install_prompts(app: McpApp) -> None:
    listing = [prompt_listing(spec) for spec in PROMPTS.values()]
    tools = tool_specs(app.ops.values())

    async def list_prompts(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=listing)

    async def get_prompt_handler(_ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        try:
            spec = prompt_spec(params.name)
            text = await app.run_sync(lambda: app.service.prompt(spec.name, params.arguments, tools))
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
