"""Where exactly does a fuzzily found range start and end?

A fuzzy window comes from aligning the quote's rows with the file: its middle is
well supported, its ends much less (a closing `}` aligns with any other one,
code added at the end of a block leaves the old last row in place, blank rows
drift in). A range off by a few lines is a silent error, worse than an orphan,
so each end is settled on evidence, or the window is refused:

* an end on the quote's own edge row stands, unless the same row sits nearby
  with clearly better context (the stored rows beside the range);
* otherwise the row most like the edge row and beside its context, backed by
  one of the two (a row very like the edge row, or context and some likeness);
* a block whose old last row is followed by rows nested deeper than its first
  grew at its end: the end follows the nesting, if the old context follows;
* a window holding two rows like the quote's first holds two similar blocks.

Nesting is read from indentation: language-agnostic, and only ever used to
refuse or to follow a block, never to invent one.
"""

from __future__ import annotations

from rapidfuzz.distance import Indel

from limpet.anchoring._fileview import FileView
from limpet.anchoring._locate import side_similarity
from limpet.anchoring._text import strip_lines

BOUNDARY_CONTEXT = 0.9  # context beside an end that confirms it on its own
NEAREST_CONTEXT = 0.6  # context that backs an end along with a like edge row
EDGE_SIMILARITY = 0.6  # a row this like the quote's first / last may end the window
LIKE_ALONE = 0.8  # ... this like needs no context
OWN_ROW = 0.5  # the likeness given to another row of the quote (its edge row was edited away)
CONTEXT_MARGIN = 0.3  # context this much better moves an end off the alignment's own edge row
TWIN_HEAD = 0.8  # a second row this like the quote's first inside the window: two blocks
SLACK_ROWS = 3  # how far outside the window an end is looked for (or a quarter of the quote)


def settle_window(view: FileView, text: str, first: int, last: int, prefix: str, suffix: str,
                  ) -> tuple[int, int] | None:
    """The window [first, last] with both ends confirmed (possibly moved), or None."""
    quote = [r for r in strip_lines(text) if r]
    if not quote:
        return None
    first, last = _trim_blank_edges(view, strip_lines(text), first, last)
    slack = max(SLACK_ROWS, len(quote) // 4)
    own = set(quote)
    start = _settle(view, quote[0], own, first, range(max(0, first - slack), last + 1), -1, prefix)
    if start is None or _twin_head(view, quote[0], start, last):
        return None
    end = _settle(view, quote[-1], own, last, range(start, min(view.line_count, last + slack + 1)), +1, suffix)
    if end is None:
        return None
    base = _indent(view, start)
    if end > last and not _nested(view, last + 1, end, base):
        return None  # grew outward over a row as shallow as the block's opening: a new neighbour
    ctx = _context_score(view, end, +1, suffix)
    if ctx < BOUNDARY_CONTEXT:  # the block may go on past its old last row: code added at its end
        grown = _block_end(view, end, base, quote[-1], suffix)
        grown_ctx = _context_score(view, grown, +1, suffix)
        if grown_ctx >= NEAREST_CONTEXT and grown_ctx > ctx:
            end = grown
        elif ctx < NEAREST_CONTEXT and grown != end:
            return None  # it goes on, and neither place is followed by the old context
    return start, end


def _block_end(view: FileView, end: int, base: int, tail: str, suffix: str) -> int:
    """Where a block ends if it goes on after row `end`: past the rows nested deeper
    than its opening, plus a closing row at its depth (`}`, `end`, the old last row)."""
    rows, n, row = view.rows, view.line_count, end + 1
    while row < n and (not rows[row] or _indent(view, row) > base):
        row += 1
    if not any(rows[end + 1 : row]):
        return end  # nothing nested follows
    if row < n and (rows[row] == tail or not _starts_block(rows[row])):
        return row
    row -= 1
    while not rows[row]:
        row -= 1
    return row


def _starts_block(row: str) -> bool:
    """A row at the block's depth that opens something (a sibling), rather than closing it."""
    return row[0].isalnum() or row[0] in "_@#$"


def _settle(view: FileView, edge: str, own: set[str], proposed: int, span: range, step: int, context: str,
            ) -> int | None:
    """The row of `span` that ends the window, or None when nothing backs an end there.

    The alignment's row stands when it is the quote's own edge row, unless that
    same row sits nearby with clearly better context (a `}` aligned one block too
    far). Otherwise the row most like the edge and beside the context wins, and
    must be backed by one of the two.
    """
    rows = view.rows
    if rows[proposed] == edge:
        base = _context_score(view, proposed, step, context)
        better = [(ctx, -abs(r - proposed), r) for r in span if r != proposed and rows[r] == edge
                  for ctx in (_context_score(view, r, step, context),) if ctx >= BOUNDARY_CONTEXT
                  and ctx - base >= CONTEXT_MARGIN]
        return max(better)[2] if better else proposed
    scored = []
    for r in span:
        if not rows[r]:
            continue
        like = Indel.normalized_similarity(rows[r], edge)
        if like < EDGE_SIMILARITY:
            like = OWN_ROW if rows[r] in own else 0.0  # another row of the quote: its edge row was edited away
        ctx = _context_score(view, r, step, context) if like else 0.0
        if like >= LIKE_ALONE or (like and ctx >= NEAREST_CONTEXT):
            scored.append((round(like + ctx, 2), -abs(r - proposed), r))
    return max(scored)[2] if scored else None


def _context_score(view: FileView, row: int, step: int, stored: str) -> float:
    if stored:
        return side_similarity(view, row, step, stored)
    rows, row = view.rows, row + step  # nothing was stored: nothing may be there now either
    return 0.0 if any(rows[row:] if step > 0 else rows[: max(row + 1, 0)]) else 1.0


def _twin_head(view: FileView, head: str, start: int, last: int) -> bool:
    """Another row like the quote's first inside the window: two similar blocks in one window."""
    rows = view.rows
    return any(rows[r] and Indel.normalized_similarity(rows[r], head) >= TWIN_HEAD for r in range(start + 1, last + 1))


def _trim_blank_edges(view: FileView, quote: list[str], first: int, last: int) -> tuple[int, int]:
    """Blank rows at the window's edges beyond those the quote itself has belong to no one."""
    rows = view.rows
    while quote[0] and first < last and not rows[first]:
        first += 1
    while quote[-1] and last > first and not rows[last]:
        last -= 1
    return first, last


def _indent(view: FileView, row: int) -> int:
    line = view.lines.line_text(row)
    return len(line) - len(line.lstrip())


def _nested(view: FileView, lo: int, hi: int, base: int) -> bool:
    """Are rows [lo, hi) deeper than `base` (blank rows aside)? Row `hi` may close the block."""
    return all(_indent(view, r) > base for r in range(lo, hi) if view.rows[r])
