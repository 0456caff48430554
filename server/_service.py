"""The one service: every business rule of limpet, behind typed methods.

Doors (MCP, HTTP, CLI) call operations (see _operations.py) that call these methods; they
never touch the store or the engine themselves. Policy lives here; I/O lives in the store
and the workspace (the seam httpx draws between client policy and transports).
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from limpet.anchoring import create_anchor
from limpet.model import Comment, Decision, HistoryEvent, LockTimeout, Snapshot, Thread
from limpet.server._filters import ThreadFilter
from limpet.server._ids import new_thread_id, utc_now
from limpet.server._paths import Workspace
from limpet.server._reconcile import Reconciler, ReconcileReport
from limpet.server._store import DEFAULT_LOCK_TIMEOUT, ThreadStore

__all__ = ["Service"]

ChangeListener = Callable[[set[str]], None]


class Service:
    # Every live service, so a door can flush staged positions before its process exits.
    live: weakref.WeakSet[Service] = weakref.WeakSet()

    def __init__(self, root: str | os.PathLike[str], *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT) -> None:
        self.ws = Workspace(root)
        self.store = ThreadStore(self.ws, lock_timeout=lock_timeout)
        self.reconciler = Reconciler(self.ws, self.store)
        self._selections: dict[ThreadFilter, tuple[int, list[Thread]]] = {}  # see _select
        self._listeners: list[ChangeListener] = []
        Service.live.add(self)

    # -- change notification (resources, web page) ---------------------------------------
    def subscribe(self, listener: ChangeListener) -> None:
        self._listeners.append(listener)

    def notify(self, files: Iterable[str]) -> None:
        """Tell listeners that files (or store documents, e.g. the review) changed."""
        self._notify(files)

    def _notify(self, files: Iterable[str]) -> None:
        changed = set(files)
        if changed:
            for listener in list(self._listeners):
                listener(changed)

    def flush(self) -> int:
        """Write staged re-anchoring results (see _staging.py). Doors call it when idle/exiting.
        Best effort: they are derived, so a busy lock just leaves them for the next flush."""
        if not self.store.staged:
            return 0
        try:
            with self.store.transaction():
                return self.store.flush_staged()
        except LockTimeout:
            return 0

    @classmethod
    def flush_all(cls) -> None:
        for service in list(cls.live):
            service.flush()

    # -- reading --------------------------------------------------------------------------
    def threads(self, flt: ThreadFilter | None = None, *, fresh: bool = True) -> list[Thread]:
        """Threads matching `flt`, ordered by file then line; re-anchored first if stale."""
        flt = flt or ThreadFilter()
        selected = self._select(flt)
        if fresh and selected:
            by_file = self.store.by_file()
            exact = flt.exact_file
            stale = self.reconciler.stale_in(by_file, by_file if exact is None else (exact,))
            if stale:
                self._reconcile_threads(stale)
                selected = self._select(flt)
        return selected

    def matching(self, flt: ThreadFilter, choose: Callable[[list[Thread]], list[Thread]]) -> list[Thread]:
        """choose(threads matching flt), for a choice that does not depend on positions (a text
        search): only the files of the chosen threads are brought up to date (then it chooses
        again, over current positions), not every file of the selection. A path filter depends
        on positions (a stale thread may move into it): that takes the full check first."""
        if flt.file is not None:
            return choose(self.threads(flt))
        chosen = choose(self._select(flt))
        stale = self.reconciler.stale_in(self.store.by_file(), {t.anchor.file for t in chosen})
        if not stale:
            return chosen
        self._reconcile_threads(stale)
        return choose(self._select(flt))

    def _select(self, flt: ThreadFilter) -> list[Thread]:
        exact = flt.exact_file
        if exact is not None:
            return list(flt.apply(self.store.for_file(exact)))
        # Over the whole store: the same filter on an unchanged store gives the same list.
        version = self.store.version()
        cached = self._selections.get(flt)
        if cached is None or cached[0] != version:
            if len(self._selections) >= 32:
                self._selections.clear()
            cached = self._selections[flt] = (version, list(flt.apply(self.store.all())))
        return list(cached[1])

    def files_with_threads(self) -> set[str]:
        """Files that have threads, as last anchored (no re-anchoring): for list_changed."""
        return set(self.store.by_file())

    def get(self, thread_id: str, *, field: str = "thread_id", fresh: bool = True) -> Thread:
        thread = self.store.get(thread_id, field=field)
        if fresh and self.reconciler.stale([thread]):
            self._reconcile_threads([thread])
            thread = self.store.get(thread_id, field=field)
        return thread

    def normalize(self, path: str, field: str = "file") -> str:
        return self.ws.normalize(path, field)

    def read_source(self, rel: str, field: str = "file") -> bytes:
        return self.ws.read(rel, field)

    # -- writing --------------------------------------------------------------------------
    def add(
        self,
        file: str,
        line_start: int,
        line_end: int,
        body: str,
        *,
        tag: str = "NOTE",
        author: str = "agent",
        author_type: str = "agent",
        ai_meta: dict[str, Any] | None = None,
        start_character: int = 0,
        end_character: int = 0,
        field_names: dict[str, str] | None = None,
    ) -> Thread:
        names = {"file": "file", "line_start": "line_start", "line_end": "line_end", **(field_names or {})}
        rel = self.ws.normalize(file, names["file"])
        source = self.ws.read(rel, names["file"])
        anchor = _with_field_names(
            lambda: create_anchor(rel, source, line_start, line_end, start_character, end_character), names)
        with self.store.transaction():
            self.reconciler.prime()
            thread = _new_thread(self._unused_id(), anchor, body, tag, author, author_type, ai_meta, utc_now())
            self.store.put(thread)
        self.reconciler.hashes.remember(rel, source)
        self._notify({rel})
        return thread

    def add_many(self, specs: Iterable[dict[str, Any]]) -> list[Thread]:
        """The bulk path (imports, benchmarks): same validation and anchoring as `add`, each
        source read once, one transaction and one sync for the whole batch."""
        sources: dict[str, bytes] = {}
        threads: list[Thread] = []
        with self.store.transaction():
            for spec in specs:
                rel = self.ws.normalize(spec["file"])
                if rel not in sources:
                    sources[rel] = self.ws.read(rel)
                anchor = create_anchor(rel, sources[rel], spec["line_start"], spec["line_end"])
                threads.append(_new_thread(
                    self._unused_id(), anchor, spec["body"], spec.get("tag", "NOTE"), spec.get("author", "agent"),
                    spec.get("author_type", "agent"), spec.get("ai_meta"), spec.get("created_at") or utc_now()))
            self.store.put_many(threads)
        self._notify(set(sources))
        return threads

    def _unused_id(self) -> str:
        thread_id = new_thread_id()
        while self.store.exists(thread_id):
            thread_id = new_thread_id()
        return thread_id

    def reply(self, thread_id: str, body: str, *, author: str = "agent", author_type: str = "agent") -> Thread:
        def change(t: Thread, now: str) -> Thread:
            comment = Comment(f"{t.id}.{len(t.comments)}", body, author, author_type, now)
            return t.evolve(comments=(*t.comments, comment), updated_at=now,
                            history=(*t.history, HistoryEvent(now, "replied", author)))

        return self._update(thread_id, change)

    def resolve(self, thread_id: str, *, decision: str | None = None, wontfix: bool = False,
                decider: str = "agent") -> Thread:
        """Idempotent: resolving a resolved thread changes nothing and keeps resolved_at."""
        target = "wontfix" if wontfix else "resolved"

        def change(t: Thread, now: str) -> Thread:
            if t.status == target and (decision is None or (t.decision and t.decision.summary == decision)):
                return t
            resolved_at = t.resolved_at if t.status != "open" and t.resolved_at else now
            dec = Decision(decision, decider, now, target) if decision is not None else t.decision
            snaps = dict(t.snapshots)
            snaps["resolved"] = _snapshot(now, t.anchor)
            event = HistoryEvent(now, "resolved" if not wontfix else "wontfix", decider,
                                 {"decision": decision} if decision is not None else {})
            return t.evolve(status=target, resolved_at=resolved_at, decision=dec, updated_at=now,
                            snapshots=snaps, history=(*t.history, event))

        return self._update(thread_id, change)

    def reopen(self, thread_id: str, *, by: str = "agent") -> Thread:
        """Reopening keeps the earlier decision: it stays on the thread and in its history."""
        def change(t: Thread, now: str) -> Thread:
            if t.status == "open":
                return t
            details = {"previous_status": t.status, "previous_resolved_at": t.resolved_at,
                       "decision": t.decision.to_dict() if t.decision else None}
            return t.evolve(status="open", resolved_at=None, updated_at=now,
                            history=(*t.history, HistoryEvent(now, "reopened", by, details)))

        return self._update(thread_id, change)

    def edit(self, thread_id: str, body: str, *, by: str = "agent", field: str = "thread_id") -> Thread:
        def change(t: Thread, now: str) -> Thread:
            first = t.comments[0]
            if first.body == body:
                return t
            edited = Comment(first.id, body, first.author, first.author_type, first.created_at, now)
            event = HistoryEvent(now, "edited", by, {"previous_body": first.body})
            return t.evolve(comments=(edited, *t.comments[1:]), updated_at=now, history=(*t.history, event))

        return self._update(thread_id, change, field=field)

    def delete(self, thread_id: str, *, field: str = "thread_id") -> Thread:
        with self.store.transaction():
            thread = self.store.get(thread_id, field=field)
            self.store.delete(thread_id)
        self._notify({thread.anchor.file})
        return thread

    def move(self, thread_id: str, target_file: str, target_line: int, *, by: str = "agent",
             field_names: dict[str, str] | None = None) -> Thread:
        """Re-anchor a thread at a new place; it keeps its id, comments and history."""
        names = {"file": "targetFile", "line_start": "targetLine", "line_end": "targetLine", **(field_names or {})}
        rel = self.ws.normalize(target_file, names["file"])
        source = self.ws.read(rel, names["file"])
        with self.store.transaction():
            thread = self.store.get(thread_id, field=names.get("thread_id", "commentId"))
            span = max(0, thread.anchor.line_end - thread.anchor.line_start)
            lines = source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1)
            end = min(target_line + span, max(lines, target_line))
            anchor = _with_field_names(lambda: create_anchor(rel, source, target_line, end), names)
            now = utc_now()
            event = HistoryEvent(now, "moved", by, {
                "from": {"file": thread.anchor.file, "line_start": thread.anchor.line_start,
                         "line_end": thread.anchor.line_end},
                "to": {"file": rel, "line_start": anchor.line_start, "line_end": anchor.line_end}})
            moved = thread.evolve(anchor=anchor, health="anchored", anchor_method="moved_by_user",
                                  anchor_confidence=1.0, updated_at=now, history=(*thread.history, event))
            self.store.put(moved)
        self._notify({thread.anchor.file, rel})
        return moved

    def reconcile(self, file: str | None = None) -> ReconcileReport:
        flt = ThreadFilter(file=self.ws.normalize(file) if file else None)
        with self.store.transaction():
            if file:
                report = self.reconciler.run(self._select(flt))
            else:  # the whole store: reuse its grouping by file
                report = self.reconciler.run(None, self.store.by_file())
        self._notify({t.anchor.file for t in report.changed})
        return report

    def _reconcile_threads(self, threads: list[Thread]) -> None:
        with self.store.transaction():
            fresh = [self.store.get(t.id) for t in threads if self.store.exists(t.id)]
            report = self.reconciler.run(fresh)
        self._notify({t.anchor.file for t in report.changed})

    def _update(self, thread_id: str, change: Callable[[Thread, str], Thread], *, field: str = "thread_id") -> Thread:
        with self.store.transaction():
            thread = self.store.get(thread_id, field=field)
            updated = change(thread, utc_now())
            if updated is not thread:
                self.store.put(updated)
        if updated is not thread:
            self._notify({updated.anchor.file})
        return updated


def _new_thread(thread_id: str, anchor: Any, body: str, tag: str, author: str, author_type: str,
                ai_meta: dict[str, Any] | None, now: str) -> Thread:
    return Thread(
        id=thread_id,
        anchor=anchor,
        health="anchored",
        status="open",
        tag=tag,
        author=author,
        author_type=author_type,
        created_at=now,
        updated_at=now,
        comments=(Comment(f"{thread_id}.0", body, author, author_type, now),),
        ai_meta=ai_meta,
        history=(HistoryEvent(now, "created", author),),
        snapshots={"created": _snapshot(now, anchor)},
    )


def _snapshot(now: str, anchor: Any) -> Snapshot:
    return Snapshot(now, anchor.file, anchor.line_start, anchor.line_end, anchor.selected_text)


def _with_field_names(make: Callable[[], Any], names: dict[str, str]) -> Any:
    """Engine errors name generic fields (line_start...); report them as this tool spells them."""
    from limpet.model import InvalidAnchor

    try:
        return make()
    except InvalidAnchor as exc:
        exc.field = names.get(exc.field or "", exc.field)
        raise
