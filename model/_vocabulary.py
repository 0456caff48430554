"""The words of the domain, each spelled once: tags, statuses, healths, author types, export
formats and tasks, import formats, limits.

Every door, schema, filter and exporter takes these from here; a `Literal` type and the
tuple of its values are the same definition (the tuple is read off the type).
"""

from __future__ import annotations

import re
from typing import Literal, get_args

__all__ = [
    "AUTHOR_TYPES",
    "DEFAULT_AUTHOR",
    "FORMATS",
    "TASKS",
    "AuthorType",
    "ExportFormat",
    "ExportTask",
    "HEALTHS",
    "Health",
    "IMPORT_FORMATS",
    "ImportFormat",
    "MAX_BODY",
    "MAX_LINE",
    "SCHEMA_VERSION",
    "STATUSES",
    "Status",
    "TAGS",
    "THREAD_ID_PATTERN",
    "Tag",
    "is_thread_id",
]

SCHEMA_VERSION = 1
MAX_BODY = 10_000  # characters in one comment
MAX_LINE = 10_000_000  # the largest line number limpet accepts anywhere (tools and stored records)

Tag = Literal["TODO", "FIXME", "NOTE", "STAR", "QUESTION"]
Status = Literal["open", "resolved", "wontfix"]
Health = Literal["anchored", "drifted", "orphaned"]
AuthorType = Literal["human", "agent"]

TAGS: tuple[str, ...] = get_args(Tag)
STATUSES: tuple[str, ...] = get_args(Status)
HEALTHS: tuple[str, ...] = get_args(Health)
AUTHOR_TYPES: tuple[str, ...] = get_args(AuthorType)

# What limpet exports to, and what for (limpet.exporters implements them; the tools name them).
ExportFormat = Literal["json", "markdown", "jsonl", "parquet", "delta", "github-review", "sarif"]
FORMATS: tuple[str, ...] = get_args(ExportFormat)
# What `limpet import` reads: limpet's own JSON export, or a pull request's review comments.
ImportFormat = Literal["json", "github"]
IMPORT_FORMATS: tuple[str, ...] = get_args(ImportFormat)
ExportTask = Literal["comments", "review-pairs"]
TASKS: tuple[str, ...] = get_args(ExportTask)

# Who writes when a tool call names no author (every tool, every door; author_type "agent").
# Seed 004 documents "ai" as add_comment's default; seed 002 documents none for comment_add.
DEFAULT_AUTHOR = "ai"

THREAD_ID_PATTERN = re.compile(r"^c_\d+$")


def is_thread_id(value: object) -> bool:
    return isinstance(value, str) and THREAD_ID_PATTERN.fullmatch(value) is not None
