"""limpet.server.lsp: the editor's door — `limpet lsp`, a Language Server over stdio (pygls).

Threads of open documents become diagnostics (severity by tag and status; drifted and
orphaned said so), code lenses, inlay hints and hovers; their positions follow unsaved edits
(the engine re-anchors against the text the editor sends); code actions and commands add,
reply, resolve, reopen, re-attach and open threads in the web page; `workspace/symbol` and
the `limpet/threads` request list them; other processes' changes reach open documents live.

    _server     the server: settings, open documents, engine passes, live changes, publishing
    _features   lifecycle, document sync, hover, lenses, inlay hints, symbols, limpet/threads
    _commands   code actions and the limpet.* commands (writes go through operations)
    _documents  an open document's marks (its threads with client ranges)
    _tracking   carrying ranges through edits; mapping unsaved lines to saved ones
    _render     diagnostics, lenses, hints and hover text for a thread
    _protocol   pygls adapted (limpet/threads params, malformed requests answered, raw JSON)
    _page       finding the web page of this workspace
"""

from __future__ import annotations

from collections.abc import Iterable

from limpet.server.lsp._commands import COMMANDS
from limpet.server.lsp._protocol import THREADS_REQUEST
from limpet.server.lsp._server import LimpetServer, Settings

__all__ = ["COMMANDS", "THREADS_REQUEST", "LimpetServer", "Settings", "build_server", "serve_lsp"]


def build_server(workspace: str | None = None, page_ports: Iterable[int] = ()) -> LimpetServer:
    from limpet.server.lsp._commands import register_commands
    from limpet.server.lsp._features import register_features

    ls = LimpetServer(workspace, page_ports)
    register_features(ls)
    register_commands(ls)
    return ls


def serve_lsp(workspace: str | None = None, page_ports: Iterable[int] = ()) -> None:
    """Serve LSP over stdio until the editor exits (stdout belongs to the protocol)."""
    import logging

    from limpet.server.core import serving

    logging.basicConfig(level=logging.WARNING)
    serving()
    build_server(workspace, page_ports).start_io()
