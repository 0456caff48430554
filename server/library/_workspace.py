"""`limpet.Workspace`: one checkout's threads, as Python calls (docs/api.md).

A thin door over the core's `Service`, like the operations: a method's arguments are checked
by the argument struct of the tool doing the same (comment_add, comment_list, ...: the same
bounds, vocabulary and INVALID_ARGUMENT naming the field), then it calls the Service method
that tool calls, so the rules, the anchoring and the errors are the ones MCP, HTTP, the editor
and the CLI meet. Values are the model's (`limpet.model.Thread`, ...);
failures are the model's typed errors (`LimpetError` and its subclasses), with a code, a
message and the argument at fault, named by this API's parameter names.
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any

import msgspec

from limpet._pages import Threads
from limpet.model import AUTHOR_TYPES, InvalidArgument, LimpetError, Thread
from limpet.server.core import (
    ImportReport,
    ReconcileReport,
    RepositorySource,
    Service,
    ThreadFilter,
    export_workspaces,
    flush_all,
    instant,
    local_author,
    repository_batches,
)
from limpet.server.operations import arguments, operations_for, page_of, search_page, start_after, tool_specs

if TYPE_CHECKING:  # the import's module loads when an import runs
    from limpet.server.core import GithubImportReport

__all__ = ["Workspace"]

# A script that never calls close() still leaves its re-anchoring results to the next process.
atexit.register(flush_all)


# search_comments' nested filters, by this API's parameter names (errors name these).
_SEARCH_NAMES = {"filters.filePath": "file", "filters.tag": "tag", "filters.author": "author",
                 "filters.dateRange.start": "since", "filters.dateRange.end": "until"}


def _checked(value: str | None, allowed: tuple[str, ...], field: str) -> str | None:
    """A vocabulary word (None passes): INVALID_ARGUMENT naming `field` otherwise."""
    if value is not None and value not in allowed:
        raise InvalidArgument(f"{field} must be one of {', '.join(allowed)}", field=field,
                              details={field: str(value)[:40]})
    return value


class Workspace:
    """The threads of the checkout at `path` (a folder; its `.limpet/` is made on the first
    write). `author` and `author_type` are who writes when a call does not say (default: the
    person at this machine, $LIMPET_AUTHOR or the login name, as a human). `one_shot`: the
    process answers one command and exits (a command line): nothing is prepared for later
    calls."""

    def __init__(self, path: str | os.PathLike[str] = ".", *, author: str | None = None,
                 author_type: str = "human", one_shot: bool = False) -> None:
        self.author_type = _checked(author_type, AUTHOR_TYPES, "author_type") or "human"
        self.author = author or local_author()
        self.service = Service(path, one_shot=one_shot)  # the core; for what this API does not cover yet

    @property
    def root(self) -> Path:
        return self.service.root

    def __repr__(self) -> str:
        return f"limpet.Workspace({str(self.root)!r})"

    # -- reading ------------------------------------------------------------------------------
    def thread(self, id: str) -> Thread:
        """One thread at its current position (re-anchored first if its file changed). `id`: a
        thread id or a unique prefix of one (`c_17637`, or `17637`)."""
        return self.service.get(self.resolve_id(id))

    def resolve_id(self, id: str, field: str = "id") -> str:
        """The full id of the one thread `id` names: its whole id, a beginning of it (`c_17637`,
        or `17637`) or its short id (THREAD_NOT_FOUND, or INVALID_ARGUMENT listing the
        candidates when several match; errors name `field`)."""
        return self.service.resolve_thread_id(id, field)

    def short_ids(self, ids: Iterable[str]) -> dict[str, str]:
        """Each of `ids` with its short id: the fewest of its last digits, 6 to 10, that no other
        thread's id ends or begins with (the whole id when none is), as `limpet list` and the
        page show them; every `id` argument takes one back."""
        short = self.service.short_ids()
        return {i: short.get(i, i) for i in ids}

    def missing_file(self, file: str) -> bool:
        """Whether `file` names neither a file of the workspace nor a file with threads (a
        path outside the workspace is missing; a glob never is): a typo, which `limpet list
        --file` reports instead of listing nothing."""
        return self.service.missing_file(file)

    def threads(self, *, file: str | None = None, status: str | None = None, health: str | None = None,
                tag: str | None = None, author: str | None = None, cursor: str | None = None) -> Threads:
        """Threads ordered by file, then line, then id, at their current positions; each filter
        given narrows them (`file`: a workspace-relative path or a glob such as 'src/**/*.py').
        An iterator (`Threads`): threads are fetched a page at a time as it is read, each page
        after the last thread given, so threads added or deleted meanwhile neither repeat nor
        shift the rest; `cursor` (a listing's `Threads.cursor`, or the tools' nextCursor)
        starts after the thread it names. The arguments are checked at the call."""
        a = arguments("comment_list", {"file": file, "status": status, "health": health, "tag": tag,
                                       "author": author, "cursor": cursor})
        flt = self._filter(a)
        start_after((), a.cursor)  # a cursor that is not one is refused now, not at the first page

        def fetch(after: str | None, size: int) -> tuple[list[Thread], int | None]:
            threads = self.service.threads(flt)
            return page_of(threads, after, size)[0], len(threads)

        return Threads(fetch, a.cursor)

    def search(self, query: str, *, file: str | None = None, tag: str | None = None, author: str | None = None,
               since: str | None = None, until: str | None = None, cursor: str | None = None) -> Threads:
        """Threads with a comment matching the regular expression `query` (case-insensitive,
        RE2: linear time, what it cannot run is refused naming `query`), ordered and paged as
        `threads()`; `since`/`until`: created at or after / at or before these ISO 8601 dates
        or date-times. The arguments are checked at the call; the pattern, at the first page."""
        try:
            a = arguments("search_comments", {"query": query, "cursor": cursor, "filters": {
                "filePath": file, "tag": tag, "author": author, "dateRange": {"start": since, "end": until}}})
        except LimpetError as exc:  # the tool nests its filters; this API names them as parameters
            if exc.field in _SEARCH_NAMES:
                exc.message = exc.message.replace(exc.field, _SEARCH_NAMES[exc.field], 1)
                exc.field = _SEARCH_NAMES[exc.field]
            raise
        f, dates = a.filters, a.filters.dateRange
        flt = ThreadFilter(file=self.service.normalize(f.filePath) if f.filePath else None, tag=f.tag,
                           author=f.author, since=dates.start, until=dates.end)
        start_after((), a.cursor)

        def fetch(after: str | None, size: int) -> tuple[list[Thread], int | None]:
            return search_page(self.service, flt, a.query, size, after)[0], None

        return Threads(fetch, a.cursor)

    def _filter(self, a: Any) -> ThreadFilter:
        """The filter of comment_list's checked arguments (a glob is checked as a path)."""
        return ThreadFilter(file=self.service.normalize(a.file) if a.file else None,
                            status=a.status, health=a.health, author=a.author, tag=a.tag)

    # -- writing ------------------------------------------------------------------------------
    def add(self, file: str, line_start: int, line_end: int | None = None, body: str = "", *, tag: str = "NOTE",
            author: str | None = None, author_type: str | None = None) -> Thread:
        """Start a thread on lines line_start..line_end (1-based, inclusive; without line_end,
        the one line) of `file`, anchored to the code there so it follows it through edits."""
        a = arguments("comment_add", {"file": file, "line_start": line_start,
                                      "line_end": line_start if line_end is None else line_end, "body": body,
                                      "tag": tag, "author": author or self.author,
                                      "author_type": author_type or self.author_type})
        return self.service.add(a.file, a.line_start, a.line_end, a.body, tag=a.tag, author=a.author,
                                author_type=a.author_type)

    def reply(self, id: str, body: str, *, author: str | None = None, author_type: str | None = None) -> Thread:
        """Append a reply (replies always append; concurrent ones all land)."""
        a = arguments("comment_reply", {"thread_id": self.resolve_id(id), "body": body, "author": author or self.author,
                                        "author_type": author_type or self.author_type})
        return self.service.reply(a.thread_id, a.body, author=a.author, author_type=a.author_type)

    def resolve(self, id: str, decision: str | None = None, *, wontfix: bool = False,
                author: str | None = None) -> Thread:
        """Resolve the thread (or close it as won't fix), keeping `decision` and the code as it
        is now. Idempotent: resolving a resolved thread keeps its resolved_at."""
        a = arguments("comment_resolve", {"thread_id": self.resolve_id(id), "decision": decision, "wontfix": wontfix,
                                          "author": author or self.author})
        return self.service.resolve(a.thread_id, decision=a.decision, wontfix=a.wontfix, decider=a.author)

    def reopen(self, id: str, *, author: str | None = None) -> Thread:
        """Reopen a resolved or won't-fix thread; the earlier decision stays in its history."""
        a = arguments("comment_reopen", {"thread_id": self.resolve_id(id), "author": author or self.author})
        return self.service.reopen(a.thread_id, by=a.author)

    def edit(self, id: str, body: str, *, author: str | None = None) -> Thread:
        """Replace the first comment's text; the old text leaves the thread's file (a pasted
        secret can be taken out: git's history keeps what was committed, docs/git.md)."""
        a = arguments("comment_reply", {"thread_id": self.resolve_id(id), "body": body,  # a comment's text
                                        "author": author or self.author})             # by a reply's rule
        return self.service.edit(a.thread_id, a.body, by=a.author)

    def move(self, id: str, file: str, line_start: int, line_end: int | None = None, *,
             author: str | None = None) -> Thread:
        """Anchor the thread at lines line_start..line_end of `file` (without line_end: keeping
        its number of lines); it keeps its id, comments and history."""
        a = arguments("comment_reopen", {"thread_id": self.resolve_id(id), "author": author or self.author})
        return self.service.move(a.thread_id, file, line_start, line_end=line_end, by=a.author)

    def delete(self, id: str, *, author: str | None = None) -> Thread:
        """Delete the thread and its replies: its file keeps only a tombstone naming who deleted
        it, none of its text. Returns the thread as it was."""
        a = arguments("comment_reopen", {"thread_id": self.resolve_id(id), "author": author or self.author})
        return self.service.delete(a.thread_id, by=a.author)

    def reconcile(self, file: str | None = None) -> ReconcileReport:
        """Re-anchor threads whose code changed (all files, or one); safe to repeat. The report
        has `counts` per health, `checked`, the `changed` threads and store files that could
        not be read (`problems`, kept as they are). Writes only derived state."""
        return self.service.reconcile(arguments("comment_reconcile", {"file": file}).file)

    # -- exports ------------------------------------------------------------------------------
    def export(self, format: str, path: str | os.PathLike[str] | IO[bytes], *, file: str | None = None,
               status: str | None = None, health: str | None = None, tag: str | None = None,
               author: str | None = None, since: str | None = None,
               workspaces: Sequence[str | os.PathLike[str]] = (), progress: Callable[[int], None] | None = None,
               **options: Any) -> Any:
        """Write the matching threads to `path` (a file, a folder for partitioned Parquet, a
        table for delta, or a binary stream) in `format` (limpet.FORMATS, and any format the
        exporters' registry knows). `since`: only threads changed at or after this ISO 8601
        instant. `workspaces`: more checkouts whose threads join this one's in one dataset
        (opened one at a time: memory of the largest). `progress(done)`: called as threads are
        written. `options` go to the exporter unchanged (context_lines, task, partition_by,
        row_group_size, keep_secrets, ...: docs/export-formats.md). Returns the exporter's
        ExportResult (format, count, bytes_written, path, secrets, warnings)."""
        flt = self._export_filter(file, status, health, tag, author, since)
        out = os.fspath(path) if isinstance(path, os.PathLike) else path
        # Several: each opened only while its threads are read, and let go (memory of the largest).
        sources = [RepositorySource(w) for w in (self.root, *workspaces)] if workspaces else [self.service]
        return export_workspaces(sources, format, flt, out, progress=progress, **options)

    def count(self, *, file: str | None = None, status: str | None = None, health: str | None = None,
              tag: str | None = None, author: str | None = None, since: str | None = None) -> int:
        """How many threads `export` with these filters would write (a progress bar's length)."""
        return len(self.service.threads(self._export_filter(file, status, health, tag, author, since)))

    def record_batches(self, *, file: str | None = None, status: str | None = None, health: str | None = None,
                       tag: str | None = None, author: str | None = None, since: str | None = None,
                       **options: Any) -> Iterator[Any]:
        """The matching threads as Arrow record batches, one row per thread with the columns of
        a Delta export (limpet.exporters.DELTA_SCHEMA: repository, commit, language, split...),
        `row_group_size` rows at most each, secrets redacted unless keep_secrets=True: what an
        engine's task reads of one repository (limpet.spark). Filters and options as export's.
        The arguments are checked at the call."""
        flt = self._export_filter(file, status, health, tag, author, since)
        return repository_batches(self.service, flt, **options)

    def _export_filter(self, file: str | None, status: str | None, health: str | None, tag: str | None,
                       author: str | None, since: str | None) -> ThreadFilter:
        try:
            updated_since = instant(since) if since is not None else None
        except ValueError as exc:
            raise InvalidArgument(f"since {since!r} {exc}", field="since") from None
        flt = self._filter(arguments("comment_list", {"file": file, "status": status, "health": health, "tag": tag,
                                                      "author": author}))
        return msgspec.structs.replace(flt, updated_since=updated_since)

    # -- imports ------------------------------------------------------------------------------
    def import_json(self, export: bytes | str | os.PathLike[str] | IO[bytes], *, overwrite: bool = False,
                    source: str | None = None) -> ImportReport:
        """Read a JSON export (limpet's `json` format: bytes, a path or a binary stream) back,
        losslessly. A thread whose id exists with other content is a conflict, kept as it is
        unless `overwrite`; importing again changes nothing. Of an export of several
        workspaces, only this one's threads (`source`: that workspace's instead). Returns the
        report: `imported`, `unchanged` and `conflicts` (thread ids); `to_dict()`."""
        if isinstance(export, str | os.PathLike):
            export = Path(export).read_bytes()
        elif not isinstance(export, bytes):
            export = export.read()
        return self.service.import_json(export, overwrite=overwrite, source=source)

    def import_github(self, comments: bytes | str | os.PathLike[str] | IO[bytes],
                      review_threads: bytes | str | os.PathLike[str] | IO[bytes] | None = None) -> GithubImportReport:
        """A pull request's review comments as threads (docs/github.md). `comments`: the JSON
        `gh api repos/OWNER/REPO/pulls/N/comments --paginate` prints, as bytes, a path or a
        binary stream; `review_threads` (optional): GraphQL reviewThreads JSON, for which are
        resolved. Outdated comments are anchored where they were written, in that commit's
        version of the file, and follow the code to the working tree; LEFT-side comments and
        comments on files that are gone are orphans; importing again adds nothing. Returns the
        report: `imported` (each new thread and where it landed), `updated`, `unchanged`,
        `left_out`; `to_dict()` as the CLI's --json prints it."""
        return self.service.import_github(comments, review_threads)

    # -- prompts ------------------------------------------------------------------------------
    def prompt(self, name: str, /, **args: str) -> str:
        """The text of the MCP prompt `name` (review_code, explain_complexity, training_export,
        fix_orphans: limpet.prompts.PROMPTS) filled from this workspace, as prompts/get returns
        it; `args` as over MCP (`filePath="src/app.py"`, `focus="security"`). An unknown
        name or a missing or unknown argument: INVALID_ARGUMENT naming it (a path escaping the
        workspace: INVALID_PATH)."""
        return self.service.prompt(name, args, tool_specs(operations_for()))

    # -- the end ------------------------------------------------------------------------------
    def close(self) -> None:
        """Save re-anchoring results computed so far to the derived cache (also done when the
        process exits); the workspace stays usable."""
        self.service.flush()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
