"""Paired-comment tools: add_comment, edit_comment, delete_comment,
search_comments, get_file_comments, move_comment, export_comments.

Argument names and bounds are those paired-comment clients use (filePath, commentId, line);
results carry the contract's thread JSON plus the ids, anchored symbol and counts those
clients read. Business rules live in the service.
"""

# No `from __future__ import annotations`: the structs' annotations are evaluated once, as
# they are defined, not parsed from text by every schema made at start (operations/_schema.py).

from collections import Counter
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from limpet.exporters import PARTITION_COLUMNS
from limpet.model import DEFAULT_AUTHOR, MAX_LINE, ExportFormat, ExportTask, Thread
from limpet.server.core import Service, ThreadFilter, instant
from limpet.server.operations._declare import Check, Schema, dump
from limpet.server.operations._fields import (
    NEXT_CURSOR,
    Args,
    AuthorFilter,
    AuthorName,
    Body,
    FilePath,
    HealthName,
    Out,
    PathFilter,
    StatusName,
    TagName,
    ThreadId,
    ThreadOut,
    described,
)
from limpet.server.operations._paging import MAX_PAGE, Cursor, PageLimit, page_of, search_page
from limpet.server.operations._registry import operation

Line = Annotated[int, Meta(ge=1, le=MAX_LINE, description="Line number (1-indexed)")]


class AiMeta(Args):
    model: Annotated[str, Meta(max_length=200)] | None = None
    confidence: Annotated[float, Meta(ge=0, le=1)] | None = None
    reasoning: Annotated[str, Meta(max_length=10_000)] | None = None


class AddCommentArgs(Args):
    filePath: FilePath
    line: Line
    text: Body
    tag: TagName
    author: Annotated[str, Meta(min_length=1, max_length=200,
                                description="Author name (e.g. 'claude', 'gpt-4', 'user')")] = DEFAULT_AUTHOR
    aiMeta: described(AiMeta | None, "Optional AI metadata") = None


_BY = "Who makes the change (default: ai, the agent)"


class EditCommentArgs(Args):
    filePath: FilePath
    commentId: ThreadId
    text: Body
    author: described(AuthorName, _BY) = DEFAULT_AUTHOR


class DeleteCommentArgs(Args):
    filePath: FilePath
    commentId: ThreadId
    author: described(AuthorName, _BY) = DEFAULT_AUTHOR


def _instant(end: bool) -> Any:
    """An ISO 8601 date or date-time as limpet's sortable UTC text (core.instant)."""
    return Check(lambda value: instant(value, end=end))


Instant = Annotated[str, Meta(max_length=64, extra_json_schema={"format": "date-time"})]
Bool = Annotated[bool | None, Schema({"type": "boolean"})]  # optional, but never null on the wire
_INSTANT = "ISO 8601 date-time (inclusive)"


class DateRange(Args):
    start: described(Annotated[Instant, _instant(end=False)] | None, _INSTANT) = None
    end: described(Annotated[Instant, _instant(end=True)] | None, _INSTANT) = None


class SearchFilters(Args):
    tag: TagName | None = None
    author: AuthorFilter | None = None
    filePath: described(PathFilter | None, "A file path or glob pattern (e.g. src/**/*.py)") = None
    hasAIMetadata: described(Bool, "Only AI-enriched comments (true) or only others (false)") = None
    dateRange: DateRange = msgspec.field(default_factory=DateRange)


class SearchCommentsArgs(Args):
    query: Annotated[str, Meta(min_length=1, max_length=1000, description="Regular expression, matched "
                               "case-insensitively against every comment of a thread")]
    filters: described(SearchFilters, "Optional filters to narrow results") = msgspec.field(
        default_factory=SearchFilters)
    limit: Annotated[int, Meta(ge=1, le=MAX_PAGE, description="Max results to return")] = 100
    cursor: Cursor = None


class GetFileCommentsArgs(Args):
    filePath: FilePath
    includeOrphaned: described(bool, "Include orphaned comments (anchors no longer exist)") = True
    cursor: Cursor = None
    limit: PageLimit(500) = 500


class MoveCommentArgs(Args):
    sourceFile: FilePath
    targetFile: FilePath
    commentId: ThreadId
    targetLine: Line
    targetEndLine: described(Line | None, "Last line of the new range (default: keep the thread's span)") = None
    author: described(AuthorName, _BY) = DEFAULT_AUTHOR


PartitionColumn = Literal[PARTITION_COLUMNS]  # type: ignore[valid-type]


class ExportOptionsArgs(Args):
    includeSourceContext: described(bool, "Include surrounding code lines") = False
    contextLines: Annotated[int, Meta(ge=0, le=20, description="Lines of context before/after")] = 3
    task: described(ExportTask, "jsonl: one record per comment, or review pairs (code before, thread, code "
                                "after)") = "comments"
    allPairs: described(bool, "review-pairs: also threads whose code did not change") = False
    partitionBy: described(list[PartitionColumn], "parquet: Hive partitions (a folder, not one file)") = \
        msgspec.field(default_factory=list)
    rowGroupSize: Annotated[int, Meta(ge=1, le=1 << 20, description="parquet: rows per row group")] = 65536


class ExportFilters(Args):
    tag: TagName | None = None
    status: StatusName | None = None
    health: HealthName | None = None
    author: AuthorFilter | None = None
    since: described(Annotated[Instant, _instant(end=False)] | None,
                     "Only threads changed (created, replied, resolved, re-anchored) at or after this "
                     "ISO 8601 date-time") = None


class ExportCommentsArgs(Args):
    format: ExportFormat
    filePath: described(PathFilter | None, "Export only this file or glob (omit for all files)") = None
    options: ExportOptionsArgs | None = None
    filters: described(ExportFilters, "Only the threads matching these") = msgspec.field(
        default_factory=ExportFilters)


class CommentResult(Out):
    thread: ThreadOut
    commentId: str
    filePath: str
    line: int
    anchoredSymbol: str | None


class SearchResult(Out):
    results: list[ThreadOut]
    totalResults: described(int, "How many results are returned")
    hasMore: described(bool, "More threads match than `limit`: narrow the query, raise the limit or pass "
                             "nextCursor as `cursor`")
    nextCursor: described(str | None, NEXT_CURSOR)
    query: str
    filters: dict[str, Any]


class FileCommentsResult(Out):
    filePath: str
    comments: list[ThreadOut]
    commentCount: described(int, "Threads of the file (with includeOrphaned's choice), on every page")
    orphanedCount: int
    summary: dict[str, int]
    nextCursor: described(str | None, NEXT_CURSOR)


class MoveResult(CommentResult):
    movedFrom: described(dict[str, Any], "{filePath, line} before the move")


class ExportResultOut(Out):
    format: str
    totalComments: int
    sizeBytes: int
    path: str
    uri: str


def comment_result(t: Thread) -> dict[str, Any]:
    """What add, edit and delete_comment return about the thread `t`."""
    return {"thread": t.to_wire(), "commentId": t.id, "filePath": t.anchor.file, "line": t.anchor.line_start,
            "anchoredSymbol": t.anchor.symbol}


# How the service's argument names are spelled by these tools (errors name the tool's words).
_NAMES = {"file": "filePath", "line_start": "line", "line_end": "line", "thread_id": "commentId"}
_MOVE_NAMES = {"file": "targetFile", "line_start": "targetLine", "line_end": "targetEndLine", "thread_id": "commentId"}


@operation(group="paired", args=AddCommentArgs, result=CommentResult, title="Add a paired comment", renames=_NAMES)
def add_comment(svc: Service, a: AddCommentArgs) -> dict:
    """Add a new paired comment to a source file at a specific line (1-indexed). The comment is
    anchored to the enclosing function/class and tracks code changes. Returns the comment id
    (commentId) and the anchored symbol. Errors: FILE_NOT_FOUND, INVALID_ANCHOR (line outside
    the file), INVALID_PATH."""
    meta = dump(a.aiMeta) if a.aiMeta else None
    t = svc.add(a.filePath, a.line, a.line, a.text, tag=a.tag, author=a.author, author_type="agent",
                ai_meta=meta or None)
    return comment_result(t)


@operation(group="paired", args=EditCommentArgs, result=CommentResult, idempotent=True, title="Edit a comment",
           renames=_NAMES)
def edit_comment(svc: Service, a: EditCommentArgs) -> dict:
    """Edit the text of an existing comment (the thread's first comment). The previous text is
    kept in the thread's history. The id alone finds the thread (it may have followed its code
    to another file); filePath must still be a valid workspace path. Errors: THREAD_NOT_FOUND."""
    svc.normalize(a.filePath, "filePath")
    return comment_result(svc.edit(a.commentId, a.text, by=a.author))


@operation(group="paired", args=DeleteCommentArgs, result=CommentResult, destructive=True, title="Delete a comment",
           renames=_NAMES)
def delete_comment(svc: Service, a: DeleteCommentArgs) -> dict:
    """Delete a comment thread and all its replies from the workspace store (permanent; use
    comment_resolve to close a thread but keep its history). The id alone finds the thread;
    filePath must be a valid workspace path. Errors: THREAD_NOT_FOUND."""
    svc.normalize(a.filePath, "filePath")
    return comment_result(svc.delete(a.commentId, by=a.author))


@operation(group="paired", args=SearchCommentsArgs, result=SearchResult, read_only=True, idempotent=True,
           title="Search comments")
def search_comments(svc: Service, a: SearchCommentsArgs) -> dict:
    """Search comments by regular expression (case-insensitive, over every comment of a
    thread) with optional filters: tag, author, filePath (path or glob), hasAIMetadata,
    dateRange {start, end}. Returns at most `limit` threads (default 100, max 1000) ordered
    by file and line; hasMore tells whether more match, and nextCursor (as `cursor`) gets
    them. An invalid or too slow pattern is an INVALID_ARGUMENT on `query`."""
    f, rng = a.filters, a.filters.dateRange
    # Globs are checked like paths too (they keep their wildcards): "../*" is refused, not just empty.
    path = svc.normalize(f.filePath, "filters.filePath") if f.filePath else f.filePath
    flt = ThreadFilter(file=path, tag=f.tag, author=f.author, has_ai_meta=f.hasAIMetadata,
                       since=rng.start, until=rng.end)
    found, cursor = search_page(svc, flt, a.query, a.limit, a.cursor)
    return {"results": [t.to_wire() for t in found], "totalResults": len(found), "hasMore": cursor is not None,
            "nextCursor": cursor,
            "query": a.query, "filters": dump(f)}


@operation(group="paired", args=GetFileCommentsArgs, result=FileCommentsResult, read_only=True, idempotent=True,
           title="Get a file's comments")
def get_file_comments(svc: Service, a: GetFileCommentsArgs) -> dict:
    """Retrieve the comment threads of one file, ordered by line, with counts per tag and the
    number of orphaned threads (whose code is gone). includeOrphaned (default true). At most
    `limit` threads per call (default 500); pass nextCursor as `cursor` for the rest."""
    rel = svc.normalize(a.filePath, "filePath")
    threads = svc.threads(ThreadFilter(file=rel))
    if not threads:  # a deleted file keeps its (orphaned) threads listable; otherwise say so
        svc.read_source(rel, "filePath")
    orphaned = sum(1 for t in threads if t.health == "orphaned")
    if not a.includeOrphaned:
        threads = [t for t in threads if t.health != "orphaned"]
    tags = Counter(t.tag for t in threads)
    page, cursor = page_of(threads, a.cursor, a.limit)
    return {"filePath": rel, "comments": [t.to_wire() for t in page], "commentCount": len(threads),
            "orphanedCount": orphaned, "summary": dict(sorted(tags.items())), "nextCursor": cursor}


@operation(group="paired", args=MoveCommentArgs, result=MoveResult, title="Move a comment", renames=_MOVE_NAMES)
def move_comment(svc: Service, a: MoveCommentArgs) -> dict:
    """Move a comment thread to another file and/or line (e.g. after a refactoring the engine
    could not follow). It re-anchors at the new place and keeps its id, comments and history.
    Errors: THREAD_NOT_FOUND, FILE_NOT_FOUND, INVALID_ANCHOR."""
    svc.normalize(a.sourceFile, "sourceFile")
    return move_result(svc.move(a.commentId, a.targetFile, a.targetLine, line_end=a.targetEndLine, by=a.author))


def move_result(moved: Thread) -> dict[str, Any]:
    """What move_comment returns about the thread just moved (from where: its last history entry)."""
    origin = moved.history[-1].details["from"]
    return {**comment_result(moved), "movedFrom": {"filePath": origin["file"], "line": origin["line_start"]}}


def _export_structured(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "text"}


def _export_text(result: dict[str, Any]) -> str:
    import orjson

    return orjson.dumps(_export_structured(result)).decode()


def _export_content(result: dict[str, Any]) -> list[dict[str, Any]]:
    name = result["path"].rsplit("/", 1)[-1]
    blocks = [{"type": "resource_link", "uri": result["uri"], "name": name, "mimeType": result["mimeType"],
               "size": result["sizeBytes"], "description": f"{result['totalComments']} comment thread(s)"}]
    if "text" in result:
        blocks.append({"type": "resource", "uri": result["uri"], "mimeType": result["mimeType"],
                       "text": result["text"]})
    return blocks


@operation(group="paired", args=ExportCommentsArgs, result=ExportResultOut, title="Export comments",
           structured=_export_structured, text=_export_text, extra_content=_export_content)
def export_comments(svc: Service, a: ExportCommentsArgs) -> dict:
    """Export comments as JSON, Markdown, JSONL training data ({prompt, completion, metadata},
    or review pairs with options.task), Parquet (partitioned into a folder with
    options.partitionBy), the body of a GitHub pull request review (github-review) or SARIF
    2.1.0 for code scanning (sarif); the last two hold open threads only. filters narrow the threads (filters.since: changed since, for
    incremental exports). The export is written under the workspace's .limpet/exports/ folder
    and returned as a resource link (small text exports are also embedded)."""
    opts, f = a.options or ExportOptionsArgs(), a.filters
    flt = ThreadFilter(file=svc.normalize(a.filePath, "filePath") if a.filePath else a.filePath,
                       tag=f.tag, status=f.status, health=f.health, author=f.author, updated_since=f.since)
    return svc.export_to_folder(a.format, flt, context_lines=opts.contextLines,
                                include_source_context=opts.includeSourceContext, task=opts.task,
                                all_pairs=opts.allPairs, partition_by=tuple(opts.partitionBy),
                                row_group_size=opts.rowGroupSize)
