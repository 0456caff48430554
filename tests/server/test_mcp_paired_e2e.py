"""Seed 004's tools end to end over stdio with the official client."""

from __future__ import annotations

import pytest
from support import call, stdio_session

pytestmark = pytest.mark.anyio

AI = {"model": "claude-sonnet-4.5", "confidence": 0.95, "reasoning": "Security best practice"}


async def _add(s, line=11, text="TODO: Add rate limiting", tag="TODO", **extra):
    is_error, data, _ = await call(s, "add_comment", {"filePath": "src/auth.py", "line": line, "text": text,
                                                      "tag": tag, **extra})
    assert not is_error, data
    return data


async def test_add_comment_reports_id_and_anchored_symbol(workspace):
    async with stdio_session(workspace) as s:
        data = await _add(s, author="claude", aiMeta=AI)
    assert data["commentId"].startswith("c_") and data["commentId"] == data["thread"]["id"]
    assert data["anchoredSymbol"] == "AuthService.validate_token"
    assert data["thread"]["ai_meta"] == AI and data["thread"]["author"] == "claude"


async def test_add_comment_validates_seed_bounds(workspace):
    async with stdio_session(workspace) as s:
        cases = [
            ({"filePath": "src/auth.py", "line": 0, "text": "x", "tag": "TODO"}, "line"),
            ({"filePath": "src/auth.py", "line": 1, "text": "x" * 10_001, "tag": "TODO"}, "text"),
            ({"filePath": "src/auth.py", "line": 1, "text": "x", "tag": "BUG"}, "tag"),
            ({"filePath": "src/auth.py", "line": 1, "text": "x", "tag": "TODO", "aiMeta": {"confidence": 1.5}},
             "aiMeta.confidence"),
        ]
        for args, field in cases:
            is_error, data, _ = await call(s, "add_comment", args)
            assert is_error and data["error"]["code"] == "INVALID_ARGUMENT" and data["error"]["field"] == field
        is_error, data, _ = await call(s, "add_comment", {"filePath": "src/auth.py", "line": 999, "text": "x",
                                                          "tag": "TODO"})
        assert data["error"]["code"] == "INVALID_ANCHOR" and data["error"]["field"] == "line"
        assert data["error"]["details"]["rpc_code"] == -32005
        is_error, data, _ = await call(s, "add_comment", {"filePath": "nope.py", "line": 1, "text": "x", "tag": "NOTE"})
        assert data["error"]["code"] == "FILE_NOT_FOUND" and data["error"]["details"]["rpc_code"] == -32001


async def test_edit_and_delete(workspace):
    async with stdio_session(workspace) as s:
        cid = (await _add(s))["commentId"]
        _, edited, _ = await call(s, "edit_comment", {"filePath": "src/auth.py", "commentId": cid, "text": "Use Redis"})
        assert edited["thread"]["comments"][0]["body"] == "Use Redis"
        assert edited["thread"]["history"][-1]["details"]["previous_body"] == "TODO: Add rate limiting"
        is_error, _, _ = await call(s, "delete_comment", {"filePath": "src/auth.py", "commentId": cid})
        assert not is_error
        is_error, data, _ = await call(s, "delete_comment", {"filePath": "src/auth.py", "commentId": cid})
        assert data["error"]["code"] == "THREAD_NOT_FOUND" and data["error"]["details"]["rpc_code"] == -32002
        is_error, data, _ = await call(s, "edit_comment", {"filePath": "src/auth.py", "commentId": "x1", "text": "y"})
        assert data["error"]["code"] == "INVALID_ARGUMENT" and data["error"]["field"] == "commentId"


async def test_search_regex_filters_limit_and_bad_patterns(workspace):
    async with stdio_session(workspace) as s:
        await _add(s, text="Add rate limiting", aiMeta=AI)
        await _add(s, line=17, text="rate LIMIT here too", tag="FIXME")
        await _add(s, line=1, text="unrelated", tag="NOTE")
        _, data, _ = await call(s, "search_comments", {"query": "rate limit"})
        assert data["totalResults"] == 2
        _, data, _ = await call(s, "search_comments", {"query": "rate", "filters": {"tag": "TODO", "hasAIMetadata": True}})
        assert [t["comments"][0]["body"] for t in data["results"]] == ["Add rate limiting"]
        _, data, _ = await call(s, "search_comments", {"query": ".", "limit": 1})
        assert len(data["results"]) == 1 and data["totalResults"] == 3
        _, data, _ = await call(s, "search_comments", {"query": ".", "filters": {"filePath": "src/**/*.py",
                                                                                 "dateRange": {"start": "2000-01-01"}}})
        assert data["totalResults"] == 3
        is_error, data, _ = await call(s, "search_comments", {"query": "(unclosed"})
        assert is_error and data["error"]["code"] == "INVALID_ARGUMENT" and data["error"]["field"] == "query"
        is_error, data, _ = await call(s, "search_comments", {"query": "x", "limit": 1001})
        assert data["error"]["field"] == "limit"


async def test_catastrophic_pattern_is_bounded_in_time(workspace):
    async with stdio_session(workspace) as s:
        await _add(s, text="x" * 9000 + "!")
        is_error, data, _ = await call(s, "search_comments", {"query": "(x+x+)+y"})
        assert is_error and data["error"]["code"] == "INVALID_ARGUMENT"
        assert not (await call(s, "comment_list", {}))[0]  # still answering


async def test_get_file_comments_counts_and_orphans(workspace):
    async with stdio_session(workspace) as s:
        await _add(s)
        await _add(s, line=17, tag="FIXME", text="helper is unused")
        (workspace / "src" / "auth.py").write_text((workspace / "src" / "auth.py").read_text().split("\n\ndef helper")[0])
        _, data, _ = await call(s, "get_file_comments", {"filePath": "src/auth.py"})
        assert data["commentCount"] == 2 and data["orphanedCount"] == 1 and data["summary"] == {"FIXME": 1, "TODO": 1}
        _, data, _ = await call(s, "get_file_comments", {"filePath": "src/auth.py", "includeOrphaned": False})
        assert data["commentCount"] == 1


async def test_move_comment_keeps_id_comments_and_history(workspace):
    async with stdio_session(workspace) as s:
        cid = (await _add(s))["commentId"]
        await call(s, "comment_reply", {"thread_id": cid, "body": "agreed"})
        _, moved, _ = await call(s, "move_comment", {"sourceFile": "src/auth.py", "targetFile": "main.go",
                                                     "commentId": cid, "targetLine": 5})
        t = moved["thread"]
        assert t["id"] == cid and t["file"] == "main.go" and t["line_start"] == 5
        assert moved["anchoredSymbol"] == "Server.Start"
        assert len(t["comments"]) == 2 and t["history"][-1]["event"] == "moved"
        is_error, data, _ = await call(s, "move_comment", {"sourceFile": "main.go", "targetFile": "main.go",
                                                           "commentId": cid, "targetLine": 99})
        assert data["error"]["code"] == "INVALID_ANCHOR" and data["error"]["field"] == "targetLine"


async def test_export_comments_returns_a_resource_link_to_the_export_folder(workspace):
    async with stdio_session(workspace) as s:
        await _add(s)
        res = await s.call_tool("export_comments", {"format": "jsonl", "options": {"contextLines": 2}})
        assert not res.is_error
        link = next(c for c in res.content if c.type == "resource_link")
        data = res.structured_content
        assert data["totalComments"] == 1 and data["path"].startswith(".limpet/exports/")
        assert (workspace / data["path"]).exists() and link.uri == data["uri"]
        res = await s.call_tool("export_comments", {"format": "parquet"})
        assert [c.type for c in res.content] == ["text", "resource_link"]
        res = await s.call_tool("export_comments", {"format": "csv"})
        assert res.is_error
