"""`limpet serve`: the MCP server over stdio, or the HTTP server with the web page."""

from __future__ import annotations

import click

from limpet.server.cli._app import workspace_option

__all__ = ["serve"]


@click.command()
@workspace_option
@click.option("--tools", default=None, help="Tools to expose: groups (threads, paired, feedback, review), tool names, "
              "`lean` (the threads family + edit, move, delete and search) or `all` (the default).")
@click.option("--http", "use_http", is_flag=True, help="Serve MCP Streamable HTTP, the HTTP API and the web page.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Bind address (HTTP only).")
@click.option("--port", type=int, default=None, help="Port (HTTP only; default: first free in 9960-9990).")
@click.option("--token", default=None, envvar="LIMPET_TOKEN", help="Bearer token required off loopback (HTTP only).")
@click.pass_context
def serve(ctx, tools: str | None, use_http: bool, host: str, port: int | None, token: str | None) -> None:
    """Run the MCP server (stdio by default) on the workspace."""
    from limpet.server.operations import selected_names

    groups = None
    if tools:
        try:
            groups = selected_names(tools)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--tools") from None
    workspace = ctx.find_root().obj["workspace"]
    if use_http:
        from limpet.server.http import serve_http

        serve_http(workspace, groups=groups, host=host, port=port, token=token)
    else:
        from limpet.server.mcp import serve_stdio

        serve_stdio(workspace, groups=groups)
