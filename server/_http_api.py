"""The web page's JSON API under /api. Every route delegates to the service through `invoke`
(or, for what is not an operation, the same service objects), on the MCP door's worker, so
one request at a time touches the service, whichever door it came through.

    POST /api/ops/{operation}  any operation; body = its arguments → {"result": {...}}
    GET  /api/files            workspace files with thread counts and health
    GET  /api/file?path=       one file's text (same path rules as the tools)
    GET  /api/review           the current review, references re-anchored
    POST /api/selection        the page reports its selection (get_selection reads it)
    GET  /api/events           Server-Sent Events: `change` {"files": [...]}
    GET  /api/info             workspace name, default author, tool groups

Errors are {"error": {code, message, field, details, suggestion}} with an HTTP status.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import BaseModel, Field, ValidationError
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from limpet.model import InternalError, InvalidArgument, LimpetError
from limpet.server import _review_store as reviews
from limpet.server._ids import local_author
from limpet.server._operations import invalid_argument_from, invoke

if TYPE_CHECKING:
    from limpet.server._http_events import EventHub
    from limpet.server._mcp import McpApp
    from limpet.server._service import Service

__all__ = ["api_routes", "json_response", "error_response", "read_json", "MAX_FILES", "MAX_SOURCE_BYTES"]

log = logging.getLogger("limpet.http")
MAX_FILES = 20_000
MAX_SOURCE_BYTES = 4 * 1024 * 1024
STATUS = {"INVALID_ARGUMENT": 400, "INVALID_PATH": 400, "INVALID_ANCHOR": 400, "PARSE_ERROR": 400,
          "FILE_NOT_FOUND": 404, "THREAD_NOT_FOUND": 404, "LOCK_TIMEOUT": 503, "STORE_CORRUPTED": 409,
          "STORE_TOO_NEW": 409}


def json_response(data: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status_code=status, media_type="application/json",
                     headers={"cache-control": "no-store"})


def error_response(exc: LimpetError) -> Response:
    return json_response({"error": exc.to_dict()}, STATUS.get(exc.code, 500))


async def read_json(request: Request, *, require_type: bool = True) -> Any:
    """The request's JSON body ({} when empty); INVALID_ARGUMENT when it is not JSON."""
    if require_type and "json" not in request.headers.get("content-type", ""):
        # A JSON content type cannot be sent cross-origin without a CORS preflight (CSRF guard).
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


def _guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except LimpetError as exc:
            return error_response(exc)

    return endpoint


def api_routes(mcp: McpApp, hub: EventHub) -> list[Route]:
    svc = mcp.service

    async def op(request: Request) -> Response:
        name = request.path_params["operation"]
        args = await read_json(request)
        op_, result = await run(mcp, lambda: invoke(svc, name, args))
        return json_response({"result": op_.structured_content(result)})

    async def files(request: Request) -> Response:
        return json_response(await run(mcp, lambda: file_tree(svc)))

    async def file(request: Request) -> Response:
        path = request.query_params.get("path", "")
        return json_response(await run(mcp, lambda: source_of(svc, path)))

    async def review(request: Request) -> Response:
        return json_response(await run(mcp, lambda: reviews.current(svc)))

    async def selection(request: Request) -> Response:
        body = await read_json(request)
        def store() -> tuple[dict[str, Any] | None, str | None]:
            sel, active = _checked_selection(svc, body)
            reviews.write_selection(svc, sel, active)
            return sel, active

        sel, active = await run(mcp, store)
        return json_response({"selection": sel, "active_file": active})

    async def events(request: Request) -> Response:
        return StreamingResponse(hub.stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    async def info(request: Request) -> Response:
        return json_response({"workspace": svc.ws.root.name, "root": str(svc.ws.root), "author": local_author(),
                              "groups": sorted({o.group for o in mcp.ops.values()})})

    return [
        Route("/api/ops/{operation}", _guarded(op), methods=["POST"]),
        Route("/api/files", _guarded(files), methods=["GET"]),
        Route("/api/file", _guarded(file), methods=["GET"]),
        Route("/api/review", _guarded(review), methods=["GET"]),
        Route("/api/selection", _guarded(selection), methods=["POST"]),
        Route("/api/events", events, methods=["GET"]),
        Route("/api/info", _guarded(info), methods=["GET"]),
    ]


def file_tree(svc: Service) -> dict[str, Any]:
    """Every workspace file (and every file threads point at) with counts per status and health."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for t in svc.threads():
        c = counts[t.anchor.file]
        c["total"] += 1
        c[t.status] += 1
        c[t.health] += 1
        if t.status == "open":
            c[f"open_{t.health}"] += 1
    present = svc.ws.walk_sources(max_bytes=MAX_SOURCE_BYTES)
    paths = sorted(set(present) | set(counts))
    truncated = len(paths) > MAX_FILES
    if truncated:  # files with threads first, so a huge checkout still shows them
        paths = sorted(set(counts) | set(sorted(present)[: MAX_FILES - len(counts)]))
    out = [{"path": p, "exists": p in present, "threads": dict(counts[p]) if p in counts else {}} for p in paths]
    return {"workspace": svc.ws.root.name, "files": out, "truncated": truncated}


def source_of(svc: Service, path: str) -> dict[str, Any]:
    rel = svc.normalize(path, "path")
    data = svc.read_source(rel, "path")
    if len(data) > MAX_SOURCE_BYTES:
        return {"path": rel, "text": None, "binary": False, "too_large": True, "size": len(data)}
    binary = b"\x00" in data[:8192]
    try:
        text = None if binary else data.decode("utf-8")
    except UnicodeDecodeError:
        text, binary = None, True
    return {"path": rel, "text": text, "binary": binary, "too_large": False, "size": len(data)}


class _SelectionIn(BaseModel):
    model_config = {"extra": "forbid"}

    file: str = Field(min_length=1, max_length=4096)
    line_start: int
    line_end: int
    text: str


class _SelectionReport(BaseModel):
    model_config = {"extra": "forbid"}

    selection: _SelectionIn | None = None
    active_file: str | None = Field(None, max_length=4096)


def _checked_selection(svc: Service, body: Any) -> tuple[dict[str, Any] | None, str | None]:
    try:
        report = _SelectionReport.model_validate(body if isinstance(body, dict) else {"_": body})
    except ValidationError as exc:
        raise invalid_argument_from(exc) from None
    active = svc.normalize(report.active_file, "active_file") if report.active_file else None
    sel = report.selection
    if sel is None:
        return None, active
    if sel.line_start < 1 or sel.line_end < sel.line_start:
        raise InvalidArgument("Selection lines must satisfy 1 <= line_start <= line_end", field="selection.line_start")
    if len(sel.text) > 200_000:
        raise InvalidArgument("Selection text is longer than 200,000 characters", field="selection.text")
    file = svc.normalize(sel.file, "selection.file")
    return {**sel.model_dump(), "file": file}, active
