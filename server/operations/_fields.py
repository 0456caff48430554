"""Shared schema pieces: field types with their validation rules, and output models.

Each rule is written once here (thread id format, body length, tags, ...) and reused by every
operation's argument model, so MCP schemas, HTTP validation and the CLI agree.
"""

# No `from __future__ import annotations`: the structs' annotations are evaluated once, as
# they are defined, not parsed from text by every schema made at start (operations/_schema.py).

import types
import typing
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from limpet.model import (
    MAX_BODY,
    THREAD_ID_PATTERN,
    AuthorType,
    Health,
    Record,
    Status,
    Tag,
    Thread,
    WireField,
    wire_fields,
)
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


def _published(field: WireField) -> Any:
    """A thread JSON field's type as the tools publish it. Top-level fields are typed; nested
    records (comments, decision) are described by their keys, not spelled out field by field:
    SDK clients validate every result against this schema, and a deep schema made that
    validation cost more than the call itself on long listings (benchmarks/README.md)."""
    record = next((tp for tp in (field.type, *typing.get_args(field.type)) if isinstance(tp, type)
                   and issubclass(tp, Record)), None)
    if record is None:
        return field.type
    keys = "{" + ", ".join(record.__struct_fields__) + "}"
    if typing.get_origin(field.type) is tuple:
        return described(list[dict[str, Any]], f"[{keys}]")
    shape = dict[str, Any] | None if types.NoneType in typing.get_args(field.type) else dict[str, Any]
    return described(shape, f"{keys} {field.description or ''}".rstrip())


# The contract's thread JSON, read off the thread's declaration (limpet.model.Thread: the
# fields the contract names, in the wire's order; the wire's extras are left out).
ThreadOut = msgspec.defstruct("ThreadOut", [(f.name, _published(f)) for f in wire_fields(Thread) if f.contract],
                              bases=(Out,), kw_only=True, module=__name__)
ThreadOut.__doc__ = "The contract's thread JSON."


class ThreadResult(Out):
    thread: ThreadOut


class ThreadListResult(Out):
    threads: list[ThreadOut]
    count: described(int, "Threads on this page")
    total: described(int, "Threads matching the filters, on every page")
    nextCursor: described(str | None, NEXT_CURSOR)
