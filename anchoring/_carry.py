"""Carrying an anchor through an edit that cannot have changed what it records.

After an edit somewhere in a file, a reconcile relocates every anchor of the file, and most
of them were only pushed down or up by the edit. When the file's one edited region (since
the content the anchor was made on) lies clear of everything the anchor's record was read
from -- its rows, its symbol, the symbols it could be placed on, its context rows -- and the
edit left the file's outline as it was (the same symbols with the same names, kinds and
nesting: the twin count and the sibling filter read those), relocating it would compute the
very record it holds, at shifted rows. That record is taken as it is, with the positions
moved: no search, no evidence recomputed. Anything else goes through the cascade.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

import msgspec

from limpet.anchoring._anchor import CONTEXT_ROWS, WHOLE_SYMBOL_SLACK
from limpet.anchoring._edits import Edit
from limpet.anchoring._fileview import FileView, cached_view_of
from limpet.model import ANCHOR_VERSION, Anchor

__all__ = ["carried"]

_UNSEEN = object()


def carried(anchor: Anchor, view: FileView) -> Anchor | None:
    """The anchor at its place in `view`, or None when only the cascade can tell."""
    if anchor.lost_text or anchor.version != ANCHOR_VERSION or not anchor.text_hash or not anchor.structure_hash:
        return None
    shift = _outline_kept(view, anchor.content_hash)
    if shift is None:
        return None
    base, edit = shift
    first, last = anchor.line_start - 1, anchor.line_end - 1
    if not 0 <= first <= last < base.line_count:
        return None
    lo, hi = _reach(anchor, base, first, last)
    if hi < edit.start_row:
        rows = 0
    elif lo > edit.old_end_row:
        rows = edit.new_end_row - edit.old_end_row
    else:
        return None
    # Symbols moved whole by the edit (moved_from) are, near rows clear of it, the same symbols
    # moved by `rows`: the band _reach covers holds every candidate.
    if view.moved_from != base.hash and not _candidates_kept(base, view, first, rows):
        return None
    first, last = first + rows, last + rows
    start_byte, end_byte = view.lines.rows_span(first, last)
    if not view.has_text(first, last, anchor.selected_text, (start_byte, end_byte)):
        return None
    if anchor.symbol is None and view.innermost(first, last) is not None:
        return None  # a definition around the edit now takes in the lines
    symbol_start, symbol_end = anchor.symbol_start, anchor.symbol_end
    return msgspec.structs.replace(
        anchor, line_start=first + 1, line_end=last + 1, start_byte=start_byte, end_byte=end_byte,
        symbol_start=None if symbol_start is None else symbol_start + rows,
        symbol_end=None if symbol_end is None else symbol_end + rows,
        content_hash=view.hash, origin_hash=anchor.origin_hash or anchor.text_hash)


def _outline_kept(view: FileView, base_hash: str) -> tuple[FileView, Edit] | None:
    """(the view of `base_hash`, the edit from it to `view`) when that version is cached and the
    edit kept the file's outline (once per pair of versions)."""
    key = ("outline kept", base_hash)
    kept = view.memo.get(key, _UNSEEN)
    if kept is _UNSEEN:
        base = cached_view_of(view.language, base_hash)
        kept = None
        if base is not None and base is not view:
            edit = view.edit_from(base)
            view.symbols  # noqa: B018 - computed first: it may find the outline moved whole (moved_from)
            if view.moved_from == base_hash or _same_outline(base, view, edit):
                kept = (base, edit)
                view.nonblank_after(base, edit)  # `base`'s rows, now; this version's, at the next edit (_reach)
        view.memo[key] = kept
    return kept


def _same_outline(base: FileView, view: FileView, edit: Edit) -> bool:
    """The same symbols (names, kinds, nesting), and each one clear of the edit where the edit
    put its rows: a definition may take in rows next to it (an annotation, a comment) that an
    edit turned into its own."""
    old, new = base.symbols, view.symbols
    if len(old) != len(new):
        return False
    delta = edit.new_end_row - edit.old_end_row
    for a, b in zip(old, new, strict=True):
        a, b = a.symbol, b.symbol
        if a.name != b.name or a.qualified_name != b.qualified_name or a.kind != b.kind or a.parent != b.parent:
            return False
        if a.end_line < edit.start_row:
            shift = 0
        elif a.start_line > edit.old_end_row:
            shift = delta
        else:
            continue  # around the edit: no anchor clear of the edit records it
        if b.start_line != a.start_line + shift or b.end_line != a.end_line + shift:
            return False
    return True


def _reach(anchor: Anchor, base: FileView, first: int, last: int) -> tuple[int, int]:
    """The rows of `base` the anchor's record was read from: its rows and symbol, the rows a
    symbol may start on to be chosen for it, and its context rows (to the file's edge when
    fewer context rows exist: an edit there would add one)."""
    lo, hi = first - WHOLE_SYMBOL_SLACK, last + WHOLE_SYMBOL_SLACK
    if anchor.symbol_start is not None and anchor.symbol_end is not None:
        lo, hi = min(lo, anchor.symbol_start - 1), max(hi, anchor.symbol_end - 1)
    nonblank = base.nonblank
    at = bisect_left(nonblank, first)
    lo = min(lo, nonblank[at - CONTEXT_ROWS] if at >= CONTEXT_ROWS else 0)
    at = bisect_right(nonblank, last)
    hi = max(hi, nonblank[at + CONTEXT_ROWS - 1] if at + CONTEXT_ROWS <= len(nonblank) else base.line_count)
    return lo, hi


def _candidates_kept(base: FileView, view: FileView, first: int, shift: int) -> bool:
    """Are the symbols the anchor could be placed on (those starting near its first row, in
    either version) the same symbols moved by `shift`? A definition around the edit may have
    grown into that band, or out of it."""
    for v, row in ((base, first), (view, first + shift)):
        firsts = v.symbol_firsts
        for i in range(bisect_left(firsts, row - WHOLE_SYMBOL_SLACK), bisect_right(firsts, row + WHOLE_SYMBOL_SLACK)):
            a, b = base.symbols[i].symbol, view.symbols[i].symbol
            if b.start_line != a.start_line + shift or b.end_line != a.end_line + shift:
                return False
    return True
