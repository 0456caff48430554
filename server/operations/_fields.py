"""Shared schema pieces: field types with their validation rules, and output models.

Each rule is written once here (thread id format, body length, tags, ...) and reused by every
operation's argument model, so MCP schemas, HTTP validation and the CLI agree.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from limpet.model import MAX_BODY, THREAD_ID_PATTERN, AuthorType, Health, Status, Tag

__all__ = [
    "Args",
    "AuthorName",
    "AuthorTypeName",
    "Body",
    "CommentOut",
    "DecisionOut",
    "FilePath",
    "HealthName",
    "Out",
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
    AfterValidator(_check_thread_id),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": THREAD_ID_PATTERN.pattern,
            "description": "Thread id as returned when the thread was created, e.g. c_1763790000000042",
        }
    ),
]
FilePath = Annotated[
    str,
    Field(min_length=1, max_length=4096, description="Workspace-relative file path, POSIX style (e.g. src/auth.py)"),
]
Body = Annotated[
    str,
    Field(min_length=1, max_length=MAX_BODY, description="Comment text (plain text or markdown), at most 10,000 characters"),
    AfterValidator(_check_text),
]
TagName = Tag
StatusName = Status
HealthName = Health
AuthorTypeName = AuthorType
AuthorName = Annotated[str, Field(min_length=1, max_length=200, description="Who writes it (e.g. claude, alice)")]


# Models are built on first use (defer_build): a process validates the arguments and result
# of one or a few operations, and building all of them at import was a tenth of a command's
# cost (issue 17).
class Args(BaseModel):
    """Base for argument models: unknown arguments are refused, not silently ignored."""

    model_config = ConfigDict(extra="forbid", str_max_length=1_000_000, defer_build=True)


class Out(BaseModel):
    """Base for result models."""

    model_config = ConfigDict(defer_build=True)


class CommentOut(Out):
    id: str
    body: str
    author: str
    author_type: AuthorTypeName
    created_at: str
    edited_at: str | None = None


class DecisionOut(Out):
    summary: str
    decider: str
    decided_at: str
    status: str


# Top-level fields are typed; nested parts (comments, decision) are described, not spelled out
# field by field: SDK clients validate every result against this schema, and a deep schema made
# that validation cost more than the call itself on long listings (benchmarks/README.md).
class ThreadOut(Out):
    """The contract's thread JSON."""

    model_config = ConfigDict(extra="allow")

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
    decision: dict[str, Any] | None = Field(description="{summary, decider, decided_at, status} once resolved")
    comments: list[dict[str, Any]] = Field(description="[{id, body, author, author_type, created_at, edited_at}]")


class ThreadResult(Out):
    thread: ThreadOut


class ThreadListResult(Out):
    threads: list[ThreadOut]
    count: int = Field(description="Threads on this page")
    total: int = Field(description="Threads matching the filters, on every page")
    nextCursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page")
