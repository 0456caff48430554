"""`limpet serve`: the MCP server over stdio, or the HTTP server with the web page."""

from __future__ import annotations

import click

from limpet.server.cli._app import cli, workspace_option

__all__ = ["serve"]


@cli.command()
@workspace_option
@click.option("--tools", default=None, help="Tool groups to expose: threads,paired,feedback,review (default: all).")
@click.option("--http", "use_http", is_flag=True, help="Serve MCP Streamable HTTP, the HTTP API and the web page.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Bind address (HTTP only).")
@click.option("--port", type=int, default=None, help="Port (HTTP only; default: first free in 9960-9990).")
@click.option("--token", default=None, envvar="LIMPET_TOKEN", help="Bearer token required off loopback (HTTP only).")
@click.pass_context
def serve(ctx, tools: str | None, use_http: bool, host: str, port: int | None, token: str | None) -> None:
    """Run the MCP server (stdio by default) on the workspace."""
    from limpet.server.operations import GROUPS

    groups = None
    if tools:
        groups = {g.strip() for g in tools.split(",") if g.strip()}
        unknown = groups - set(GROUPS)
        if unknown:
            raise click.BadParameter(f"unknown group(s) {', '.join(sorted(unknown))}; choose from {', '.join(GROUPS)}",
                                     param_hint="--tools")
    workspace = ctx.find_root().obj["workspace"]
    if use_http:
        from limpet.server.http import serve_http

        serve_http(workspace, groups=groups, host=host, port=port, token=token)
    else:
        from limpet.server.mcp import serve_stdio

        serve_stdio(workspace, groups=groups)
