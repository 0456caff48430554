"""`limpet edit`, `delete`, `move` and `search`: library calls (limpet.Workspace) answering
as the paired-comment tools do (their results with --json, their argument names in errors).

The paired tools name the thread's current file (`filePath`, `sourceFile`); the CLI looks it
up from the id so a person types only the id.
"""

from __future__ import annotations

import re
import sys
from itertools import islice

import click

from limpet.model import TAGS, LimpetError
from limpet.server.cli._app import (
    author_option,
    fail,
    format_thread,
    here,
    json_option,
    print_thread,
    resolve_id,
    run,
    workspace,
    workspace_option,
)

__all__ = ["delete", "edit", "move", "search"]

_TARGET = re.compile(r"^(?P<file>.+?):(?P<start>\d+)(?:-(?P<end>\d+))?$")


def _current(ctx: click.Context, thread_id: str) -> tuple[str, str]:
    """(full id, the thread's file now): it may have followed its code elsewhere. THREAD_ID
    may be a unique prefix; errors as the tools give them."""
    full = resolve_id(ctx, thread_id, "commentId")
    try:
        return full, workspace(ctx).thread(full).file
    except LimpetError as exc:
        fail(exc, ctx.params.get("as_json", False))
        raise AssertionError("unreachable") from exc  # fail exits


def _comment_result(thread) -> dict:
    from limpet.server.operations import comment_result

    return comment_result(thread)


@click.command()
@workspace_option
@click.argument("thread_id")
@click.argument("body")
@author_option
@json_option
@click.pass_context
def edit(ctx, thread_id: str, body: str, author: str | None, as_json: bool) -> None:
    """Replace the text of a thread's first comment (the old text leaves the thread's file)."""
    thread_id, _file = _current(ctx, thread_id)
    run(ctx, lambda ws: _comment_result(ws.edit(thread_id, body, author=author)), print_thread,
        spelled_as="edit_comment")


@click.command()
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

    run(ctx, lambda ws: _comment_result(ws.delete(thread_id, author=author)), human, spelled_as="delete_comment")


@click.command()
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
    thread_id, _file = _current(ctx, thread_id)
    end = int(m["end"]) if m["end"] else None

    def moved(ws):
        from limpet.server.operations import move_result

        return move_result(ws.move(thread_id, here(ctx, m["file"]), int(m["start"]), end, author=author))

    run(ctx, moved, print_thread, spelled_as="move_comment")


@click.command()
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
    def human(result):
        short = workspace(ctx).short_ids(t["id"] for t in result["results"])
        for t in result["results"]:
            click.echo(format_thread(t, short=short))
        more = " (more match: narrow the query or raise --limit)" if result["hasMore"] else ""
        click.echo(f"{result['totalResults']} thread(s){more}", err=True)

    def found(ws):
        """search_comments' result: the first `limit` matches, whether more match, the filters."""
        from limpet.server.operations import arguments

        arguments("search_comments", {"query": query, "limit": limit})  # the tool's bounds on --limit
        matches = ws.search(query, file=here(ctx, file), tag=tag, author=author, since=since, until=until)
        shown = [t.to_wire() for t in islice(matches, limit)]
        after = matches.cursor
        more = next(matches, None) is not None
        dates = {k: v for k, v in {"start": _instant(since), "end": _instant(until, end=True)}.items() if v}
        filters = {k: v for k, v in {"tag": tag, "author": author, "filePath": here(ctx, file),
                                     "dateRange": dates}.items() if v}
        return {"results": shown, "totalResults": len(shown), "hasMore": more, "nextCursor": after if more else None,
                "query": query, "filters": filters}

    run(ctx, found, human)


def _instant(value: str | None, end: bool = False) -> str | None:
    from limpet.server.core import instant

    return instant(value, end=end) if value else None
