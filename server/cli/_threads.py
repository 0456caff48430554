"""`limpet add`, `list`, `show`, `reply`, `resolve`, `reopen`, `reconcile`: the thread tools, for
people, as library calls (limpet.Workspace); `list` pages as comment_list does (its cursor)."""

from __future__ import annotations

import re
from itertools import islice

import click

from limpet.model import HEALTHS, STATUSES, TAGS, Thread
from limpet.server.cli._app import (
    author_option,
    format_history,
    format_thread,
    here,
    json_option,
    print_thread,
    resolve_id,
    run,
    workspace,
    workspace_option,
)

__all__ = ["add", "list_", "reconcile", "reopen", "reply", "resolve", "show"]

_SPEC = re.compile(r"^(?P<file>.+?):(?P<start>\d+)(?:-(?P<end>\d+))?$")


@click.command()
@workspace_option
@click.argument("spec", metavar="FILE:START[-END]")
@click.argument("body")
@click.option("--tag", type=click.Choice(TAGS, case_sensitive=False), default="NOTE", show_default=True)
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
    run(ctx, lambda ws: {"thread": ws.add(here(ctx, m["file"]), start, end, body, tag=tag, author=author).to_wire()},
        print_thread)


@click.command("list")
@workspace_option
@click.option("--file", default=None, help="Only this file (path or glob).")
@click.option("--status", type=click.Choice(STATUSES, case_sensitive=False), default=None)
@click.option("--health", type=click.Choice(HEALTHS, case_sensitive=False), default=None)
@click.option("--author", default=None)
@click.option("--tag", type=click.Choice(TAGS, case_sensitive=False), default=None)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most this many threads (default: all).")
@click.option("--cursor", default=None, help="Start where an earlier listing stopped (its nextCursor, in --json).")
@json_option
@click.pass_context
def list_(ctx, file, status, health, author, tag, limit, cursor, as_json) -> None:
    """List threads (ordered by file, then line): every match unless --limit says otherwise."""
    def human(result):
        ws = workspace(ctx)
        short = ws.short_ids(t["id"] for t in result["threads"])
        for t in result["threads"]:
            click.echo(format_thread(t, short=short))
        if file and not result["threads"] and ws.missing_file(here(ctx, file)):
            click.echo(f"{here(ctx, file)}: no such file in the workspace ({ws.root})", err=True)
            ctx.exit(3)
        if result["nextCursor"] is None:
            click.echo(f"{result['count']} thread(s)", err=True)
        else:
            click.echo(f"{result['count']} of {result['total']} thread(s); the rest: --cursor {result['nextCursor']}",
                       err=True)

    def listing(ws):
        """comment_list's result for the whole list, or `limit` threads and where the rest begins."""
        threads = ws.threads(file=here(ctx, file), status=status, health=health, author=author, tag=tag,
                             cursor=cursor)
        shown = [t.to_wire() for t in islice(threads, limit)]
        after = threads.cursor  # after the last thread shown: where the rest begins, if any is left
        rest = after if limit is not None and next(threads, None) is not None else None
        return {"threads": shown, "count": len(shown), "total": threads.total, "nextCursor": rest}

    run(ctx, listing, human)


@click.command()
@workspace_option
@click.argument("thread_id")
@json_option
@click.pass_context
def show(ctx, thread_id: str, as_json: bool) -> None:
    """Show one thread with its comments, decision and history; for a drifted or orphaned
    thread, also the code it was written against. THREAD_ID may be a unique prefix."""
    thread_id = resolve_id(ctx, thread_id)
    shown: list[Thread] = []

    def human(result):
        t = result["thread"]
        click.echo(format_thread(t, full=True))
        click.echo(format_history(t))
        if t["health"] != "anchored":
            click.echo(_written_against(shown[0]))

    def fetched(ws):
        shown.append(ws.thread(thread_id))
        return {"thread": shown[0].to_wire()}

    run(ctx, fetched, human)


def _written_against(thread) -> str:
    snap = thread.written_against()
    if snap is None:
        return "written against: (no copy of the original code was kept)"
    lines = snap.line_start if snap.line_start == snap.line_end else f"{snap.line_start}-{snap.line_end}"
    code = "\n".join(f"  | {line}" for line in snap.text.splitlines())
    return f"written against ({snap.file}:{lines}, {snap.at}):\n{code}"


@click.command()
@workspace_option
@click.argument("thread_id")
@click.argument("body")
@author_option
@json_option
@click.pass_context
def reply(ctx, thread_id: str, body: str, author: str | None, as_json: bool) -> None:
    """Reply to a thread (THREAD_ID may be a unique prefix)."""
    thread_id = resolve_id(ctx, thread_id)
    run(ctx, lambda ws: {"thread": ws.reply(thread_id, body, author=author).to_wire()}, print_thread)


@click.command()
@workspace_option
@click.argument("thread_id")
@click.option("--decision", default=None, help="What was decided (kept if the thread is reopened).")
@click.option("--wontfix", is_flag=True, help="Close as won't fix.")
@author_option
@json_option
@click.pass_context
def resolve(ctx, thread_id: str, decision: str | None, wontfix: bool, author: str | None, as_json: bool) -> None:
    """Resolve a thread (idempotent; THREAD_ID may be a unique prefix)."""
    thread_id = resolve_id(ctx, thread_id)
    run(ctx, lambda ws: {"thread": ws.resolve(thread_id, decision, wontfix=wontfix, author=author).to_wire()},
        print_thread)


@click.command()
@workspace_option
@click.argument("thread_id")
@author_option
@json_option
@click.pass_context
def reopen(ctx, thread_id: str, author: str | None, as_json: bool) -> None:
    """Reopen a resolved thread (its decision stays in the history)."""
    thread_id = resolve_id(ctx, thread_id)
    run(ctx, lambda ws: {"thread": ws.reopen(thread_id, author=author).to_wire()}, print_thread)


@click.command()
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
        short = workspace(ctx).short_ids(t["id"] for t in result["changed"])
        for t in result["changed"]:
            click.echo("  " + format_thread(t, short=short))
        for path, reasons in result.get("problems", {}).items():  # skipped, kept as they are
            click.echo(f"problem: {path}: {'; '.join(reasons)}", err=True)

    run(ctx, lambda ws: ws.reconcile(here(ctx, file)).to_wire(), human)
