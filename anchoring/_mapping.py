"""Mapping an anchor onto a symbol found again: the symbol's rows, or lines inside it."""

from __future__ import annotations

from limpet.anchoring._fileview import FileView, SymbolView
from limpet.anchoring._fingerprint import blind_similarity, similarity, sketch_similarity
from limpet.anchoring._locate import context_similarity, exact_occurrences, fuzzy_windows, quote_rows
from limpet.anchoring._symbols import FUNCTION_KINDS
from limpet.model import MAX_COMPARED_TEXT, Anchor

LINE_FUZZY_MIN = 0.6  # similarity for an edited line still to count as "the same line"
LINE_MARGIN = 0.1


def kinds_compatible(old: str | None, new: str) -> bool:
    """Same kind of declaration; function/method/constructor differ only by nesting."""
    return old is None or kind_group(old) == kind_group(new)


def kind_group(kind: str) -> str:
    """What kinds_compatible compares: functions, methods and constructors are one group."""
    return "function" if kind in FUNCTION_KINDS else kind


def compared_in_full(anchor: Anchor) -> bool:
    """Is the anchor's text short enough to be compared in full with every candidate? A longer
    one (MAX_COMPARED_TEXT) is compared through its fingerprint and hashes only: each candidate
    of a step costs the text's length, and a step may have a file's every symbol to score."""
    return len(anchor.selected_text) <= MAX_COMPARED_TEXT


def symbol_similarity(anchor: Anchor, sv: SymbolView, blind: bool = False) -> float:
    """How alike the anchor's symbol and `sv` are (1.0 for an equal normalized text)."""
    if anchor.symbol_hash and sv.norm_hash == anchor.symbol_hash:
        return 1.0
    if blind and anchor.blind_hash and sv.blind_hash == anchor.blind_hash:
        return 1.0
    if anchor.position == "symbol" and compared_in_full(anchor):
        if blind:
            return blind_similarity(anchor.selected_text, anchor.symbol_name, sv.text, sv.name)
        return similarity(anchor.selected_text, sv.text)
    # lines inside a symbol (only the symbol's sketch was kept), or a text too long to compare
    return sketch_similarity(anchor.sketch, sv.sketch)


def map_into_symbol(anchor: Anchor, view: FileView, sv: SymbolView) -> tuple[int, int] | None:
    """Rows (0-based) for the anchor inside the symbol found again, or None."""
    if anchor.position == "symbol" and anchor.symbol_start is not None and anchor.symbol_end is not None:
        first = sv.first + (anchor.line_start - anchor.symbol_start)
        last = sv.last + (anchor.line_end - anchor.symbol_end)
        first = min(max(first, 0), view.line_count - 1)
        last = min(max(last, first), view.line_count - 1)
        return first, last
    return locate_lines_inside(anchor, view, sv.first, sv.last, sv.first)


def locate_lines_inside(anchor: Anchor, view: FileView, lo: int, hi: int, base: int) -> tuple[int, int] | None:
    """The anchored lines within rows [lo, hi]; `base` is where the old symbol's offset counts from."""
    rows = quote_rows(anchor.selected_text)
    span = len(rows)
    found = exact_occurrences(view, rows, lo, hi)
    if found:
        start = _pick_occurrence(anchor, view, found, span, base)
        return start, start + span - 1
    if span <= 3:  # (a text too long to compare: each row of the symbol would cost its length)
        return _closest_short_window(anchor, view, span, lo, hi, base) if compared_in_full(anchor) else None
    windows = [w for w in fuzzy_windows(view, anchor.selected_text, lo, hi) if w[0] >= LINE_FUZZY_MIN]
    if not windows:
        return None
    if len(windows) > 1 and windows[0][0] - windows[1][0] < LINE_MARGIN and not _overlap(windows[0], windows[1]):
        return None
    return windows[0][1], windows[0][2]


def _pick_occurrence(anchor: Anchor, view: FileView, found: list[int], span: int, base: int) -> int:
    if len(found) == 1:
        return found[0]
    offset = anchor.line_start - (anchor.symbol_start or anchor.line_start)

    def key(start: int):
        ctx = context_similarity(view, start, start + span - 1, anchor.prefix, anchor.suffix)
        return (-round(ctx, 1), abs((start - base) - offset), start)

    return min(found, key=key)


def _closest_short_window(anchor: Anchor, view: FileView, span: int, lo: int, hi: int, base: int):
    """An edited line (or two, three): the most similar window, if clearly the best."""
    scored = []
    for start in range(lo, hi - span + 2):
        text = view.text(start, start + span - 1)
        if not text.strip():
            continue
        scored.append((similarity(anchor.selected_text, text), start))
    scored.sort(key=lambda t: (-t[0], t[1]))
    if not scored or scored[0][0] < LINE_FUZZY_MIN:
        return None
    if len(scored) > 1 and scored[0][0] - scored[1][0] < LINE_MARGIN:
        return None
    start = scored[0][1]
    return start, start + span - 1


def _overlap(a: tuple[float, int, int], b: tuple[float, int, int]) -> bool:
    return a[1] <= b[2] and b[1] <= a[2]
