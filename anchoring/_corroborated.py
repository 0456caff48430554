"""Cascade step: a function gone, its successor told by several signs that agree.

A function moved to another file and renamed on the way, its docstring rewritten or dropped (the
body is then only about 0.4 alike, below what any step takes alone: the nearest neighbour of a
function deleted outright reads up to 0.5 alike), is still told by what the author carried over
(RefactoringMiner's evidence, weighed together): texar 1a7fa601's `soft_sequence_embedding(
embedding, soft_sequence)` in utils.py -> `soft_embedding_lookup(embedding, soft_ids)` in
embedder_utils.py, its docstring reworded; df3053cb's `get_timing_signal_1d(length, channels,
min_timescale, max_timescale)` -> `SinusoidsPositionEmbedder.get_position_embedding(self, length,
channels)`, its docstring dropped and two parameters turned into fields. One symbol new in this
change, in the anchor's file or one changed with it, of a compatible kind, is taken when

* its text (name-blind) is alike by CORROBORATED_BODY, and every other new candidate is at
  least CORROBORATED_LEAD less alike (one plausible successor, not the best of several);
* it declares at least half of the old parameters as they were declared (name and type; a
  default value aside; `self`, `cls`, `this` are no evidence), the old function having any;
* and either its name keeps at least half of the old name's words (`soft`, `embedding`), or
  most of its own statements (CORROBORATED_OWN, at least CORROBORATED_ROWS of them) are old ones
  (names and literals replaced: the code moved, the commentary around it did not);
* and no other symbol its file or the anchor's file lost is as like it (that one's successor).

In its own file, where the body may say nothing more (ffmpeg-python 6887ad8b: `filter_multi(
parent_nodes, filter_name, *args, **kwargs)` -> `filter_multi_output(stream_spec, filter_name,
*args, **kwargs)`, rewritten, 0.21 alike), the declaration and the place tell it: the change
removed only the anchor's function from its scope and added exactly one, whose name extends the
old one (every old word kept, a word added) and which declares as many parameters, most of them
as they were (`save_settings(path, data)` writing JSON -> `save_settings_backup(path)` copying a
file declares one of two: a function deleted and another added).

Code that was already there is never the successor; a symbol whose body, parameters and name
were all replaced stays orphaned: a safe orphan beats a wrong place.
"""

from __future__ import annotations

import re

from limpet.anchoring._fileview import FileView, SymbolView
from limpet.anchoring._fingerprint import blind_similarity
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._mapping import compared_in_full, kinds_compatible, map_into_symbol
from limpet.anchoring._signature import signature
from limpet.anchoring._statements import mapped_shares, statements
from limpet.anchoring._steps_local import Hit, hit_in_symbol, parent_of
from limpet.anchoring._steps_successor import candidates
from limpet.anchoring._symbols import FUNCTION_KINDS
from limpet.anchoring._text import holds_word
from limpet.model import Anchor

__all__ = ["corroborated_step", "name_words", "parameters"]

CORROBORATED_BODY = 0.4  # name-blind likeness of the successor
CORROBORATED_LEAD = 0.25  # ... every other new candidate this much less alike
CORROBORATED_OWN = 0.75  # ... or this share of its own statements old ones
CORROBORATED_ROWS = 4  # ... of at least this many
_RECEIVERS = frozenset({"self", "cls", "this", "mut", "&"})  # (Rust's `&mut self` too)
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def corroborated_step(anchor: Anchor, view: FileView | None, index: WorkspaceIndex | None) -> Hit | None:
    """`view`: the anchor's file (None when it is gone); the anchor's symbol is gone from it."""
    if index is None or anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name \
            or anchor.symbol_kind not in FUNCTION_KINDS or not compared_in_full(anchor):
        return None
    old_parameters = parameters(signature(anchor.selected_text, anchor.symbol_name))
    if not old_parameters or not _name_gone(anchor, index):
        return None
    if view is not None:
        swapped = _swapped_in_scope(anchor, view, index.previous_view(anchor.file))
        if swapped is not None and name_words(anchor.symbol_name) < name_words(swapped.name) \
                and _parameters_kept(old_parameters, swapped, most=True):
            return hit_in_symbol(anchor, anchor.file, view, swapped, 0.5)
    own = (anchor.file, anchor.symbol)
    scored = []
    for path, cand_view, sv in candidates(anchor, view, index):
        if sv.kind not in FUNCTION_KINDS or index.existed_before(path, sv.qualified_name, own):
            continue
        body = blind_similarity(anchor.selected_text, anchor.symbol_name, sv.text, sv.name)
        scored.append((body, path, cand_view, sv))
    if not scored:
        return None
    scored.sort(key=lambda t: (-t[0], t[1], t[3].first))
    body, path, cand_view, best = scored[0]
    if best.name == anchor.symbol_name:
        return None  # (a name kept is no name gone: the steps before weigh it)
    if body < CORROBORATED_BODY or any(body - other[0] < CORROBORATED_LEAD for other in scored[1:]):
        return None
    if not _parameters_kept(old_parameters, best):
        return None
    if not (_name_kept(anchor.symbol_name, best.name) or _own_statements_old(anchor, best)):
        return None
    if _claimed_by_another(anchor, index, {path, anchor.file}, best, body):
        return None
    rows = map_into_symbol(anchor, cand_view, best)
    if rows is None:
        return None
    return Hit(path, cand_view, rows[0], rows[1], "moved" if path != anchor.file else "renamed",
               round(0.4 + 0.5 * body, 4))


def parameters(sig: str) -> list[str]:
    """The parameters a signature declares, each as written (whitespace collapsed) but for its
    default value; receivers and bare markers (`*`, `/`) left out. Empty without a list."""
    start = sig.find("(")
    if start < 0:
        return []
    out, depth, part = [], 0, []
    for ch in sig[start + 1:]:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(part))
            part = []
        else:
            part.append(ch)
    out.append("".join(part))
    found = []
    for p in out:
        declared = " ".join(p.split("=", 1)[0].split())
        if any(c.isalnum() for c in declared) and not set(declared.replace("&", " & ").split()) <= _RECEIVERS:
            found.append(declared)
    return found


def _parameters_kept(old: list[str], sv: SymbolView, most: bool = False) -> bool:
    """Does `sv` declare at least half of the `old` parameters as they were declared (`most`:
    more than half, and as many parameters as before)?"""
    new = parameters(signature(sv.text, sv.name))
    kept = sum(1 for p in old if p in set(new))
    return 2 * kept > len(old) and len(new) == len(old) if most else 2 * kept >= len(old)


def _swapped_in_scope(anchor: Anchor, view: FileView, before: FileView | None) -> SymbolView | None:
    """The one function new in the anchor's scope when the change removed only the anchor's
    symbol from it (of the kinds it could have become): a one-for-one swap, wherever it stands."""
    if before is None:
        return None
    parent = parent_of(anchor.symbol or "", anchor.symbol_name or "")

    def members(v: FileView) -> set[str]:
        return {sv.qualified_name for sv in v.symbols
                if sv.parent_name == parent and kinds_compatible(anchor.symbol_kind, sv.kind)}

    was, now = members(before), members(view)
    new = now - was
    if was - now != {anchor.symbol} or len(new) != 1:
        return None
    found = view.by_name.get(next(iter(new)), ())
    return found[0] if len(found) == 1 and found[0].kind in FUNCTION_KINDS else None


def _name_gone(anchor: Anchor, index: WorkspaceIndex) -> bool:
    """Is the old name, as a whole word, gone from every file of the change (of the anchor's
    language family)? A name still written somewhere is still called or declared there."""
    name, family = anchor.symbol_name or "", family_for_path(anchor.file)
    needle = name.encode()
    for path in sorted(index.changed | {anchor.file}):
        if family_for_path(path) != family:
            continue
        now = index.view(path)
        if now is not None and needle in now.source and any(name in row and holds_word(row, name) for row in now.rows):
            return False
    return True


def name_words(name: str) -> set[str]:
    """The words of an identifier (snake_case, camelCase), lower-cased."""
    return {w.lower() for w in _WORD.findall(name)}


def _name_kept(old: str, new: str) -> bool:
    words = name_words(old)
    return bool(words) and 2 * len(words & name_words(new)) > len(words)


def _own_statements_old(anchor: Anchor, sv: SymbolView) -> bool:
    own = statements(sv.text)
    return len(own) >= CORROBORATED_ROWS and mapped_shares(sv.text, anchor.selected_text)[0] >= CORROBORATED_OWN


def _claimed_by_another(anchor: Anchor, index: WorkspaceIndex, paths: set[str], sv: SymbolView, body: float) -> bool:
    """Does another symbol that the change removed from `paths` read as like `sv` as the anchor's?"""
    for path in sorted(paths):
        before, now = index.previous_view(path), index.view(path)
        if before is None:
            continue
        present = now.by_name if now is not None else {}
        for gone in before.symbols:
            if gone.qualified_name in present or (path, gone.qualified_name) == (anchor.file, anchor.symbol) \
                    or not kinds_compatible(anchor.symbol_kind, gone.kind):
                continue
            if blind_similarity(gone.text, gone.name, sv.text, sv.name) >= body:
                return True
    return False
