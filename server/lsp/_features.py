"""The LSP methods: lifecycle, document sync, and what an editor shows of threads (hover,
code lenses, inlay hints, workspace symbols, the `limpet/threads` listing).

Everything shown of an open document comes from its marks (see _documents), so hovers,
lenses and hints agree with the diagnostics and follow unsaved edits the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from limpet.model import InvalidArgument, InvalidPath, Thread
from limpet.server.lsp._documents import Mark, split_lines
from limpet.server.lsp._protocol import THREADS_REQUEST
from limpet.server.lsp._render import (
    code_lenses,
    first_line,
    hover_markdown,
    inlay_hint,
    lsp_range,
    range_dict,
)
from limpet.server.lsp._server import LimpetServer, rpc_error
from limpet.server.lsp._tracking import Pos, edit_of
from limpet.server.operations import invoke

__all__ = ["THREADS_REQUEST", "register_features"]

_MAX_SYMBOLS = 500


def register_features(ls: LimpetServer) -> None:
    _lifecycle(ls)
    _views(ls)
    _listings(ls)


def _lifecycle(ls: LimpetServer) -> None:
    @ls.feature(lsp.INITIALIZE)
    def initialize(params: lsp.InitializeParams) -> None:
        ls.begin(params)

    @ls.feature(lsp.SHUTDOWN)
    def shutdown(_params: Any) -> None:
        ls.end()

    @ls.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        ls.open(params.text_document.uri, params.text_document.version)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return
        doc.version = params.text_document.version
        tracked = True
        for change in params.content_changes:
            if isinstance(change, lsp.TextDocumentContentChangePartial):
                r = change.range
                doc.shift(edit_of(Pos(r.start.line, r.start.character), Pos(r.end.line, r.end.character),
                                  change.text, ls.units))
            else:
                tracked = False  # the whole text replaced: only the engine can say where threads are
        if tracked and doc.marks:
            ls.publish(doc)  # at once, carried through the edit; the engine pass confirms
        ls.schedule(doc, ls.settings.debounce_ms / 1000 if tracked else 0)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: lsp.DidSaveTextDocumentParams) -> None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is not None:
            ls.schedule(doc, 0)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams) -> None:
        ls.close(params.text_document.uri)


def _views(ls: LimpetServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(params: lsp.HoverParams) -> lsp.Hover | None:
        doc = ls.documents.get(params.text_document.uri)
        line = params.position.line
        under = [m for m in doc.marks if line in m.lines] if doc else []
        if not under:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(lsp.MarkupKind.Markdown, hover_markdown([(m.thread, m.span) for m in under])),
                         range=lsp_range(under[0].span))

    @ls.feature(lsp.TEXT_DOCUMENT_CODE_LENS, lsp.CodeLensOptions(resolve_provider=False))
    def code_lens(params: lsp.CodeLensParams) -> list[lsp.CodeLens]:
        doc = ls.documents.get(params.text_document.uri)
        return [lens for m in (doc.marks if doc else ()) for lens in code_lenses(m.thread, m.span)]

    @ls.feature(lsp.TEXT_DOCUMENT_INLAY_HINT, lsp.InlayHintOptions(resolve_provider=False))
    def inlay_hints(params: lsp.InlayHintParams) -> list[lsp.InlayHint]:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None or not doc.marks:
            return []
        lines = split_lines(ls.workspace.get_text_document(doc.uri).source)
        first, last = params.range.start.line, params.range.end.line
        hints = []
        for m in doc.marks:
            line = m.span.start.line
            if first <= line <= last and line < len(lines):
                hints.append(inlay_hint(m.thread, m.span, Pos(line, ls.units(lines[line]))))
        return hints


def _uri(ls: LimpetServer, rel: str) -> str:
    return Path(ls.svc.root, rel).as_uri()


def _live_marks(ls: LimpetServer) -> dict[str, Mark]:
    """Thread id → its mark in an open document (positions with unsaved edits)."""
    return {m.thread.id: m for doc in ls.documents.values() for m in doc.marks}


def _saved_range(t: dict[str, Any] | Thread) -> lsp.Range:
    """A thread's saved position as an LSP range (characters are code points; whole lines end
    at the start of the next line)."""
    w = t if isinstance(t, dict) else t.to_wire()
    end = (w["line_end"] - 1, w["end_character"]) if w["end_character"] else (w["line_end"], 0)
    return lsp.Range(start=lsp.Position(w["line_start"] - 1, w["start_character"]), end=lsp.Position(*end))


def _located(ls: LimpetServer, wire: dict[str, Any], live: dict[str, Mark]) -> dict[str, Any]:
    mark = live.get(wire["id"])
    rng = lsp_range(mark.span) if mark else _saved_range(wire)
    location = {"uri": _uri(ls, wire["file"]), "range": range_dict(rng)}
    return {**wire, "location": location, "live": mark is not None}


def _listings(ls: LimpetServer) -> None:
    @ls.feature(THREADS_REQUEST)
    async def threads(params: Any) -> dict[str, Any]:
        """comment_list's arguments ({file?, status?, health?, author?, tag?, cursor?, limit?};
        `file` may also be a file: URI) → its page of threads, each with `location` and `live`."""
        args = _as_dict(params)
        if isinstance(args.get("file"), str) and args["file"].startswith("file:"):
            rel = ls.relative(args["file"])
            if rel is None:
                raise rpc_error(InvalidPath("Not a file of this workspace", field="file"))
            args["file"] = rel
        _, result = await ls.in_worker(invoke, ls.svc, "comment_list", args)
        live = _live_marks(ls)
        return {**result, "threads": [_located(ls, t, live) for t in result["threads"]]}

    @ls.feature(lsp.WORKSPACE_SYMBOL)
    async def symbols(params: lsp.WorkspaceSymbolParams) -> list[lsp.SymbolInformation]:
        words = params.query.lower().split()
        found = await ls.in_worker(ls.svc.threads)
        live = _live_marks(ls)
        out = []
        for t in found:
            text = " ".join((t.tag, t.status, t.health, t.id, t.file, t.anchor.symbol or "",
                             *(c.body for c in t.comments))).lower()
            if all(w in text for w in words):
                mark = live.get(t.id)
                rng = lsp_range(mark.span) if mark else _saved_range(t)
                out.append(lsp.SymbolInformation(
                    name=f"{t.tag}: {first_line(t.body)}", kind=lsp.SymbolKind.Event,
                    location=lsp.Location(uri=_uri(ls, t.file), range=rng),
                    container_name=f"{t.file}:{t.anchor.line_start} · {t.status} · {t.health} · {t.id}"))
                if len(out) >= _MAX_SYMBOLS:
                    break
        return out


def _as_dict(params: Any) -> dict[str, Any]:
    if params is None:
        return {}
    if isinstance(params, dict):
        return dict(params)
    raise rpc_error(InvalidArgument("Parameters must be a JSON object", field=None))
