"""Building anchor records: what a thread records about its code when it is written or moved.

The record itself (limpet.model.Anchor) is plain data; here the engine fills it from a file
view: the symbol the lines are about, hashes, fingerprint and context.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from limpet.anchoring._fileview import FileView, SymbolView, file_view
from limpet.anchoring._fingerprint import (
    blind_hash,
    name_filter,
    norm_hash,
    sketch,
    structure_hash,
    token_count,
)
from limpet.anchoring._text import rstripped, short_hash
from limpet.model import ANCHOR_VERSION, MAX_CONTEXT_CHARS, Anchor, InvalidAnchor, packed_sketch

__all__ = ["anchor_from_view", "choose_symbol", "create_anchor", "relocated", "text_hash"]

CONTEXT_ROWS = 3  # non-blank rows of prefix / suffix context kept
CONTEXT_CHARS = MAX_CONTEXT_CHARS  # what a store reads back is cut to it too
MAX_SIBLINGS = 512  # bounds the stored name filter (about 2 KB of hex at most)
WHOLE_SYMBOL_SLACK = 3  # lines an anchor may differ from its symbol and still be "on" it


def text_hash(text: str) -> str:
    """Hash deciding `anchored` vs `drifted`: trailing spaces and CRLF do not count."""
    return short_hash(rstripped(text))


def create_anchor(
    file: str, source: bytes, line_start: int, line_end: int, start_character: int = 0, end_character: int = 0
) -> Anchor:
    view = file_view(file, source)
    _check_range(file, view, line_start, line_end)
    return anchor_from_view(file, view, line_start - 1, line_end - 1, start_character, end_character)


def _check_range(file: str, view: FileView, line_start: int, line_end: int) -> None:
    n = max(view.line_count, 1)
    if isinstance(line_start, int) and isinstance(line_end, int):
        if 1 <= line_start <= line_end <= n:
            return
    bad_start = not isinstance(line_start, int) or not 1 <= line_start <= n
    if isinstance(line_start, int) and isinstance(line_end, int) and 1 <= line_end < line_start:
        inside = "" if line_start <= n else f"; the file has {n} lines"
        raise InvalidAnchor(
            f"Line range {line_start}-{line_end} is reversed: it ends before it starts{inside}", field="line_end",
            details={"file": file, "line_start": line_start, "line_end": line_end, "fileLineCount": n},
            suggestion=f"Write the first line first: {line_end}-{line_start}")
    raise InvalidAnchor(
        f"Line range {line_start}-{line_end} is outside the file ({n} lines)",
        field="line_start" if bad_start else "line_end",
        details={"file": file, "line_start": line_start, "line_end": line_end, "fileLineCount": n},
        suggestion=f"Use lines between 1 and {n}, with line_start <= line_end",
    )


def anchor_from_view(
    file: str, view: FileView, first: int, last: int, start_character: int = 0, end_character: int = 0,
    origin_hash: str | None = None,
) -> Anchor:
    """Build the record for rows [first, last] (0-based) of a view already validated."""
    if view.line_count == 0:
        text, start_byte, end_byte = "", 0, 0
    else:
        text = view.text(first, last)
        start_byte, end_byte = view.lines.rows_span(first, last)
    symbol, position = choose_symbol(view, first, last)
    evidence_text = symbol.text if symbol else text
    own_hash = text_hash(text)
    return Anchor(
        file=file, line_start=first + 1, line_end=last + 1,
        start_character=start_character, end_character=end_character,
        selected_text=text, content_hash=view.hash,
        symbol=symbol.qualified_name if symbol else None,
        symbol_kind=symbol.kind if symbol else None,
        symbol_name=symbol.name if symbol else None,
        position=position,
        symbol_start=symbol.first + 1 if symbol else None,
        symbol_end=symbol.last + 1 if symbol else None,
        start_byte=start_byte, end_byte=end_byte,
        text_hash=own_hash, text_norm=norm_hash(text), origin_hash=origin_hash or own_hash,
        symbol_hash=symbol.norm_hash if symbol else "",
        blind_hash=blind_hash(symbol.text, symbol.name) if symbol else "",
        structure_hash=structure_hash(evidence_text),
        fingerprint=packed_sketch(sketch(evidence_text)),
        symbol_tokens=token_count(evidence_text),
        symbol_twins=_twins(view, symbol),
        prefix=_context(view, first, -1), suffix=_context(view, last, +1),
        sibling_names=_sibling_filter(view, symbol) if position == "symbol" else "",
    )


def relocated(anchor: Anchor, file: str, view: FileView, first: int, last: int) -> Anchor:
    """The anchor moved to rows [first, last] (0-based) of `view`, keeping its origin.

    Fast path for the common case, code shifted by edits elsewhere: when the text
    there is the anchored text and the enclosing symbol's text is unchanged too,
    every text-derived field (hashes, fingerprint, tokens) is copied and only the
    positions, context and symbol placement are refreshed.
    """
    origin = anchor.origin_hash or anchor.text_hash
    same_text = view.line_count > 0 and view.has_text(first, last, anchor.selected_text)
    symbol, position = choose_symbol(view, first, last) if same_text else (None, "file")
    if not same_text or not _same_evidence(anchor, symbol):
        return anchor_from_view(file, view, first, last, anchor.start_character, anchor.end_character, origin)
    start_byte, end_byte = view.lines.rows_span(first, last)
    return Anchor(
        file=file, line_start=first + 1, line_end=last + 1,
        start_character=anchor.start_character, end_character=anchor.end_character,
        selected_text=anchor.selected_text, content_hash=view.hash,
        symbol=anchor.symbol, symbol_kind=symbol.kind if symbol else None, symbol_name=anchor.symbol_name,
        position=position,
        symbol_start=symbol.first + 1 if symbol else None,
        symbol_end=symbol.last + 1 if symbol else None,
        start_byte=start_byte, end_byte=end_byte,
        text_hash=anchor.text_hash, text_norm=anchor.text_norm, origin_hash=origin,
        symbol_hash=anchor.symbol_hash, blind_hash=anchor.blind_hash, structure_hash=anchor.structure_hash,
        fingerprint=anchor.fingerprint, symbol_tokens=anchor.symbol_tokens,
        symbol_twins=_twins(view, symbol),
        prefix=_context(view, first, -1), suffix=_context(view, last, +1),
        sibling_names=_sibling_filter(view, symbol) if position == "symbol" else "",
    )


def _same_evidence(anchor: Anchor, symbol: SymbolView | None) -> bool:
    """Would the anchor's stored evidence be recomputed identically here?

    All of it derives from the anchored text (unchanged, checked by the caller)
    or, with a symbol, from the symbol's whitespace-blind text and its name.
    """
    if anchor.version != ANCHOR_VERSION or not anchor.text_hash or not anchor.structure_hash:
        return False  # an older record: rebuild it in full
    if symbol is None:
        return anchor.symbol is None
    return (anchor.symbol == symbol.qualified_name and anchor.symbol_name == symbol.name
            and bool(anchor.symbol_hash) and anchor.symbol_hash == symbol.norm_hash)


def choose_symbol(view: FileView, first: int, last: int) -> tuple[SymbolView | None, str]:
    """The symbol the anchor is about, and whether it is on the whole of it or lines inside."""
    best, best_key = None, None
    firsts = view.symbol_firsts  # only symbols starting within the slack can qualify
    lo = bisect_left(firsts, first - WHOLE_SYMBOL_SLACK)
    hi = bisect_right(firsts, first + WHOLE_SYMBOL_SLACK)
    for sv in view.symbols[lo:hi]:
        d_start, d_end = first - sv.first, last - sv.last
        if abs(d_start) > WHOLE_SYMBOL_SLACK or abs(d_end) > WHOLE_SYMBOL_SLACK:
            continue
        size = sv.last - sv.first + 1
        overlap = min(last, sv.last) - max(first, sv.first) + 1
        if overlap < 0.8 * size or (first == last and size > 1):
            continue
        key = (abs(d_start) + abs(d_end), size)
        if best_key is None or key < best_key:
            best, best_key = sv, key
    if best is not None:
        return best, "symbol"
    inner = view.innermost(first, last)
    return (inner, "lines") if inner is not None else (None, "file")


def _context(view: FileView, row: int, step: int) -> str:
    """Up to CONTEXT_ROWS stripped non-blank rows next to the range, nearest first."""
    rows, nonblank = view.rows, view.nonblank
    if step < 0:
        at = bisect_left(nonblank, row)
        near = nonblank[max(at - CONTEXT_ROWS, 0) : at][::-1]
    else:
        at = bisect_right(nonblank, row)
        near = nonblank[at : at + CONTEXT_ROWS]
    out, size = [], 0
    for r in near:
        if size >= CONTEXT_CHARS:
            break
        out.append(rows[r])
        size += len(rows[r])
    return "\n".join(out)[:CONTEXT_CHARS]


def _twins(view: FileView, symbol: SymbolView | None) -> int:
    if symbol is None:
        return 0
    return view.name_counts.get((symbol.qualified_name, symbol.kind), 0)


def _sibling_filter(view: FileView, symbol: SymbolView | None) -> str:
    """Names in the symbol's scope, as the steps compare scopes: by the qualified name of the
    enclosing one (a C++ method defined outside its class, a Go method: its siblings are its
    type's other members, not every definition of the namespace or file; the nearest
    MAX_SIBLINGS in giant scopes)."""
    if symbol is None:
        return ""
    scope = symbol.parent_name
    siblings = view.by_scope.get(scope, [])
    if len(siblings) <= MAX_SIBLINGS:
        key = ("siblings", scope)  # the same filter for every symbol of the scope
        if key not in view.memo:
            view.memo[key] = name_filter([sv.name for sv in siblings])
        return view.memo[key]
    siblings = sorted(siblings, key=lambda sv: (abs(sv.index - symbol.index), sv.index))[:MAX_SIBLINGS]
    return name_filter([sv.name for sv in siblings])
