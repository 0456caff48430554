"""The page's views: what one screen shows, in one request, rendered on the server.

    GET /api/view?path=P[&status=&tag=&author=]   a file: its lines (text and highlighted HTML)
                                                  and its threads (bodies as HTML; a drifted or
                                                  orphaned thread with the code it was written
                                                  against)
    GET /api/summary                              the start page: counts, files with threads,
                                                  recent threads
    GET /api/review/view                          the current review as HTML, references
                                                  linking to their current place
    GET /api/thread?id=ID                         where a thread is (ID: its id, short id or a
                                                  unique prefix, as every command takes)

Threads come from the comment_list operation (its validation, its filters); the rest from
public service methods. Rendering runs on the MCP door's worker like every service call.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from limpet.model import FileNotFound, Thread
from limpet.server.core import Service
from limpet.server.http._api import guarded, json_response, run
from limpet.server.http._render import (
    highlight_lines,
    highlight_snippet,
    language_of,
    markdown_html,
    markdown_text,
    review_html,
)
from limpet.server.mcp import McpApp
from limpet.server.operations import invoke

__all__ = ["page_routes", "file_view", "summary"]

_FILTERS = ("status", "tag", "author")
RECENT = 12
TOP_FILES = 20


def _threads_of(svc: Service, path: str, filters: dict[str, str]) -> list[dict[str, Any]]:
    args: dict[str, Any] = {"file": path, "limit": 1000, **filters}
    out: list[dict[str, Any]] = []
    while True:
        _, page = invoke(svc, "comment_list", args)
        out.extend(page["threads"])
        if not page.get("nextCursor"):
            return out
        args["cursor"] = page["nextCursor"]


def _rendered(svc: Service, wire: dict[str, Any]) -> dict[str, Any]:
    """A thread for the page: bodies as HTML, and what it was written against when it moved."""
    out = dict(wire)
    out["short_id"] = svc.short_ids().get(wire["id"], wire["id"])  # as `limpet list` shows it
    out["comments"] = [{**c, "html": markdown_html(c["body"])} for c in wire["comments"]]
    out["title"] = markdown_text((wire["comments"][0]["body"].splitlines() or [""])[0]) if wire["comments"] else ""
    if wire.get("decision"):
        out["decision"] = {**wire["decision"], "html": markdown_html(wire["decision"]["summary"])}
    if wire["health"] != "anchored":
        snap = svc.get(wire["id"], fresh=False).written_against()
        out["written_against"] = None if snap is None else {
            **snap.to_dict(), "html": highlight_snippet(snap.file, snap.text)}
    return out


def file_view(svc: Service, path: str, filters: dict[str, str]) -> dict[str, Any]:
    rel = svc.normalize(path, "path")
    try:
        source = svc.source(rel)
    except FileNotFound as exc:  # deleted, but its threads are still worth showing
        source = {"path": rel, "text": None, "binary": False, "too_large": False, "size": 0, "missing": True,
                  "error": exc.message}
    text = source.pop("text")
    threads = [_rendered(svc, t) for t in _threads_of(svc, rel, filters)]
    lines = text.split("\n")[:-1] if text and text.endswith("\n") else (text.split("\n") if text else [])
    return {**source, "language": language_of(rel), "lines": lines,
            "html": highlight_lines(rel, text) if text else [], "threads": threads,
            "count": len(threads), "open": sum(t["status"] == "open" for t in threads)}


def _brief(t: Thread, short: dict[str, str]) -> dict[str, Any]:
    first = markdown_text((t.body.splitlines() or [""])[0])
    return {"id": t.id, "short_id": short.get(t.id, t.id), "file": t.file, "line_start": t.anchor.line_start, "line_end": t.anchor.line_end,
            "tag": t.tag, "status": t.status, "health": t.health, "author": t.author,
            "updated_at": t.updated_at, "title": first[:140], "replies": len(t.comments) - 1}


def summary(svc: Service) -> dict[str, Any]:
    threads = svc.threads()
    opened = [t for t in threads if t.status == "open"]
    per_file: dict[str, Counter[str]] = {}
    for t in threads:
        c = per_file.setdefault(t.file, Counter())
        c["total"] += 1
        if t.status == "open":
            c["open"] += 1
            c[t.health] += 1
    files = sorted(per_file.items(), key=lambda kv: (-kv[1]["open"], -kv[1]["total"], kv[0]))[:TOP_FILES]
    recent = sorted(threads, key=lambda t: (t.updated_at, t.id), reverse=True)[:RECENT]
    return {
        "workspace": svc.workspace_name,
        "total": len(threads),
        "status": dict(Counter(t.status for t in threads)),
        "open_health": dict(Counter(t.health for t in opened)),
        "tags": dict(Counter(t.tag for t in opened)),
        "files": [{"path": p, **c} for p, c in files],
        "file_count": len(per_file),
        "recent": [_brief(t, svc.short_ids()) for t in recent],
    }


def page_routes(mcp: McpApp) -> list[Route]:
    svc = mcp.service

    async def view(request: Request) -> Response:
        params = request.query_params
        filters = {k: params[k] for k in _FILTERS if params.get(k)}
        return json_response(await run(mcp, lambda: file_view(svc, params.get("path", ""), filters)))

    async def start(request: Request) -> Response:
        return json_response(await run(mcp, lambda: summary(svc)))

    async def review(request: Request) -> Response:
        def rendered() -> dict[str, Any]:
            current = svc.current_review()
            return {"updated_at": current["updated_at"], "empty": not current["content"],
                    "html": review_html(current["content"], current["references"])}

        return json_response(await run(mcp, rendered))

    async def thread(request: Request) -> Response:
        def where() -> dict[str, Any]:
            full = svc.resolve_thread_id(request.query_params.get("id", ""), "id")
            t = svc.get(full)
            return {"id": t.id, "short_id": svc.short_ids().get(t.id, t.id), "file": t.file,
                    "line": t.anchor.line_start}

        return json_response(await run(mcp, where))

    return [Route("/api/view", guarded(view), methods=["GET"]),
            Route("/api/thread", guarded(thread), methods=["GET"]),
            Route("/api/summary", guarded(start), methods=["GET"]),
            Route("/api/review/view", guarded(review), methods=["GET"])]
