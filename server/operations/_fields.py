"""Shared schema pieces: field types with their validation rules, and output models.

Each rule is written once here (thread id format, body length, tags, ...) and reused by every
operation's argument model, so MCP schemas, HTTP validation and the CLI agree.
"""

from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

from limpet.model import MAX_BODY, THREAD_ID_PATTERN, AuthorType, Health, Status, Tag
from limpet.server.operations._declare import Args, Check, Out, Schema

__all__ = [
    "Args",
    "AuthorFilter",
    "AuthorName",
    "AuthorTypeName",
    "Body",
    "FilePath",
    "HealthName",
    "Out",
    "PathFilter",
    "StatusName",
    "TagName",
    "ThreadId",
    "ThreadListResult",
    "ThreadOut",
    "ThreadResult",
]


def _check_thread_id(value: str) -> str:
    if not THREAD_ID_PATTERN.fullmatch(value):
        raise ValueError("Invalid thread ID format")
    return value


def _check_text(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty or whitespace only")
    return value


ThreadId = Annotated[
    str,
    Check(_check_thread_id),
    Schema(
        {
            "type": "string",
            "pattern": THREAD_ID_PATTERN.pattern,
            "description": "Thread id as returned when the thread was created, e.g. c_1763790000000042",
        }
    ),
]
MAX_PATH = 4096
FilePath = Annotated[
    str, Meta(min_length=1, max_length=MAX_PATH, description="Workspace-relative file path, POSIX style (e.g. src/auth.py)")
]
# Filters: a path or a glob (checked like a path by the service), an author's name.
PathFilter = Annotated[str, Meta(max_length=MAX_PATH)]
AuthorFilter = Annotated[str, Meta(max_length=200)]
Body = Annotated[
    str,
    Meta(min_length=1, max_length=MAX_BODY, description="Comment text (plain text or markdown), at most 10,000 characters"),
    Check(_check_text),
]
TagName = Tag
StatusName = Status
HealthName = Health
AuthorTypeName = AuthorType
AuthorName = Annotated[str, Meta(min_length=1, max_length=200, description="Who writes it (e.g. claude, alice)")]


def described(tp: Any, description: str) -> Any:
    """`tp` with a description for its field (the schema's text for clients)."""
    return Annotated[tp, Meta(description=description)]


NEXT_CURSOR = "Pass as `cursor` for the next page; null on the last page"


# Top-level fields are typed; nested parts (comments, decision) are described, not spelled out
# field by field: SDK clients validate every result against this schema, and a deep schema made
# that validation cost more than the call itself on long listings (benchmarks/README.md).
class ThreadOut(Out):
    """The contract's thread JSON."""

    id: str
    file: str
    line_start: int
    line_end: int
    start_character: int
    end_character: int
    symbol: str | None
    symbol_kind: str | None
    selected_text: str
    health: HealthName
    status: StatusName
    tag: TagName
    author: str
    author_type: AuthorTypeName
    ai_meta: dict[str, Any] | None
    created_at: str
    resolved_at: str | None
    decision: described(dict[str, Any] | None, "{summary, decider, decided_at, status} once resolved")
    comments: described(list[dict[str, Any]], "[{id, body, author, author_type, created_at, edited_at}]")


class ThreadResult(Out):
    thread: ThreadOut


class ThreadListResult(Out):
    threads: list[ThreadOut]
    count: described(int, "Threads on this page")
    total: described(int, "Threads matching the filters, on every page")
    nextCursor: described(str | None, NEXT_CURSOR)
