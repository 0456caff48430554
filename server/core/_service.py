"""The one service: every business rule of limpet, behind typed public methods.

Doors (MCP, HTTP, CLI, the editor) call operations (limpet.server.operations) or these
methods; they never touch the store or the engine themselves. Policy lives here and in the
core's private modules; I/O lives in limpet.server.store (the seam httpx draws between client
policy and transports). Errors name the arguments by the service's own parameter names
(`file`, `line_start`, `thread_id`); operations rename them to their tool's spelling.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from limpet.model import DEFAULT_AUTHOR, LimpetError, Thread
from limpet.server.core import _edits as edits
from limpet.server.core._changes import Change, ChangeFeed, ChangeListener
from limpet.server.core._export import Exports, ImportReport
from limpet.server.core._filters import ThreadFilter
from limpet.server.core._ids import ShortIds, create_thread, resolve_prefix, unused_thread_id, utc_now
from limpet.server.core._process import register
from limpet.server.core._reconcile import Reconciler, ReconcileReport
from limpet.server.core._tree import (
    FileListing,
    file_tree,
    missing_file,
    source_of,
    text_source,
    thread_counts,
)
from limpet.server.store import DEFAULT_LOCK_TIMEOUT, Event, ThreadStore, Workspace

if TYPE_CHECKING:  # the engine, prompts and review: imported by the methods using them (`list` needs none)
    from limpet.anchoring import Candidate
    from limpet.prompts import ToolSpec
    from limpet.server.core._github import GithubImportReport, Input
    from limpet.server.core._reviews import Reviews

__all__ = ["Service"]


class Service:
    def __init__(self, root: str | os.PathLike[str], *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
                 one_shot: bool = False) -> None:
        """one_shot: the process answers one command and exits (the CLI; see Reconciler.prime)."""
        self._ws = Workspace(root)
        self._store = ThreadStore(self._ws, edits.RULES, lock_timeout=lock_timeout, one_shot=one_shot)
        self._reconciler = Reconciler(self._ws, self._store, remember=not one_shot)
        self._changes = ChangeFeed(self._ws.root, self._store.holds_disk_version)
        self._listing = FileListing(self._ws, self._changes.watch_epoch)
        self._changes.subscribe(self._listing.on_change)
        self._exports = Exports(self._ws, self._store, self.threads, self._written, self._snapshot_event)
        self._selections: dict[ThreadFilter, tuple[int, tuple[Thread, ...]]] = {}  # see _selected
        self._short: tuple[int, ShortIds] | None = None  # see short_ids
        register(self)  # its staged positions reach the disk before the process exits (_process)

    @functools.cached_property
    def _reviews(self) -> Reviews:
        from limpet.server.core._reviews import Reviews
        return Reviews(self._ws, self._store, self._reconciler, lambda: self._changes.publish(Change(review=True)))

    # -- the workspace --------------------------------------------------------------------
    @property
    def root(self) -> Path:
        return self._ws.root

    @property
    def workspace_name(self) -> str:
        return self._exports.workspace_name

    @property
    def repository(self) -> str:
        """The repository's identity in datasets: its origin remote as host/path (no scheme,
        credentials or .git), else the folder's name (core._provenance)."""
        return self._exports.repository

    def normalize(self, path: str, field: str = "file") -> str:
        """The canonical workspace-relative path, or INVALID_PATH naming `field`."""
        return self._ws.normalize(path, field)

    def read_source(self, rel: str, field: str = "file") -> bytes:
        return self._ws.read(rel, field)

    def file_tree(self, *, after: str | None = None, limit: int | None = None,
                  only: Iterable[str] | None = None, threaded: bool = False) -> dict[str, Any]:
        """Workspace files with thread counts as last anchored, in path order (core._tree):
        never waits for re-anchoring; the change feed names the files re-anchoring touches."""
        if only is not None:
            only = [self._ws.normalize(p, "path") for p in only]
            counts = thread_counts(t for p in only for t in self._store.for_file(p))
        else:
            counts = self._listing.counts(self._store.version(), self._store.all)
        tree = file_tree(self._listing, counts, after=after, limit=limit, only=only, threaded=threaded)
        return {"workspace": self._ws.root.name, **tree, "with_threads": len(self._store.by_file())}

    def missing_file(self, path: str) -> bool:
        """Whether `path` names no file of the workspace and no thread (core._tree)."""
        return missing_file(self._ws, self._store.for_file, path)

    def source(self, path: str) -> dict[str, Any]:
        return source_of(self._ws, path)

    # -- change notification (resources, the web page, the editor) --------------------------
    def subscribe(self, listener: ChangeListener) -> Callable[[], None]:
        """`listener(change)` for every change, from any thread; returns the unsubscribe."""
        return self._changes.subscribe(listener)

    def watching(self) -> contextlib.AbstractContextManager[None]:
        """While held, changes other processes make on disk are reported too."""
        return self._changes.watching()

    def _written(self, threads: Iterable[Thread], *also: str) -> None:
        threads = list(threads)
        files = frozenset({t.anchor.file for t in threads} | set(also))
        self._changes.publish(Change(files=files, thread_ids=frozenset(t.id for t in threads)))

    # -- derived state written behind -------------------------------------------------------
    @property
    def pending_writes(self) -> bool:
        return bool(self._store.pending)

    def flush(self) -> int:
        """Save staged re-anchoring results to the derived cache (never a committed file).
        Doors call it when idle or exiting. Best effort: a cache that cannot be written costs
        recomputation in the next process, nothing else."""
        return self._store.flush_staged() if self._store.pending else 0

    def problems(self) -> dict[str, list[str]]:
        """Store files limpet could not fully read (skipped, kept as they are), and why."""
        return self._store.problems()

    # -- reading --------------------------------------------------------------------------
    def threads(self, flt: ThreadFilter | None = None, *, fresh: bool = True) -> list[Thread]:
        """Threads matching `flt`, ordered by file then line; re-anchored first if stale."""
        flt = flt or ThreadFilter()
        selected = self._select(flt)
        # None selected: nothing to bring up to date, unless re-anchoring can bring threads in.
        if fresh and (selected or flt.depends_on_positions):
            by_file = self._store.by_file(refresh=False)  # the snapshot _select read
            exact = flt.exact_file
            stale = self._reconciler.stale_in(by_file, by_file if exact is None else (exact,))
            if stale:
                self._reconcile_threads(stale)
                selected = self._select(flt)
        return selected

    def matching(self, flt: ThreadFilter, choose: Callable[[Sequence[Thread]], list[Thread]]) -> list[Thread]:
        """choose(threads matching flt), for a choice that does not depend on positions (a text
        search): only the files of the chosen threads are brought up to date (then it chooses
        again, over current positions), not every file of the selection. A path or health filter
        depends on positions (a stale thread may move into it): that takes the full check first.
        `choose` gets the selection itself (a tuple, the same object while the store is unchanged:
        a search keeps its joined text for it), never a copy."""
        if flt.file is not None or flt.depends_on_positions:
            return choose(tuple(self.threads(flt)))
        chosen = choose(self._selected(flt))
        # The snapshot _selected read (it caught up with the disk a moment ago).
        stale = self._reconciler.stale_in(self._store.by_file(refresh=False), {t.anchor.file for t in chosen})
        if not stale:
            return chosen
        self._reconcile_threads(stale)
        return choose(self._selected(flt))

    def _select(self, flt: ThreadFilter) -> list[Thread]:
        return list(self._selected(flt))

    def _selected(self, flt: ThreadFilter) -> tuple[Thread, ...]:
        """The threads of the whole store matching `flt`, kept: the same filter on an unchanged
        store gives the same (identical) tuple."""
        exact = flt.exact_file
        if exact is not None:
            return tuple(flt.apply(self._store.for_file(exact), file_chosen=True))
        version = self._store.version()
        cached = self._selections.get(flt)
        if cached is None or cached[0] != version:
            if len(self._selections) >= 32:
                self._selections.clear()
            cached = self._selections[flt] = (version, tuple(flt.apply(self._store.all(refresh=False))))
        return cached[1]

    def threads_on_text(self, file: str, text: bytes) -> list[Thread]:
        """The threads of `file` placed on `text`, the file as an editor holds it (unsaved edits
        included): re-anchored against those bytes as a reconcile would against the saved file,
        ordered by line. Nothing is persisted (derived positions only); a thread whose code the
        text no longer holds is `orphaned`, one whose code went to another file is left out."""
        from limpet.server.core._unsaved import placed_on
        rel = self._ws.normalize(file)
        return placed_on(self._reconciler, rel, self.threads(ThreadFilter(file=rel)), text)

    def files_with_threads(self) -> set[str]:
        """Files that have threads, as last anchored (no re-anchoring): for list_changed."""
        return set(self._store.by_file())

    def resolve_thread_id(self, prefix: str, field: str = "thread_id") -> str:
        """The full id of the one thread `prefix` names: a beginning of its id, or its short
        form (see _ids.resolve_prefix)."""
        return resolve_prefix(prefix, self._store.exists, lambda: (t.id for t in self._store.all()), field)

    def short_ids(self) -> ShortIds:
        """The threads' short ids, unique in this store (`.get(id, default)`; see _ids.ShortIds),
        kept while the store is unchanged."""
        version = self._store.version()
        if self._short is None or self._short[0] != version:
            self._short = (version, ShortIds(t.id for t in self._store.all(refresh=False)))
        return self._short[1]

    def get(self, thread_id: str, *, fresh: bool = True) -> Thread:
        thread = self._store.get(thread_id)
        if fresh and self._reconciler.stale([thread]):
            self._reconcile_threads([thread])
            thread = self._store.get(thread_id)
        return thread

    # -- writing --------------------------------------------------------------------------
    def add(self, file: str, line_start: int, line_end: int, body: str, *, tag: str = "NOTE",
            author: str = DEFAULT_AUTHOR, author_type: str = "agent", ai_meta: dict[str, Any] | None = None,
            start_character: int = 0, end_character: int = 0) -> Thread:
        from limpet.anchoring import create_anchor
        rel = self._ws.normalize(file)
        source = text_source(self._ws, rel)
        anchor = create_anchor(rel, source, line_start, line_end, start_character, end_character)
        event = edits.new_event("created", author, author_type, anchor=anchor, body=body, tag=tag, ai_meta=ai_meta)
        with self._store.transaction():
            self._reconciler.prime()
            thread = create_thread(self._store.append, self._store.exists, event)
        self._reconciler.hashes.remember(rel, source)
        self._written([thread])
        return thread

    def add_many(self, specs: Iterable[dict[str, Any]]) -> list[Thread]:
        """The bulk path (imports, benchmarks): same validation and anchoring as `add`, each
        source read once, one transaction and one sync for the whole batch."""
        from limpet.anchoring import create_anchor
        sources: dict[str, bytes] = {}
        items: list[tuple[str, Event]] = []
        taken: set[str] = set()
        with self._store.transaction():
            for spec in specs:
                rel = self._ws.normalize(spec["file"])
                if rel not in sources:
                    sources[rel] = text_source(self._ws, rel)
                anchor = create_anchor(rel, sources[rel], spec["line_start"], spec["line_end"])
                event = edits.new_event("created", spec.get("author", DEFAULT_AUTHOR), spec.get("author_type", "agent"),
                               at=spec.get("created_at"), anchor=anchor, body=spec["body"],
                               tag=spec.get("tag", "NOTE"), ai_meta=spec.get("ai_meta"))
                items.append((unused_thread_id(self._store.exists, taken), event))
            threads = [t for t in self._store.append_many(items) if t is not None]
        self._written(threads)
        return threads

    def reply(self, thread_id: str, body: str, *, author: str = DEFAULT_AUTHOR, author_type: str = "agent") -> Thread:
        return self._update(thread_id, lambda t: edits.new_event("replied", author, author_type, body=body))

    def resolve(self, thread_id: str, *, decision: str | None = None, wontfix: bool = False,
                decider: str = DEFAULT_AUTHOR) -> Thread:
        """Idempotent: resolving a resolved thread changes nothing and keeps resolved_at. The
        code where the thread is now is kept with the resolution (review-pair exports): the
        thread is re-anchored first, so a fix committed a moment ago is what it keeps."""
        self.get(thread_id)  # re-anchored when its file changed; the store then holds it current
        return self._update(thread_id, lambda t: edits.new_event(
            "resolved", decider, decision=decision, wontfix=wontfix,
            snapshot=edits.snapshot_of(t, utc_now())))

    def reopen(self, thread_id: str, *, by: str = DEFAULT_AUTHOR) -> Thread:
        """Reopening keeps the earlier decision: it stays on the thread and in its history."""
        return self._update(thread_id, lambda t: edits.new_event("reopened", by))

    def edit(self, thread_id: str, body: str, *, by: str = DEFAULT_AUTHOR) -> Thread:
        return self._update(thread_id, lambda t: edits.new_event("edited", by, body=body))

    def delete(self, thread_id: str, *, by: str = DEFAULT_AUTHOR) -> Thread:
        """A tombstone event: the thread is gone from every read; its file keeps its history."""
        with self._store.transaction():
            thread = self._store.get(thread_id)
            self._store.append(thread_id, edits.new_event("deleted", by))
        self._written([thread])
        return thread

    def move(self, thread_id: str, file: str, line: int, *, line_end: int | None = None,
             by: str = DEFAULT_AUTHOR) -> Thread:
        """Re-anchor a thread at lines `line`..`line_end` of `file` (without `line_end`: keeping
        its span of lines); it keeps its id, comments and history. Errors name `thread_id`,
        `file`, `line_start` and `line_end`."""
        from limpet.anchoring import create_anchor
        rel = self._ws.normalize(file)
        source = text_source(self._ws, rel)
        with self._store.transaction():
            thread = self._store.get(thread_id)
            span = max(0, thread.anchor.line_end - thread.anchor.line_start)
            lines = source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1)
            end = line_end if line_end is not None else min(line + span, max(lines, line))
            anchor = create_anchor(rel, source, line, end)
            moved = self._store.append(thread_id, edits.new_event("moved", by, anchor=anchor))
        assert moved is not None
        self._written([moved], thread.anchor.file)
        return moved

    def reconcile(self, file: str | None = None) -> ReconcileReport:
        """Re-anchor threads whose code changed, and re-search orphans whose file or workspace
        changed since they were last searched. Writes only derived state, never a thread file."""
        flt = ThreadFilter(file=self._ws.normalize(file) if file else None)
        if file:
            report = self._reconciler.run(self._select(flt), explicit=True)
        else:  # the whole store: reuse its grouping by file
            report = self._reconciler.run(None, self._store.by_file(), explicit=True)
            report.problems = self._store.problems(refresh=False)  # as of that very snapshot
        self._written(report.changed)
        return report

    def _reconcile_threads(self, threads: list[Thread]) -> None:
        fresh = []
        for t in threads:
            with contextlib.suppress(LimpetError):
                fresh.append(self._store.get(t.id))
        report = self._reconciler.run(fresh)
        before = {t.id: t.anchor.file for t in fresh}  # a thread found in another file: both files' counts moved
        self._written(report.changed, *{before[t.id] for t in report.changed if t.id in before})

    def _update(self, thread_id: str, make: Callable[[Thread], Event]) -> Thread:
        with self._store.transaction():
            thread = self._store.get(thread_id)
            updated = self._store.append(thread_id, make(thread))
        assert updated is not None
        if updated is not thread:
            self._written([updated])
        return updated

    def _snapshot_event(self, thread: Thread) -> Event:
        """An import: the whole thread, replacing what the store holds under its id."""
        return edits.new_event("snapshot", thread.author, thread.author_type, thread=thread, mode="replace")

    # -- the current review and the page's selection ----------------------------------------
    def present_review(self, content: str, base_uri: str, mode: str = "replace",
                       section: str | None = None) -> dict[str, Any]:
        return self._reviews.present(content, base_uri, mode, section)

    def current_review(self) -> dict[str, Any]:
        return self._reviews.current()

    def selection(self) -> dict[str, Any]:
        """{"selection": {file, line_start, line_end, text} | None, "active_file": str | None}."""
        return self._reviews.selection()

    def report_selection(self, report: Any) -> dict[str, Any]:
        """The web page's selection report, checked; get_selection reads it back."""
        return self._reviews.report_selection(report)

    def clear_selection(self) -> None:
        self._reviews.clear_selection()

    # -- exports, imports, prompts ------------------------------------------------------------
    def export_items(self, flt: ThreadFilter, name: str | None = None, *, with_source: bool = True) -> Iterator[Any]:
        return self._exports.items(flt, name, with_source=with_source)

    def export_to_folder(self, fmt: str, flt: ThreadFilter, **options: Any) -> dict[str, Any]:
        return self._exports.to_folder(fmt, flt, **options)

    def read_export(self, uri: str) -> tuple[str, bytes]:
        return self._exports.read(uri)

    def import_json(self, data: bytes, *, overwrite: bool = False, source: str | None = None) -> ImportReport:
        """Read a JSON export back (see Exports.import_json): of an export of several workspaces,
        the entries of this one (`source`: of the workspace so named in the export)."""
        return self._exports.import_json(data, overwrite=overwrite, source=source)

    def import_github(self, comments: Input, review_threads: Input | None = None) -> GithubImportReport:
        """A pull request's review comments (JSON bytes, a path, a stream) as threads (core._github)."""
        from limpet.server.core._github import GithubImport
        new_id = functools.partial(unused_thread_id, self._store.exists)
        return GithubImport(self._ws, self._store, new_id, self._written, self._reconcile_threads).run(
            comments, review_threads)

    @property
    def default_context_lines(self) -> int:
        return self._exports.default_context_lines

    def training_record(self, thread: Thread, context_lines: int) -> dict[str, Any]:
        return self._exports.training_record(thread, context_lines)

    def orphan_candidates(self, thread: Thread, k: int, *, sync: bool = True) -> list[Candidate]:
        """Where an orphaned thread's code may have gone (best first). `sync=False` when the
        workspace index was synced moments ago (a prompt listing many orphans)."""
        if sync:
            self._reconciler.sync_index()
        return self._reconciler.candidates(thread.anchor, k)

    def prompt(self, name: str, arguments: Mapping[str, Any] | None, tools: Mapping[str, ToolSpec]) -> str:
        """The text of prompt `name`, filled from this workspace; `tools` are the tools the
        asking door exposes (prompts name them exactly)."""
        from limpet.prompts import get_prompt
        from limpet.server.core._prompt_source import ServicePromptSource
        return get_prompt(ServicePromptSource(self, tools), name, arguments)

