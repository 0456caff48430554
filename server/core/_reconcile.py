"""Keeping threads on their code: the I/O side of re-anchoring.

The engine (limpet.anchoring) decides where a thread belongs; this module feeds it bytes and
stages what it found as derived state (the store keeps it in its private cache: a reconcile
never writes a committed file). A thread is stale when its file's content hash differs from
the one its position was computed against (`ThreadStore.checked`); a file whose hash is
unchanged costs one stat (hashes are cached by size/mtime/inode/ctime), never a parse, and
in a process that reconciles again (a server) not even that: the kernel names the files
written since they were hashed (store.FolderChanges), and only those are stat'ed (the hashes:
_file_hashes.HashCache).

A process that never saw the workspace before the change (a fresh CLI command, a server
started after a pull) asks git which version of the workspace the stale threads were anchored
to (server.store.GitHistory): the files changed since are then the ones searched for moved
code first, and their earlier versions tell which symbols are new, as for a process that
watched the change. Without git (or a version git does not hold), every file counts as
changed.

Orphans remember what they were searched against: their file's hash (absent: None) and, for
an explicit reconcile, a version of the whole workspace. A read re-searches an orphan when
its file changed (a checkout, revert or stash pop that brings the code back brings the
thread back); an explicit reconcile also when any file of the workspace changed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import partial
from operator import attrgetter
from typing import TYPE_CHECKING, Any

import msgspec

from limpet.model import Anchor, HistoryEvent, Thread, blake2b, content_hash, encode_json
from limpet.server.core._file_hashes import HashCache
from limpet.server.core._ids import utc_now
from limpet.server.store import GitHistory, ThreadStore, Workspace

if TYPE_CHECKING:
    from limpet.anchoring import Baseline, Candidate, Relocation, WorkspaceIndex

__all__ = ["Reconciler", "ReconcileReport", "placement_history"]

_health = attrgetter("health")


_engine_reanchor = None


def reanchor(anchor: Anchor, source: bytes | None, index: WorkspaceIndex) -> Relocation:
    """The engine's re-anchoring (limpet.anchoring.reanchor), imported on first use (and kept:
    a reconcile calls it once per moved thread)."""
    global _engine_reanchor
    if _engine_reanchor is None:
        from limpet.anchoring import reanchor as engine_reanchor
        _engine_reanchor = engine_reanchor
    return _engine_reanchor(anchor, source, index)


class ReconcileReport(msgspec.Struct):
    counts: dict[str, int] = msgspec.field(default_factory=lambda: {"anchored": 0, "drifted": 0, "orphaned": 0})
    changed: list[Thread] = msgspec.field(default_factory=list)
    checked: int = 0
    problems: dict[str, list[str]] = msgspec.field(default_factory=dict)  # store files skipped, and why

    def to_wire(self) -> dict[str, Any]:
        """comment_reconcile's result (the CLI's --json prints it too)."""
        return {"counts": self.counts, "checked": self.checked, "changed": [t.to_wire() for t in self.changed],
                "problems": self.problems}

    def wire_json(self) -> bytes:
        """The JSON orjson writes of `to_wire()`, written from the threads themselves: no dict
        built for each of the hundreds of threads a reconcile after a pull may move."""
        return encode_json({"counts": self.counts, "checked": self.checked,
                            "changed": [t.wire_struct() for t in self.changed], "problems": self.problems})


def _holds(source: bytes | None, digest: str) -> bool:
    return source is not None and content_hash(source) == digest


class Reconciler:
    def __init__(self, workspace: Workspace, store: ThreadStore, *, remember: bool = True) -> None:
        self.ws = workspace
        self._remember = remember  # see prime
        self.store = store
        self.hashes = HashCache(workspace, store.file_hashes, watch=remember)
        self._index = None
        self._index_primed = False
        self._current: dict[str, tuple[list[Thread], str | None]] = {}  # see stale_in
        self._counted: dict[str, tuple[list[Thread], Counter[str]]] = {}  # see _store_counts
        self._totals: Counter[str] = Counter()  # the sum of _counted's counts

    @property
    def index(self) -> WorkspaceIndex:
        # Built on first use: many calls never need the workspace-wide index.
        if self._index is None:
            from limpet.anchoring import (
                WorkspaceIndex,  # the engine: a read of unchanged files never needs it
            )
            self._index = WorkspaceIndex()
        return self._index

    def stale(self, threads: Iterable[Thread]) -> list[Thread]:
        """Threads whose file content differs from what their position was computed against."""
        threads = list(threads)
        hash_of, checked = self.hashes.hash_of, self.store.checked
        current = {path: hash_of(path) for path in {t.anchor.file for t in threads}}
        return [t for t in threads if checked(t.id)[0] != current[t.anchor.file]]

    def stale_in(self, by_file: dict[str, list[Thread]], paths: Iterable[str]) -> list[Thread]:
        """Threads of `paths` (grouped as the store groups them) whose file content differs from
        what they were anchored to. A file whose thread list was found current at its present
        content costs one stat: the store replaces a file's list whenever one of its threads
        changes, so the list's identity says nothing was re-anchored since."""
        out: list[Thread] = []
        seen = self._current
        paths = list(paths)
        self.hashes.prefetch(paths)
        for path in paths:
            threads = by_file.get(path)
            if not threads:
                continue
            digest = self.hashes.hash_of(path)
            known = seen.get(path)
            if known is not None and known[0] is threads and known[1] == digest:
                continue
            stale = self.store.checked_against(path, threads, digest)
            if not stale:
                seen[path] = (threads, digest)
            else:
                out.extend(stale)
        return out

    def sync_index(self) -> None:
        """Bring the workspace index up to date (it reads only contents it has never seen)."""
        self.index.update(self.hashes.workspace_hashes(), self.ws.read_or_none)
        self._index_primed = True

    def relocate(self, anchor: Anchor) -> Relocation:
        """Where an anchor that is not a thread's (a review reference) points now. Call
        `sync_index` first (once for many anchors) to let it follow code to other files."""
        return reanchor(anchor, self.ws.read_or_none(anchor.file), self.index)

    def candidates(self, anchor: Anchor, k: int) -> list[Candidate]:
        """The engine's best k places for an orphaned anchor, best first (after `sync_index`)."""
        from limpet.anchoring import orphan_candidates
        return orphan_candidates(anchor, self.ws.read_or_none(anchor.file), self.index, k=k)

    def prime(self) -> None:
        """Record the workspace as it is now, so a later reconcile knows which files changed
        (code moved to another file is searched there first). Not in a process that answers
        one command and exits: it has no later, and recording parses every file. Nor while
        threads are stale (the workspace changed before this process saw it): recorded now,
        the change would be lost; the reconcile that places them syncs first, asking git."""
        if self._remember and not self._index_primed:
            if self._stale_files(self.store.by_file(), {}, None):
                return
            self.index.update(self.hashes.workspace_hashes(), self.ws.read_or_none)
            self._index_primed = True

    def run(self, threads: list[Thread] | None, by_file: dict[str, list[Thread]] | None = None, *,
            explicit: bool = False) -> ReconcileReport:
        """Re-anchor `threads` and stage what changed (derived state). `by_file` may pass the
        same threads already grouped by file (the store keeps one); threads may then be None.
        `explicit` (a reconcile someone asked for): orphans are also searched again when any
        file of the workspace changed since their last search."""
        if by_file is None:
            by_file = defaultdict(list)
            for t in threads or ():
                by_file[t.anchor.file].append(t)
        if threads is None:
            counts = self._store_counts(by_file)
            report = ReconcileReport(checked=sum(map(len, by_file.values())))
        else:
            counts = Counter(map(_health, threads))
            report = ReconcileReport(checked=len(threads))
        # counts: then adjusted for the threads re-anchored
        sources: dict[str, tuple[bytes, str]] = {}  # read while hashing: not read (or hashed) twice
        workspace = self._workspace_version() if explicit and counts["orphaned"] else None
        stale_files = sorted(self._stale_files(by_file, sources, workspace))
        if stale_files:
            self._index_primed = True
            # Synced only if a thread needs a cross-file search: most never do.
            threads = [t for path in stale_files for t in by_file[path]]
            self.index.update_later(self.hashes.workspace_hashes, self.ws.read_or_none,
                                    lambda: self._baseline(threads))
            self._relocate_stale(stale_files, by_file, sources, workspace, report, counts)
        report.counts = {h: counts.get(h, 0) for h in ("anchored", "drifted", "orphaned")}
        return report

    def _relocate_stale(self, stale_files: list[str], by_file: dict[str, list[Thread]],
                        sources: dict[str, tuple[bytes, str]], workspace: str | None, report: ReconcileReport,
                        counts: Counter[str]) -> None:
        """Re-anchor the threads of `stale_files` not placed against their file's present content,
        stage the results and count them in `report` (per thread: names bound once, a reconcile
        after an edit runs this for every thread of the edited files)."""
        checked, stage, changed, hash_of = self.store.checked, self.store.stage, report.changed.append, \
            self.hashes.hash_of
        relocate, index, placed_thread = reanchor, self.index, self._placed_thread
        now = utc_now()  # one instant for the whole reconcile: every move it records happened in it
        for path in stale_files:
            if path in sources:
                source, digest = sources[path]
            else:
                source = self.ws.read_or_none(path)
                digest = content_hash(source) if source is not None else None
            for t in by_file[path]:
                was = checked(t.id)
                if was[0] == digest and (t.health != "orphaned" or workspace is None or was[1] == workspace):
                    continue  # its position was computed against this very content
                updated = placed_thread(t, relocate(t.anchor, source, index), now)
                # Checked against the content of the file it is placed in now (moved: another one).
                placed = digest if updated.anchor.file == path else hash_of(updated.anchor.file)
                stage(t, updated, placed, workspace if updated.health == "orphaned" else None)
                if updated is not t:
                    changed(updated)
                    counts[t.health] -= 1
                    counts[updated.health] += 1

    def _store_counts(self, by_file: dict[str, list[Thread]]) -> Counter[str]:
        """Threads by health over the store's grouping by file. The store replaces a file's
        list whenever one of its threads changes (see stale_in), so the totals of the last
        call are kept and adjusted for the lists that are not the ones counted then: reading
        the health of every thread, or adding up every file's counts, costs more (thousands of
        objects spread over memory) than the threads a reconcile moves."""
        counted, totals = self._counted, self._totals
        for path, ts in by_file.items():
            known = counted.get(path)
            if known is not None:
                if known[0] is ts:
                    continue
                totals.subtract(known[1])
            known = counted[path] = (ts, Counter(map(_health, ts)))
            totals.update(known[1])
        if len(counted) != len(by_file):  # files no thread is on any more
            for path in counted.keys() - by_file.keys():
                totals.subtract(counted.pop(path)[1])
        return Counter(totals)  # the caller's to adjust

    def _stale_files(self, by_file: dict[str, list[Thread]], keep: dict[str, tuple[bytes, str]],
                     workspace: str | None) -> list[str]:
        out = []
        seen, checked = self._current, self.store.checked
        quiet = self.hashes.settle(by_file)  # unchanged as the kernel says: no stat
        self.hashes.prefetch(p for p in by_file if p not in quiet)
        hash_of, looked_at = self.hashes.hash_of, self.hashes.looked_at
        for path, ts in by_file.items():
            current = quiet.get(path)
            if current is None:
                current = hash_of(path, keep)
                looked_at(path)
            known = seen.get(path)
            if workspace is None and known is not None and known[0] is ts and known[1] == current:
                continue  # this very list was found current at this content (see stale_in)
            for t in ts:
                was = checked(t.id)
                if was[0] != current or (workspace is not None and t.health == "orphaned" and was[1] != workspace):
                    out.append(path)
                    break
            else:
                seen[path] = (ts, current)
        return out

    def _baseline(self, threads: list[Thread]) -> Baseline | None:
        """The version of the workspace these threads were anchored to, as git holds it: the
        oldest commit after which a thread's file held the very bytes its anchor was computed
        on (threads anchored on bytes git never held are left out). Asked only by an index that
        never saw the workspace before."""
        from limpet.anchoring import Baseline
        history = GitHistory.open(self.ws.root)
        if history is None:
            return None
        commits: list[str] = []
        for file, digest in sorted({(t.anchor.file, t.anchor.content_hash) for t in threads}):
            # most threads were anchored to one version (a pull moves them all): one read checks it
            commit = next((c for c in commits if _holds(history.read(c, file), digest)), None) \
                or history.commit_holding(file, digest)
            if commit is not None and commit not in commits:
                commits.append(commit)
        base = history.oldest(commits)
        changed = history.changed_since(base) if base is not None else None
        if base is None or changed is None:
            history.close()
            return None
        return Baseline(changed, partial(history.read, base))

    def _workspace_version(self) -> str:
        """A digest of every file's content; asked for only when there are orphans to search
        for (it walks the workspace, which their search does anyway)."""
        hashes = self.hashes.workspace_hashes()
        digest = blake2b(digest_size=16)
        for path in sorted(hashes):
            digest.update(f"{path}\0{hashes[path]}\n".encode())
        return digest.hexdigest()

    @staticmethod
    def _placed_thread(t: Thread, rel: Relocation, now: str) -> Thread:
        """`t` placed where the engine's `rel` says (`t` itself when nothing changed)."""
        # Records with different content hashes differ: compared field by field only when those
        # agree (a record the engine built from changed content holds the new content's hash).
        old, new = t.anchor, rel.anchor
        if rel.health == t.health and (new is old or (new.content_hash == old.content_hash and new == old)):
            return t
        history = placement_history(t.history, t.anchor, t.health, rel.anchor, rel.health, rel.method,
                                    rel.confidence, now)
        # Lines, file or health that move are a change an incremental export must find: updated_at
        # moves with them (derived, like the position; a committed updated_at stays as written).
        placed = new.line_start != old.line_start or new.line_end != old.line_end or new.file != old.file
        return t.evolve(
            anchor=rel.anchor,
            health=rel.health,
            anchor_method=rel.method,
            anchor_confidence=rel.confidence,
            history=history,
            updated_at=now if placed or rel.health != t.health else t.updated_at,
        )


def _place(anchor: Anchor, health: str) -> dict[str, Any]:
    return {"file": anchor.file, "line_start": anchor.line_start, "line_end": anchor.line_end, "health": health}


def placement_history(history: tuple[HistoryEvent, ...], old: Anchor, old_health: str, new: Anchor,
                      new_health: str, method: str, confidence: float, now: str) -> tuple[HistoryEvent, ...]:
    """The history after a thread's derived place changed: one entry saying what happened
    (`orphaned`: its code is gone; `drifted`: the code changed in place; `reanchored`: it
    followed its code to other lines or another file, anchored or not), never one that says
    nothing. Shifts of an anchored thread in a row (each edit above it) are one entry, from
    where the first started to where the last ended: the history does not grow with every save,
    and a shift undone leaves none."""
    same_place = old.line_start == new.line_start and old.line_end == new.line_end and old.file == new.file
    if same_place and old_health == new_health:
        return history
    after, before, continued = _place(new, new_health), None, False
    last = history[-1] if history else None
    if (last is not None and last.event == "reanchored" and last.by == "limpet" and old_health == new_health
            and isinstance(last.details.get("to"), dict) and last.details["to"].get("health") == new_health):
        history, before, continued = history[:-1], last.details["from"], True  # continue the shift in progress
        if before == after:
            return history
    kind = "orphaned" if new_health == "orphaned" and old_health != "orphaned" else \
        "drifted" if new_health == "drifted" and same_place else "reanchored"
    return (*history, HistoryEvent(at=now, event=kind, by="limpet", details={
        "from": before if continued else _place(old, old_health), "to": after, "method": method,
        "confidence": round(confidence, 4)}))
