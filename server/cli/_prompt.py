"""`limpet prompt NAME --arg k=v`: print the text prompts/get would return."""

from __future__ import annotations

import click
import orjson

from limpet.model import LimpetError
from limpet.server.cli._app import fail, json_option, workspace, workspace_option

__all__ = ["prompt"]


def _parse_args(pairs: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint="--arg")
        out[key] = value
    return out


def _usage() -> str:
    from limpet.prompts import PROMPTS  # with the engine: only for this command (see _PromptCommand)

    lines = []
    for spec in PROMPTS.values():
        args = " ".join(f"{a.name}=..." if a.required else f"[{a.name}=...]" for a in spec.args)
        lines.append(f"  {spec.name} {args}\n      {spec.description}")
    return "\n".join(lines)


class _PromptCommand(click.Command):
    """Its help lists the prompts; written when help is asked for, so that registering the
    command (every `limpet` process does) does not import the prompts and the engine."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.epilog = "\b\nPrompts:\n" + _usage()
        super().format_epilog(ctx, formatter)


@click.command(cls=_PromptCommand)
@workspace_option
@click.argument("name", required=False)
@click.option("--arg", "-a", "pairs", multiple=True, metavar="KEY=VALUE",
              help="A prompt argument, as over MCP (e.g. --arg filePath=src/app.py --arg focus=security).")
@click.option("--list", "list_only", is_flag=True, help="List the prompts and their arguments.")
@json_option
@click.pass_context
def prompt(ctx: click.Context, name: str | None, pairs: tuple[str, ...], list_only: bool, as_json: bool) -> None:
    """Print prompt NAME (review_code, explain_complexity, training_export, fix_orphans)."""
    if list_only or name is None:
        click.echo(_usage())
        return
    from limpet.prompts import PROMPTS

    try:
        text = workspace(ctx).prompt(name, **_parse_args(pairs))
    except LimpetError as exc:
        if exc.code == "INVALID_ARGUMENT" and exc.field:  # say how a prompt argument is given here
            exc.suggestion = f"Give it as an option: limpet prompt {name} --arg {exc.field}=..."
        fail(exc, as_json)
        return
    if as_json:
        out = {"name": name, "description": PROMPTS[name].description, "text": text}  # get_prompt refused unknown names
        click.echo(orjson.dumps(out, option=orjson.OPT_INDENT_2).decode())
    else:
        click.echo(text, nl=False)
