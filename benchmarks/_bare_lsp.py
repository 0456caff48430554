"""The reference: a bare pygls server (same library, same incremental document sync) that
answers each didChange with one diagnostic, over stdio."""

from __future__ import annotations

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

server = LanguageServer("bare", "0", text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
    doc = server.workspace.get_text_document(params.text_document.uri)  # the change is applied to it
    server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
        uri=doc.uri, version=params.text_document.version,
        diagnostics=[lsp.Diagnostic(range=lsp.Range(start=lsp.Position(0, 0), end=lsp.Position(0, 1)),
                                    message="echo", severity=lsp.DiagnosticSeverity.Information)]))


if __name__ == "__main__":
    server.start_io()
