"""The MCP resource `review://current`: the current review as JSON (Service.current_review).

An McpApp extension that wraps whatever resource handlers are already installed (the
workspace resources), so it adds one resource without knowing how the others are served.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
import orjson
from mcp.shared.exceptions import MCPError

from limpet.model import LimpetError
from limpet.server.mcp._app import McpApp

__all__ = ["REVIEW_URI", "install_review"]

REVIEW_URI = "review://current"
RESOURCE = types.Resource(
    uri=REVIEW_URI, name="current-review", title="Current review", mime_type="application/json",
    description="The review last presented with present_review: {content, updated_at, references: "
                "[{text, file, line, health}]}, each reference at its current, re-anchored line.",
)


def install_review(app: McpApp) -> None:
    if not any(op.group == "review" for op in app.ops.values()):
        return  # --tools without the review group: no review resource either
    previous_list = app.handlers.get("on_list_resources")
    previous_read = app.handlers.get("on_read_resource")

    async def list_resources(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        if previous_list is None:
            return types.ListResourcesResult(resources=[RESOURCE])
        result = await previous_list(ctx, params)
        if result.next_cursor is not None:  # only the last page gets our resource
            return result
        return result.model_copy(update={"resources": [*result.resources, RESOURCE]})

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        if str(params.uri) != REVIEW_URI:
            if previous_read is None:
                raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown resource: {params.uri}",
                               data={"uri": str(params.uri)})
            return await previous_read(ctx, params)
        try:
            review = await app.run_sync(app.service.current_review)
        except LimpetError as exc:  # as comment:// resources report them: the error object in `data`
            raise MCPError(code=types.INVALID_PARAMS, message=f"{exc.code}: {exc.message}",
                           data={"uri": REVIEW_URI, "error": exc.to_dict()}) from None
        text = orjson.dumps(review).decode()
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=REVIEW_URI, mime_type="application/json", text=text)])

    app.handlers["on_list_resources"] = list_resources
    app.handlers["on_read_resource"] = read_resource
