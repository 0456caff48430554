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
from limpet.server.core import end_of_command

__all__ = ["COMMAND_MODULES", "cli", "main"]


def _load(module: str) -> None:
    """Import one command module (its commands register on `cli`)."""
    if module == "_threads":
        from limpet.server.cli import _threads  # noqa: F401
    elif module == "_comments":
        from limpet.server.cli import _comments  # noqa: F401
    elif module == "_export":
        from limpet.server.cli import _export  # noqa: F401
    elif module == "_prompt":
        from limpet.server.cli import _prompt  # noqa: F401
    elif module == "_serve":
        from limpet.server.cli import _serve  # noqa: F401
    elif module == "_mcp_config":
        from limpet.server.cli import _mcp_config  # noqa: F401
    elif module == "_lsp":
        from limpet.server.cli import _lsp  # noqa: F401
    else:
        raise KeyError(module)


cli.load = _load


def main(argv: list[str] | None = None) -> None:
    try:
        cli.main(args=argv, prog_name="limpet", standalone_mode=True)
    except LimpetError as exc:  # e.g. the workspace itself is missing
        fail(exc, False)
    finally:
        end_of_command()  # re-anchoring results computed by this command reach the disk
