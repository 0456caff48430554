"""Cascade step: a method that moved with its group (several methods leaving one class together
and arriving, new, in one other class together, under their own names).

One small method's body says little: a two-line setter that delegated to a field
(`dragAndSwipeImpl?.setDragMoveFlags(dragMoveFlags)`) and now sets one (`this._dragMoveFlags =
dragMoveFlags`) is alike, name-blind, to half the setters anywhere. What singles out its place is
its company: the methods gone from its class (its scope in the file's previous version; a
module's top-level functions alike) that reappear under their very names as methods new in one
other class. When at least GROUP_MIN of them did, and they are most of what arrived (a new class
of eight that merely shares `__init__`, `__enter__` and `__exit__` with a class deleted is its
own: anyio 4.0.0's `Runner`; names another class of that file held before, but the class a
nested builder builds, are no company either), each is taken to have gone there, provided its own body still reads alike (name-blind
likeness, or its statements mapped with names and literals replaced: _statements) - a method
gone whose body was rewritten past that is orphaned as any other.

Never code that was already there (a method of that name the class held before), never a class
holding the name twice (overloads: no one place), and exactly one such class.
"""

from __future__ import annotations

from collections.abc import Iterable

from limpet.anchoring._claimed import claimed_by_its_file
from limpet.anchoring._fileview import FileView, SymbolView
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._mapping import kinds_compatible, symbol_similarity
from limpet.anchoring._statements import mapped_shares
from limpet.anchoring._steps_local import Hit, hit_in_symbol, parent_of
from limpet.anchoring._symbols import FUNCTION_KINDS
from limpet.model import Anchor

__all__ = ["group_move_step"]

GROUP_MIN = 3  # methods (the anchor's among them) that left one scope and arrived in another
GROUP_SHARE = 0.5  # ... that are this share of what arrived there
GROUP_BODY_MIN = 0.5  # the anchor's own body still this alike (name-blind) ...
GROUP_MAPPED_MIN = 0.5  # ... or this share of its statements mapped both ways


def group_move_step(anchor: Anchor, index: WorkspaceIndex | None) -> Hit | None:
    """The method's one successor in the one scope its departed siblings arrived in, or None."""
    if index is None or anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name:
        return None
    if anchor.symbol_kind not in FUNCTION_KINDS:
        return None
    left = _departed(anchor, index)
    if len(left) < GROUP_MIN:
        return None
    name, own = anchor.symbol_name, (anchor.file, anchor.symbol)
    found = []
    for path in index.scope(False, (name.encode(),), family=family_for_path(anchor.file)):
        view = index.view(path)
        if view is None:
            continue
        for sv in view.symbols:
            if sv.name != name or sv.qualified_name == anchor.symbol or not kinds_compatible(anchor.symbol_kind, sv.kind):
                continue
            if index.existed_before(path, sv.qualified_name, own):
                continue
            arrived = _arrived(index, path, view, sv.parent_name, own)
            together = (left & arrived) - _names_elsewhere_before(index, path, sv.parent_name)
            if len(together) >= GROUP_MIN and len(together) >= GROUP_SHARE * len(arrived):
                found.append((path, view, sv))
    if len(found) != 1:
        return None
    path, view, sv = found[0]
    if len(view.by_name.get(sv.qualified_name, ())) != 1 or not _still_alike(anchor, sv):
        return None
    if claimed_by_its_file(anchor, path, sv, index):
        return None
    return hit_in_symbol(anchor, path, view, sv, 0.6)


def _departed(anchor: Anchor, index: WorkspaceIndex) -> set[str]:
    """Names of the functions of the anchor's scope (its own among them) that the change took out."""
    before = index.previous_view(anchor.file)
    if before is None:
        return set()
    now = index.view(anchor.file)
    parent = parent_of(anchor.symbol or "", anchor.symbol_name or "")
    present = now.by_name if now is not None else {}
    return {sv.name for sv in _functions(before.symbols, parent) if sv.qualified_name not in present}


def _arrived(index: WorkspaceIndex, path: str, view: FileView, parent: str, own: tuple[str, str]) -> set[str]:
    """Names of the functions of scope `parent` in `path` that the change brought in."""
    return {sv.name for sv in _functions(view.symbols, parent)
            if not index.existed_before(path, sv.qualified_name, own)}


def _names_elsewhere_before(index: WorkspaceIndex, path: str, parent: str) -> set[str]:
    """Names of functions other scopes of `path` held before the change: names every class of a
    protocol holds (`__init__`, `__enter__`, `__exit__`) say nothing of where a group went (anyio
    4.0: a deleted context manager's three methods are no company of a new Runner's)."""
    before = index.previous_view(path)
    if before is None:
        return set()
    return {sv.name for sv in before.symbols if sv.kind in FUNCTION_KINDS and sv.parent_name != parent
            and not _encloses(sv.parent_name, parent)}


def _encloses(outer: str, inner: str) -> bool:
    """Is scope `outer` around scope `inner`? A builder nested in the class it builds mirrors that
    class's setters (`DefaultDragAndSwipe.Builder.setDragMoveFlags`): the names are its company."""
    return bool(outer) and inner.startswith(outer + ".")


def _functions(symbols: Iterable[SymbolView], parent: str) -> Iterable[SymbolView]:
    return (sv for sv in symbols if sv.kind in FUNCTION_KINDS and sv.parent_name == parent)


def _still_alike(anchor: Anchor, sv: SymbolView) -> bool:
    if symbol_similarity(anchor, sv, blind=True) >= GROUP_BODY_MIN:
        return True
    return min(mapped_shares(anchor.selected_text, sv.text)) >= GROUP_MAPPED_MIN
