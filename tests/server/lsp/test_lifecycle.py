"""Starting the server: which workspace it serves, its options, bad input, positions in the
client's units."""

from __future__ import annotations

import json
import subprocess

import pytest
from lsp_support import by_thread, diagnostics_until, open_document, start_editor
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, client_capabilities
from support import limpet_argv

AUTH = "src/auth.py"


@pytest.mark.asyncio
async def test_bad_options_fail_initialize_with_the_field_named(workspace):
    with pytest.raises(JsonRpcException) as caught:
        await start_editor(workspace, {"debounceMs": -5})
    assert caught.value.data["code"] == "INVALID_ARGUMENT" and caught.value.data["field"] == "debounceMs"


@pytest.mark.asyncio
async def test_a_missing_workspace_fails_initialize_as_file_not_found(tmp_path):
    with pytest.raises(JsonRpcException) as caught:
        await start_editor(tmp_path / "gone")
    assert caught.value.data["code"] == "FILE_NOT_FOUND"


@pytest.mark.asyncio
async def test_the_workspace_option_wins_over_the_editors_root(workspace, service, tmp_path):
    t = service.add(AUTH, 17, 18, "Name this better")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    editor = await ClientServerConfig(server_command=[*limpet_argv(), "lsp", "--workspace", str(workspace)]).start()
    try:
        await editor.initialize_session(lsp.InitializeParams(capabilities=client_capabilities("neovim"),
                                                             root_uri=elsewhere.as_uri()))
        uri = open_document(editor, workspace, AUTH)
        (d,) = await diagnostics_until(editor, uri, lambda d: len(d) == 1)
        assert d.code == t.id
    finally:
        await editor.shutdown_session()
        await editor.stop()


@pytest.mark.asyncio
async def test_ranges_count_characters_in_the_clients_units(editor, workspace, service):
    (workspace / "src/emoji.py").write_text('def smile():\n    return "😀😀 é"\n')
    t = service.add("src/emoji.py", 1, 2, "Which emoji?")
    uri = open_document(editor, workspace, "src/emoji.py")
    d = by_thread(await diagnostics_until(editor, uri, lambda d: len(d) == 1))[t.id]
    assert d.range.end.line == 1 and d.range.end.character == len('    return "') + 4 + len(' é"')  # UTF-16


@pytest.mark.asyncio
async def test_malformed_notifications_and_requests_leave_the_server_serving(editor, workspace, service):
    service.add(AUTH, 17, 18, "Name this better")
    editor.text_document_did_change(lsp.DidChangeTextDocumentParams(  # a document never opened
        text_document=lsp.VersionedTextDocumentIdentifier(uri=(workspace / "main.go").as_uri(), version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text="x")]))
    with pytest.raises(JsonRpcException):
        await editor.protocol.send_request_async("limpet/threads", ["not", "an", "object"])
    with pytest.raises(JsonRpcException):
        await editor.workspace_execute_command_async(lsp.ExecuteCommandParams(command="limpet.resolve",
                                                                              arguments=["c_1", "c_2"]))
    uri = open_document(editor, workspace, AUTH)
    await diagnostics_until(editor, uri, lambda d: len(d) == 1)


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read(stream) -> dict:
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


def test_a_request_with_params_of_the_wrong_shape_gets_an_error_answer(workspace):
    server = subprocess.Popen([*limpet_argv(), "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=workspace)
    try:
        server.stdin.write(b"".join(map(_frame, [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"processId": None, "rootUri": workspace.as_uri(), "capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": [1, 2]},
            {"jsonrpc": "2.0", "id": 3, "method": "workspace/symbol", "params": {"query": ""}}])))
        server.stdin.flush()
        answers: dict = {}
        while 3 not in answers:
            message = _read(server.stdout)
            if "id" in message and "method" not in message:
                answers[message["id"]] = message
        assert answers[2]["error"]["code"] == -32602 and "textDocument/hover" in answers[2]["error"]["message"]
        assert answers[3]["result"] == []  # still serving
    finally:
        server.stdin.close()  # the editor went away: the server ends
        assert server.wait(timeout=60) == 0
