"""Plan-feedback tools: get_feedback, resolve_feedback, get_feedback_summary.

They keep the shapes their clients document (a bare array of feedback, `{"resolved": false,
"error": "Thread not found"}`). Per the contract they show OPEN threads only, and
resolve_feedback resolves (it never deletes: exports still need the history).
"""

# No `from __future__ import annotations`: the structs' annotations are evaluated once, as
# they are defined, not parsed from text by every schema made at start (operations/_schema.py).

from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

import orjson

from limpet.model import LimpetError, StoreCorrupted, StoreError, Thread, ThreadNotFound
from limpet.server.core import Service, ThreadFilter
from limpet.server.operations._fields import NEXT_CURSOR, Args, Out, PathFilter, ThreadId, described
from limpet.server.operations._paging import Cursor, PageLimit, page_of
from limpet.server.operations._registry import operation

T = TypeVar("T")
OPEN = ThreadFilter(status="open")


class GetFeedbackArgs(Args):
    filePath: described(PathFilter | None,
                        "Workspace-relative file path to filter by. If omitted, returns all feedback.") = None
    cursor: Cursor = None
    limit: PageLimit(500) = 500


class ResolveFeedbackArgs(Args):
    threadId: ThreadId


class SummaryArgs(Args):
    pass


class FeedbackResult(Out):
    feedback: list[dict[str, Any]]
    nextCursor: described(str | None, NEXT_CURSOR)


class ResolveFeedbackResult(Out):
    resolved: bool
    threadId: str | None = None
    error: str | None = None


class FileCount(Out):
    path: str
    threadCount: int


class SummaryResult(Out):
    totalThreads: int
    totalComments: int
    fileCount: int
    files: list[FileCount]
    orphanedCount: int


def _in_feedback_words(fn: Callable[[], T]) -> T:
    """Report store trouble in the words feedback clients know (codes stay the contract's)."""
    try:
        return fn()
    except StoreCorrupted as exc:
        raise StoreCorrupted("Feedback store corrupted, attempting recovery from backup", details=exc.details) from None
    except StoreError as exc:
        if type(exc) is not StoreError:  # too new, storage failures: their own words
            raise
        raise StoreError("Feedback store not initialized", details=exc.details, suggestion=exc.suggestion) from None
    except OSError as exc:
        raise StoreError("Feedback store not initialized", details={"reason": exc.strerror},
                         suggestion="The workspace's .limpet/ must be a readable folder (it is created on "
                                    "the first comment)") from None


def _feedback_error_text(exc: LimpetError) -> str:
    """The feedback tools' error text: {"error": "Description"} (structuredContent keeps the contract's
    error object with code, field and details)."""
    message = exc.message.removeprefix(f"{exc.field}: ") if exc.field else exc.message
    return orjson.dumps({"error": message}).decode()


def _feedback(t: Thread) -> dict[str, Any]:
    a = t.anchor
    return {
        "id": t.id,
        "file": a.file,
        "range": {"startLine": a.line_start, "endLine": a.line_end,
                  "startCharacter": a.start_character, "endCharacter": a.end_character},
        "selectedText": a.selected_text,
        "orphaned": t.health == "orphaned",
        "comments": [{"id": c.id, "body": c.body, "author": c.author, "createdAt": c.created_at} for c in t.comments],
    }


@operation(group="feedback", args=GetFeedbackArgs, result=FeedbackResult, read_only=True, idempotent=True,
           title="Get feedback", text=lambda result: orjson.dumps(result["feedback"]).decode(),
           error_text=_feedback_error_text)
def get_feedback(svc: Service, a: GetFeedbackArgs) -> dict[str, Any]:
    """Query open feedback threads for the workspace or one file: ordered by file path then
    line; each with its range, selected text, an `orphaned` flag (its code was deleted) and its
    comments. The text result is a JSON array ([] when there is none) of at most `limit`
    threads (default 500); structuredContent also carries nextCursor for the next page."""
    flt = ThreadFilter(status="open", file=svc.normalize(a.filePath, "filePath") if a.filePath else None)
    page, cursor = page_of(_in_feedback_words(lambda: svc.threads(flt)), a.cursor, a.limit)
    return {"feedback": [_feedback(t) for t in page], "nextCursor": cursor}


@operation(group="feedback", args=ResolveFeedbackArgs, result=ResolveFeedbackResult, idempotent=True,
           renames={"thread_id": "threadId"},
           title="Resolve feedback", error_text=_feedback_error_text)
def resolve_feedback(svc: Service, a: ResolveFeedbackArgs) -> dict[str, Any]:
    """Mark a feedback thread as addressed: it is resolved (kept in the history, gone from
    get_feedback and the summary). Returns {"resolved": true, "threadId"}; an unknown or
    already resolved thread gives {"resolved": false, "error": "Thread not found"}."""
    def resolve() -> dict[str, Any]:
        try:
            thread = svc.get(a.threadId)
        except ThreadNotFound:
            return {"resolved": False, "error": "Thread not found"}
        if thread.status != "open":
            return {"resolved": False, "error": "Thread not found"}
        svc.resolve(a.threadId)
        return {"resolved": True, "threadId": a.threadId}

    return _in_feedback_words(resolve)


@operation(group="feedback", args=SummaryArgs, result=SummaryResult, read_only=True, idempotent=True,
           title="Feedback summary", error_text=_feedback_error_text)
def get_feedback_summary(svc: Service, a: SummaryArgs) -> dict[str, Any]:
    """Workspace-wide overview of open feedback: totals, files sorted by thread count
    (descending), and how many threads are orphaned. All zeros when there is none."""
    threads = _in_feedback_words(lambda: svc.threads(OPEN))
    per_file = Counter(t.anchor.file for t in threads)
    files = sorted(per_file.items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "totalThreads": len(threads),
        "totalComments": sum(len(t.comments) for t in threads),
        "fileCount": len(per_file),
        "files": [{"path": p, "threadCount": n} for p, n in files],
        "orphanedCount": sum(1 for t in threads if t.health == "orphaned"),
    }
