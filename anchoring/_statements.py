"""Statement-level mapping (RefactoringMiner's idea, in small): which statements of an old body
are in a new one, tolerating replaced identifiers and literals.

A statement is a non-blank row of the body, its declaration row and rows of punctuation alone
(`{`, `}`, `)`) left out. Two statements map when equal, or when they read alike with names
and literals abstracted (`position += BYTE_SIZE` / `bytesRead += BYTE_SIZE`) and at most half of
their tokens differ. Each new statement maps at most once; equal ones first.

The step below uses it where whole-body likeness says too little: a small method moved to
another class or file under its own simple name, with a field or parameter renamed in it (two
or three statements; a name-blind body likeness of two-line bodies is high everywhere, a mapping
of every statement is not).
"""

from __future__ import annotations

import re
from collections import Counter

from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._mapping import kinds_compatible, map_into_symbol
from limpet.anchoring._steps_local import Hit
from limpet.model import Anchor

__all__ = ["mapped_shares", "named_move_step"]

_TOKEN = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*|\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|\S")
_KEYWORDS = frozenset("""if else elif for while do return val var fun def let const new this self in is not and or
try catch finally throw throws raise with as yield await async null None nil true false True False
break continue when switch case default override private public protected internal static final
import from pass lambda function class object super""".split())
_PUNCTUATION = re.compile(r"^[\s{}()\[\];,]*$")
NAMED_MOVE_OLD = 0.75  # share of the old statements mapped into the moved method
NAMED_MOVE_NEW = 0.5  # ... and of the moved method's statements that are old ones


def statements(text: str) -> list[str]:
    rows = [r.strip() for r in text.split("\n")[1:]]
    return [r for r in rows if r and not _PUNCTUATION.match(r)]


def _shape(tokens: list[str]) -> tuple[str, ...]:
    return tuple(t if t in _KEYWORDS or not (t[0].isalnum() or t[0] in "_$\"'") else
                 ("L" if t[0].isdigit() or t[0] in "\"'" else "I") for t in tokens)


def mapped_shares(old: str, new: str) -> tuple[float, float]:
    """(share of old's statements mapped into new, share of new's that are mapped)."""
    a, b = statements(old), statements(new)
    if not a or not b:
        return 0.0, 0.0
    free = Counter(b)
    mapped, rest = 0, []
    for row in a:
        if free[row] > 0:
            free[row] -= 1
            mapped += 1
        else:
            rest.append(row)
    left = [row for row, n in free.items() for _ in range(n)]
    shapes: dict[tuple[str, ...], list[list[str]]] = {}
    for row in left:
        toks = _TOKEN.findall(row)
        shapes.setdefault(_shape(toks), []).append(toks)
    for row in rest:
        toks = _TOKEN.findall(row)
        pool = shapes.get(_shape(toks))
        if not pool:
            continue
        for i, other in enumerate(pool):
            if sum(x != y for x, y in zip(toks, other, strict=True)) <= max(1, len(toks) // 2):
                del pool[i]
                mapped += 1
                break
    return mapped / len(a), mapped / len(b)


def named_move_step(anchor: Anchor, index: WorkspaceIndex | None) -> Hit | None:
    """A method gone from its file that reappears, new, under its own simple name in one other
    changed file, most of its statements mapped there (a field or parameter renamed in it). One
    such symbol only (overloads, or the name new in two places: no one place), never one that was
    already there."""
    if index is None or anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name:
        return None
    name, own = anchor.symbol_name, (anchor.file, anchor.symbol)
    paths = [p for p in index.scope(False, (name.encode(),), family=family_for_path(anchor.file)) if p != anchor.file]
    found = [(p, sv) for p in paths for sv in index.view(p).symbols
             if sv.name == name and kinds_compatible(anchor.symbol_kind, sv.kind)]
    found = [(p, sv) for p, sv in found if not index.existed_before(p, sv.qualified_name, own)]
    if len(found) != 1:
        return None
    path, sv = found[0]
    old_share, new_share = mapped_shares(anchor.selected_text, sv.text)
    if old_share < NAMED_MOVE_OLD or new_share < NAMED_MOVE_NEW:
        return None
    view = index.view(path)
    rows = map_into_symbol(anchor, view, sv)
    if rows is None:
        return None
    return Hit(path, view, rows[0], rows[1], "moved", round(0.4 + 0.5 * old_share, 4))
