"""Cascade step: a symbol renamed in place, told by its references (RefactoringMiner's evidence).

When a method is renamed and rewritten at once, its body says too little; the rows that named
it say more. Rows of the files changed with it that mentioned the old name (its declaration,
its call sites) and now read exactly so with one new name in its place, while the old name is
gone from every changed file, are a rename the author made throughout (`refreshTasks()` ->
`refresh()` at each call and in the interface). One symbol new in the anchor's scope, of a
compatible kind, must take at least REFERENCES_MIN such rows and most of them; no other new
symbol of the scope any. Code that was already there is never the successor (was_sibling).
"""

from __future__ import annotations

from limpet.anchoring._fileview import FileView, SymbolView
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._mapping import kinds_compatible
from limpet.anchoring._steps_local import Hit, hit_in_symbol, parent_of, was_sibling
from limpet.anchoring._text import holds_word, is_identifier, replace_identifier
from limpet.model import Anchor

__all__ = ["REFERENCES_MIN", "REFERENCES_SHARE", "new_in_scope", "renamed_by_references_step"]

REFERENCES_MIN = 3  # rows renamed alike (the declaration's counts): at least two references
REFERENCES_SHARE = 0.5  # ... and at least this share of the rows that named the old symbol
MAX_MENTIONS = 400  # rows naming the old symbol past this: a name too common to tell anything


def renamed_by_references_step(anchor: Anchor, view: FileView, index: WorkspaceIndex | None,
                               before: FileView | None) -> Hit | None:
    if index is None or before is None or anchor.position != "symbol" or not anchor.symbol:
        return None
    old = anchor.symbol_name or ""
    if not is_identifier(old):
        return None
    candidates = new_in_scope(anchor, view, before)
    if not candidates:
        return None
    mentions = _mentions(anchor, view, index, before, old)
    if mentions is None or not mentions:
        return None
    renamed = {}
    for sv in candidates:
        if sv.name not in renamed:
            renamed[sv.name] = sum(1 for row, now in mentions if replace_identifier(row, old, sv.name) in now)
    ranked = sorted(renamed.items(), key=lambda t: -t[1])
    name, count = ranked[0]
    if count < max(REFERENCES_MIN, REFERENCES_SHARE * len(mentions)) or any(n for _, n in ranked[1:]):
        return None
    found = [sv for sv in candidates if sv.name == name]
    if len(found) != 1:
        return None  # (overloads under the new name: which one is not told by a name)
    return hit_in_symbol(anchor, anchor.file, view, found[0], 0.6)


def new_in_scope(anchor: Anchor, view: FileView, before: FileView | None) -> list[SymbolView]:
    """The symbols of the anchor's scope, of a compatible kind, under another name, that were
    not there beside it before the change: where a renamed symbol may have gone."""
    old = anchor.symbol_name or ""
    parent = parent_of(anchor.symbol or "", old)
    return [sv for sv in view.symbols
            if sv.parent_name == parent and sv.name != old and kinds_compatible(anchor.symbol_kind, sv.kind)
            and not was_sibling(anchor, sv, before)]


def _mentions(anchor: Anchor, view: FileView, index: WorkspaceIndex, before: FileView,
              old: str) -> list[tuple[str, dict]] | None:
    """(row that named `old` before, the rows of its file now) over the changed files of the
    anchor's language family; None when the old name is still named somewhere (another symbol
    of that name, or references left: not a rename throughout) or too often to tell."""
    family, needle = family_for_path(anchor.file), old.encode()
    out = []
    for path in sorted(index.changed | {anchor.file}):
        if family_for_path(path) != family:
            continue
        prev = before if path == anchor.file else index.previous_view(path)
        now = view if path == anchor.file else index.view(path)
        if now is not None and needle in now.source and any(old in row and holds_word(row, old) for row in now.rows):
            return None
        if prev is None or now is None or needle not in prev.source:
            continue
        rows = [row for row in prev.rows if old in row and holds_word(row, old)]
        if not rows:
            continue
        present = now.row_index
        out += [(row, present) for row in rows]
        if len(out) > MAX_MENTIONS:
            return None
    return out
