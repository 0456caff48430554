"""The workspace fingerprint index: where might code that left its file have gone?

Pure and incremental: `update` is told every candidate file's content hash and
reads only contents it has never seen; `update_later` defers even that until a
query needs the index (most reconciles find every thread in its own file).
Symbols and their fingerprints are computed lazily per file (changed files
first), cached per content hash, and posted into inverted maps (normalized
hash, name-blind hash, sketch values; the hashes and the sketches each only
when a query asks for them: an exact search never pays for sketches). Sketches
are posted per kind of declaration a query asks about (functions and methods
together): a method's search never sketches the classes around the methods.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping, Sequence
from threading import RLock
from typing import NamedTuple

from limpet.anchoring._fileview import FileView, SymbolView, file_view
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._mapping import kind_group
from limpet.anchoring._postings import INDEX_BITS, INDEX_MASK, Postings

Posting = tuple[str, int]  # (path, symbol index in that file's view)
_SCOPES_KEPT = 1024  # scope() answers kept between syncs (a bound, not a tuning)
_UNREAD = object()  # a baseline version not read yet
ALL_KINDS = "*"  # a path's every symbol posted (a query about no kind in particular)


RENAME_CANDIDATES = 32  # deleted files a new one is compared with to find the one it continues


class Baseline(NamedTuple):
    """An earlier version of the workspace, for an index that never saw one (a fresh process
    after a pull): the paths changed since it, and its bytes of a path (None: no such file).
    Without it a first sync counts every file as changed, and every symbol as new."""

    changed: frozenset[str]
    read: Callable[[str], bytes | None]


class WorkspaceIndex:
    def __init__(self) -> None:
        self._hashes: dict[str, str] = {}
        self._paths_by_hash: dict[str, set[str]] = {}
        self._views: dict[str, FileView] = {}
        self._changed: set[str] = set()
        self._before: dict[str, FileView | None] = {}  # changed path -> its view before the last sync
        self._before_read: Callable[[str], bytes | None] | None = None  # a baseline's reader (_UNREAD entries)
        self._renamed: dict[str, str | None] = {}  # new path -> the deleted path it continues (this sync)
        self._indexed: set[str] = set()  # paths posted into _by_norm and _by_blind
        self._sketched: dict[str, set[str]] = {}  # path -> the kind groups posted into _by_sketch
        self._scopes: dict[tuple, list[str]] = {}  # scope() answers since the last sync
        self._by_norm = Postings()  # of codes: a posted path's number << INDEX_BITS | a symbol's index
        self._by_blind = Postings()
        self._by_sketch = Postings()
        self._numbers: dict[str, int] = {}  # posted path -> its number (never reused)
        self._numbered: dict[int, str] = {}
        self._next_number = 0
        self._pending: tuple[Callable[[], Mapping[str, str]], Callable[[str], bytes | None],
                             Callable[[], Baseline | None] | None] | None = None
        self._lock = RLock()

    # -- maintenance ---------------------------------------------------------------

    def update(self, files: Mapping[str, str], read: Callable[[str], bytes | None],
               baseline: Baseline | None = None) -> set[str]:
        """Sync with the workspace (path -> content hash); returns the paths new or changed.
        `baseline` is read by a first sync only (later ones compare with the last)."""
        with self._lock:
            self._pending = None
            self._scopes.clear()
            first = not self._hashes
            changed: set[str] = set()
            before: dict[str, FileView | None] = {}
            for path in [p for p in self._hashes if p not in files]:
                before[path] = self._views.get(path)
                self._drop(path)
            for path, digest in files.items():
                if self._hashes.get(path) == digest:
                    continue
                before[path] = self._views.get(path)
                view = self._view_for(path, digest, read)
                if view is None:
                    self._drop(path)
                    continue
                self._drop(path)
                self._hashes[path] = digest
                self._paths_by_hash.setdefault(digest, set()).add(path)
                self._views[path] = view
                changed.add(path)
            self._before_read = None
            if first and baseline is not None:
                changed &= baseline.changed
                before = dict.fromkeys(baseline.changed, _UNREAD)
                self._before_read = baseline.read
            self._changed = changed
            self._before = before
            self._renamed = {}
            return set(changed)

    def update_later(self, files: Callable[[], Mapping[str, str]], read: Callable[[str], bytes | None],
                     baseline: Callable[[], Baseline | None] | None = None) -> None:
        """update(files(), read, baseline()) on the first query that needs the index, if any does.

        Skipped syncs only widen the next one's `changed` set (changes since the last sync).
        """
        with self._lock:
            self._pending = (files, read, baseline)

    def _sync(self) -> None:
        pending = self._pending
        if pending is not None:
            files, read, baseline = pending
            self.update(files(), read, baseline() if baseline is not None and not self._hashes else None)

    def _before_view(self, path: str) -> FileView | None:
        view = self._before.get(path)
        if view is _UNREAD:  # a baseline's version, read on first use
            source = self._before_read(path) if self._before_read is not None else None
            view = None if source is None else file_view(path, source)
            self._before[path] = view
        return view

    def _view_for(self, path: str, digest: str, read: Callable[[str], bytes | None]) -> FileView | None:
        # A content already held under another path (a copy, a revert) needs no read.
        for other in sorted(self._paths_by_hash.get(digest, ())):
            return file_view(path, self._views[other].source, digest)
        source = read(path)
        return None if source is None else file_view(path, source, digest, previous=self._hashes.get(path))

    def _drop(self, path: str) -> None:
        digest = self._hashes.pop(path, None)
        if digest is not None:
            _discard(self._paths_by_hash, digest, path)
        view = self._views.pop(path, None)
        groups = self._sketched.pop(path, set())
        if view is not None and path in self._indexed:
            self._unpost(path, view.symbols, self._hash_keys)
        if view is not None and groups:
            self._unpost(path, [sv for sv in view.symbols if kind_group(sv.kind) in groups], self._sketch_keys)
        self._indexed.discard(path)
        number = self._numbers.pop(path, None)
        if number is not None:
            del self._numbered[number]

    # What a symbol is posted under: its hashes (exact searches), its sketch values (similarity).
    def _hash_keys(self, sv: SymbolView) -> Iterable[tuple[Postings, object]]:
        return ((self._by_norm, sv.norm_hash), (self._by_blind, sv.blind_hash))

    def _sketch_keys(self, sv: SymbolView) -> Iterable[tuple[Postings, object]]:
        return ((self._by_sketch, value) for value in sv.sketch)

    def _ensure_indexed(self, paths: Iterable[str]) -> None:
        for path in paths:
            if path not in self._indexed and path in self._views:
                self._post(path, self._views[path].symbols, self._hash_keys)
                self._indexed.add(path)

    def _ensure_sketched(self, paths: Iterable[str], group: str | None) -> None:
        """Sketch values posted for the symbols of `paths` of kind group `group` (None: all)."""
        for path in paths:
            view = self._views.get(path)
            if view is None:
                continue
            posted = self._sketched.setdefault(path, set())
            if group in posted or ALL_KINDS in posted:
                continue
            fresh = [sv for sv in view.symbols if kind_group(sv.kind) not in posted
                     and (group is None or kind_group(sv.kind) == group)]
            self._post(path, fresh, self._sketch_keys)
            posted.add(ALL_KINDS if group is None else group)
            if group is None:
                posted.update(kind_group(sv.kind) for sv in view.symbols)

    def _post(self, path: str, symbols: Iterable[SymbolView],
              keys: Callable[[SymbolView], Iterable[tuple[Postings, object]]]) -> None:
        number = self._numbers.get(path)
        if number is None:
            number = self._numbers[path] = self._next_number
            self._numbered[number] = path
            self._next_number += 1
        for sv in symbols:
            if sv.index <= INDEX_MASK:
                code = number << INDEX_BITS | sv.index
                for table, key in keys(sv):
                    table.add(key, code)

    def _unpost(self, path: str, symbols: Iterable[SymbolView],
                keys: Callable[[SymbolView], Iterable[tuple[Postings, object]]]) -> None:
        number = self._numbers.get(path)
        if number is None:
            return
        for sv in symbols:
            code = number << INDEX_BITS | sv.index
            for table, key in keys(sv):
                table.discard(key, code)

    def _posting(self, code: int) -> Posting:
        return self._numbered[code >> INDEX_BITS], code & INDEX_MASK

    # -- queries -------------------------------------------------------------------

    @property
    def changed(self) -> set[str]:
        with self._lock:
            self._sync()
            return set(self._changed)

    @property
    def paths(self) -> list[str]:
        with self._lock:
            self._sync()
            return sorted(self._hashes)

    def view(self, path: str) -> FileView | None:
        with self._lock:
            self._sync()
            return self._views.get(path)

    def scope(self, everywhere: bool, needles: Sequence[bytes] = (), *, family: str | None = None,
              all_of: Sequence[bytes] = ()) -> list[str]:
        """Files searched for moved code: the changed ones, or the whole workspace; with
        `family`, only files of that language family (family_for_path); with `needles`, only
        the files whose bytes contain one of them, with `all_of`, every one of those (nothing is
        parsed). Answers are kept until the next sync: an anchor's steps ask alike."""
        with self._lock:
            self._sync()
            key = (everywhere, tuple(needles), family, tuple(all_of))
            known = self._scopes.get(key)
            if known is not None:
                return list(known)
            paths = sorted(self._hashes) if everywhere else sorted(self._changed)
            if family is not None:
                paths = [p for p in paths if family_for_path(p) == family]
            views = self._views
            if needles:
                paths = [p for p in paths if any(n in views[p].source for n in needles)]
            if all_of:
                paths = [p for p in paths if all(n in views[p].source for n in all_of)]
            if len(self._scopes) >= _SCOPES_KEPT:
                self._scopes.clear()
            self._scopes[key] = paths
            return list(paths)

    def previous_view(self, path: str) -> FileView | None:
        """`path` as it was before the last sync changed it (None: new, unchanged or unknown)."""
        with self._lock:
            self._sync()
            return self._before_view(path)

    def earlier_view(self, path: str) -> tuple[str, FileView] | None:
        """`path` before the last sync changed it, with the path it had then: its own previous
        version, or that of the deleted file it continues (a rename); None when new or unknown."""
        with self._lock:
            self._sync()
            view = self._before_view(path)
            if view is not None:
                return path, view
            origin = self._renamed_from(path) if path in self._changed else None
            view = self._before_view(origin) if origin is not None else None
            return (origin, view) if view is not None else None

    def existed_before(self, path: str, qualified_name: str, own: tuple[str, str] | None = None,
                       norm_hash: str | None = None) -> bool:
        """Did `path` hold a symbol of that name before the last sync changed it (with that very
        text, given `norm_hash`)? A new path that continues a file deleted in the same sync (a
        rename git reports as a deletion and an addition) held what that file held, but the
        anchor's own symbol (`own`: its file and qualified name), which is not a twin of itself.
        (False when the file is unchanged or unknown: only a changed file's old version can say yes.)"""
        with self._lock:
            self._sync()
            origin, view = path, self._before_view(path)
            if view is None and path in self._changed:
                origin = self._renamed_from(path)
                view = self._before_view(origin) if origin is not None else None
            if view is None or own is not None and (origin, qualified_name) == own:
                return False
            if own is not None and own[1] == qualified_name and origin != path and self._merged_into(path, own[0]):
                return False  # two files deleted and merged into this one: the anchor's copy went here too
            namesakes = view.by_name.get(qualified_name, ())
            return any(norm_hash is None or sv.norm_hash == norm_hash for sv in namesakes)

    def _renamed_from(self, path: str) -> str | None:
        """The file deleted in the last sync that new `path` continues: of its language family,
        holding at least half of the new file's distinct non-blank rows (git's rename measure)."""
        if path in self._renamed:
            return self._renamed[path]
        found, best = None, 0.5
        rows = {r for r in self._views[path].rows if r} if path in self._views else set()
        family = family_for_path(path)
        deleted = [p for p in self._before if p not in self._hashes and family_for_path(p) == family]
        # a mass deletion: the nearest paths only (a rename keeps most of its path)
        deleted = sorted(deleted, key=lambda p: (-_shared_prefix(p, path), p))[:RENAME_CANDIDATES]
        for gone in sorted(deleted):
            if not rows:
                continue
            old = self._before_view(gone)
            if old is None:
                continue
            shared = len(rows & {r for r in old.rows if r}) / len(rows)
            if shared >= best:
                found, best = gone, shared
        self._renamed[path] = found
        return found

    def _merged_into(self, path: str, gone: str) -> bool:
        """Did deleted `gone` go into new `path` as well as the file `path` is said to continue:
        two copies of a file (one per release or platform supported, say) deleted and merged into
        one? It holds at least half the new file's distinct non-blank rows (git's rename measure,
        as the other), and at least half of its own rows are there: most of it went there."""
        if gone in self._hashes or gone not in self._before or family_for_path(gone) != family_for_path(path):
            return False
        old = self._before_view(gone)
        if old is None or path not in self._views:
            return False
        rows, theirs = {r for r in self._views[path].rows if r}, {r for r in old.rows if r}
        shared = len(rows & theirs)
        return bool(rows and theirs) and shared >= 0.5 * len(rows) and shared >= 0.5 * len(theirs)

    def symbols_with_hash(self, digest: str, blind: bool, paths: list[str]) -> list[tuple[str, SymbolView]]:
        with self._lock:
            self._sync()
            self._ensure_indexed(paths)
            table = self._by_blind if blind else self._by_norm
            wanted = set(paths)
            hits = sorted(p for p in map(self._posting, table.get(digest)) if p[0] in wanted)
            return [(path, self._views[path].symbols[i]) for path, i in hits]

    def similar_symbols(self, fingerprint: Sequence[int], paths: list[str], min_shared: int = 4,
                        limit: int | None = None, kind: str | None = None) -> list[tuple[str, SymbolView, int]]:
        """Symbols sharing at least `min_shared` sketch values, most shared first (the first
        `limit` of them); with `kind`, only those of its kind group (kinds_compatible)."""
        with self._lock:
            self._sync()
            group = None if kind is None else kind_group(kind)
            self._ensure_sketched(paths, group)
            wanted = set(paths)
            views = self._views
            counts = self._by_sketch.count(fingerprint)
            postings = ((self._posting(code), c) for code, c in counts.items() if c >= min_shared)
            shared = ((posting, c) for posting, c in postings if posting[0] in wanted
                      and (group is None or kind_group(views[posting[0]].symbols[posting[1]].kind) == group))
            order = lambda kv: (-kv[1], kv[0])  # noqa: E731
            ranked = sorted(shared, key=order) if limit is None else heapq.nsmallest(limit, shared, key=order)
            return [(p, self._views[p].symbols[i], c) for (p, i), c in ranked]


def _shared_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _discard(table: dict, key, posting) -> None:
    bucket = table.get(key)
    if bucket is not None:
        bucket.discard(posting)
        if not bucket:
            del table[key]
