"""comment:// resources and live subscriptions (2025-era subscribe and 2026-era listen) over
real stdio, with changes made by this server, by the CLI (another process) and by an editor."""

from __future__ import annotations

import json
import subprocess
import warnings

import anyio
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.server.subscriptions import ResourcesListChanged, ResourceUpdated
from mcp.shared.exceptions import MCPError
from support import call, limpet_argv, stdio_session

pytestmark = pytest.mark.anyio
FILE_URI = "comment://workspace/src/auth.py.comments"


class Inbox:
    def __init__(self) -> None:
        self.items: list = []

    async def __call__(self, message) -> None:
        self.items.append(getattr(message, "root", message))

    def updated(self) -> list[str]:
        return [str(n.params.uri) for n in self.items if isinstance(n, types.ResourceUpdatedNotification)]

    def list_changed(self) -> int:
        return sum(isinstance(n, types.ResourceListChangedNotification) for n in self.items)

    async def wait_for(self, predicate, seconds: float = 10) -> None:
        with anyio.fail_after(seconds):
            while not predicate():
                await anyio.sleep(0.05)


async def _add(s, file="src/auth.py", start=10, end=14, **extra):
    _, data, _ = await call(s, "comment_add", {"file": file, "line_start": start, "line_end": end, "body": "b",
                                               **extra})
    return data["thread"]["id"]


async def test_every_resource_uri_reads_as_json(workspace):
    async with stdio_session(workspace) as s:
        tid = await _add(s, tag="TODO")
        await call(s, "add_comment", {"filePath": "PLAN.md", "line": 1, "text": "t", "tag": "NOTE",
                                      "aiMeta": {"model": "m", "confidence": 0.5}})
        listed = {str(r.uri) for r in (await s.list_resources()).resources}
        templates = {t.uri_template for t in (await s.list_resource_templates()).resource_templates}
        assert {"comment://workspace/all", "comment://workspace/orphaned", "comment://workspace/ai-enriched",
                "comment://workspace/tags/TODO", FILE_URI, "comment://workspace/PLAN.md.comments"} <= listed
        assert templates == {"comment://workspace/{+filePath}.comments", "comment://workspace/tags/{tag}"}

        async def read(uri):
            res = await s.read_resource(uri)
            assert res.contents[0].mime_type == "application/json"
            return json.loads(res.contents[0].text)

        everything = await read("comment://workspace/all")
        assert everything["totalComments"] == 2 and [f["filePath"] for f in everything["files"]] == ["PLAN.md",
                                                                                                     "src/auth.py"]
        assert (await read(FILE_URI))["comments"][0]["id"] == tid
        assert (await read("comment://workspace/tags/TODO"))["totalComments"] == 1
        assert (await read("comment://workspace/ai-enriched"))["files"][0]["filePath"] == "PLAN.md"
        assert (await read("comment://workspace/orphaned"))["totalComments"] == 0
        for bad, code in [("comment://workspace/../etc/passwd.comments", "INVALID_PATH"),
                          ("comment://workspace/%2e%2e/etc/passwd.comments", "INVALID_PATH"),
                          ("comment://workspace//etc/passwd.comments", "INVALID_PATH"),
                          ("comment://workspace/.git/config.comments", "INVALID_PATH"),
                          ("comment://workspace/tags/BUG", "INVALID_ARGUMENT"),
                          ("comment://elsewhere/all", "INVALID_ARGUMENT")]:
            with pytest.raises(MCPError) as info:
                await s.read_resource(bad)
            assert info.value.code == types.INVALID_PARAMS and info.value.data["error"]["code"] == code, bad


async def test_file_uris_are_percent_encoded_like_the_template(workspace):
    (workspace / "docs").mkdir()
    (workspace / "docs" / "my notes.md").write_text("# Notes\n\nText.\n")
    async with stdio_session(workspace) as s:
        await _add(s, file="docs/my notes.md", start=1, end=1)
        listed = {str(r.uri) for r in (await s.list_resources()).resources}
        uri = "comment://workspace/docs/my%20notes.md.comments"
        assert uri in listed
        doc = json.loads((await s.read_resource(uri)).contents[0].text)
    assert doc["filePath"] == "docs/my notes.md" and doc["totalComments"] == 1


async def test_legacy_subscribe_notified_by_tool_cli_and_editor(workspace, limpet_cmd):
    inbox = Inbox()
    async with stdio_session(workspace, message_handler=inbox) as s:
        tid = await _add(s)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await s.subscribe_resource(FILE_URI)
            await s.subscribe_resource("comment://elsewhere/unknown")  # accepted, never notified
        await anyio.sleep(0.4)
        n = len(inbox.updated())
        await call(s, "comment_reply", {"thread_id": tid, "body": "via tool"})
        await inbox.wait_for(lambda: inbox.updated().count(FILE_URI) > n)
        n = inbox.updated().count(FILE_URI)
        subprocess.run([*limpet_cmd, "reply", tid, "via CLI"], cwd=workspace, check=True, capture_output=True)
        await inbox.wait_for(lambda: inbox.updated().count(FILE_URI) > n)
        n = inbox.updated().count(FILE_URI)
        src = workspace / "src" / "auth.py"
        src.write_text(src.read_text() + "\n# saved by an editor\n")
        await inbox.wait_for(lambda: inbox.updated().count(FILE_URI) > n)
        lc = inbox.list_changed()
        await _add(s, file="main.go", start=5, end=7)  # a new file gains threads
        await inbox.wait_for(lambda: inbox.list_changed() > lc)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await s.unsubscribe_resource(FILE_URI)
        await anyio.sleep(0.4)
        n = inbox.updated().count(FILE_URI)
        await call(s, "comment_reply", {"thread_id": tid, "body": "after unsubscribe"})
        await anyio.sleep(0.8)
        assert inbox.updated().count(FILE_URI) == n
        assert "comment://elsewhere/unknown" not in inbox.updated()


async def _next(sub, wanted, seconds: float = 10) -> None:
    with anyio.fail_after(seconds):
        async for event in sub:
            if event == wanted:
                return


async def test_listen_stream_notified_by_another_process_and_an_editor(workspace, limpet_cmd):
    argv = limpet_argv()
    params = StdioServerParameters(command=argv[0], args=[*argv[1:], "serve", "--workspace", str(workspace)],
                                   cwd=str(workspace))
    async with Client(params) as client:
        assert client.protocol_version >= "2026"
        res = await client.call_tool("comment_add", {"file": "src/auth.py", "line_start": 17, "line_end": 18,
                                                     "body": "b", "tag": "FIXME"})
        tid = res.structured_content["thread"]["id"]
        orphaned, fixme = "comment://workspace/orphaned", "comment://workspace/tags/FIXME"
        async with client.listen(resource_subscriptions=[FILE_URI, orphaned, fixme, "comment://nowhere/x"],
                                 resources_list_changed=True) as sub:
            await anyio.sleep(0.3)
            subprocess.run([*limpet_cmd, "reply", tid, "from the CLI"], cwd=workspace, check=True,
                           capture_output=True)
            await _next(sub, ResourceUpdated(uri=FILE_URI))
            await _next(sub, ResourceUpdated(uri=fixme))
            src = workspace / "src" / "auth.py"  # an editor deletes helper(): the thread is orphaned
            src.write_text(src.read_text().split("\n\ndef helper")[0] + "\n")
            await _next(sub, ResourceUpdated(uri=orphaned))
            subprocess.run([*limpet_cmd, "add", "main.go:5-7", "new file"], cwd=workspace, check=True,
                           capture_output=True)
            await _next(sub, ResourcesListChanged())
        doc = json.loads((await client.read_resource(orphaned)).contents[0].text)
        assert doc["files"][0]["comments"][0]["id"] == tid


async def test_legacy_views_and_list_changed_follow_deletes(workspace):
    inbox = Inbox()
    async with stdio_session(workspace, message_handler=inbox) as s:
        tid = await _add(s, file="main.go", start=5, end=7, tag="STAR")
        views = ["comment://workspace/all", "comment://workspace/tags/STAR", "comment://workspace/ai-enriched"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for uri in views:
                await s.subscribe_resource(uri)
        await anyio.sleep(0.3)
        lc = inbox.list_changed()
        await call(s, "delete_comment", {"filePath": "main.go", "commentId": tid})  # main.go loses its threads
        await inbox.wait_for(lambda: inbox.list_changed() > lc and "comment://workspace/tags/STAR" in inbox.updated())
        assert "comment://workspace/all" in inbox.updated()
        assert "comment://workspace/ai-enriched" not in inbox.updated()  # its content did not change
