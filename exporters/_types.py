"""The exporters' public value types: what the service passes in, what comes back.

Options validate themselves on construction so every door (CLI, MCP, HTTP) gets the same
field-level INVALID_ARGUMENT errors without re-checking bounds of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime

import msgspec

from limpet.model import FORMATS, TASKS, ExportFormat, ExportTask, InvalidArgument, Thread

__all__ = [
    "FORMATS",
    "MAX_CONTEXT_LINES",
    "PARTITION_COLUMNS",
    "TASKS",
    "ExportFormat",
    "ExportItem",
    "ExportOptions",
    "ExportResult",
    "ExportTask",
    "Grouped",
    "Origin",
    "PAIR_LABELS",
    "Progress",
    "SPLITS",
]

MAX_CONTEXT_LINES = 20
# Low-cardinality columns only: a Hive partition per distinct value must stay a small number.
PARTITION_COLUMNS = ("repository", "split", "language", "workspace", "tag", "status", "health", "author_type",
                     "author")
SPLITS = ("train", "validation", "test")
PAIR_LABELS = ("fixed", "wontfix", "code_deleted", "changed_while_open", "unchanged")  # see _pairs
DEFAULT_SHARES = (0.8, 0.1, 0.1)  # of repositories (not threads) in each split
MAX_ROW_GROUP = 1 << 20

Progress = Callable[[int], None]


class Grouped:
    """Items of several repositories, one iterable each, read in turn. A format that writes in
    chunks (Parquet, Delta) ends a chunk with each repository without reading the next one's
    first item: the next repository is opened only when the last one's items are written and
    dropped, so memory holds one repository at a time. Iterating it gives every item, in order."""

    def __init__(self, groups: Iterable[Iterable[ExportItem]]) -> None:
        self.groups = groups

    def __iter__(self) -> Iterator[ExportItem]:
        for group in self.groups:
            yield from group


class Origin(msgspec.Struct, frozen=True):
    """Where a workspace's rows come from: one object shared by all its items."""

    repository: str  # the repository's identity (its origin remote as host/path, else the folder's name)
    commit: str | None = None  # HEAD when exported (None: not in git, or no commit yet)


class ExportItem(msgspec.Struct, frozen=True):
    """One thread to export, with the workspace it came from and its file's current bytes."""

    thread: Thread
    workspace: str
    source: bytes | None = None  # current bytes of thread.file; None when the file is gone (or unread: reads_source)
    origin: Origin | None = None  # None: the workspace's name is its repository, commit unknown

    @property
    def repository(self) -> str:
        return self.origin.repository if self.origin is not None else self.workspace

    @property
    def commit(self) -> str | None:
        return self.origin.commit if self.origin is not None else None


class ExportOptions(msgspec.Struct, frozen=True):
    context_lines: int = 3
    include_source_context: bool = True
    task: ExportTask = "comments"
    all_pairs: bool = False  # review-pairs: also threads whose code did not change (no-op pairs)
    partition_by: tuple[str, ...] = ()
    row_group_size: int = 65536
    exported_at: str | None = None  # stamped into headers only when given: output stays deterministic
    split_shares: tuple[float, float, float] = DEFAULT_SHARES  # train, validation, test: of repositories
    keep_secrets: bool = False  # training formats redact secrets unless told to keep them
    labels: tuple[str, ...] = ()  # review-pairs: only these labels (empty: every label)
    max_chars: int | None = None  # review-pairs: only pairs whose prompt and completion are at most this long
    repositories: tuple[str, ...] = ()  # delta: the repositories whose rows this run replaces (also any it writes)
    upsert: bool = False  # delta: merge rows by key, delete none (an incremental run)
    storage_options: tuple[tuple[str, str], ...] = ()  # delta: an object store's options (delta-rs names)
    # Where the workspace's files are in git (github-review, SARIF): the commit checked out, and the
    # workspace folder's path inside the repository ("" at its top, else ending in "/"), since GitHub
    # names files from the repository's root. The service fills both from git; None/"" without it.
    head_commit: str | None = None
    repo_prefix: str = ""
    # github-review: the lines the pull request's diff shows, per workspace file ((first, last), ...);
    # a thread elsewhere is listed in the review's body, as GitHub takes comments only there.
    # None: not known (every placed thread is a comment). The service fills it (`base`).
    diff_lines: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] | None = None

    def __post_init__(self) -> None:
        # Accept "tag,status" and lists from doors, store a normalized tuple.
        parts = self.partition_by or ()
        if isinstance(parts, str):
            parts = tuple(p.strip() for p in parts.split(",") if p.strip())
        msgspec.structs.force_setattr(self, "partition_by", tuple(parts))
        self._validate()

    def _validate(self) -> None:
        cl = self.context_lines
        if not _is_int(cl) or not 0 <= cl <= MAX_CONTEXT_LINES:
            raise InvalidArgument(
                f"context_lines must be an integer between 0 and {MAX_CONTEXT_LINES}, got {cl!r}",
                field="context_lines",
                details={"minimum": 0, "maximum": MAX_CONTEXT_LINES, "value": cl},
            )
        if not isinstance(self.include_source_context, bool):
            raise InvalidArgument("include_source_context must be a boolean", field="include_source_context")
        if not isinstance(self.all_pairs, bool):
            raise InvalidArgument("all_pairs must be a boolean", field="all_pairs")
        if self.task not in TASKS:
            raise InvalidArgument(
                f"Unknown task {self.task!r}; expected one of {', '.join(TASKS)}",
                field="task",
                details={"allowed": list(TASKS)},
            )
        _check_partition_by(self.partition_by)
        rg = self.row_group_size
        if not _is_int(rg) or not 1 <= rg <= MAX_ROW_GROUP:
            raise InvalidArgument(
                f"row_group_size must be an integer between 1 and {MAX_ROW_GROUP}, got {rg!r}",
                field="row_group_size",
            )
        _check_shares(self.split_shares)
        if not isinstance(self.keep_secrets, bool):
            raise InvalidArgument("keep_secrets must be a boolean", field="keep_secrets")
        labels = self.labels
        if isinstance(labels, str):
            labels = tuple(p.strip() for p in labels.split(",") if p.strip())
        msgspec.structs.force_setattr(self, "labels", tuple(labels))
        for label in self.labels:
            if label not in PAIR_LABELS:
                raise InvalidArgument(f"Unknown label {label!r}; expected one of {', '.join(PAIR_LABELS)}",
                                      field="labels", details={"allowed": list(PAIR_LABELS)})
        msgspec.structs.force_setattr(self, "repositories", tuple(self.repositories))
        opts = self.storage_options
        msgspec.structs.force_setattr(self, "storage_options", tuple(sorted(opts.items())) if isinstance(opts, dict)
                           else tuple(tuple(p) for p in opts))
        if self.max_chars is not None and (not _is_int(self.max_chars) or self.max_chars < 1):
            raise InvalidArgument("max_chars must be a positive integer", field="max_chars")
        _check_repository(self.head_commit, self.repo_prefix)
        if self.diff_lines is not None and not _is_diff_lines(self.diff_lines):
            raise InvalidArgument("diff_lines must be ((path, ((first, last), ...)), ...)", field="diff_lines")
        if self.exported_at is not None and not _is_utc_iso(self.exported_at):
            raise InvalidArgument(
                "exported_at must be a UTC ISO 8601 timestamp such as 2026-11-22T10:00:00Z",
                field="exported_at",
            )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_partition_by(parts: tuple[str, ...]) -> None:
    for p in parts:
        if p not in PARTITION_COLUMNS:
            raise InvalidArgument(
                f"Cannot partition by {p!r}; allowed columns: {', '.join(PARTITION_COLUMNS)}",
                field="partition_by",
                details={"allowed": list(PARTITION_COLUMNS), "value": p},
            )
    if len(set(parts)) != len(parts):
        raise InvalidArgument("partition_by lists a column twice", field="partition_by")


def _check_shares(shares: object) -> None:
    ok = isinstance(shares, tuple) and len(shares) == 3 and all(
        isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1 for v in shares)
    if not ok or abs(sum(shares) - 1) > 1e-6:  # type: ignore[arg-type]
        raise InvalidArgument(
            f"split_shares must be three shares (train, validation, test) between 0 and 1 summing to 1, "
            f"got {shares!r}",
            field="split_shares",
        )


_COMMIT = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?")  # SHA-1 or SHA-256, as git prints them


def _is_diff_lines(value: object) -> bool:
    return isinstance(value, tuple) and all(
        isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], str) and isinstance(entry[1], tuple)
        and all(isinstance(r, tuple) and len(r) == 2 and all(_is_int(n) for n in r) for r in entry[1])
        for entry in value)


def _check_repository(head: object, prefix: object) -> None:
    if head is not None and not (isinstance(head, str) and _COMMIT.fullmatch(head)):
        raise InvalidArgument(f"head_commit must be a full commit id (40 or 64 hex digits), got {head!r}",
                              field="head_commit")
    parts = prefix.split("/") if isinstance(prefix, str) else None
    if parts is None or (prefix and (parts[-1] != "" or any(p in ("", ".", "..") for p in parts[:-1]))):
        raise InvalidArgument(f"repo_prefix must be a relative folder path ending in '/', or '', got {prefix!r}",
                              field="repo_prefix")


def _is_utc_iso(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return False
    return parsed.tzinfo is not None and parsed.utcoffset().total_seconds() == 0


class ExportResult(msgspec.Struct, frozen=True):
    format: str
    count: int  # threads written
    bytes_written: int  # for a partitioned dataset: the sum over its files
    path: str | None  # None when written to a stream
    media_type: str
    secrets: dict[str, int] = msgspec.field(default_factory=dict)  # redacted, by detect-secrets' type
    warnings: tuple[str, ...] = ()  # what the reader should know (the service adds them: files not as committed)
