"""Cascade step: a symbol renamed in place, told by its call sites rewritten (RefactoringMiner's
evidence, when the arguments changed too).

_references follows a rename whose every reference reads as it did with the new name. When the
parameters changed with the name, no row reads as it did: `listener.onReset()` became
`listener.onChange(Reset)`, `fun onReset()` became `fun onChange(change: RetainInstanceChange)`.
Such a row still reads as it did *up to the name*, and a line diff of its file puts the new row
in the place of the old one. So: over the changed files of the anchor's family, every row that
named the old symbol (its declaration, its overrides in an interface and its implementations,
its calls) is looked for in the rows the diff put in its place; it counts for a new name when
one of those rows reads as it did up to the name and has that name there. One symbol new in the
anchor's scope must take at least REFERENCES_MIN rows and REFERENCES_SHARE of them, no other new
symbol of the scope any (a method split into two, its calls divided: orphaned), and the old name
must be named nowhere any more in those files (a file that declares a symbol of that name of its
own speaks of that one). Two methods merged into one that took both their calls (`onReset` and
`onCountChanged` into `onChange`) each follow it. The body is not asked: a one-row declaration
has none, and the rows that name it are what a rename is about.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter

from limpet.anchoring._already import row_blocks
from limpet.anchoring._fileview import FileView
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._mapping import symbol_similarity
from limpet.anchoring._references import REFERENCES_MIN, REFERENCES_SHARE, new_in_scope
from limpet.anchoring._statements import body_statements
from limpet.anchoring._steps_local import Hit, hit_in_symbol
from limpet.anchoring._symbols import FUNCTION_KINDS
from limpet.anchoring._text import holds_word, is_identifier
from limpet.model import Anchor

__all__ = ["renamed_at_call_sites_step"]

MAX_MENTIONS = 400  # rows naming the old symbol past this: a name too common to tell anything
SMALL_BODY = 1  # statements: a body this small says nothing the rows that name it do not
BODY_ALIKE = 0.5  # ... a larger one is followed only into a body still this alike (name-blind)


def renamed_at_call_sites_step(anchor: Anchor, view: FileView, index: WorkspaceIndex | None,
                               before: FileView | None) -> Hit | None:
    if index is None or before is None or anchor.position != "symbol" or not anchor.symbol \
            or anchor.symbol_kind not in FUNCTION_KINDS:
        return None  # (a type's references are annotations and imports, not calls rewritten)
    old = anchor.symbol_name or ""
    if not is_identifier(old):
        return None
    small = len(body_statements(anchor.selected_text)) <= SMALL_BODY
    # a new symbol that names the old one forwards to it (its body went to a namesake elsewhere)
    candidates = [sv for sv in new_in_scope(anchor, view, before) if not holds_word(sv.text, old)
                  and (small or symbol_similarity(anchor, sv, blind=True) >= BODY_ALIKE)]
    if not candidates:
        return None
    tally = _tally(anchor, view, index, before, old, sorted({sv.name for sv in candidates}))
    if tally is None:
        return None
    counts, mentions = tally
    ranked = counts.most_common()
    if not ranked:
        return None
    name, count = ranked[0]
    if count < max(REFERENCES_MIN, REFERENCES_SHARE * mentions) or len(ranked) > 1:
        return None
    found = [sv for sv in candidates if sv.name == name]
    if len(found) != 1:
        return None  # (overloads under the new name: which one is not told by a name)
    return hit_in_symbol(anchor, anchor.file, view, found[0], 0.55)


def _tally(anchor: Anchor, view: FileView, index: WorkspaceIndex, before: FileView, old: str,
           names: list[str]) -> tuple[Counter, int] | None:
    """(rows rewritten to each new name, rows that named the old one) over the changed files of
    the anchor's family; None when the old name is still named (outside files that declare a
    symbol of that name of their own) or too often to tell."""
    family, needle = family_for_path(anchor.file), old.encode()
    word = re.compile(rf"(?<![\w$]){re.escape(old)}(?![\w$])")
    counts: Counter = Counter()
    mentions = 0
    for path in sorted(index.changed | {anchor.file}):
        if family_for_path(path) != family:
            continue
        now = view if path == anchor.file else index.view(path)
        if now is None:
            continue  # (a deleted file: its rows went nowhere, for or against)
        prev = before if path == anchor.file else index.previous_view(path)
        declares = needle in now.source and any(sv.name == old for sv in now.symbols)
        if needle in now.source and not declares and any(holds_word(row, old) for row in now.rows if old in row):
            return None  # still called by its name: not renamed throughout
        if prev is None or needle not in prev.source:
            continue
        named = [r for r, row in enumerate(prev.rows) if old in row and holds_word(row, old)]
        if not named:
            continue
        if not declares and not any(name.encode() in now.source for name in names):
            mentions += len(named)  # (rows gone, none of them to a new name: no diff to ask)
            continue
        hunks = _hunks(prev, now)
        starts = [h[0] for h in hunks]
        for r in named:
            at = bisect_right(starts, r) - 1
            if at < 0 or not hunks[at][0] <= r < hunks[at][1]:
                if declares:
                    continue  # (a row kept as it was, in a file with a namesake of its own)
                return None
            mentions += 1
            prefix = prev.rows[r][: word.search(prev.rows[r]).start()]
            _, _, lo, hi = hunks[at]
            for name in names:
                head = prefix + name
                if any(row.startswith(head) and not _continues(row, len(head)) for row in now.rows[lo:hi]):
                    counts[name] += 1
        if mentions > MAX_MENTIONS:
            return None
    return counts, mentions


def _hunks(prev: FileView, now: FileView) -> list[tuple[int, int, int, int]]:
    """The rows a line diff changed: (first, end) before and (first, end) now, in order. Rows
    kept between two changes that say nothing (blank, a brace) do not part them: two methods
    rewritten into one are one change, though the blank row between them stayed."""
    out: list[tuple[int, int, int, int]] = []
    a0 = b0 = 0
    for a, b, size in [*row_blocks(prev, now), (len(prev.rows), len(now.rows), 0)]:
        if a > a0 or b > b0:
            if out and not any(_says_something(row) for row in prev.rows[out[-1][1]:a0]):
                out[-1] = (out[-1][0], a, out[-1][2], b)
            else:
                out.append((a0, a, b0, b))
        a0, b0 = a + size, b + size
    return out


def _says_something(row: str) -> bool:
    return any(char.isalnum() for char in row)


def _continues(row: str, at: int) -> bool:
    """Does the name that ends before `at` go on (a longer identifier)?"""
    return at < len(row) and (row[at].isalnum() or row[at] in "_$")
