"""`limpet edit`, `delete`, `move` and `search`: the paired-comment operations, for people.

Each command runs the same registered operation the MCP tool runs (same validation, same
errors), so nothing here re-states a rule. The paired tools name the thread's current file
(`filePath`, `sourceFile`); the CLI looks it up from the id so a person types only the id.
"""

from __future__ import annotations

import re
import sys

import click

from limpet.model import TAGS, LimpetError
from limpet.server.cli._app import (
    author_option,
    cli,
    fail,
    format_thread,
    here,
    json_option,
    print_thread,
    resolve_id,
    run_op,
    service,
    workspace_option,
)
from limpet.server.core import local_author

__all__ = ["delete", "edit", "move", "search"]

_TARGET = re.compile(r"^(?P<file>.+?):(?P<start>\d+)(?:-(?P<end>\d+))?$")


def _current(ctx: click.Context, thread_id: str) -> tuple[str, str]:
    """(full id, the thread's file now): it may have followed its code elsewhere. THREAD_ID
    may be a unique prefix; errors as the tools give them."""
    full = resolve_id(ctx, thread_id, "commentId")
    try:
        return full, service(ctx).get(full).anchor.file
    except LimpetError as exc:
        fail(exc, ctx.params.get("as_json", False))
        raise AssertionError("unreachable") from exc  # fail exits


@cli.command()
@workspace_option
@click.argument("thread_id")
@click.argument("body")
@author_option
@json_option
@click.pass_context
def edit(ctx, thread_id: str, body: str, author: str | None, as_json: bool) -> None:
    """Replace the text of a thread's first comment (the old text leaves the thread's file)."""
    thread_id, file = _current(ctx, thread_id)
    run_op(ctx, "edit_comment", {"commentId": thread_id, "filePath": file, "text": body,
                                 "author": author or local_author()}, print_thread)


@cli.command()
@workspace_option
@click.argument("thread_id")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@author_option
@json_option
@click.pass_context
def delete(ctx, thread_id: str, yes: bool, author: str | None, as_json: bool) -> None:
    """Delete a thread and its replies for good (resolve keeps the history; delete does not)."""
    thread_id, file = _current(ctx, thread_id)
    if not yes:
        if not sys.stdin.isatty():
            raise click.UsageError("not deleting without --yes when no one can confirm (stdin is not a terminal)")
        click.confirm(f"Delete thread {thread_id} on {file} and all its replies?", abort=True, err=True)

    def human(result):
        click.echo(f"deleted {result['commentId']} ({result['filePath']}:{result['line']})")

    run_op(ctx, "delete_comment", {"commentId": thread_id, "filePath": file, "author": author or local_author()}, human)


@cli.command()
@workspace_option
@click.argument("thread_id")
@click.argument("target", metavar="FILE:START[-END]")
@author_option
@json_option
@click.pass_context
def move(ctx, thread_id: str, target: str, author: str | None, as_json: bool) -> None:
    """Move a thread to lines START..END of FILE (without END it keeps its number of lines);
    it re-anchors there and keeps its id and history."""
    m = _TARGET.match(target)
    if not m:
        raise click.BadParameter("expected FILE:START or FILE:START-END, e.g. src/app.py:42-50", param_hint="TARGET")
    thread_id, file = _current(ctx, thread_id)
    args = {"commentId": thread_id, "sourceFile": file, "targetFile": here(ctx, m["file"]), "targetLine": int(m["start"]),
            "author": author or local_author()}
    if m["end"]:
        args["targetEndLine"] = int(m["end"])
    run_op(ctx, "move_comment", args, print_thread)


@cli.command()
@workspace_option
@click.argument("query")
@click.option("--file", default=None, help="Only this file or glob (e.g. 'src/**/*.py').")
@click.option("--tag", type=click.Choice(TAGS, case_sensitive=False), default=None)
@click.option("--author", default=None)
@click.option("--since", default=None, help="Created at or after (ISO 8601 date or date-time).")
@click.option("--until", default=None, help="Created at or before (ISO 8601 date or date-time).")
@click.option("--limit", type=int, default=100, show_default=True, help="At most this many threads (1-1000).")
@json_option
@click.pass_context
def search(ctx, query, file, tag, author, since, until, limit, as_json) -> None:
    """Search threads whose comments match the regular expression QUERY (case-insensitive)."""
    date_range = {k: v for k, v in {"start": since, "end": until}.items() if v}
    filters = {k: v for k, v in {"filePath": here(ctx, file), "tag": tag, "author": author, "dateRange": date_range}.items()
               if v}

    def human(result):
        short = service(ctx).short_ids()
        for t in result["results"]:
            click.echo(format_thread(t, short=short))
        more = " (more match: narrow the query or raise --limit)" if result["hasMore"] else ""
        click.echo(f"{result['totalResults']} thread(s){more}", err=True)

    run_op(ctx, "search_comments", {"query": query, "filters": filters, "limit": limit}, human)
