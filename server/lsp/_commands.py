"""Writing from the editor: code actions and the commands they run.

    limpet.addThread   {uri, range, body, tag?}      a thread on the selected lines
    limpet.reply       {threadId, body}
    limpet.resolve     {threadId, decision?, wontfix?}
    limpet.reopen      {threadId}
    limpet.reattach    {threadId, uri, range}        an orphan (or any thread) to the selection
    limpet.openInPage  {threadId} | {uri, range?}    the web page at that thread or line

Each command takes one JSON object. Writes run the operations every door runs (`invoke`:
comment_add, comment_reply, comment_resolve, comment_reopen, move_comment), as the editor's
person (author_type human). LSP has no way to ask for text, so the code actions that need a
body (add, reply) carry every argument but it: a client supplies it (README: Neovim's
`vim.lsp.commands`), or runs the command itself with one.

Lines are the editor's; the store anchors to the saved file. A selection outside the
unsaved edits maps to the saved file's lines; one inside them is refused until saved.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from lsprotocol import types as lsp

from limpet.model import InvalidArgument, InvalidPath
from limpet.server.core import ThreadFilter, invalid_argument_from_decoding
from limpet.server.lsp._documents import split_lines
from limpet.server.lsp._page import find_page, thread_url
from limpet.server.lsp._render import first_line, range_dict
from limpet.server.lsp._server import LimpetServer, rpc_error
from limpet.server.lsp._tracking import disk_line_of
from limpet.server.operations import invoke

__all__ = ["COMMANDS", "register_commands"]

COMMANDS = ("limpet.addThread", "limpet.reply", "limpet.resolve", "limpet.reopen", "limpet.reattach",
            "limpet.openInPage")
_MAX_ORPHAN_ACTIONS = 10


class _Position(msgspec.Struct):
    line: Annotated[int, msgspec.Meta(ge=0)]
    character: Annotated[int, msgspec.Meta(ge=0)] = 0


class _Range(msgspec.Struct):
    start: _Position
    end: _Position


class _Args(msgspec.Struct, kw_only=True, rename="camel", forbid_unknown_fields=True):
    """A command's one argument, spelled as the code actions spell it (`threadId`)."""


class AddArgs(_Args):
    uri: str
    range: _Range
    body: str | None = None
    tag: str = "NOTE"


class ThreadArgs(_Args):
    thread_id: str


class ReplyArgs(ThreadArgs):
    body: str | None = None


class ResolveArgs(ThreadArgs):
    decision: str | None = None
    wontfix: bool = False


class ReattachArgs(ThreadArgs):
    uri: str
    range: _Range


class OpenArgs(_Args):
    thread_id: str | None = None
    uri: str | None = None
    range: _Range | None = None


def _parse(model: type[_Args], args: tuple[Any, ...]) -> Any:
    raw = args[0] if len(args) == 1 else None
    if not isinstance(raw, dict):
        raise rpc_error(InvalidArgument("Pass one JSON object as the command's argument", field="arguments"))
    try:
        return msgspec.convert(raw, model, strict=False)
    except msgspec.ValidationError as exc:
        raise rpc_error(invalid_argument_from_decoding(exc)) from None


def _lines_of(r: _Range | lsp.Range) -> tuple[int, int]:
    """Selected lines (0-based, inclusive): a selection ending at column 0 ends on the line before."""
    last = r.end.line - 1 if r.end.character == 0 and r.end.line > r.start.line else r.end.line
    return r.start.line, max(last, r.start.line)


def _needs_body(command: str, body: str | None) -> None:
    if body is None:
        raise rpc_error(InvalidArgument(
            f"{command} needs a body: this editor did not ask for one (README: 'In your editor')", field="body"))


def register_commands(ls: LimpetServer) -> None:
    def saved_lines(uri: str, r: _Range) -> tuple[str, int, int]:
        """(workspace path, first, last saved-file line, 1-based) of a selection (worker thread)."""
        rel = ls.relative(uri)
        if rel is None:
            raise InvalidPath("Not a file of this workspace", field="uri")
        first, last = _lines_of(r)
        doc = ls.documents.get(uri)
        if doc is None:
            return rel, first + 1, last + 1
        buffer = split_lines(ls.workspace.get_text_document(uri).source)
        disk = split_lines(ls.svc.read_source(rel).decode("utf-8", errors="replace"))
        a, b = disk_line_of(buffer, disk, first), disk_line_of(buffer, disk, last)
        if a is None or b is None or b - a != last - first:
            raise InvalidArgument("These lines have unsaved edits: save the file, then try again", field="range")
        return rel, a + 1, b + 1

    def write(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return invoke(ls.svc, name, arguments)[1]

    @ls.command("limpet.addThread")
    async def add_thread(*args: Any) -> dict[str, Any]:
        a = _parse(AddArgs, args)
        _needs_body("limpet.addThread", a.body)

        def run() -> dict[str, Any]:
            rel, first, last = saved_lines(a.uri, a.range)
            return write("comment_add", {"file": rel, "line_start": first, "line_end": last, "body": a.body,
                                         "tag": a.tag, "author": ls.author, "author_type": "human"})

        return await ls.in_worker(run)

    @ls.command("limpet.reply")
    async def reply(*args: Any) -> dict[str, Any]:
        a = _parse(ReplyArgs, args)
        _needs_body("limpet.reply", a.body)
        return await ls.in_worker(write, "comment_reply", {"thread_id": a.thread_id, "body": a.body,
                                                           "author": ls.author, "author_type": "human"})

    @ls.command("limpet.resolve")
    async def resolve(*args: Any) -> dict[str, Any]:
        a = _parse(ResolveArgs, args)
        return await ls.in_worker(write, "comment_resolve", {"thread_id": a.thread_id, "decision": a.decision,
                                                             "wontfix": a.wontfix, "author": ls.author})

    @ls.command("limpet.reopen")
    async def reopen(*args: Any) -> dict[str, Any]:
        a = _parse(ThreadArgs, args)
        return await ls.in_worker(write, "comment_reopen", {"thread_id": a.thread_id, "author": ls.author})

    @ls.command("limpet.reattach")
    async def reattach(*args: Any) -> dict[str, Any]:
        a = _parse(ReattachArgs, args)

        def run() -> dict[str, Any]:
            rel, first, _ = saved_lines(a.uri, a.range)
            source = ls.svc.get(a.thread_id, fresh=False).file
            return write("move_comment", {"sourceFile": source, "targetFile": rel, "commentId": a.thread_id,
                                          "targetLine": first, "author": ls.author})

        return await ls.in_worker(run)

    @ls.command("limpet.openInPage")
    async def open_in_page(*args: Any) -> dict[str, Any]:
        a = _parse(OpenArgs, args)
        return await _open_in_page(ls, a)

    _code_actions(ls)


async def _open_in_page(ls: LimpetServer, a: OpenArgs) -> dict[str, Any]:
    def where() -> tuple[str, int]:
        if a.thread_id is not None:
            t = ls.svc.get(a.thread_id)
            return t.file, t.anchor.line_start
        rel = ls.relative(a.uri or "")
        if rel is None:
            raise InvalidPath("Pass threadId, or the uri of a workspace file", field="uri")
        return rel, (_lines_of(a.range)[0] + 1) if a.range else 1

    file, line = await ls.in_worker(where)
    base = await ls.in_worker(find_page, ls.svc.root, ls.settings.page_url, ls.page_ports)
    if base is None:
        ls.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, (
            "No limpet web page serves this workspace: run `limpet serve --http` (or set pageUrl)")))
        return {"url": None}
    url = thread_url(base, file, line)
    window = ls.client_capabilities.window
    if window is not None and window.show_document is not None and window.show_document.support:
        await ls.window_show_document_async(lsp.ShowDocumentParams(uri=url, external=True))
    else:
        ls.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Info, f"limpet: {url}"))
    return {"url": url}


def _action(title: str, command: str, argument: dict[str, Any],
            diagnostics: list[lsp.Diagnostic] | None = None) -> lsp.CodeAction:
    return lsp.CodeAction(title=title, kind=lsp.CodeActionKind.QuickFix, diagnostics=diagnostics,
                          command=lsp.Command(title=title, command=command, arguments=[argument]))


def _code_actions(ls: LimpetServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    async def code_actions(params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return []
        first, last = _lines_of(params.range)
        span = f"line {first + 1}" if first == last else f"lines {first + 1}–{last + 1}"
        where = {"uri": doc.uri, "range": range_dict(params.range)}
        actions = [_action(f"limpet: add a thread on {span}", "limpet.addThread", dict(where))]
        for m in doc.at_lines(first, last):
            t, ref = m.thread, {"threadId": m.thread.id}
            about = f"{t.id} ({t.tag}: {first_line(t.body, 40)})"
            if t.status == "open":
                actions.append(_action(f"limpet: resolve {about}", "limpet.resolve", ref))
            else:
                actions.append(_action(f"limpet: reopen {about}", "limpet.reopen", ref))
            actions.append(_action(f"limpet: reply to {about}", "limpet.reply", ref))
            actions.append(_action(f"limpet: open {t.id} in the web page", "limpet.openInPage", ref))
        try:
            orphans = await ls.in_worker(ls.svc.threads, ThreadFilter(health="orphaned", status="open"))
        except Exception:  # noqa: BLE001 - the other actions stand without these
            orphans = []
        for t in orphans[:_MAX_ORPHAN_ACTIONS]:
            actions.append(_action(f"limpet: re-attach orphan {t.id} ({t.tag}: {first_line(t.body, 40)}) to {span}",
                                   "limpet.reattach", {"threadId": t.id, **where}))
        return actions
