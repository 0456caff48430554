"""Seed 003's plain endpoints beside /mcp: initialize, status, list_tools, POST /mcp/{toolName}."""

from __future__ import annotations

import json

import httpx
import pytest
from support import api_post, http_server


@pytest.fixture
def base(workspace):
    with http_server(workspace) as url:
        yield url


def add(base: str, **extra) -> dict:
    body = {"file": "src/auth.py", "line_start": 10, "line_end": 14, "body": "Handle expired tokens", **extra}
    reply = httpx.post(f"{base}/mcp/comment_add", json=body).json()
    assert reply["error"] is None, reply
    return json.loads(reply["status"])["thread"]


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_initialize_returns_server_info_and_environment(base, workspace, method):
    data = httpx.request(method, f"{base}/mcp/initialize").json()
    assert (data["jsonrpc"], data["id"]) == ("2.0", 0)
    result = data["result"]
    assert result["protocolVersion"] == "2024-11-05"
    assert result["serverInfo"]["name"] == "limpet"
    assert "tools" in result["capabilities"]
    assert result["environment"]["workspaceRoot"] == str(workspace.resolve())
    assert {"activeFile", "currentDirectory"} <= set(result["environment"])


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_status_reports_running_and_the_page_s_open_file(base, method):
    api_post(base, "/api/selection", {"selection": None, "active_file": "src/auth.py"})
    data = httpx.request(method, f"{base}/mcp/status").json()
    assert data["result"]["status"] == "running"
    env = data["result"]["environment"]
    assert env["activeFile"] == "src/auth.py" and env["openFiles"] == ["src/auth.py"]


def test_list_tools_is_an_array_of_tool_definitions(base):
    tools = httpx.get(f"{base}/mcp/list_tools").json()
    assert isinstance(tools, list)
    by_name = {t["name"]: t for t in tools}
    assert {"comment_add", "comment_show", "present_review", "get_selection"} <= set(by_name)
    schema = by_name["comment_add"]["inputSchema"]
    assert schema["type"] == "object" and {"file", "line_start", "line_end", "body"} <= set(schema["required"])
    assert by_name["comment_add"]["description"]


def test_tool_call_with_plain_arguments(base):
    thread = add(base)
    assert thread["symbol"] == "AuthService.validate_token"


def test_tool_call_with_a_json_rpc_body(base):
    thread = add(base)
    body = {"jsonrpc": "2.0", "id": 1, "params": {"arguments": {"thread_id": thread["id"], "body": "agreed"}}}
    reply = httpx.post(f"{base}/mcp/comment_reply", json=body).json()
    assert reply["error"] is None
    assert [c["body"] for c in json.loads(reply["status"])["thread"]["comments"]] == ["Handle expired tokens", "agreed"]


def test_tool_failure_is_status_null_with_an_error_message(base):
    reply = httpx.post(f"{base}/mcp/comment_show", json={"thread_id": "c_42"})
    data = reply.json()
    assert reply.status_code == 200
    assert data["status"] is None and "THREAD_NOT_FOUND" in data["error"]
    assert data["errorDetails"]["code"] == "THREAD_NOT_FOUND"


def test_present_review_validation_messages_come_through(base):
    data = httpx.post(f"{base}/mcp/present_review", json={"content": "x", "baseUri": ".", "mode": "bad"}).json()
    assert data["status"] is None
    assert "Mode must be 'replace', 'update-section', or 'append'" in data["error"]


def test_unknown_tool_and_bad_bodies_are_refused_in_the_same_shape(base):
    unknown = httpx.post(f"{base}/mcp/no_such_tool", json={})
    assert unknown.status_code == 404 and unknown.json() == {"status": None, "error": "Unknown tool: no_such_tool"}
    not_json = httpx.post(f"{base}/mcp/comment_list", content=b"{nope", headers={"content-type": "application/json"})
    assert not_json.status_code == 400 and not_json.json()["status"] is None
    not_object = httpx.post(f"{base}/mcp/comment_list", json=[1, 2])
    assert not_object.status_code == 400


def test_comment_show_over_http_returns_the_current_position(base, workspace):
    thread = add(base)
    auth = workspace / "src/auth.py"
    auth.write_text("# moved down\n" + auth.read_text())
    data = httpx.post(f"{base}/mcp/comment_show", json={"thread_id": thread["id"]}).json()
    assert json.loads(data["status"])["thread"]["line_start"] == 11
