"""The web page's JSON API under /api. Every route delegates to the service through `invoke`
(or, for what is not a tool, a public service method), on the MCP door's worker, so one
request at a time touches the service, whichever door it came through.

    POST /api/ops/{operation}  any operation; body = its arguments → {"result": {...}}
    GET  /api/files            workspace files with thread counts and health, in path order, a
                               page at a time: ?limit= (default 1000, at most 1000) &cursor=
                               (the nextCursor of the previous page); ?path=P (repeatable):
                               just those files; ?threaded=1: just the files with threads.
                               Counts as last anchored: never waits for re-anchoring
    GET  /api/file?path=       one file's text (same path rules as the tools)
    GET  /api/review           the current review, references re-anchored
    POST /api/selection        the page reports its selection (get_selection reads it)
    GET  /api/events           Server-Sent Events: `change` {"files", "saved", "store", "review"}
    GET  /api/info             workspace name, default author, tool groups, tags, statuses, open event streams
    (/api/view, /api/summary, /api/review/view: the page's rendered views, _page_api.py)

Errors are {"error": {code, message, field, details, suggestion}} with an HTTP status.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from limpet.model import STATUSES, TAGS, InternalError, InvalidArgument, LimpetError
from limpet.server.core import local_author
from limpet.server.http._events import EventHub
from limpet.server.http._security import is_json_media_type
from limpet.server.mcp import McpApp
from limpet.server.operations import MAX_PAGE, cursor_key, invoke, key_cursor, page_limit

__all__ = ["api_routes", "error_response", "guarded", "json_response", "read_json", "run"]

log = logging.getLogger("limpet.http")


def json_response(data: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status_code=status, media_type="application/json",
                     headers={"cache-control": "no-store"})


def error_response(exc: LimpetError) -> Response:
    return json_response({"error": exc.to_dict()}, exc.http_status)


async def read_json(request: Request) -> Any:
    """The request's JSON body ({} when empty); INVALID_ARGUMENT when it is not JSON."""
    if not is_json_media_type(request.headers.get("content-type", "")):
        # application/json cannot be sent cross-origin without a CORS preflight (_security.py).
        raise InvalidArgument("Content-Type must be application/json", field="body")
    body = await request.body()
    if not body.strip():
        return {}
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        raise InvalidArgument("Request body is not valid JSON", field="body") from None


async def run(mcp: McpApp, fn: Callable[[], Any]) -> Any:
    """Run service code on the MCP door's single worker; bugs become INTERNAL, no traceback."""
    try:
        return await mcp.run_sync(fn)
    except LimpetError:
        raise
    except Exception:
        log.exception("HTTP API call failed")
        raise InternalError("Internal error") from None


def guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except LimpetError as exc:
            return error_response(exc)

    return endpoint


FILES_PAGE = MAX_PAGE


def api_routes(mcp: McpApp, hub: EventHub) -> list[Route]:
    svc = mcp.service

    async def op(request: Request) -> Response:
        name = request.path_params["operation"]
        args = await read_json(request)
        op_, result = await run(mcp, lambda: invoke(svc, name, args))
        return json_response({"result": op_.structured_content(result)})

    async def files(request: Request) -> Response:
        query = request.query_params
        cursor, paths = query.get("cursor"), query.getlist("path")
        after = cursor_key(cursor, (str,))[0] if cursor else None
        limit = page_limit(query.get("limit"), FILES_PAGE)
        if len(paths) > MAX_PAGE:
            raise InvalidArgument(f"at most {MAX_PAGE} paths at once", field="path", details={"count": len(paths)})
        tree = await run(mcp, lambda: svc.file_tree(after=after, limit=limit, only=paths or None,
                                                    threaded=query.get("threaded") == "1"))
        more = tree.pop("more")
        return json_response({**tree, "nextCursor": key_cursor((tree["files"][-1]["path"],)) if more else None})

    async def file(request: Request) -> Response:
        path = request.query_params.get("path", "")
        return json_response(await run(mcp, lambda: svc.source(path)))

    async def review(request: Request) -> Response:
        return json_response(await run(mcp, svc.current_review))

    async def selection(request: Request) -> Response:
        body = await read_json(request)
        return json_response(await run(mcp, lambda: svc.report_selection(body)))

    async def events(request: Request) -> Response:
        return StreamingResponse(hub.stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    async def info(request: Request) -> Response:
        return json_response({"workspace": svc.workspace_name, "root": str(svc.root), "author": local_author(),
                              "groups": sorted({o.group for o in mcp.ops.values()}), "tags": list(TAGS),
                              "statuses": list(STATUSES),
                              "streams": hub.streams})

    return [
        Route("/api/ops/{operation}", guarded(op), methods=["POST"]),
        Route("/api/files", guarded(files), methods=["GET"]),
        Route("/api/file", guarded(file), methods=["GET"]),
        Route("/api/review", guarded(review), methods=["GET"]),
        Route("/api/selection", guarded(selection), methods=["POST"]),
        Route("/api/events", events, methods=["GET"]),
        Route("/api/info", guarded(info), methods=["GET"]),
    ]
