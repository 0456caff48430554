"""Seed 002 acceptance criteria, end to end: the official MCP client over real stdio."""

from __future__ import annotations

import anyio
import pytest
from support import call, stdio_session

pytestmark = pytest.mark.anyio


async def _add(session, file="PLAN.md", start=1, end=3, body="Check the plan"):
    is_error, data, _ = await call(session, "comment_add",
                                   {"file": file, "line_start": start, "line_end": end, "body": body})
    assert not is_error, data
    return data["thread"]


async def test_tools_are_listed_with_schemas_and_annotations(workspace):
    async with stdio_session(workspace) as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
    for name in ("comment_add", "comment_list", "comment_show", "comment_reply", "comment_resolve",
                 "comment_reopen", "comment_reconcile"):
        tool = tools[name]
        assert tool.description and len(tool.description) > 40
        assert tool.input_schema["type"] == "object"
        assert tool.output_schema is not None
        assert tool.annotations is not None
    add = tools["comment_add"].input_schema
    assert set(add["required"]) == {"file", "line_start", "line_end", "body"}
    assert add["properties"]["body"]["maxLength"] == 10_000
    assert tools["comment_list"].annotations.read_only_hint is True
    assert tools["comment_resolve"].annotations.idempotent_hint is True


async def test_ac1_list_returns_threads_object(workspace):
    async with stdio_session(workspace) as s:
        thread = await _add(s)
        is_error, data, text = await call(s, "comment_list", {"file": "PLAN.md", "status": "open"})
    assert not is_error
    assert [t["id"] for t in data["threads"]] == [thread["id"]]
    assert text == data  # the text block holds the same JSON


async def test_ac2_missing_file_is_file_not_found(workspace):
    async with stdio_session(workspace) as s:
        is_error, data, text = await call(s, "comment_add",
                                          {"file": "missing.md", "line_start": 1, "line_end": 1, "body": "x"})
    assert is_error
    assert data["error"]["code"] == "FILE_NOT_FOUND"
    assert data["error"]["message"]
    assert data["error"]["details"]["rpc_code"] == -32001
    assert text == data


async def test_ac3_resolve_with_decision_returns_thread_with_decision(workspace):
    async with stdio_session(workspace) as s:
        thread = await _add(s)
        is_error, data, _ = await call(s, "comment_resolve",
                                       {"thread_id": thread["id"], "decision": "Use piecewise model"})
    assert not is_error
    assert data["thread"]["status"] == "resolved"
    assert data["thread"]["decision"]["summary"] == "Use piecewise model"


async def test_ac4_body_longer_than_10000_is_a_field_error(workspace):
    async with stdio_session(workspace) as s:
        thread = await _add(s)
        is_error, data, _ = await call(s, "comment_reply", {"thread_id": thread["id"], "body": "X" * 10_001})
        # the server keeps answering
        ok, again, _ = await call(s, "comment_show", {"thread_id": thread["id"]})
    assert is_error
    assert data["error"]["code"] == "INVALID_ARGUMENT"
    assert data["error"]["field"] == "body"
    assert not ok and len(again["thread"]["comments"]) == 1


async def test_ac5_concurrent_replies_from_two_server_processes_both_land(workspace):
    async with stdio_session(workspace) as s:
        thread = await _add(s)
    tid = thread["id"]

    async def replier(tag: str, n: int) -> None:
        async with stdio_session(workspace) as s:
            for i in range(n):
                is_error, data, _ = await call(s, "comment_reply", {"thread_id": tid, "body": f"{tag}-{i}"})
                assert not is_error, data

    async with anyio.create_task_group() as tg:
        tg.start_soon(replier, "a", 15)
        tg.start_soon(replier, "b", 15)
    async with stdio_session(workspace) as s:
        _, data, _ = await call(s, "comment_show", {"thread_id": tid})
    bodies = [c["body"] for c in data["thread"]["comments"][1:]]
    assert sorted(bodies) == sorted([f"a-{i}" for i in range(15)] + [f"b-{i}" for i in range(15)])
    assert len({c["id"] for c in data["thread"]["comments"]}) == 31


async def test_ac6_resolving_twice_keeps_resolved_at(workspace):
    async with stdio_session(workspace) as s:
        thread = await _add(s)
        _, first, _ = await call(s, "comment_resolve", {"thread_id": thread["id"], "decision": "done"})
        await anyio.sleep(0.01)
        is_error, second, _ = await call(s, "comment_resolve", {"thread_id": thread["id"]})
    assert not is_error
    assert second["thread"]["resolved_at"] == first["thread"]["resolved_at"]
    assert second["thread"]["decision"] == first["thread"]["decision"]


async def test_errors_are_structured_for_every_code(workspace):
    async with stdio_session(workspace) as s:
        cases = {
            "INVALID_PATH": ("comment_add", {"file": "../etc/passwd", "line_start": 1, "line_end": 1, "body": "x"}),
            "INVALID_ANCHOR": ("comment_add", {"file": "PLAN.md", "line_start": 5, "line_end": 99, "body": "x"}),
            "THREAD_NOT_FOUND": ("comment_show", {"thread_id": "c_1"}),
            "INVALID_ARGUMENT": ("comment_show", {"thread_id": "t_123"}),
        }
        for code, (tool, args) in cases.items():
            is_error, data, _ = await call(s, tool, args)
            assert is_error, (code, data)
            assert data["error"]["code"] == code
            assert data["error"]["message"]
        _, data, _ = await call(s, "comment_show", {"thread_id": "t_123"})
        assert data["error"]["message"].endswith("Invalid thread ID format")
        assert data["error"]["field"] == "thread_id"


async def test_reopen_keeps_decision_in_history_and_reconcile_is_repeatable(workspace):
    async with stdio_session(workspace) as s:
        thread = await _add(s, file="src/auth.py", start=10, end=14)
        await call(s, "comment_resolve", {"thread_id": thread["id"], "decision": "fixed"})
        _, reopened, _ = await call(s, "comment_reopen", {"thread_id": thread["id"]})
        _, r1, _ = await call(s, "comment_reconcile", {})
        _, r2, _ = await call(s, "comment_reconcile", {})
    t = reopened["thread"]
    assert t["status"] == "open" and t["resolved_at"] is None
    assert t["decision"]["summary"] == "fixed"
    assert any(h["event"] == "reopened" and h["details"]["decision"]["summary"] == "fixed" for h in t["history"])
    assert r1["counts"] == r2["counts"] and r2["changed"] == []
