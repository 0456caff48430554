"""`limpet`: the command line for people and scripts. A thin door over the operations.

Every command validates through the same operation models as the MCP tools and prints
either a short human line or, with --json, exactly the tool's structured result.

Exit codes: 0 ok · 1 other error · 2 bad usage or invalid argument/path/range ·
3 file or thread not found · 4 lock timeout · 5 store corrupted/too new.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import click
import orjson

from limpet.model import LimpetError
from limpet.server._ids import local_author

__all__ = ["main", "cli"]

EXIT_CODES = {
    "INVALID_ARGUMENT": 2, "INVALID_PATH": 2, "INVALID_ANCHOR": 2, "PARSE_ERROR": 2,
    "FILE_NOT_FOUND": 3, "THREAD_NOT_FOUND": 3, "LOCK_TIMEOUT": 4,
    "STORE_CORRUPTED": 5, "STORE_TOO_NEW": 5, "STORE_ERROR": 5,
}
_SPEC = re.compile(r"^(?P<file>.+?):(?P<start>\d+)(?:-(?P<end>\d+))?$")


def _service(ctx: click.Context):
    from limpet.server._service import Service

    obj = ctx.find_root().obj
    if "service" not in obj:
        obj["service"] = Service(obj["workspace"])
    return obj["service"]


def run_op(ctx: click.Context, name: str, args: dict[str, Any], human) -> None:
    """Invoke one operation and print its result; errors become messages and exit codes."""
    from limpet.server._operations import invoke

    as_json = ctx.find_root().obj.get("json") or ctx.params.get("as_json")
    try:
        op, result = invoke(_service(ctx), name, {k: v for k, v in args.items() if v is not None})
    except LimpetError as exc:
        _fail(exc, as_json)
        return
    if as_json:
        click.echo(orjson.dumps(op.structured_content(result), option=orjson.OPT_INDENT_2).decode())
    else:
        human(result)


def _fail(exc: LimpetError, as_json: bool) -> None:
    if as_json:
        click.echo(orjson.dumps({"error": exc.to_dict()}, option=orjson.OPT_INDENT_2).decode())
    else:
        where = f" ({exc.field})" if exc.field else ""
        click.echo(f"error: {exc.code}{where}: {exc.message}", err=True)
        if exc.suggestion:
            click.echo(f"hint: {exc.suggestion}", err=True)
    sys.exit(EXIT_CODES.get(exc.code, 1))


def format_thread(t: dict[str, Any], full: bool = False) -> str:
    lines = t["line_start"] if t["line_start"] == t["line_end"] else f"{t['line_start']}-{t['line_end']}"
    where = f"{t['file']}:{lines}"
    sym = f" in {t['symbol']}" if t.get("symbol") else ""
    head = f"{t['id']}  {where}{sym}  [{t['tag']} · {t['status']} · {t['health']}]"
    body = t["comments"][0]["body"] if t["comments"] else ""
    if not full:
        first = body.splitlines()[0] if body else ""
        return f"{head}  {first[:80]}"
    out = [head]
    for c in t["comments"]:
        out.append(f"  {c['author']} ({c['created_at']}): {c['body']}")
    if t.get("decision"):
        d = t["decision"]
        out.append(f"  decision by {d['decider']} ({d['decided_at']}): {d['summary']}")
    return "\n".join(out)


def _print_thread(result: dict[str, Any]) -> None:
    click.echo(format_thread(result["thread"], full=True))


def _set_workspace(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.find_root().obj["workspace"] = value


workspace_option = click.option(
    "--workspace", "-w", default=None, expose_value=False, callback=_set_workspace, is_eager=True,
    type=click.Path(file_okay=False), help="The workspace directory (default: the current directory).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print the machine-readable JSON result.")
author_option = click.option("--author", default=None, help="Who is writing (default: $LIMPET_AUTHOR or $USER).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--workspace", "-w", default=".", show_default=True, type=click.Path(file_okay=False),
              help="The workspace directory (a git checkout, usually).")
@click.version_option(package_name="limpet")
@click.pass_context
def cli(ctx: click.Context, workspace: str) -> None:
    """limpet — code comments that cling to the code."""
    ctx.ensure_object(dict)
    ctx.obj["workspace"] = workspace


@cli.command()
@workspace_option
@click.argument("spec", metavar="FILE:START[-END]")
@click.argument("body")
@click.option("--tag", type=click.Choice(["TODO", "FIXME", "NOTE", "STAR", "QUESTION"]), default="NOTE", show_default=True)
@author_option
@json_option
@click.pass_context
def add(ctx, spec: str, body: str, tag: str, author: str | None, as_json: bool) -> None:
    """Start a thread on lines START..END of FILE."""
    m = _SPEC.match(spec)
    if not m:
        raise click.BadParameter("expected FILE:START or FILE:START-END, e.g. src/app.py:10-14", param_hint="SPEC")
    start = int(m["start"])
    end = int(m["end"]) if m["end"] else start
    run_op(ctx, "comment_add", {"file": m["file"], "line_start": start, "line_end": end, "body": body, "tag": tag,
                                "author": author or local_author(), "author_type": "human"}, _print_thread)


@cli.command("list")
@workspace_option
@click.option("--file", default=None, help="Only this file (path or glob).")
@click.option("--status", type=click.Choice(["open", "resolved", "wontfix"]), default=None)
@click.option("--health", type=click.Choice(["anchored", "drifted", "orphaned"]), default=None)
@click.option("--author", default=None)
@click.option("--tag", type=click.Choice(["TODO", "FIXME", "NOTE", "STAR", "QUESTION"]), default=None)
@json_option
@click.pass_context
def list_(ctx, file, status, health, author, tag, as_json) -> None:
    """List threads (ordered by file, then line)."""
    def human(result):
        for t in result["threads"]:
            click.echo(format_thread(t))
        click.echo(f"{result['count']} thread(s)", err=True)

    run_op(ctx, "comment_list", {"file": file, "status": status, "health": health, "author": author, "tag": tag}, human)


@cli.command()
@workspace_option
@click.argument("thread_id")
@json_option
@click.pass_context
def show(ctx, thread_id: str, as_json: bool) -> None:
    """Show one thread with its comments and decision."""
    run_op(ctx, "comment_show", {"thread_id": thread_id}, _print_thread)


@cli.command()
@workspace_option
@click.argument("thread_id")
@click.argument("body")
@author_option
@json_option
@click.pass_context
def reply(ctx, thread_id: str, body: str, author: str | None, as_json: bool) -> None:
    """Reply to a thread."""
    run_op(ctx, "comment_reply", {"thread_id": thread_id, "body": body, "author": author or local_author(),
                                  "author_type": "human"}, _print_thread)


@cli.command()
@workspace_option
@click.argument("thread_id")
@click.option("--decision", default=None, help="What was decided (kept if the thread is reopened).")
@click.option("--wontfix", is_flag=True, help="Close as won't fix.")
@author_option
@json_option
@click.pass_context
def resolve(ctx, thread_id: str, decision: str | None, wontfix: bool, author: str | None, as_json: bool) -> None:
    """Resolve a thread (idempotent)."""
    run_op(ctx, "comment_resolve", {"thread_id": thread_id, "decision": decision, "wontfix": wontfix,
                                    "author": author or local_author()}, _print_thread)


@cli.command()
@workspace_option
@click.argument("thread_id")
@author_option
@json_option
@click.pass_context
def reopen(ctx, thread_id: str, author: str | None, as_json: bool) -> None:
    """Reopen a resolved thread (its decision stays in the history)."""
    run_op(ctx, "comment_reopen", {"thread_id": thread_id, "author": author or local_author()}, _print_thread)


@cli.command()
@workspace_option
@click.option("--file", default=None, help="Only this file.")
@json_option
@click.pass_context
def reconcile(ctx, file: str | None, as_json: bool) -> None:
    """Re-anchor threads to the current code."""
    def human(result):
        c = result["counts"]
        click.echo(f"{result['checked']} checked: {c.get('anchored', 0)} anchored, {c.get('drifted', 0)} drifted, "
                   f"{c.get('orphaned', 0)} orphaned; {len(result['changed'])} changed")
        for t in result["changed"]:
            click.echo("  " + format_thread(t))

    run_op(ctx, "comment_reconcile", {"file": file}, human)


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
    from limpet.server._operations import GROUPS

    groups = None
    if tools:
        groups = {g.strip() for g in tools.split(",") if g.strip()}
        unknown = groups - set(GROUPS)
        if unknown:
            raise click.BadParameter(f"unknown group(s) {', '.join(sorted(unknown))}; choose from {', '.join(GROUPS)}",
                                     param_hint="--tools")
    workspace = ctx.find_root().obj["workspace"]
    if use_http:
        from limpet.server._http import serve_http

        serve_http(workspace, groups=groups, host=host, port=port, token=token)
    else:
        from limpet.server._mcp import serve_stdio

        serve_stdio(workspace, groups=groups)


def _load_extra_commands() -> None:
    # Commands that live in their own modules (export, import, prompt) register themselves.
    for name in ("_cli_export", "_cli_prompt", "_cli_more"):
        try:
            __import__(f"{__package__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.{name}":
                raise


def main(argv: list[str] | None = None) -> None:
    from limpet.server._service import Service

    _load_extra_commands()
    try:
        cli.main(args=argv, prog_name="limpet", standalone_mode=True)
    except LimpetError as exc:  # e.g. the workspace itself is missing
        _fail(exc, False)
    finally:
        Service.flush_all()  # re-anchoring results computed by this command reach the disk
