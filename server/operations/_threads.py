"""Thread tools: comment_add, comment_list, comment_show, comment_reply,
comment_resolve, comment_reopen, comment_reconcile."""

# No `from __future__ import annotations`: the structs' annotations are evaluated once, as
# they are defined, not parsed from text by every schema made at start (operations/_schema.py).

from typing import Annotated

import msgspec
from msgspec import Meta

from limpet.model import DEFAULT_AUTHOR, MAX_LINE
from limpet.server.core import Service, ThreadFilter
from limpet.server.operations._fields import (
    Args,
    AuthorFilter,
    AuthorName,
    AuthorTypeName,
    Body,
    FilePath,
    HealthName,
    Out,
    PathFilter,
    StatusName,
    TagName,
    ThreadId,
    ThreadListResult,
    ThreadOut,
    ThreadResult,
    described,
)
from limpet.server.operations._paging import Cursor, PageLimit, page_of
from limpet.server.operations._registry import Encoded, operation

Line = Annotated[int, Meta(ge=1, le=MAX_LINE, description="1-based line number (inclusive)")]


class CommentAddArgs(Args):
    file: FilePath
    line_start: Line
    line_end: Line
    body: Body
    tag: described(TagName, "Category of the thread") = "NOTE"
    author: AuthorName = DEFAULT_AUTHOR
    author_type: AuthorTypeName = "agent"


class CommentListArgs(Args):
    file: described(PathFilter | None, "Only threads on this file (workspace-relative path or glob)") = None
    status: StatusName | None = None
    health: HealthName | None = None
    author: AuthorFilter | None = None
    tag: TagName | None = None
    cursor: Cursor = None
    limit: PageLimit(200) = 200


class CommentShowArgs(Args):
    thread_id: ThreadId


class CommentReplyArgs(Args):
    thread_id: ThreadId
    body: Body
    author: AuthorName = DEFAULT_AUTHOR
    author_type: AuthorTypeName = "agent"


class CommentResolveArgs(Args):
    thread_id: ThreadId
    decision: described(Annotated[str, Meta(min_length=1, max_length=10_000)] | None,
                        "What was decided (kept even if the thread is reopened later)") = None
    wontfix: described(bool, "Close as won't fix instead of resolved") = False
    author: described(AuthorName, "Who decides") = DEFAULT_AUTHOR


class CommentReopenArgs(Args):
    thread_id: ThreadId
    author: AuthorName = DEFAULT_AUTHOR


class CommentReconcileArgs(Args):
    file: described(PathFilter | None, "Only this file (default: the whole workspace)") = None


class ReconcileResult(Out):
    counts: dict[str, int]
    checked: int
    changed: list[ThreadOut]
    problems: described(dict[str, list[str]], "Store files that could not be fully read (skipped, kept as they "
                                              "are), by path, with the reasons") = msgspec.field(default_factory=dict)


def _thread(t) -> dict:
    return {"thread": t.to_wire()}


@operation(group="threads", args=CommentAddArgs, result=ThreadResult, title="Add a comment thread")
def comment_add(svc: Service, a: CommentAddArgs) -> dict:
    """Start a review thread on lines line_start..line_end (1-based, inclusive) of a workspace
    file. limpet anchors it to the enclosing function/class so it follows the code through
    edits, moves and renames. Returns {"thread": {...}} with the thread id to use later.
    Errors: FILE_NOT_FOUND, INVALID_PATH, INVALID_ANCHOR (range outside the file)."""
    return _thread(svc.add(a.file, a.line_start, a.line_end, a.body, tag=a.tag, author=a.author,
                           author_type=a.author_type))


@operation(group="threads", args=CommentListArgs, result=ThreadListResult, read_only=True, idempotent=True,
           title="List comment threads")
def comment_list(svc: Service, a: CommentListArgs) -> dict:
    """List threads, ordered by file then line, optionally filtered by file (path or glob),
    status (open/resolved/wontfix), health (anchored/drifted/orphaned), author or tag.
    Positions are current: stale files are re-anchored first. Returns {"threads": [...],
    "count", "total", "nextCursor"}: at most `limit` threads (default 200); pass nextCursor as
    `cursor` for the next page."""
    flt = ThreadFilter(file=svc.normalize(a.file) if a.file else a.file,  # globs are checked like paths
                       status=a.status, health=a.health, author=a.author, tag=a.tag)
    threads = svc.threads(flt)
    page, cursor = page_of(threads, a.cursor, a.limit)
    return {"threads": [t.to_wire() for t in page], "count": len(page), "total": len(threads), "nextCursor": cursor}


@operation(group="threads", args=CommentShowArgs, result=ThreadResult, read_only=True, idempotent=True,
           title="Show a thread")
def comment_show(svc: Service, a: CommentShowArgs) -> dict:
    """Get one thread with all its comments, decision and history, at its current position.
    Errors: THREAD_NOT_FOUND, INVALID_ARGUMENT (malformed id)."""
    return _thread(svc.get(a.thread_id))


@operation(group="threads", args=CommentReplyArgs, result=ThreadResult, title="Reply to a thread")
def comment_reply(svc: Service, a: CommentReplyArgs) -> dict:
    """Append a reply to a thread (replies always append; concurrent replies all land).
    Returns the updated thread."""
    return _thread(svc.reply(a.thread_id, a.body, author=a.author, author_type=a.author_type))


@operation(group="threads", args=CommentResolveArgs, result=ThreadResult, idempotent=True, title="Resolve a thread")
def comment_resolve(svc: Service, a: CommentResolveArgs) -> dict:
    """Resolve a thread (or close it as won't fix), optionally recording the decision.
    Idempotent: resolving a resolved thread succeeds and keeps resolved_at."""
    return _thread(svc.resolve(a.thread_id, decision=a.decision, wontfix=a.wontfix, decider=a.author))


@operation(group="threads", args=CommentReopenArgs, result=ThreadResult, idempotent=True, title="Reopen a thread")
def comment_reopen(svc: Service, a: CommentReopenArgs) -> dict:
    """Reopen a resolved or won't-fix thread. The earlier decision is kept on the thread
    and in its history."""
    return _thread(svc.reopen(a.thread_id, by=a.author))


@operation(group="threads", args=CommentReconcileArgs, result=ReconcileResult, idempotent=True,
           title="Re-anchor threads")
def comment_reconcile(svc: Service, a: CommentReconcileArgs) -> dict:
    """Re-anchor threads to the current code (all files, or one). Safe to repeat. Returns
    counts per health (anchored/drifted/orphaned) and the threads whose position or health
    changed, and store files that could not be fully read (reported, skipped, never deleted)."""
    report = svc.reconcile(a.file)
    return Encoded(report.wire_json(), report.to_wire)
