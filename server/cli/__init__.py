"""limpet.server.cli: `limpet`, the command line for people and scripts — a thin layer over
the library (limpet.Workspace), as sqlite-utils' command line is over its Database.

    (here)      the command group: each command's module loads when the command runs, or
                when help lists them all (limpet.model.Deferred)
    _app        what the commands share: the workspace options, making a library call,
                printing its result, errors → messages and exit codes
    _threads    add, list, show, reply, resolve, reopen, reconcile
    _comments   edit, delete, move, search
    _export     export, import
    _prompt     prompt
    _serve      serve (MCP over stdio, or HTTP with the web page)
    _mcp_config mcp-config (the snippet each MCP host's config takes)
    _lsp        lsp (the Language Server editors start)
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import click

from limpet.model import Deferred, LimpetError
from limpet.server.cli._app import fail
from limpet.server.core import end_of_command, locate_workspace

__all__ = ["COMMAND_MODULES", "cli", "main"]


# Each command's module, imported when the command runs: a `limpet list` does not build the
# export, serve, prompt and editor commands, nor import what they use.
def _load_threads() -> ModuleType:
    from limpet.server.cli import _threads
    return _threads


def _load_comments() -> ModuleType:
    from limpet.server.cli import _comments
    return _comments


def _load_export() -> ModuleType:
    from limpet.server.cli import _export
    return _export


def _load_prompt() -> ModuleType:
    from limpet.server.cli import _prompt
    return _prompt


def _load_serve() -> ModuleType:
    from limpet.server.cli import _serve
    return _serve


def _load_mcp_config() -> ModuleType:
    from limpet.server.cli import _mcp_config
    return _mcp_config


def _load_lsp() -> ModuleType:
    from limpet.server.cli import _lsp
    return _lsp


_COMMANDS = Deferred({"__name__": __name__}, {
    _load_threads: ("add", "list", "show", "reply", "resolve", "reopen", "reconcile"),
    _load_comments: ("edit", "delete", "move", "search"),
    _load_export: ("export", "import"),
    _load_prompt: ("prompt",),
    _load_serve: ("serve",),
    _load_mcp_config: ("mcp-config",),
    _load_lsp: ("lsp",),
})
COMMAND_MODULES = _COMMANDS.modules()


class _DeferredCommands(click.Group):
    """A group whose commands (click commands, each in its module) are imported when asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMAND_MODULES and cmd_name not in self.commands:
            module = _COMMANDS.module(cmd_name)
            self.add_command(next(c for c in vars(module).values()
                                  if isinstance(c, click.Command) and c.name == cmd_name))
        return super().get_command(ctx, cmd_name)


@click.group(cls=_DeferredCommands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--workspace", "-w", default=None, type=click.Path(file_okay=False),
              help="The workspace directory (default: the nearest folder up from here holding .limpet/, "
                   "else the top of the git checkout, else here; paths are then relative to here).")
@click.version_option(package_name="limpet")
@click.pass_context
def cli(ctx: click.Context, workspace: str | None) -> None:
    """limpet — code comments that cling to the code."""
    ctx.ensure_object(dict)
    if workspace is not None:
        ctx.obj.update(workspace=workspace, prefix="")
    else:
        found = locate_workspace(Path.cwd())
        ctx.obj.update(workspace=str(found.root), prefix=found.prefix)


def main(argv: list[str] | None = None) -> None:
    try:
        cli.main(args=argv, prog_name="limpet", standalone_mode=True)
    except LimpetError as exc:  # e.g. the workspace itself is missing
        fail(exc, False)
    finally:
        end_of_command()  # re-anchoring results computed by this command reach the disk
