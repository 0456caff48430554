"""Finding anchored lines in a file view: exact sequences, context, fuzzy windows."""

from __future__ import annotations

from difflib import SequenceMatcher

from rapidfuzz.distance import Indel

from limpet.anchoring._fileview import FileView
from limpet.anchoring._fingerprint import similarity
from limpet.anchoring._text import strip_lines
from limpet.model import MAX_COMPARED_TEXT

SHORT_QUOTE_CHARS = 16  # a quote with fewer non-blank chars needs corroboration
FUZZY_MIN_CHARS = 40  # fuzzy search only for quotes at least this long (or with context)


def quote_rows(text: str) -> list[str]:
    return strip_lines(text)


def quote_weight(rows: list[str]) -> int:
    """Non-whitespace characters of a quote: how much evidence its text carries."""
    return sum(len(r.replace(" ", "").replace("\t", "")) for r in rows)


def exact_occurrences(view: FileView, rows: list[str], lo: int = 0, hi: int | None = None) -> list[int]:
    """Start rows in [lo, hi] where the stripped row sequence occurs."""
    hi = view.line_count - 1 if hi is None else hi
    key_at = next((i for i, r in enumerate(rows) if r), None)
    if key_at is None:
        return []
    found = []
    n = len(rows)
    for row in view.row_index.get(rows[key_at], ()):
        start = row - key_at
        if start < lo or start + n - 1 > hi:
            continue
        if view.rows[start : start + n] == rows:
            found.append(start)
    return found


def context_similarity(view: FileView, first: int, last: int, prefix: str, suffix: str) -> float:
    """How well the rows around [first, last] match the stored context (0..1)."""
    scores = []
    if prefix:
        scores.append(side_similarity(view, first, -1, prefix))
    if suffix:
        scores.append(side_similarity(view, last, +1, suffix))
    return sum(scores) / len(scores) if scores else 0.0


def side_similarity(view: FileView, row: int, step: int, stored: str) -> float:
    want = stored.split("\n")
    got, row = [], row + step
    rows = view.rows
    while 0 <= row < len(rows) and len(got) < len(want):
        if rows[row]:
            got.append(rows[row])
        row += step
    return Indel.normalized_similarity("\n".join(want), "\n".join(got))


def fuzzy_windows(view: FileView, text: str, lo: int = 0, hi: int | None = None) -> list[tuple[float, int, int]]:
    """Candidate (score, first, last) windows in [lo, hi] resembling `text`, best first.

    Seeds are rows equal to a distinctive anchored row; each seed proposes an
    alignment, refined by a line diff of the quote against the neighbourhood. A text longer
    than MAX_COMPARED_TEXT has none (each window would cost its length, and a diff more).
    """
    if len(text) > MAX_COMPARED_TEXT:
        return []
    hi = view.line_count - 1 if hi is None else hi
    rows = strip_lines(text)
    n = len(rows)
    starts = _seed_starts(view, rows, lo, hi)
    seen, out = set(), []
    for start in sorted(starts):
        window = _align(view, rows, start, lo, hi)
        if window is None or window in seen:
            continue
        seen.add(window)
        first, last = window
        if last - first + 1 > 3 * n + 10:
            continue
        score = similarity(text, view.text(first, last))
        out.append((score, first, last))
    out.sort(key=lambda t: (-t[0], t[1]))
    return out


def _seed_starts(view: FileView, rows: list[str], lo: int, hi: int) -> set[int]:
    starts: set[int] = set()
    for i, r in enumerate(rows):
        if len(r) < 6:
            continue
        hits = view.row_index.get(r, ())
        if 0 < len(hits) <= 3:
            starts.update(h - i for h in hits if lo <= h <= hi)
        if len(starts) > 64:
            break
    return starts


def _align(view: FileView, rows: list[str], start: int, lo: int, hi: int) -> tuple[int, int] | None:
    n = len(rows)
    a, b = max(lo, start - n // 2 - 2), min(hi, start + n + n // 2 + 2)
    if a > b:
        return None
    region = view.rows[a : b + 1]
    matcher = SequenceMatcher(None, rows, region, autojunk=False)
    pairs = [(i + k, j + k) for i, j, size in matcher.get_matching_blocks() for k in range(size) if rows[i + k]]
    if not pairs:
        return None
    (i0, j0), (i1, j1) = pairs[0], pairs[-1]
    first = a + j0 - i0  # unmatched leading rows keep their count
    last = a + j1 + (n - 1 - i1)
    first, last = max(lo, first), min(hi, last)
    return (first, last) if first <= last else None
