"""Writing from the editor: code actions and the limpet.* commands they run."""

from __future__ import annotations

import subprocess

import pytest
from lsp_support import code_actions, diagnostics_until, edit, lines_of, open_document, run_command
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from support import limpet_argv

pytestmark = pytest.mark.asyncio

AUTH = "src/auth.py"


def selection(first: int, last: int) -> dict:
    """Lines first..last (0-based), selected linewise as editors report it."""
    return {"start": {"line": first, "character": 0}, "end": {"line": last + 1, "character": 0}}


async def test_add_thread_on_a_selection_as_the_editors_person(editor, workspace, service):
    uri = open_document(editor, workspace, AUTH)
    result = await run_command(editor, "limpet.addThread", {"uri": uri, "range": selection(16, 17),
                                                            "body": "Name this better", "tag": "TODO"})
    thread = result["thread"]
    assert (thread["line_start"], thread["line_end"], thread["symbol"]) == (17, 18, "helper")
    assert (thread["author"], thread["author_type"]) == ("tester", "human")
    stored = service.get(thread["id"])
    assert stored.body == "Name this better" and stored.tag == "TODO"
    (d,) = await diagnostics_until(editor, uri, lambda d: len(d) == 1)  # shown at once
    assert d.code == thread["id"] and lines_of(d) == (17, 18)


async def test_a_selection_below_unsaved_edits_lands_on_the_saved_lines(editor, workspace, service):
    uri = open_document(editor, workspace, AUTH)
    edit(editor, uri, (0, 0), (0, 0), "# a\n# b\n")  # the buffer is two lines ahead of the file
    result = await run_command(editor, "limpet.addThread", {"uri": uri, "range": selection(18, 19),
                                                            "body": "Name this better"})
    assert (result["thread"]["line_start"], result["thread"]["symbol"]) == (17, "helper")
    (d,) = await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    assert lines_of(d) == (19, 20)  # where the editor has it


async def test_a_selection_inside_unsaved_edits_is_refused_until_saved(editor, workspace, service):
    uri = open_document(editor, workspace, AUTH)
    edit(editor, uri, (16, 0), (16, 0), "def fresh():\n    pass\n\n")
    with pytest.raises(JsonRpcException) as caught:
        await run_command(editor, "limpet.addThread", {"uri": uri, "range": selection(16, 17), "body": "New"})
    assert caught.value.data["code"] == "INVALID_ARGUMENT" and caught.value.data["field"] == "range"
    assert "save the file" in caught.value.message
    assert service.threads() == []


async def test_commands_without_the_text_they_need_say_which_argument(editor, workspace, service):
    uri = open_document(editor, workspace, AUTH)
    with pytest.raises(JsonRpcException) as caught:
        await run_command(editor, "limpet.addThread", {"uri": uri, "range": selection(16, 17)})
    assert caught.value.data["field"] == "body"
    with pytest.raises(JsonRpcException) as caught:
        await run_command(editor, "limpet.addThread", {"uri": uri, "range": selection(16, 17), "body": "x" * 10_001})
    assert caught.value.data["code"] == "INVALID_ARGUMENT" and caught.value.data["field"] == "body"
    with pytest.raises(JsonRpcException) as caught:
        await run_command(editor, "limpet.resolve", {"thread": "c_1"})
    assert caught.value.data["code"] == "INVALID_ARGUMENT"
    with pytest.raises(JsonRpcException) as caught:
        await run_command(editor, "limpet.resolve", {"threadId": "c_404"})
    assert caught.value.code == -32002 and caught.value.data["code"] == "THREAD_NOT_FOUND"
    assert caught.value.data["field"] == "thread_id"


async def test_reply_resolve_and_reopen_update_what_the_editor_shows(editor, workspace, service):
    t = service.add(AUTH, 10, 14, "Handle expired tokens", tag="FIXME", author="claude")
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    await run_command(editor, "limpet.reply", {"threadId": t.id, "body": "Where?"})
    await diagnostics_until(editor, uri, lambda d: "[1 reply]" in d[0].message)
    done = await run_command(editor, "limpet.resolve", {"threadId": t.id, "decision": "Checked upstream"})
    assert done["thread"]["decision"]["summary"] == "Checked upstream"
    (d,) = await diagnostics_until(editor, uri, lambda d: d[0].data["status"] == "resolved")
    assert d.severity == lsp.DiagnosticSeverity.Hint
    await run_command(editor, "limpet.reopen", {"threadId": t.id})
    (d,) = await diagnostics_until(editor, uri, lambda d: d[0].data["status"] == "open")
    assert d.severity == lsp.DiagnosticSeverity.Error
    stored = service.get(t.id)
    assert [c.author for c in stored.comments] == ["claude", "tester"] and stored.decision.decider == "tester"


async def test_an_orphan_is_reattached_to_the_selection(editor, workspace, service):
    t = service.add(AUTH, 17, 18, "Name this better")
    path = workspace / AUTH
    path.write_text(path.read_text().replace("def helper(x):\n    return x * 2\n", "def double(y):\n    return y + y\n"))
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: d and d[0].data["health"] == "orphaned")
    actions = code_actions(await editor.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=lsp.Range(start=lsp.Position(16, 0),
                                                                            end=lsp.Position(16, 5)),
        context=lsp.CodeActionContext(diagnostics=[]))))
    (reattach,) = [a for a in actions if a[0].startswith(f"limpet: re-attach orphan {t.id}")]
    assert reattach[1] == "limpet.reattach"
    await run_command(editor, reattach[1], reattach[2][0])
    (d,) = await diagnostics_until(editor, uri, lambda d: d[0].data["health"] == "anchored")
    assert lines_of(d) == (17, 18)
    moved = service.get(t.id)
    assert (moved.health, moved.anchor.symbol, moved.history[-1].event) == ("anchored", "double", "moved")


async def test_code_actions_offer_adding_and_what_fits_the_threads_under_the_selection(editor, workspace, service):
    t = service.add(AUTH, 10, 14, "Handle expired tokens", tag="FIXME")
    closed = service.add(AUTH, 17, 18, "Fine")
    service.resolve(closed.id)
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 2)
    actions = code_actions(await editor.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        range=lsp.Range(start=lsp.Position(12, 0), end=lsp.Position(17, 3)),
        context=lsp.CodeActionContext(diagnostics=[]))))
    titles = [a[0] for a in actions]
    assert titles == [
        "limpet: add a thread on lines 13–18",
        f"limpet: resolve {t.id} (FIXME: Handle expired tokens)",
        f"limpet: reply to {t.id} (FIXME: Handle expired tokens)",
        f"limpet: open {t.id} in the web page",
        f"limpet: reopen {closed.id} (NOTE: Fine)",
        f"limpet: reply to {closed.id} (NOTE: Fine)",
        f"limpet: open {closed.id} in the web page",
    ]
    _, command, arguments = actions[0]
    assert command == "limpet.addThread" and "body" not in arguments[0]  # the client asks for it
    assert arguments[0]["range"] == {"start": {"line": 12, "character": 0}, "end": {"line": 17, "character": 3}}


@pytest.mark.parametrize("editor", [{"pageUrl": "http://127.0.0.1:9999/"}], indirect=True)
async def test_open_in_page_shows_the_page_at_the_thread(editor, workspace, service):
    t = service.add(AUTH, 10, 14, "Handle expired tokens")
    result = await run_command(editor, "limpet.openInPage", {"threadId": t.id})
    assert result == {"url": "http://127.0.0.1:9999/#src%2Fauth.py:10"}
    (shown,) = editor.shown_documents
    assert shown.uri == result["url"] and shown.external is True


async def test_open_in_page_finds_the_running_page_of_this_workspace(editor, workspace, service):
    server = subprocess.Popen([*limpet_argv(), "serve", "--http", "--workspace", str(workspace)],
                              stdout=subprocess.PIPE, text=True)
    try:
        banner = server.stdout.readline() + server.stdout.readline()
        base = banner.split("web page:", 1)[1].split()[0].rstrip("/")
        uri = open_document(editor, workspace, AUTH)
        result = await run_command(editor, "limpet.openInPage", {"uri": uri, "range": selection(16, 17)})
        assert result == {"url": f"{base}/#src%2Fauth.py:17"}
    finally:
        server.terminate()
        server.wait(timeout=10)


async def test_open_in_page_without_a_page_says_how_to_start_one(editor, workspace, service):
    t = service.add(AUTH, 10, 14, "Handle expired tokens")
    result = await run_command(editor, "limpet.openInPage", {"threadId": t.id})
    assert result == {"url": None}
    assert "limpet serve --http" in editor.messages[-1].message
