"""MCP Streamable HTTP at /mcp, driven by the official client (mcp.client.streamable_http)."""

from __future__ import annotations

import contextlib
import json

import httpx
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from support import api_post, call, http_server

pytestmark = pytest.mark.anyio


@contextlib.asynccontextmanager
async def session(base: str, headers: dict[str, str] | None = None):
    async with httpx2.AsyncClient(headers=headers or {}, timeout=30) as http:
        async with streamable_http_client(f"{base}/mcp", http_client=http) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                yield s


async def test_tools_are_served_over_streamable_http_through_the_same_service(workspace):
    with http_server(workspace) as base:
        async with session(base) as s:
            names = {t.name for t in (await s.list_tools()).tools}
            assert {"comment_add", "comment_show", "present_review", "get_selection"} <= names
            is_error, data, text = await call(s, "comment_add", {"file": "src/auth.py", "line_start": 10,
                                                                "line_end": 14, "body": "Handle expiry"})
            assert not is_error and text == data
            thread_id = data["thread"]["id"]
            is_error, shown, _ = await call(s, "comment_show", {"thread_id": thread_id})
            assert shown["thread"]["symbol"] == "AuthService.validate_token"
        # The same thread through seed 003's endpoint: one service behind both doors.
        reply = httpx.post(f"{base}/mcp/comment_show", json={"thread_id": thread_id}).json()
        assert json.loads(reply["status"])["thread"]["id"] == thread_id


async def test_capabilities_over_http_advertise_the_list_changed_notifications_it_sends(workspace):
    with http_server(workspace) as base:
        async with httpx2.AsyncClient(timeout=30) as http:
            async with streamable_http_client(f"{base}/mcp", http_client=http) as (read, write):
                async with ClientSession(read, write) as s:
                    init = await s.initialize()
    resources = init.capabilities.resources
    assert resources is not None and resources.list_changed is True and resources.subscribe is True


async def test_errors_are_tool_results_with_is_error(workspace):
    with http_server(workspace) as base:
        async with session(base) as s:
            is_error, data, _ = await call(s, "comment_show", {"thread_id": "c_1"})
    assert is_error and data["error"]["code"] == "THREAD_NOT_FOUND"


async def test_get_selection_over_mcp_is_null_then_what_the_page_reported(workspace):
    with http_server(workspace) as base:
        async with session(base) as s:
            res = await s.call_tool("get_selection", {})
            assert res.content[0].text == "null" and res.structured_content == {"selection": None}
            sel = {"file": "src/auth.py", "line_start": 4, "line_end": 4, "text": "class AuthService:"}
            assert api_post(base, "/api/selection", {"selection": sel}).status_code == 200
            is_error, data, text = await call(s, "get_selection", {})
    assert data == {"selection": sel} and text == sel


async def test_present_review_over_mcp_is_served_at_api_review(workspace):
    with http_server(workspace) as base:
        async with session(base) as s:
            is_error, data, _ = await call(s, "present_review", {"content": "See [`src/auth.py:10`][]", "baseUri": "."})
            assert not is_error and data["success"] is True
        review = httpx.get(f"{base}/api/review").json()
    assert review["content"] == "See [`src/auth.py:10`][]"
    assert review["references"][0] | {"symbol": None} == {"text": "src/auth.py:10", "file": "src/auth.py", "line": 10,
                                                         "line_end": 10, "health": "anchored", "symbol": None}


async def test_tool_groups_limit_the_http_doors_too(workspace):
    with http_server(workspace, groups={"review"}) as base:
        async with session(base) as s:
            names = {t.name for t in (await s.list_tools()).tools}
        seed = httpx.post(f"{base}/mcp/comment_add", json={}).status_code
    assert names == {"present_review", "get_selection"}
    assert seed == 404


async def test_a_token_protected_server_accepts_the_official_client_with_the_bearer_header(workspace):
    with http_server(workspace, token="s3cret", loopback=False) as base:
        async with session(base, {"Authorization": "Bearer s3cret"}) as s:
            assert (await s.list_tools()).tools
        refused = httpx.post(f"{base}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                             headers={"accept": "application/json, text/event-stream"})
    assert refused.status_code == 401


async def test_a_foreign_origin_is_refused_on_the_mcp_endpoint(workspace):
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    headers = {"accept": "application/json, text/event-stream"}
    with http_server(workspace) as base:
        evil = httpx.post(f"{base}/mcp", json=init, headers={**headers, "origin": "http://evil.example.com"})
        local = httpx.post(f"{base}/mcp", json=init, headers={**headers, "origin": base})
    assert evil.status_code == 403
    assert local.status_code == 200


async def test_the_current_review_is_the_mcp_resource_review_current(workspace):
    with http_server(workspace) as base:
        async with session(base) as s:
            await call(s, "present_review", {"content": "# R\n\n[`src/auth.py:17`][]", "baseUri": "."})
            listed = {str(r.uri) for r in (await s.list_resources()).resources}
            read = await s.read_resource("review://current")
    assert "review://current" in listed
    review = json.loads(read.contents[0].text)
    assert review["content"] == "# R\n\n[`src/auth.py:17`][]"
    assert review["references"][0]["line"] == 17 and review["references"][0]["health"] == "anchored"
