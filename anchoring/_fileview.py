"""One file's content seen by the engine: line table, symbols, line lookup.

Views are keyed by (language, content hash) and kept in a bounded LRU, so a
file is parsed once per content no matter how many threads point into it.
Symbols, normalized rows and hashes are computed lazily, on first use.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from functools import cached_property
from itertools import compress
from threading import Lock

import msgspec

from limpet.anchoring import _languages, _symbols
from limpet.anchoring._edits import Edit, edit_between, edited_tree
from limpet.anchoring._fingerprint import blind_hash, norm_hash, sketch, structure_hash, token_count
from limpet.anchoring._text import LineTable
from limpet.model import content_hash

# Views (with their trees, ~20x their source) kept for the next version of a file: the last
# VIEW_CACHE_SIZE always, more while their sources total at most VIEW_CACHE_BYTES (measured:
# ~32 MB of trees and symbols), so a reconcile of a few hundred small files keeps every tree
# for its next, incremental, parse.
VIEW_CACHE_SIZE = 64
VIEW_CACHE_BYTES = 1_000_000


class SymbolView(msgspec.Struct, eq=False, gc=False):  # no cycle through it: untracked
    """A symbol plus the evidence the cascade compares (computed on demand)."""

    symbol: _symbols.Symbol
    source: bytes  # the file's bytes (text is decoded on first use)
    index: int = 0  # position in the file's symbol list
    _memo: dict = msgspec.field(default_factory=dict)

    @property
    def text(self) -> str:
        """The definition node's text."""
        return self._get("text", lambda: self.source[self.symbol.start_byte : self.symbol.end_byte].decode(
            "utf-8", "replace"))

    @property
    def name(self) -> str:
        return self.symbol.name

    @property
    def qualified_name(self) -> str:
        return self.symbol.qualified_name

    @property
    def kind(self) -> str:
        return self.symbol.kind

    @property
    def first(self) -> int:
        return self.symbol.start_line

    @property
    def last(self) -> int:
        return self.symbol.end_line

    @property
    def parent_name(self) -> str:
        q = self.symbol.qualified_name
        return q[: len(q) - len(self.symbol.name) - 1] if q.endswith("." + self.symbol.name) else ""

    @property
    def evidence(self) -> dict:
        """What has been computed so far (text, hashes, sketch...): all of it depends only on the
        symbol's bytes and name, so a symbol with the same bytes and name may `adopt` it."""
        return self._memo

    def adopt(self, evidence: dict) -> None:
        self._memo.update(evidence)

    def _get(self, key, compute):
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    @property
    def norm_hash(self) -> str:
        return self._get("norm", lambda: norm_hash(self.text))

    @property
    def blind_hash(self) -> str:
        return self._get("blind", lambda: blind_hash(self.text, self.name))

    @property
    def structure_hash(self) -> str:
        return self._get("struct", lambda: structure_hash(self.text))

    @property
    def sketch(self) -> array:
        # 4 bytes a value where a list of ints takes 36: an orphan search sketches every symbol
        return self._get("sketch", lambda: array("I", sketch(self.text)))

    @property
    def token_count(self) -> int:
        return self._get("ntok", lambda: token_count(self.text))


class FileView:
    """Immutable content of one file, with lazily derived structure."""

    def __init__(self, language: str | None, source: bytes, digest: str | None = None,
                 previous: FileView | None = None) -> None:
        self.language = language
        self.source = source
        self.hash = digest or content_hash(source)
        self.lines = LineTable(source)
        self.tree = None
        self.matches: list[_symbols.Match] | None = None  # kept to re-query only an edit's region
        self.cached = True  # in the view cache: keeps tree and matches for the next version
        self._previous = previous  # an earlier version of the same file: incremental parse
        self.memo: dict = {}  # derived values shared by every anchor into this content
        self.moved_from: str | None = None  # a version whose symbols these are, moved by the edit since

    @property
    def line_count(self) -> int:
        return self.lines.count

    @cached_property
    def symbols(self) -> list[SymbolView]:
        if not self.language or not _languages.has_symbols(self.language):
            return []
        previous = self._previous
        try:
            matches, kept = self._matches()
            before = previous.__dict__.get("symbols") if kept and previous is not None else None
            if before is not None:  # every definition moved whole: the previous nesting, moved
                raw = _symbols.moved([sv.symbol for sv in before], self.edit_from(previous))
            else:
                raw = _symbols.nest(_symbols.select(matches))
        except Exception:  # noqa: BLE001 - a grammar failure degrades to text-only anchoring
            return []
        if self.cached:
            self.matches = matches
        else:  # left the cache before its symbols were asked for (a workspace index's view):
            self.tree = None  # no next version parses from it; a tree is ~40x the bytes of its source
        src = self.source
        if before is not None:  # the same bytes and names: the same evidence, one dict for both
            self.moved_from = previous.hash
            return [SymbolView(s, src, i, old.evidence) for i, (s, old) in enumerate(zip(raw, before, strict=True))]
        views = [SymbolView(s, src, i) for i, s in enumerate(raw)]
        if previous is not None and previous.language == self.language:
            self._share_evidence(previous, views)
        return views

    def _share_evidence(self, previous: FileView, views: list[SymbolView]) -> None:
        """Symbols the edit since `previous` left byte-identical (wholly before or wholly after
        it) take the evidence already computed for them there: it depends only on their text
        and name (an edit at the top of a file would otherwise re-hash every symbol)."""
        old_views = previous.__dict__.get("symbols")  # never computed there: nothing to share
        old = {(sv.symbol.start_byte, sv.symbol.end_byte, sv.symbol.qualified_name): sv
               for sv in old_views or () if sv.evidence}
        if not old:
            return
        edit = self.edit_from(previous)
        delta = edit.new_end - edit.old_end
        for sv in views:
            sym = sv.symbol
            if sym.end_byte <= edit.start:
                key = (sym.start_byte, sym.end_byte, sym.qualified_name)
            elif sym.start_byte >= edit.new_end:
                key = (sym.start_byte - delta, sym.end_byte - delta, sym.qualified_name)
            else:
                continue
            same = old.get(key)
            if same is not None and same.symbol.name == sym.name:
                sv.adopt(same.evidence)

    def _matches(self) -> tuple[list[_symbols.Match], bool]:
        """Parse and query; from an earlier version, both only where the edit reaches. True
        with them when they are that version's matches, moved (see `_symbols.rematch`)."""
        previous, self._previous = self._previous, None  # never keep a chain of versions alive
        if previous is None or previous.language != self.language or previous.tree is None:
            self.tree = _languages.parse(self.language, self.source)
            return _symbols.query_matches(self.language, self.tree), False
        edit = self.edit_from(previous)
        old_tree = edited_tree(previous.tree, previous.source, self.source, edit)
        self.tree = _languages.parse(self.language, self.source, old_tree)
        if previous.matches is None:
            return _symbols.query_matches(self.language, self.tree), False
        changed = [(r.start_byte, r.end_byte) for r in old_tree.changed_ranges(self.tree)]
        return _symbols.rematch(self.language, self.tree, previous.matches, edit, changed)

    @cached_property
    def name_counts(self) -> dict[tuple[str, str], int]:
        """(qualified name, kind) -> how many symbols share it."""
        counts: dict[tuple[str, str], int] = {}
        for sv in self.symbols:
            key = (sv.qualified_name, sv.kind)
            counts[key] = counts.get(key, 0) + 1
        return counts

    @cached_property
    def by_name(self) -> dict[str, list[SymbolView]]:
        """Qualified name -> its symbols, in file order."""
        out: dict[str, list[SymbolView]] = {}
        for sv in self.symbols:
            out.setdefault(sv.qualified_name, []).append(sv)
        return out

    @cached_property
    def by_scope(self) -> dict[str, list[SymbolView]]:
        """Qualified name of the enclosing scope ("" at top level) -> its symbols, in file
        order: a Go method, a C++ method defined outside its class, are its type's members."""
        out: dict[str, list[SymbolView]] = {}
        for sv in self.symbols:
            out.setdefault(sv.parent_name, []).append(sv)
        return out

    @cached_property
    def symbol_firsts(self) -> list[int]:
        """First row of every symbol, in symbol order (non-decreasing: bisectable)."""
        return [sv.first for sv in self.symbols]

    @cached_property
    def rows(self) -> list[str]:
        """Stripped text of every row (the whitespace-blind view used for matching)."""
        return self._stripped_rows(0, self.lines.count - 1)

    def _stripped_rows(self, first: int, last: int) -> list[str]:
        """Stripped text of rows [first, last] (`rows`' values, for those rows only)."""
        if last < first:
            return []
        start, end = self.lines.starts[first], self.lines.rows_span(last, last)[1]
        text = self.lines.source[start:end].decode("utf-8", "replace")  # no UTF-8 sequence holds a \n
        if first == 0 and text.startswith("\ufeff"):
            text = text[1:]
        return list(map(str.strip, text.split("\n")))  # C speed: each new version of a file pays it

    @cached_property
    def nonblank(self) -> list[int]:
        """Rows with text, in order (bisectable: context is read from here)."""
        rows = self.rows
        return list(compress(range(len(rows)), rows))

    def nonblank_after(self, base: FileView, edit: Edit) -> list[int]:
        """`nonblank`, from `base`'s (`edit` made this version of it): the rows clear of the
        edit are the same rows, shifted; only the edited ones are read. A carried anchor reads
        `base`'s context rows, the next edit's this version's: reading every row of each new
        version costs more than the anchors of a small edit."""
        known = self.__dict__.get("nonblank")
        if known is not None:
            return known
        if base.line_count == 0 or self.line_count == 0:
            return self.nonblank
        before = base.nonblank
        first, old_last = edit.start_row, min(edit.old_end_row, base.line_count - 1)
        new_last, delta = min(edit.new_end_row, self.line_count - 1), edit.new_end_row - edit.old_end_row
        head = before[: bisect_left(before, first)]
        middle = [first + i for i, text in enumerate(self._stripped_rows(first, new_last)) if text]
        tail = before[bisect_right(before, old_last):]
        out = head + middle + ([r + delta for r in tail] if delta else tail)
        self.__dict__["nonblank"] = out
        return out

    @cached_property
    def row_index(self) -> dict[str, list[int]]:
        """Stripped non-blank row text -> rows where it occurs."""
        index: dict[str, list[int]] = {}
        for row, text in enumerate(self.rows):
            if text:
                index.setdefault(text, []).append(row)
        return index

    def text(self, first: int, last: int) -> str:
        return self.lines.rows_text(first, last)

    def has_text(self, first: int, last: int, text: str, span: tuple[int, int] | None = None) -> bool:
        """Is `text` what rows [first, last] read? (Compared as bytes when it can be.) `span`:
        their byte span, when the caller has it."""
        start, end = span or self.lines.rows_span(first, last)
        encoded = text.encode("utf-8", "surrogatepass")
        if end - start == len(encoded) and self.source.startswith(encoded, start):  # no copy of the rows
            return True
        return self.text(first, last) == text  # CRLF, a BOM, invalid UTF-8

    def shifted_rows(self, base_hash: str, first: int, last: int) -> tuple[int, int] | None:
        """Rows [first, last] (0-based) of the version `base_hash`, where they are now, when the
        edit since that version left them byte-identical (it lies wholly before or after them)."""
        key = ("edit", base_hash)
        if key not in self.memo:
            base = cached_view_of(self.language, base_hash)
            self.memo[key] = None if base is None or base is self else self.edit_from(base)
        edit = self.memo[key]
        if edit is None:
            return None
        if last < edit.start_row:
            return first, last
        if first > edit.old_end_row:
            delta = edit.new_end_row - edit.old_end_row
            return first + delta, last + delta
        return None

    def edit_from(self, base: FileView) -> Edit:
        key = ("edit", base.hash)
        if self.memo.get(key) is None:
            self.memo[key] = edit_between(base.source, self.source)
        return self.memo[key]

    def innermost(self, first: int, last: int) -> SymbolView | None:
        """The smallest symbol whose rows contain [first, last]."""
        best = None
        for sv in self.symbols:
            if sv.first <= first and last <= sv.last:
                if best is None or (sv.last - sv.first) <= (best.last - best.first):
                    best = sv
        return best


_cache: OrderedDict[tuple[str | None, str], FileView] = OrderedDict()
_cache_lock = Lock()
_cache_bytes = 0  # of the cached views' sources
_last_view: tuple[str, bytes, FileView] | None = None


def file_view(path: str, source: bytes, digest: str | None = None, previous: str | None = None) -> FileView:
    """The (cached) view of `source` as a file at `path`.

    previous: content hash of an earlier version of the file; when its view
    (and tree) is still cached, the new content is parsed incrementally.
    """
    last = _last_view  # one tuple, replaced whole under the lock: read without it
    if last is not None and last[1] is source and last[0] == path:
        return last[2]  # the same bytes object again (a reconcile asks once per thread of a file)
    language = _languages.language_for(path, source)
    digest = digest or content_hash(source)
    key = (language, digest)
    with _cache_lock:
        view = _cache.get(key)
        if view is not None:
            _cache.move_to_end(key)
            _remember(path, source, view)
            return view
        older = _cache.get((language, previous)) if previous else None
    view = FileView(language, source, digest, older)
    global _cache_bytes
    with _cache_lock:
        if key not in _cache:
            _cache_bytes += len(source)
        _cache[key] = view
        while len(_cache) > VIEW_CACHE_SIZE and _cache_bytes > VIEW_CACHE_BYTES:
            _, evicted = _cache.popitem(last=False)
            _cache_bytes -= len(evicted.source)
            evicted.tree = evicted.matches = None  # big; only recently used views keep them
            evicted.cached = False
        _remember(path, source, view)
    return view


def _remember(path: str, source: bytes, view: FileView) -> None:
    """The view last handed out, most recently used by construction (under _cache_lock)."""
    global _last_view
    _last_view = (path, source, view)


def cached_view_of(language: str | None, digest: str) -> FileView | None:
    with _cache_lock:
        return _cache.get((language, digest))
