"""limpet.server.cli: `limpet`, the command line for people and scripts — a thin door over
the operations (each command runs the operation its MCP tool runs).

    _app        the command group (each command's module loads when it runs: COMMAND_MODULES),
                shared options, running an operation, errors → exit codes
    _threads    add, list, show, reply, resolve, reopen, reconcile
    _comments   edit, delete, move, search
    _export     export, import
    _prompt     prompt
    _serve      serve (MCP over stdio, or HTTP with the web page)
    _mcp_config mcp-config (the snippet each MCP host's config takes)
    _lsp        lsp (the Language Server editors start)
"""

from __future__ import annotations

from limpet.model import LimpetError
from limpet.server.cli._app import COMMAND_MODULES, cli, fail
from limpet.server.core import Service

__all__ = ["COMMAND_MODULES", "cli", "main"]


def main(argv: list[str] | None = None) -> None:
    try:
        cli.main(args=argv, prog_name="limpet", standalone_mode=True)
    except LimpetError as exc:  # e.g. the workspace itself is missing
        fail(exc, False)
    finally:
        Service.flush_all()  # re-anchoring results computed by this command reach the disk
