"""Cascade step: a symbol replaced in place, told by where it stands among its siblings.

A diff shows a rename as a declaration replaced between the same two neighbours: the members of
the scope just before and just after the symbol are still there, still in that order, and
between them the change removed exactly the anchor's symbol and added exactly one symbol of a
compatible kind (`isBoring(objectId: Long)` -> `objectIdMetadata(objectId: Long)`, its one
statement reworded; `_make_dataset(self)` -> `_make_mono_text_dataset(dataset_hparams)`, a
`@staticmethod` now). The place is evidence the body no longer gives; it is taken only with
some of the body's own besides:

* the new symbol's text (name-blind) is alike by SLOT_BODY at least, and holds SLOT_KEPT of
  the old statements (a body without statements, an interface's declaration, has none to keep;
  `save_settings(path, data)` writing JSON -> `save_settings_backup(path)` copying a file is a
  function deleted and another added, however alike their names), and
* its name is alike by SLOT_NAME, or it declares the very same parameters, or SLOT_STATEMENTS of
  the old statements map into it (names and literals replaced) and as much of its own are old
  ones (a method rewritten around two of the old statements, a flag added, under a name barely
  alike, is no rename told by its place: okhttp's `exchangeDoneDueToException` ->
  `exitNetworkInterceptorExchange(closeExchange)`, which the oracle has inlined elsewhere).

Two symbols gone from the slot, or two new in it (a method split in two, a pair merged into
one), say nothing about which is which: no step here (orphaned unless another step finds it).
At least one neighbour must be there on each side that has one: a symbol first or last in its
scope has the scope's edge as its neighbour there. Code that was already there is never the
successor (it would be a neighbour, not new).
"""

from __future__ import annotations

from limpet.anchoring._fileview import FileView, SymbolView
from limpet.anchoring._mapping import kinds_compatible, symbol_similarity
from limpet.anchoring._signature import signature
from limpet.anchoring._statements import mapped_shares, statements
from limpet.anchoring._steps_local import Hit, hit_in_symbol, name_likeness, parent_of
from limpet.model import Anchor

__all__ = ["replaced_in_place_step"]

SLOT_BODY = 0.35  # name-blind likeness of the one new symbol between the same neighbours
SLOT_KEPT = 0.25  # ... holding this share of the old statements at least (names replaced), and
SLOT_NAME = 0.55  # ... with a name this alike,
SLOT_STATEMENTS = 0.5  # ... or this share of the old statements mapped into it and of its own old ones,
# or the same parameters


def replaced_in_place_step(anchor: Anchor, view: FileView, before: FileView | None) -> Hit | None:
    if before is None or anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name:
        return None
    parent = parent_of(anchor.symbol, anchor.symbol_name)
    old_members = _members(before, parent)
    now_members = _members(view, parent)
    mine = [i for i, sv in enumerate(old_members) if sv.qualified_name == anchor.symbol]
    if len(mine) != 1:
        return None
    kept = _kept(old_members, now_members)
    i = mine[0]
    lo = next((j for j in range(i - 1, -1, -1) if old_members[j].qualified_name in kept), None)
    hi = next((j for j in range(i + 1, len(old_members)) if old_members[j].qualified_name in kept), None)
    if lo is None and hi is None:
        return None  # (no neighbour left: the slot is the whole scope, no place at all)
    if (i - (lo if lo is not None else -1)) != 1 or ((hi if hi is not None else len(old_members)) - i) != 1:
        return None  # another symbol gone from the slot too: which went where is not told
    after_first = kept[old_members[lo].qualified_name].last if lo is not None else -1
    before_next = kept[old_members[hi].qualified_name].first if hi is not None else view.line_count
    if after_first >= before_next:
        return None  # (the neighbours swapped: no slot)
    between = [sv for sv in now_members if after_first < sv.first and sv.last < before_next]
    if len(between) != 1:
        return None
    found = between[0]
    if found.qualified_name in before.by_name or not kinds_compatible(anchor.symbol_kind, found.kind):
        return None
    if not _alike(anchor, found):
        return None
    return hit_in_symbol(anchor, anchor.file, view, found, 0.55)


def _members(view: FileView, parent: str) -> list[SymbolView]:
    """The scope's direct members in file order."""
    return sorted((sv for sv in view.symbols if sv.parent_name == parent), key=lambda sv: (sv.first, sv.index))


def _kept(old: list[SymbolView], now: list[SymbolView]) -> dict[str, SymbolView]:
    """Members held once by the scope before and once now, by qualified name (their place now)."""
    count_old: dict[str, int] = {}
    for sv in old:
        count_old[sv.qualified_name] = count_old.get(sv.qualified_name, 0) + 1
    by_name: dict[str, list[SymbolView]] = {}
    for sv in now:
        by_name.setdefault(sv.qualified_name, []).append(sv)
    return {name: svs[0] for name, svs in by_name.items() if len(svs) == 1 and count_old.get(name) == 1}


def _alike(anchor: Anchor, found: SymbolView) -> bool:
    if symbol_similarity(anchor, found, blind=True) < SLOT_BODY:
        return False
    old_share, new_share = mapped_shares(anchor.selected_text, found.text)
    if statements(anchor.selected_text) and old_share < SLOT_KEPT:
        return False  # every statement rewritten: a new function where the old one was
    if name_likeness(anchor.symbol_name or "", found.name) >= SLOT_NAME:
        return True
    old_signature = signature(anchor.selected_text, anchor.symbol_name)
    if "(" in old_signature and signature(found.text, found.name) == old_signature:
        return True
    return min(old_share, new_share) >= SLOT_STATEMENTS
