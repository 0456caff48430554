"""`limpet mcp-config --host HOST`: print the config snippet an MCP host takes for limpet.

stdio by default (the absolute path of this limpet and of the workspace, so the host can
start it from anywhere), or `--http URL` for a running `limpet serve --http`.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import click

from limpet.model import FileNotFound, InvalidArgument, LimpetError
from limpet.server.cli._app import fail, workspace_option
from limpet.server.mcp import HOSTS, host_config

__all__ = ["mcp_config", "limpet_command"]


def limpet_command() -> list[str]:
    """How to start this limpet from anywhere: the console script beside the running
    interpreter (the virtualenv's), else the one on PATH, else this interpreter's module."""
    beside = Path(sys.executable).with_name("limpet")  # not resolved: a venv's python is a symlink
    if beside.exists():
        return [str(beside.absolute())]
    found = shutil.which("limpet")
    if found:
        return [str(Path(found).absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "limpet.server"]


def _endpoint(url: str) -> str:
    """The MCP endpoint of a server URL: `http://127.0.0.1:9960` → `http://127.0.0.1:9960/mcp`."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidArgument(f"Not an http(s) URL: {url!r}", field="http",
                              suggestion="Give the URL `limpet serve --http` printed, e.g. http://127.0.0.1:9960")
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme, parts.netloc, path if path.endswith("/mcp") else f"{path}/mcp", "", ""))


@click.command("mcp-config")
@workspace_option
@click.option("--host", "host", required=True, type=click.Choice(HOSTS), help="The MCP host to configure.")
@click.option("--http", "url", default=None, metavar="URL",
              help="Connect to a running `limpet serve --http` at URL instead of starting limpet (stdio).")
@click.option("--token", default=None, help="The server's bearer token (HTTP, when it requires one).")
@click.option("--name", default="limpet", show_default=True, help="The server's name in the host.")
@click.option("--tools", default="lean", show_default=True,
              help="The tools the host gets (stdio): `lean` is the threads family plus edit, move, delete and "
                   "search; `all` every family (for clients of the paired or feedback tools); or groups and "
                   "tool names, comma-separated.")
@click.pass_context
def mcp_config(ctx, host: str, url: str | None, token: str | None, name: str, tools: str) -> None:
    """Print the MCP config snippet for HOST (the file it goes in is said on stderr)."""
    from limpet.server.operations import selected_names

    try:
        selected_names(tools)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--tools") from None
    try:
        if url is not None:
            config = host_config(host, url=_endpoint(url), token=token, name=name)
        else:
            workspace = Path(ctx.find_root().obj["workspace"])
            if not workspace.is_dir():
                raise FileNotFound(f"Workspace directory does not exist: {workspace}", field="workspace")
            selection = [] if tools == "all" else ["--tools", tools]
            argv = [*limpet_command(), "serve", *selection, "--workspace", str(workspace.resolve())]
            config = host_config(host, stdio=argv, name=name)
    except LimpetError as exc:
        fail(exc, False)
        return
    click.echo(f"# {config.where}", err=True)
    if config.note:
        click.echo(f"# {config.note}", err=True)
    click.echo(config.text, nl=False)
