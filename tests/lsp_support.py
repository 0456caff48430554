"""Helpers for the editor tests (tests/server/lsp, the Neovim test, the LSP benchmark):
pytest-lsp's client (a real LSP client over stdio) started on a workspace, opening and
editing documents, waiting for diagnostics, running commands."""

from __future__ import annotations

import ast
import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from support import limpet_argv

PUBLISH = lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS


async def start_editor(workspace: Path, options: dict[str, Any] | None = None,
                       client: str = "visual-studio-code") -> LanguageClient:
    editor = await ClientServerConfig(server_command=[*limpet_argv(), "lsp"]).start()
    editor.refreshes = []  # the views (code lenses, inlay hints) the server asked to refresh

    @editor.feature(lsp.WORKSPACE_CODE_LENS_REFRESH)
    def lens_refresh(_params: Any) -> None:
        editor.refreshes.append("codeLens")

    @editor.feature(lsp.WORKSPACE_INLAY_HINT_REFRESH)
    def hint_refresh(_params: Any) -> None:
        editor.refreshes.append("inlayHint")

    await editor.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities(client), root_uri=workspace.as_uri(),
        workspace_folders=[lsp.WorkspaceFolder(uri=workspace.as_uri(), name=workspace.name)],
        initialization_options=options))
    return editor


def uri_of(workspace: Path, rel: str) -> str:
    return (workspace / rel).as_uri()


def open_document(editor: LanguageClient, workspace: Path, rel: str, text: str | None = None) -> str:
    uri = uri_of(workspace, rel)
    content = (workspace / rel).read_text() if text is None else text
    editor.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=content)))
    return uri


_versions: dict[str, int] = {}


def edit(editor: LanguageClient, uri: str, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
    """One incremental change, as editors send them (0-based line, character)."""
    _versions[uri] = version = _versions.get(uri, 1) + 1
    editor.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(*start), end=lsp.Position(*end)), text=text)]))


async def diagnostics_until(editor: LanguageClient, uri: str,
                            ready: Callable[[Sequence[lsp.Diagnostic]], bool],
                            timeout: float = 15) -> Sequence[lsp.Diagnostic]:
    """The document's diagnostics once `ready` says so (a generous bound, not a speed check:
    benchmarks/bench_lsp.py measures how fast)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        current = editor.diagnostics.get(uri)
        if current is not None and ready(current):
            return current
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise AssertionError(f"the diagnostics of {uri} never became ready; last: {current}")
        try:
            await asyncio.wait_for(editor.wait_for_notification(PUBLISH), min(remaining, 0.25))
        except TimeoutError:
            pass


def by_thread(diagnostics: Sequence[lsp.Diagnostic]) -> dict[str, lsp.Diagnostic]:
    return {d.code: d for d in diagnostics}


def lines_of(d: lsp.Diagnostic) -> tuple[int, int]:
    """1-based first and last line of a diagnostic (as limpet and people count)."""
    return d.range.start.line + 1, d.range.end.line + 1


async def run_command(editor: LanguageClient, command: str, argument: Any) -> Any:
    return await editor.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command=command, arguments=[argument]))


def plain(value: Any) -> Any:
    """pygls gives a custom request's result as namedtuples: back to JSON values."""
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def code_actions(result: Sequence[Any]) -> list[tuple[str, str, list[Any]]]:
    """(title, command, arguments) of each code action. pygls' client reads a CodeAction that
    carries a command as a Command whose `command` is the text of that object: undone here."""
    out = []
    for action in result:
        command, arguments = action.command, list(getattr(action, "arguments", None) or [])
        if isinstance(command, str) and command.startswith("{"):
            inner = ast.literal_eval(command)
            command, arguments = inner["command"], inner["arguments"]
        elif isinstance(command, lsp.Command):
            command, arguments = command.command, list(command.arguments or [])
        out.append((action.title, command, arguments))
    return out
