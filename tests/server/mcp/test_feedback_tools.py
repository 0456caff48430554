"""Seed 000's feedback tools end to end over stdio."""

from __future__ import annotations

import json
import shutil

import pytest
from support import call, stdio_session

pytestmark = pytest.mark.anyio


async def test_summary_is_all_zeros_when_empty(workspace):
    async with stdio_session(workspace) as s:
        _, data, text = await call(s, "get_feedback_summary", {})
        _, feedback, ftext = await call(s, "get_feedback", {})
    assert data == {"totalThreads": 0, "totalComments": 0, "fileCount": 0, "files": [], "orphanedCount": 0} == text
    assert ftext == [] and feedback == {"feedback": [], "nextCursor": None}


async def test_feedback_shapes_order_and_resolution(workspace):
    async with stdio_session(workspace) as s:
        ids = []
        for file, start, end in [("src/auth.py", 17, 18), ("PLAN.md", 1, 3), ("src/auth.py", 10, 14)]:
            _, d, _ = await call(s, "comment_add", {"file": file, "line_start": start, "line_end": end, "body": "b"})
            ids.append(d["thread"]["id"])
        await call(s, "comment_reply", {"thread_id": ids[0], "body": "r"})
        res = await s.call_tool("get_feedback", {})
        items = json.loads(res.content[0].text)  # the text block is the seed's array
        assert [(i["file"], i["range"]["startLine"]) for i in items] == [("PLAN.md", 1), ("src/auth.py", 10),
                                                                          ("src/auth.py", 17)]
        first = items[0]
        assert set(first) == {"id", "file", "range", "selectedText", "orphaned", "comments"}
        assert set(first["range"]) == {"startLine", "endLine", "startCharacter", "endCharacter"}
        assert set(first["comments"][0]) == {"id", "body", "author", "createdAt"}
        _, one, text = await call(s, "get_feedback", {"filePath": "src/auth.py"})
        assert [i["range"]["startLine"] for i in text] == [10, 17]
        _, summary, _ = await call(s, "get_feedback_summary", {})
        assert summary["files"] == [{"path": "src/auth.py", "threadCount": 2}, {"path": "PLAN.md", "threadCount": 1}]
        assert summary["totalComments"] == 4
        _, r, text = await call(s, "resolve_feedback", {"threadId": ids[1]})
        assert r == text == {"resolved": True, "threadId": ids[1]}
        _, again, _ = await call(s, "resolve_feedback", {"threadId": ids[1]})
        assert again == {"resolved": False, "error": "Thread not found"}
        _, unknown, _ = await call(s, "resolve_feedback", {"threadId": "c_1"})
        assert unknown == {"resolved": False, "error": "Thread not found"}
        is_error, bad, text = await call(s, "resolve_feedback", {"threadId": "nope"})
        assert is_error and bad["error"]["code"] == "INVALID_ARGUMENT" and bad["error"]["field"] == "threadId"
        assert text == {"error": "Invalid thread ID format"}  # seed 000's error text
        _, summary, _ = await call(s, "get_feedback_summary", {})
        assert summary["totalThreads"] == 2
        _, shown, _ = await call(s, "comment_show", {"thread_id": ids[1]})  # resolved, not deleted
        assert shown["thread"]["status"] == "resolved"


async def test_orphaned_flag(workspace):
    async with stdio_session(workspace) as s:
        await call(s, "comment_add", {"file": "src/auth.py", "line_start": 17, "line_end": 18, "body": "b"})
        (workspace / "src" / "auth.py").write_text((workspace / "src" / "auth.py").read_text().split("\n\ndef helper")[0])
        _, _, items = await call(s, "get_feedback", {})
        _, summary, _ = await call(s, "get_feedback_summary", {})
    assert items[0]["orphaned"] is True and summary["orphanedCount"] == 1


async def test_a_damaged_thread_file_never_fails_the_listing_and_is_reported_in_the_seeds_words(workspace):
    async with stdio_session(workspace) as s:
        _, a, _ = await call(s, "comment_add", {"file": "PLAN.md", "line_start": 1, "line_end": 1, "body": "a"})
        _, b, _ = await call(s, "comment_add", {"file": "PLAN.md", "line_start": 3, "line_end": 3, "body": "b"})
        path = workspace / ".limpet" / "threads" / f"{a['thread']['id']}.jsonl"
        path.write_text("{garbage")
        shutil.rmtree(workspace / ".limpet" / "cache")  # no backup to show it from (a fresh clone)
        is_error, data, items = await call(s, "get_feedback", {})
        assert not is_error and [i["id"] for i in items] == [b["thread"]["id"]]  # the rest is served
        is_error, data, text = await call(s, "resolve_feedback", {"threadId": a["thread"]["id"]})
        assert is_error and data["error"]["code"] == "STORE_CORRUPTED"
        assert text == {"error": "Feedback store corrupted, attempting recovery from backup"}
        assert path.read_text() == "{garbage"  # reported, kept as it is


async def test_unreadable_store_is_not_initialized(workspace):
    (workspace / ".limpet").write_text("not a folder")
    async with stdio_session(workspace) as s:
        for tool, args in [("get_feedback", {}), ("get_feedback_summary", {}), ("resolve_feedback", {"threadId": "c_1"})]:
            is_error, data, text = await call(s, tool, args)
            assert is_error and text == {"error": "Feedback store not initialized"}
            assert data["error"]["code"] == "STORE_ERROR" and data["error"]["details"]["rpc_code"] == -32007


async def test_feedback_shows_open_threads_only(workspace):
    async with stdio_session(workspace) as s:
        _, d, _ = await call(s, "comment_add", {"file": "PLAN.md", "line_start": 1, "line_end": 1, "body": "b"})
        tid = d["thread"]["id"]
        await call(s, "comment_resolve", {"thread_id": tid, "wontfix": True})
        _, _, items = await call(s, "get_feedback", {"filePath": "PLAN.md"})
        _, _, again = await call(s, "resolve_feedback", {"threadId": tid})
        await call(s, "comment_reopen", {"thread_id": tid})
        _, _, reopened = await call(s, "get_feedback", {})
    assert items == [] and again == {"resolved": False, "error": "Thread not found"}
    assert [i["id"] for i in reopened] == [tid]
