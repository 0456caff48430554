"""`limpet lsp`: the language server editors start (stdio)."""

from __future__ import annotations

import click
from click.core import ParameterSource

__all__ = ["lsp"]


@click.command()
@click.option("--workspace", "-w", "workspace", default=None, type=click.Path(file_okay=False),
              help="The workspace directory (default: the editor's workspace root, else the current directory).")
@click.pass_context
def lsp(ctx: click.Context, workspace: str | None) -> None:
    """Run the Language Server (LSP over stdio) for editors."""
    from limpet.server.http import PORT_RANGE
    from limpet.server.lsp import serve_lsp

    root = ctx.find_root()
    if workspace is None and root.get_parameter_source("workspace") is not ParameterSource.DEFAULT:
        workspace = root.params["workspace"]  # `limpet -w DIR lsp`
    serve_lsp(workspace, page_ports=PORT_RANGE)
