"""Seed 004's tools end to end over stdio with the official client."""

from __future__ import annotations

import base64
import json
import subprocess

import pytest
from mcp.shared.exceptions import MCPError
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
        # The old text is gone from the thread and from its file (a pasted secret can be taken out).
        assert edited["thread"]["history"][-1] == {**edited["thread"]["history"][-1], "event": "edited", "by": "ai"}
        thread_file = workspace / ".limpet" / "threads" / f"{cid}.jsonl"
        assert b"rate limiting" not in thread_file.read_bytes()
        # An agent names itself on every write; without an author it is "ai".
        _, edited, _ = await call(s, "edit_comment", {"filePath": "src/auth.py", "commentId": cid,
                                                      "text": "Use Redis, 5/min", "author": "claude"})
        assert edited["thread"]["history"][-1]["by"] == "claude"
        _, moved, _ = await call(s, "move_comment", {"sourceFile": "src/auth.py", "targetFile": "src/auth.py",
                                                     "commentId": cid, "targetLine": 1, "author": "claude"})
        assert moved["thread"]["history"][-1]["event"] == "moved" and moved["thread"]["history"][-1]["by"] == "claude"
        is_error, _, _ = await call(s, "delete_comment", {"filePath": "src/auth.py", "commentId": cid,
                                                          "author": "claude"})
        assert not is_error
        tombstone = [json.loads(line) for line in thread_file.read_bytes().splitlines()]
        assert [(e["event"], e["by"]) for e in tombstone] == [("deleted", "claude")]
        assert b"Redis" not in thread_file.read_bytes()
        is_error, data, _ = await call(s, "delete_comment", {"filePath": "src/auth.py", "commentId": cid})
        assert data["error"]["code"] == "THREAD_NOT_FOUND" and data["error"]["details"]["rpc_code"] == -32002
        is_error, data, _ = await call(s, "edit_comment", {"filePath": "src/auth.py", "commentId": "x1", "text": "y"})
        assert data["error"]["code"] == "INVALID_ARGUMENT" and data["error"]["field"] == "commentId"
        is_error, data, _ = await call(s, "edit_comment", {"filePath": "../auth.py", "commentId": cid, "text": "y"})
        assert data["error"]["code"] == "INVALID_PATH" and data["error"]["field"] == "filePath"


async def test_search_regex_filters_limit_and_bad_patterns(workspace):
    async with stdio_session(workspace) as s:
        await _add(s, text="Add rate limiting", aiMeta=AI)
        await _add(s, line=17, text="rate LIMIT here too", tag="FIXME")
        await _add(s, line=1, text="unrelated", tag="NOTE")
        _, data, _ = await call(s, "search_comments", {"query": "rate limit"})
        assert data["totalResults"] == 2
        _, data, _ = await call(s, "search_comments", {"query": "rate", "filters": {"tag": "TODO", "hasAIMetadata": True}})
        assert [t["comments"][0]["body"] for t in data["results"]] == ["Add rate limiting"]
        _, data, _ = await call(s, "search_comments", {"query": ".", "limit": 1})  # stops at the limit
        assert len(data["results"]) == data["totalResults"] == 1 and data["hasMore"] is True
        _, data, _ = await call(s, "search_comments", {"query": r"\brate\b", "limit": 2})
        assert data["totalResults"] == 2 and data["hasMore"] is False
        _, data, _ = await call(s, "search_comments", {"query": ".", "filters": {"filePath": "src/**/*.py",
                                                                                 "dateRange": {"start": "2000-01-01"}}})
        assert data["totalResults"] == 3
        _, data, _ = await call(s, "search_comments", {"query": ".", "filters": {"filePath": "./src/auth.py",
                                                                                 "dateRange": {"end": "2000-01-01"}}})
        assert data["totalResults"] == 0 and data["filters"]["dateRange"]["end"] == "2000-01-01T23:59:59.999Z"
        is_error, data, _ = await call(s, "search_comments", {"query": ".", "filters": {"dateRange": {"start": "soon"}}})
        assert is_error and data["error"]["field"] == "filters.dateRange.start"
        is_error, data, _ = await call(s, "search_comments", {"query": ".", "filters": {"filePath": "../x.py"}})
        assert data["error"]["code"] == "INVALID_PATH"
        is_error, data, _ = await call(s, "search_comments", {"query": "(unclosed"})
        assert is_error and data["error"]["code"] == "INVALID_ARGUMENT" and data["error"]["field"] == "query"
        is_error, data, _ = await call(s, "search_comments", {"query": "x", "limit": 1001})
        assert data["error"]["field"] == "limit"


async def test_catastrophic_pattern_is_bounded_in_time(workspace):
    async with stdio_session(workspace) as s:
        await _add(s, text="x" * 9000 + "!")
        is_error, data, _ = await call(s, "search_comments", {"query": "(x+x+)+y"})  # linear on RE2
        assert not is_error and data["results"] == []
        for query in ("a{10000000}", "(?:(?:(?:a{999}){999}){999})", r"(x)\1", "x(?=!)"):
            is_error, data, _ = await call(s, "search_comments", {"query": query})
            assert is_error and data["error"]["code"] == "INVALID_ARGUMENT" and data["error"]["field"] == "query"
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
        _, data, _ = await call(s, "get_file_comments", {"filePath": "src/app.ts"})
        assert data["commentCount"] == 0 and data["comments"] == [] and data["summary"] == {}
        is_error, data, _ = await call(s, "get_file_comments", {"filePath": "src/missing.ts"})
        assert data["error"]["code"] == "FILE_NOT_FOUND" and data["error"]["field"] == "filePath"
        (workspace / "src" / "auth.py").unlink()  # a deleted file's threads stay listable, orphaned
        _, data, _ = await call(s, "get_file_comments", {"filePath": "src/auth.py"})
        assert data["commentCount"] == data["orphanedCount"] == 2


async def test_move_comment_keeps_id_comments_and_history(workspace):
    async with stdio_session(workspace) as s:
        cid = (await _add(s))["commentId"]
        await call(s, "comment_reply", {"thread_id": cid, "body": "agreed"})
        _, moved, _ = await call(s, "move_comment", {"sourceFile": "src/auth.py", "targetFile": "main.go",
                                                     "commentId": cid, "targetLine": 5})
        t = moved["thread"]
        assert t["id"] == cid and t["file"] == "main.go" and t["line_start"] == 5
        assert moved["anchoredSymbol"] == "Server.Start"
        assert moved["movedFrom"] == {"filePath": "src/auth.py", "line": 11}
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
        embedded = next(c for c in res.content if c.type == "resource")  # small text exports are inlined too
        assert embedded.resource.text == (workspace / data["path"]).read_text()
        read = await s.read_resource(link.uri)  # the link resolves over MCP
        assert read.contents[0].text == embedded.resource.text
        res = await s.call_tool("export_comments", {"format": "parquet", "filePath": "src/*.py"})
        assert [c.type for c in res.content] == ["text", "resource_link"]
        blob = (await s.read_resource(res.content[1].uri)).contents[0].blob
        assert base64.b64decode(blob)[:4] == b"PAR1"
        res = await s.call_tool("export_comments", {"format": "csv"})
        assert res.is_error and res.structured_content["error"]["field"] == "format"
        for bad in ("export://../threads/x.json", "export://nothing-here.json"):
            with pytest.raises(MCPError):
                await s.read_resource(bad)


async def test_serve_tools_selects_groups(workspace, limpet_cmd):
    expected = {
        "feedback": {"get_feedback", "resolve_feedback", "get_feedback_summary"},
        "threads,paired": {"comment_add", "comment_list", "comment_show", "comment_reply", "comment_resolve",
                           "comment_reopen", "comment_reconcile", "add_comment", "edit_comment", "delete_comment",
                           "search_comments", "get_file_comments", "move_comment", "export_comments"},
    }
    for groups, names in expected.items():
        async with stdio_session(workspace, "--tools", groups) as s:
            assert {t.name for t in (await s.list_tools()).tools} == names
            if "threads" in groups:
                assert (await call(s, "comment_show", {"thread_id": "c_1"}))[1]["error"]["code"] == "THREAD_NOT_FOUND"
            else:  # a tool of another group is not there at all
                with pytest.raises(MCPError, match="Unknown tool"):
                    await s.call_tool("comment_show", {"thread_id": "c_1"})
    async with stdio_session(workspace) as s:
        names = {t.name for t in (await s.list_tools()).tools}
    assert names >= expected["feedback"] | expected["threads,paired"] | {"present_review", "get_selection"}
    bad = subprocess.run([*limpet_cmd, "serve", "--tools", "threads,bogus"], cwd=workspace, capture_output=True,
                         text=True, stdin=subprocess.DEVNULL)
    assert bad.returncode == 2 and "bogus" in bad.stderr
