"""Threads of an open document are diagnostics, and they follow the editor's unsaved text."""

from __future__ import annotations

import pytest
from lsp_support import by_thread, diagnostics_until, edit, lines_of, open_document, plain, uri_of
from lsprotocol import types as lsp

pytestmark = pytest.mark.asyncio

AUTH = "src/auth.py"


async def test_each_thread_is_a_diagnostic_with_severity_from_its_tag(editor, workspace, service):
    fixme = service.add(AUTH, 10, 14, "Compare digests in constant time", tag="FIXME")
    todo = service.add(AUTH, 17, 18, "Name this better", tag="TODO")
    note = service.add(AUTH, 7, 8, "Why keep the secret?", tag="QUESTION")
    star = service.add(AUTH, 1, 1, "Good import", tag="STAR")
    uri = open_document(editor, workspace, AUTH)
    shown = by_thread(await diagnostics_until(editor, uri, lambda d: len(d) == 4))
    assert shown[fixme.id].severity == lsp.DiagnosticSeverity.Error
    assert shown[todo.id].severity == lsp.DiagnosticSeverity.Warning
    assert shown[note.id].severity == lsp.DiagnosticSeverity.Information
    assert shown[star.id].severity == lsp.DiagnosticSeverity.Hint
    d = shown[fixme.id]
    assert (d.source, d.message) == ("limpet", "FIXME: Compare digests in constant time")
    assert lines_of(d) == (10, 14) and d.range.start.character == 0
    assert d.range.end.character == len("        return digest == self.secret")  # the whole last line
    assert d.data == {"threadId": fixme.id, "tag": "FIXME", "status": "open", "health": "anchored"}


async def test_replies_and_a_decision_are_said_and_a_closed_thread_is_a_hint(editor, workspace, service):
    t = service.add(AUTH, 10, 14, "Handle expired tokens", tag="FIXME")
    service.reply(t.id, "On it")
    service.resolve(t.id, decision="Expiry checked in the middleware")
    uri = open_document(editor, workspace, AUTH)
    (d,) = await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    assert d.severity == lsp.DiagnosticSeverity.Hint
    assert d.message == "FIXME: Handle expired tokens [1 reply] (resolved: Expiry checked in the middleware)"


@pytest.mark.parametrize("editor", [{"showResolved": False}], indirect=True)
async def test_show_resolved_false_leaves_closed_threads_out(editor, workspace, service):
    closed = service.add(AUTH, 10, 14, "Done already")
    service.resolve(closed.id)
    open_one = service.add(AUTH, 17, 18, "Still open")
    uri = open_document(editor, workspace, AUTH)
    shown = await diagnostics_until(editor, uri, lambda d: len(d) >= 1)
    assert [d.code for d in shown] == [open_one.id]


async def test_a_drifted_thread_says_its_code_changed(editor, workspace, service):
    t = service.add(AUTH, 17, 18, "Name this better", tag="TODO")
    path = workspace / AUTH
    path.write_text(path.read_text().replace("return x * 2", "return x * 3"))
    uri = open_document(editor, workspace, AUTH)
    (d,) = await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    assert d.message.endswith("(drifted: the code changed since)")
    assert d.data["health"] == "drifted" and d.code == t.id


async def test_an_orphaned_thread_marks_only_where_it_was_last_seen(editor, workspace, service):
    t = service.add(AUTH, 17, 18, "Name this better", tag="TODO")
    path = workspace / AUTH
    path.write_text(path.read_text().replace("def helper(x):\n    return x * 2\n", ""))
    uri = open_document(editor, workspace, AUTH)
    (d,) = await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    assert "(orphaned: its code is gone; last seen here)" in d.message and d.data["health"] == "orphaned"
    assert d.range.start.line == d.range.end.line and d.code == t.id


async def test_positions_follow_unsaved_edits_and_nothing_is_persisted(editor, workspace, service):
    t = service.add(AUTH, 17, 18, "Name this better")
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    edit(editor, uri, (0, 0), (0, 0), "# one\n# two\n# three\n")  # three lines above everything
    (d,) = await diagnostics_until(editor, uri, lambda d: lines_of(d[0]) == (20, 21))
    assert d.data["health"] == "anchored"
    assert service.get(t.id).anchor.line_start == 17  # the saved file has not changed
    assert (workspace / AUTH).read_text().startswith("import hashlib")


async def test_an_edit_inside_a_thread_makes_it_drifted_in_the_buffer(editor, workspace, service):
    t = service.add(AUTH, 17, 18, "Name this better")
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    edit(editor, uri, (17, 15), (17, 16), "3")  # `return x * 2` → `return x * 3`
    (d,) = await diagnostics_until(editor, uri, lambda d: d[0].data["health"] == "drifted")
    assert lines_of(d) == (17, 18)
    edit(editor, uri, (17, 15), (17, 16), "2")  # undone
    await diagnostics_until(editor, uri, lambda d: d[0].data["health"] == "anchored")
    assert service.get(t.id).health == "anchored"


async def test_code_deleted_in_the_buffer_orphans_its_thread_until_it_comes_back(editor, workspace, service):
    service.add(AUTH, 10, 14, "Handle expired tokens")
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    edit(editor, uri, (9, 0), (15, 0), "")  # validate_token and the blank line after it
    await diagnostics_until(editor, uri, lambda d: d[0].data["health"] == "orphaned")
    edit(editor, uri, (9, 0), (9, 0), "    def validate_token(self, token):\n        if not token:\n"
                                       "            return False\n        digest = hashlib.sha256(token.encode())"
                                       ".hexdigest()\n        return digest == self.secret\n\n")
    (d,) = await diagnostics_until(editor, uri, lambda d: d[0].data["health"] == "anchored")
    assert lines_of(d) == (10, 14)


async def test_code_moved_down_in_the_buffer_is_followed(editor, workspace, service):
    t = service.add(AUTH, 17, 18, "Name this better")
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    helper = "def helper(x):\n    return x * 2\n"
    edit(editor, uri, (16, 0), (18, 0), "")  # cut from the end ...
    edit(editor, uri, (1, 0), (1, 0), "\n" + helper)  # ... pasted under the import
    (d,) = await diagnostics_until(editor, uri, lambda d: lines_of(d[0]) == (3, 4))
    assert d.data["health"] == "anchored" and d.code == t.id


async def test_a_whole_text_change_is_placed_by_the_engine(editor, workspace, service):
    service.add(AUTH, 17, 18, "Name this better")
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    text = "\n\n" + (workspace / AUTH).read_text()
    editor.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=7),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    await diagnostics_until(editor, uri, lambda d: lines_of(d[0]) == (19, 20))


async def test_closing_a_document_clears_its_diagnostics(editor, workspace, service):
    service.add(AUTH, 17, 18, "Name this better")
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    editor.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri=uri)))
    await diagnostics_until(editor, uri, lambda d: len(d) == 0)


async def test_documents_outside_the_workspace_are_left_alone(editor, workspace, tmp_path, service):
    outside = tmp_path / "elsewhere.py"
    outside.write_text("x = 1\n")
    editor.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=outside.as_uri(), language_id="python", version=1, text="x = 1\n")))
    editor.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri="untitled:Untitled-1", language_id="python", version=1, text="y\n")))
    service.add(AUTH, 17, 18, "Name this better")
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)  # still serving
    assert outside.as_uri() not in editor.diagnostics and "untitled:Untitled-1" not in editor.diagnostics
    listing = plain(await editor.protocol.send_request_async("limpet/threads", {}))
    assert listing["count"] == 1
    assert uri == uri_of(workspace, AUTH)
