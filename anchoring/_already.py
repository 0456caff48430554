"""Code that was already there: never where the anchor's deleted code went.

A thread whose code was deleted must not move onto a copy that existed before the change (a
verbatim twin in another class, an overload left alone, a sibling that came along with its file
renamed): that copy is itself, and a thread about the deleted code is better orphaned. Symbols
already say so (`existed_before`, `was_sibling`); this module says it for rows of text.

The rows of the file's current version that a line diff maps from rows of the anchor's own
version other than the anchored ones are old code. A candidate wholly on such rows is a twin that
was already there. The diff is computed only when the anchor's version held its text more than
once (a twin existed) or a similarity step picked rows, and only when that version is known
(the index's previous version of the file, or the view cache's).
"""

from __future__ import annotations

from collections.abc import Callable
from difflib import SequenceMatcher
from threading import Lock

from limpet.anchoring._fileview import FileView, cached_view_of
from limpet.anchoring._locate import exact_occurrences
from limpet.model import Anchor

__all__ = ["Preexisting", "row_blocks"]

_KEPT = 64  # diffs remembered (a reconcile asks once per thread of a file)
_maps: dict[tuple[str, str], list[tuple[int, int, int]]] = {}
_maps_lock = Lock()


class Preexisting:
    """Which rows of `view` (the anchor's file now) are code that was there before, beside the
    anchor's own. Inert (answers "no") when the anchor's version of the file is not known."""

    def __init__(self, anchor: Anchor, view: FileView, previous: Callable[[], FileView | None]) -> None:
        self._anchor = anchor
        self._view = view
        self._previous = previous  # the index's previous version of the file (asked when needed)
        self._own = (anchor.line_start - 1, anchor.line_end - 1)
        self._resolved = False
        self._before: FileView | None = None
        self._rows: frozenset[int] | None = None

    def _version(self) -> FileView | None:
        """The file as the anchor was written on it, when known."""
        if not self._resolved:
            self._resolved = True
            anchor, own = self._anchor, self._own
            before = cached_view_of(self._view.language, anchor.content_hash)
            if before is None:
                before = self._previous()
                if before is not None and before.hash != anchor.content_hash:
                    before = None
            if before is not None and not (own[1] < before.line_count
                                           and before.has_text(*own, anchor.selected_text)):
                before = None  # the anchor's own rows are not where it says: nothing to tell apart
            self._before = before
        return self._before

    def had_twin(self, quote: list[str]) -> bool:
        """Did the anchor's version hold the quoted rows elsewhere too?"""
        before = self._version()
        return before is not None and len(exact_occurrences(before, quote)) > 1

    def covers(self, first: int, last: int) -> bool:
        """Are rows first..last (their non-blank ones) all old code other than the anchor's?"""
        if self._version() is None:
            return False
        rows = self._old_rows()
        text = self._view.rows
        wanted = [r for r in range(first, last + 1) if text[r]]
        return bool(wanted) and all(r in rows for r in wanted)

    def _old_rows(self) -> frozenset[int]:
        if self._rows is None:
            lo, hi = self._own
            self._rows = frozenset(b + k for a, b, size in row_blocks(self._before, self._view)
                                   for k in range(size) if not lo <= a + k <= hi)
        return self._rows


def row_blocks(before: FileView, after: FileView) -> list[tuple[int, int, int]]:
    """The rows a line diff keeps from `before` in `after`: (row before, row after, count) runs
    (remembered per pair of versions: every thread of a file asks the same)."""
    key = (before.hash, after.hash)
    with _maps_lock:
        found = _maps.get(key)
    if found is not None:
        return found
    matcher = SequenceMatcher(None, before.rows, after.rows, autojunk=False)
    found = [tuple(m) for m in matcher.get_matching_blocks() if m.size]
    with _maps_lock:
        if len(_maps) >= _KEPT:
            _maps.clear()
        _maps[key] = found
    return found
