"""Changes other processes make (the CLI, an agent over MCP) reach the open documents.

How fast is measured in benchmarks/bench_lsp.py (target: within 1 s); these tests wait with a
generous bound and check what arrives."""

from __future__ import annotations

import json
import subprocess

import pytest
from lsp_support import diagnostics_until, edit, lines_of, open_document
from lsprotocol import types as lsp
from support import limpet_argv, stdio_session

pytestmark = pytest.mark.asyncio

AUTH = "src/auth.py"


def cli(workspace, *args: str) -> dict:
    out = subprocess.run([*limpet_argv(), "--workspace", str(workspace), *args, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


async def test_threads_the_cli_adds_and_resolves_appear_in_open_documents(editor, workspace):
    uri = open_document(editor, workspace, AUTH)
    added = cli(workspace, "add", f"{AUTH}:17-18", "Name this better", "--tag", "TODO")["thread"]
    (d,) = await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    assert d.code == added["id"] and lines_of(d) == (17, 18)
    cli(workspace, "resolve", added["id"], "--decision", "Renamed")
    (d,) = await diagnostics_until(editor, uri, lambda d: d and d[0].data["status"] == "resolved")
    assert "(resolved: Renamed)" in d.message


async def test_a_thread_added_elsewhere_lands_where_the_unsaved_buffer_has_its_code(editor, workspace):
    uri = open_document(editor, workspace, AUTH)
    edit(editor, uri, (0, 0), (0, 0), "# unsaved\n")
    cli(workspace, "add", f"{AUTH}:17-18", "Name this better")  # lines of the saved file
    (d,) = await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    assert lines_of(d) == (18, 19)  # one line down, as in the buffer


async def test_an_agent_writing_over_mcp_is_seen_by_the_editor(editor, workspace):
    uri = open_document(editor, workspace, AUTH)
    async with stdio_session(workspace) as agent:
        result = await agent.call_tool("comment_add", {"file": AUTH, "line_start": 10, "line_end": 14,
                                                       "body": "Constant-time compare", "tag": "FIXME"})
        thread_id = result.structured_content["thread"]["id"]
        (d,) = await diagnostics_until(editor, uri, lambda d: len(d) == 1)
        assert d.code == thread_id and d.message == "FIXME: Constant-time compare"
        await agent.call_tool("comment_reply", {"thread_id": thread_id, "body": "Use hmac.compare_digest"})
        await diagnostics_until(editor, uri, lambda d: "[1 reply]" in d[0].message)


async def test_saving_the_file_keeps_the_threads_where_the_editor_showed_them(editor, workspace, service):
    t = service.add(AUTH, 17, 18, "Name this better")
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    edit(editor, uri, (0, 0), (0, 0), "# one\n# two\n")
    await diagnostics_until(editor, uri, lambda d: lines_of(d[0]) == (19, 20))
    path = workspace / AUTH
    path.write_text("# one\n# two\n" + path.read_text())  # the editor saves
    editor.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    (d,) = await diagnostics_until(editor, uri, lambda d: lines_of(d[0]) == (19, 20))
    assert service.get(t.id).anchor.line_start == 19  # the store followed the saved file
