"""What every command shares: the workspace options, making a call of the library
(limpet.Workspace), printing its result, and turning errors into messages and exit codes.

The commands are a thin layer over the library, whose calls check their arguments by the MCP
tools' own structs. Each prints either a short human line or, with --json, exactly the
structured result of the tool doing the same (edit, move, delete and search: the paired
tools', whose argument names their errors keep). Exit codes are the errors' own
(limpet.model: 2 invalid input, 3 not found, 4 lock timeout, 5 store corrupted or too new,
1 anything else).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import orjson

from limpet import Workspace
from limpet.model import LimpetError
from limpet.server.cli._hints import cli_suggestion
from limpet.server.core import Located

__all__ = ["author_option", "fail", "format_history", "format_thread", "here", "json_option", "print_thread",
           "resolve_id", "run", "workspace", "workspace_option"]


def workspace(ctx: click.Context) -> Workspace:
    """The command's workspace (one per process), on the --workspace given."""
    obj = ctx.find_root().obj
    if "library" not in obj:
        obj["library"] = Workspace(obj["workspace"], one_shot=True)
    return obj["library"]


def resolve_id(ctx: click.Context, prefix: str, field: str = "thread_id") -> str:
    """The full thread id for an id or a unique prefix of one (`c_17637`, or `17637`)."""
    try:
        return workspace(ctx).resolve_id(prefix, field)
    except LimpetError as exc:
        fail(exc, ctx.find_root().obj.get("json") or ctx.params.get("as_json"))
        raise AssertionError("unreachable") from exc  # fail exits


def run(ctx: click.Context, call: Callable[[Workspace], dict[str, Any]], human: Callable[[Any], None], *,
        spelled_as: str | None = None) -> None:
    """Make one library call (`call` gives the tool's result for what it returns) and print
    that; errors become messages and exit codes. `spelled_as`: the tool whose argument names
    errors take (`line_end` is move_comment's `targetEndLine`)."""
    as_json = ctx.find_root().obj.get("json") or ctx.params.get("as_json")
    try:
        result = call(workspace(ctx))
    except LimpetError as exc:
        if spelled_as is not None:
            from limpet.server.operations import spellings

            exc.field = spellings(spelled_as).get(exc.field or "", exc.field)
        fail(exc, as_json)
        return
    if as_json:
        click.echo(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode())
    else:
        human(result)


def fail(exc: LimpetError, as_json: bool) -> None:
    if as_json:
        click.echo(orjson.dumps({"error": exc.to_dict()}, option=orjson.OPT_INDENT_2).decode())
    else:
        where = f" ({exc.field})" if exc.field else ""
        click.echo(f"error: {exc.code}{where}: {exc.message}", err=True)
        candidates = (exc.details or {}).get("candidates")
        if candidates:
            click.echo("candidates:\n" + "\n".join(f"  {c}" for c in candidates), err=True)
        hint = cli_suggestion(exc)
        if hint:
            click.echo(f"hint: {hint}", err=True)
    sys.exit(exc.exit_code)


def format_thread(t: dict[str, Any], full: bool = False, short: Any = None) -> str:
    """One thread as a line (`full`: with its comments); `short`: the store's short ids (.get), shown
    for the full ones (every command takes either)."""
    lines = t["line_start"] if t["line_start"] == t["line_end"] else f"{t['line_start']}-{t['line_end']}"
    where = f"{t['file']}:{lines}"
    sym = f" in {t['symbol']}" if t.get("symbol") else ""
    shown = (short or {}).get(t["id"], t["id"])
    head = f"{shown:<10}  {where}{sym}  [{t['tag']} · {t['status']} · {t['health']}]"
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


def format_history(t: dict[str, Any]) -> str:
    """What happened to a thread, oldest first (`limpet show`)."""
    out = ["history:"]
    for h in t.get("history") or ():
        by = f" by {h['by']}" if h.get("by") else ""
        out.append(f"  {h['at']}  {h['event']}{by}{_details(h)}")
    return "\n".join(out)


def _place(where: dict[str, Any]) -> str:
    start, end = where.get("line_start"), where.get("line_end")
    return f"{where.get('file')}:{start}" + (f"-{end}" if end not in (None, start) else "")


def _details(event: dict[str, Any]) -> str:
    """What a history event changed, briefly: moves and re-anchors say from where to where,
    and a change of health says from which to which."""
    d = event.get("details") or {}
    if isinstance(d.get("from"), dict):
        was, now = d["from"], d["to"] if isinstance(d.get("to"), dict) else {}
        where = _place(was) if not now or _place(now) == _place(was) else f"from {_place(was)} to {_place(now)}"
        health = f", {was['health']} -> {now['health']}" if now.get("health") not in (None, was.get("health")) else ""
        return f" ({where}{health})"
    words = [f"{k}={v}" for k, v in sorted(d.items()) if isinstance(v, str | int | float) and len(str(v)) <= 60]
    return f" ({', '.join(words)})" if words else ""


def print_thread(result: dict[str, Any]) -> None:
    click.echo(format_thread(result["thread"], full=True))


def _set_workspace(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.find_root().obj.update(workspace=value, prefix="")


def here(ctx: click.Context, typed: str | None) -> str | None:
    """A path typed by a person, as a workspace path: relative to the folder the command runs
    in when limpet found the workspace above it (as git takes paths), else as given."""
    if typed is None:
        return None
    prefix = ctx.find_root().obj.get("prefix", "")
    return Located(Path(ctx.find_root().obj["workspace"]), prefix).path(typed)


workspace_option = click.option(
    "--workspace", "-w", default=None, expose_value=False, callback=_set_workspace, is_eager=True,
    type=click.Path(file_okay=False),
    help="The workspace directory (default: found from the current directory, as git finds its repository).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print the machine-readable JSON result.")
author_option = click.option("--author", default=None, help="Who is writing (default: $LIMPET_AUTHOR or $USER).")
