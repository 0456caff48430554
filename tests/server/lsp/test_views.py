"""What an editor shows besides diagnostics: hovers, code lenses, inlay hints, and the two
listings of every thread (workspace/symbol, limpet/threads)."""

from __future__ import annotations

import pytest
from lsp_support import diagnostics_until, edit, open_document, plain, uri_of
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

pytestmark = pytest.mark.asyncio

AUTH = "src/auth.py"


def doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


async def test_hover_shows_the_thread_with_replies_and_decision(editor, workspace, service):
    t = service.add(AUTH, 10, 14, "Handle *expired* tokens", tag="FIXME", author="claude")
    service.reply(t.id, "Done in the middleware", author="ana", author_type="human")
    service.resolve(t.id, decision="Checked upstream", decider="ana")
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    hover = await editor.text_document_hover_async(lsp.HoverParams(doc(uri), lsp.Position(line=11, character=4)))
    text = hover.contents.value
    assert hover.contents.kind == lsp.MarkupKind.Markdown
    assert text.startswith(f"**FIXME** · resolved · anchored — `{t.id}`, lines 10–14 on `AuthService.validate_token`")
    assert "**claude** (agent)" in text and "> Handle *expired* tokens" in text
    assert "↳ **ana**" in text and "> Done in the middleware" in text
    assert "**Decision** (resolved) by ana" in text and "> Checked upstream" in text
    nothing = await editor.text_document_hover_async(lsp.HoverParams(doc(uri), lsp.Position(line=0, character=0)))
    assert nothing is None


async def test_code_lenses_open_the_thread_and_resolve_or_reopen_it(editor, workspace, service):
    t = service.add(AUTH, 10, 14, "Handle expired tokens", tag="TODO")
    closed = service.add(AUTH, 17, 18, "Fine", tag="NOTE")
    service.resolve(closed.id)
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 2)
    lenses = await editor.text_document_code_lens_async(lsp.CodeLensParams(doc(uri)))
    got = [(lens.range.start.line, lens.command.title, lens.command.command, list(lens.command.arguments))
           for lens in lenses]
    assert got == [
        (9, "TODO · open · anchored · 1 comment: Handle expired tokens", "limpet.openInPage", [{"threadId": t.id}]),
        (9, "resolve", "limpet.resolve", [{"threadId": t.id}]),
        (16, "NOTE · resolved · anchored · 1 comment: Fine", "limpet.openInPage", [{"threadId": closed.id}]),
        (16, "reopen", "limpet.reopen", [{"threadId": closed.id}]),
    ]
    assert "codeLens" in editor.refreshes  # the client (which can be asked) was asked to re-request them


async def test_inlay_hints_sit_at_the_end_of_each_threads_first_line(editor, workspace, service):
    service.add(AUTH, 10, 14, "Handle expired tokens\nsecond line", tag="TODO")
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    (hint,) = await editor.text_document_inlay_hint_async(lsp.InlayHintParams(
        doc(uri), lsp.Range(start=lsp.Position(0, 0), end=lsp.Position(30, 0))))
    assert hint.label == "◆ TODO: Handle expired tokens"
    assert (hint.position.line, hint.position.character) == (9, len("    def validate_token(self, token):"))
    assert "Handle expired tokens" in hint.tooltip.value
    none = await editor.text_document_inlay_hint_async(lsp.InlayHintParams(
        doc(uri), lsp.Range(start=lsp.Position(0, 0), end=lsp.Position(5, 0))))
    assert list(none) == []


async def test_workspace_symbols_list_threads_matching_every_word(editor, workspace, service):
    a = service.add(AUTH, 10, 14, "Handle expired tokens", tag="TODO")
    service.add(AUTH, 17, 18, "Rename helper", tag="NOTE")
    b = service.add("main.go", 5, 7, "Handle the port", tag="FIXME")
    symbols = await editor.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="handle"))
    assert sorted(s.name for s in symbols) == ["FIXME: Handle the port", "TODO: Handle expired tokens"]
    (only,) = await editor.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="fixme port"))
    assert only.location.uri == uri_of(workspace, "main.go") and b.id in only.container_name
    assert (only.location.range.start.line, only.location.range.end.line) == (4, 7)  # whole lines 5-7
    everything = await editor.workspace_symbol_async(lsp.WorkspaceSymbolParams(query=""))
    assert len(everything) == 3 and a.id in {s.container_name.split(" · ")[-1] for s in everything}


async def test_limpet_threads_lists_with_filters_and_live_positions(editor, workspace, service):
    a = service.add(AUTH, 17, 18, "Rename helper", tag="NOTE")
    b = service.add("main.go", 5, 7, "Handle the port", tag="FIXME")
    listing = plain(await editor.protocol.send_request_async("limpet/threads", {"tag": "FIXME"}))
    assert (listing["count"], listing["total"], listing["nextCursor"]) == (1, 1, None)
    (t,) = listing["threads"]
    assert t["id"] == b.id and t["file"] == "main.go" and t["live"] is False
    assert t["location"] == {"uri": uri_of(workspace, "main.go"),
                             "range": {"start": {"line": 4, "character": 0}, "end": {"line": 7, "character": 0}}}
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)
    edit(editor, uri, (0, 0), (0, 0), "# new\n")
    await diagnostics_until(editor, uri, lambda d: d[0].range.start.line == 17)
    (live,) = plain(await editor.protocol.send_request_async("limpet/threads", {"file": uri}))["threads"]
    assert live["id"] == a.id and live["live"] is True
    assert live["line_start"] == 17  # the saved position ...
    assert live["location"]["range"]["start"]["line"] == 17  # ... and where the editor shows it (0-based 17 = line 18)


async def test_limpet_threads_pages_as_comment_list_does(editor, workspace, service):
    ids = [service.add(AUTH, line, line, f"Line {line}").id for line in (1, 4, 7, 10)]
    first = plain(await editor.protocol.send_request_async("limpet/threads", {"limit": 3}))
    assert (first["count"], first["total"]) == (3, 4) and first["nextCursor"]
    rest = plain(await editor.protocol.send_request_async("limpet/threads", {"limit": 3,
                                                                            "cursor": first["nextCursor"]}))
    assert [t["id"] for t in first["threads"] + rest["threads"]] == ids and rest["nextCursor"] is None


async def test_limpet_threads_refuses_bad_filters_with_the_contracts_error(editor):
    with pytest.raises(JsonRpcException) as caught:
        await editor.protocol.send_request_async("limpet/threads", {"status": "sleeping"})
    assert caught.value.code == -32602 and caught.value.data["code"] == "INVALID_ARGUMENT"
    assert caught.value.data["field"] == "status"
    with pytest.raises(JsonRpcException) as caught:
        await editor.protocol.send_request_async("limpet/threads", {"file": "../outside.py"})
    assert caught.value.data["code"] == "INVALID_PATH"
