"""Cascade steps inside the anchor's own file: exact text, same symbol, renamed, fuzzy.

Each step returns a Hit only for a unique best candidate with a margin over
the runner-up; closeness to the old position breaks exact ties, never more.
"""

from __future__ import annotations

import msgspec
from rapidfuzz.distance import Indel

from limpet.anchoring._already import Preexisting
from limpet.anchoring._bounds import settle_window
from limpet.anchoring._fileview import FileView, SymbolView
from limpet.anchoring._fingerprint import blind_similarity, in_name_filter, similarity
from limpet.anchoring._locate import (
    FUZZY_MIN_CHARS,
    SHORT_QUOTE_CHARS,
    context_similarity,
    exact_occurrences,
    fuzzy_windows,
    quote_rows,
    quote_weight,
)
from limpet.anchoring._mapping import kinds_compatible, map_into_symbol, symbol_similarity
from limpet.anchoring._signature import signature
from limpet.anchoring._symbols import FUNCTION_KINDS
from limpet.model import Anchor

MARGIN = 0.1
TWIN_MIN = 0.6  # similarity picking one of several symbols sharing a name
SHORT_QUOTE_CONTEXT = 0.95
BLANK_CONTEXT_MIN = 0.9  # blank lines are placed by their context alone
RENAME_MIN = 0.8  # name-blind similarity for a renamed (and edited) symbol
RENAME_MIN_SMALL = 0.9  # ... when the symbol has few tokens
REPARENT_MIN = 0.8  # same simple name, enclosing scope renamed or changed
SOLE_HEIR_MIN = 0.6  # ... when the name is the file's only one of it, before and after
NAME_ALIKE_MIN = 0.75  # a new name this like the old one (name_likeness) ...
NAMED_RENAME_MIN = 0.45  # ... vouches for a rewritten body this alike
SMALL_SYMBOL_TOKENS = 40
FUZZY_MIN = 0.75
FUZZY_MIN_SYMBOL = 0.8
FUZZY_MIN_WITH_CONTEXT = 0.6
LINES_GONE_CONFIDENCE = 0.5
REUSED_MIN, REUSED_LEAD = 0.75, 0.3  # a name kept by the anchor's body, not its own old one


class Hit(msgspec.Struct, frozen=True):
    file: str
    view: FileView
    first: int
    last: int
    method: str
    confidence: float
    weak: bool = False  # picked by likeness among namesakes: other evidence may overrule it
    lines_gone: bool = False  # a lines anchor put on its whole symbol: its lines are gone from it
    lines_back: bool = False  # the lines a thread had lost were found again


def hit_in_symbol(anchor: Anchor, path: str, view: FileView, sv: SymbolView, confidence: float) -> Hit | None:
    """The anchor's rows mapped into the symbol that continues it (`sv` of `path`): renamed
    in its own file, moved elsewhere; None when its rows have no place there."""
    rows = map_into_symbol(anchor, view, sv)
    if rows is None:
        return None
    return Hit(path, view, rows[0], rows[1], "moved" if path != anchor.file else "renamed", confidence)


def shifted_step(anchor: Anchor, view: FileView) -> Hit | None:
    """The file changed in one region clear of the anchored lines and their symbol, since the
    version the anchor was made on (a diff, not a search): they moved by the edit's line count."""
    first, last = anchor.line_start - 1, anchor.line_end - 1
    lo, hi = first, last
    if anchor.symbol_start is not None and anchor.symbol_end is not None:
        lo, hi = min(lo, anchor.symbol_start - 1), max(hi, anchor.symbol_end - 1)
    rows = view.shifted_rows(anchor.content_hash, lo, hi)
    if rows is None:
        return None
    first, last = first + rows[0] - lo, last + rows[0] - lo
    if not 0 <= first <= last < view.line_count or not view.has_text(first, last, anchor.selected_text):
        return None
    return Hit(anchor.file, view, first, last, "exact", 1.0)


def exact_step(anchor: Anchor, view: FileView, old: Preexisting | None = None) -> Hit | None:
    """The anchored rows verbatim (whitespace-blind), never a twin of them that was already
    there (`old`): when the anchor's version held them twice, a copy the change left alone is
    the other one's, not where deleted rows went."""
    rows = quote_rows(anchor.selected_text)
    if not any(rows):
        return blank_step(anchor, view, len(rows))
    found = exact_occurrences(view, rows)
    if not found:
        return None
    span = len(rows)
    if old is not None and old.had_twin(rows):
        found = [start for start in found if not old.covers(start, start + span - 1)]
        if not found:
            return None
    weight = quote_weight(rows)
    if len(found) == 1 and weight >= SHORT_QUOTE_CHARS:
        return Hit(anchor.file, view, found[0], found[0] + span - 1, "exact", 1.0)  # nothing to weigh
    scored = []
    for start in found:
        ctx = context_similarity(view, start, start + span - 1, anchor.prefix, anchor.suffix)
        inner = view.innermost(start, start + span - 1) if anchor.symbol else None
        same_symbol = 1.0 if inner is not None and inner.qualified_name == anchor.symbol else 0.0
        scored.append((round(0.5 * ctx + 0.5 * same_symbol, 2), ctx, same_symbol, start))
    # Equal evidence: the occurrence nearest the old position wins (a tie-break only).
    scored.sort(key=lambda t: (-t[0], abs(t[3] - (anchor.line_start - 1)), t[3]))
    best = scored[0]
    if weight < SHORT_QUOTE_CHARS and best[1] < SHORT_QUOTE_CONTEXT and best[2] == 0.0:
        return None  # a short quote alone is weak evidence: its context or symbol must agree
    if len(scored) > 1 and best[0] - scored[1][0] < MARGIN and weight < SHORT_QUOTE_CHARS:
        return None
    confidence = 1.0 if len(scored) == 1 else 0.8 + 0.2 * min(1.0, best[0] - scored[1][0] + 0.5)
    return Hit(anchor.file, view, best[3], best[3] + span - 1, "exact", round(min(confidence, 1.0), 4))


def blank_step(anchor: Anchor, view: FileView, span: int) -> Hit | None:
    """Blank lines carry no text: only their surroundings (context) can place them."""
    if not (anchor.prefix or anchor.suffix):
        return None
    rows = view.rows
    scored = []
    for start in range(0, view.line_count - span + 1):
        if not any(rows[start : start + span]):
            ctx = context_similarity(view, start, start + span - 1, anchor.prefix, anchor.suffix)
            scored.append((round(ctx, 2), -abs(start - (anchor.line_start - 1)), start))
    if not scored:
        return None
    scored.sort(reverse=True)
    best = scored[0]
    if best[0] < BLANK_CONTEXT_MIN:
        return None
    return Hit(anchor.file, view, best[2], best[2] + span - 1, "exact", round(best[0], 4))


def symbol_step(anchor: Anchor, view: FileView) -> tuple[Hit | None, float, bool]:
    """Same qualified name. Returns (hit, similarity, symbol_exists).

    A name held by one symbol before and after is identity enough. When it is
    shared (overloads, Swift labels, a getter and its setter), the signature
    decides: the one namesake declared as the anchor's was. Failing that (the
    signature itself was edited), content picks one: the most similar, above
    TWIN_MIN; equal evidence goes to the nearest; such a pick is `weak` and
    yields to an identical copy elsewhere.

    Lines gone from a symbol that is still there leave the thread on the symbol
    (drifted): it is about that code, not orphaned.
    """
    if not anchor.symbol:
        return None, 0.0, False
    cands = [sv for sv in view.by_name.get(anchor.symbol, ()) if kinds_compatible(anchor.symbol_kind, sv.kind)]
    if not cands:
        return None, 0.0, False
    sim, best, sure = _namesake(anchor, cands)
    if best is None:
        return None, sim, True
    rows = map_into_symbol(anchor, view, best)
    confidence = 0.6 + 0.4 * sim
    if rows is None:
        if anchor.position != "lines" or not sure:
            return None, sim, True
        hit = Hit(anchor.file, view, best.first, best.last, "symbol", LINES_GONE_CONFIDENCE, lines_gone=True)
        return hit, sim, True
    return Hit(anchor.file, view, rows[0], rows[1], "symbol", round(confidence, 4), weak=not sure), sim, True


def _namesake(anchor: Anchor, cands: list[SymbolView]) -> tuple[float, SymbolView | None, bool]:
    """(similarity, the symbol picked or None, picked by identity rather than likeness)."""
    if len(cands) == 1 and anchor.symbol_twins <= 1:
        return symbol_similarity(anchor, cands[0]), cands[0], True
    own = signature(anchor.selected_text, anchor.symbol_name) if anchor.position == "symbol" else ""
    if own:
        same = [sv for sv in cands if signature(sv.text, sv.name) == own]
        if len(same) == 1:  # the one declared as the anchor's was: identity, as a lone name is
            return symbol_similarity(anchor, same[0]), same[0], True
    scored = sorted(((symbol_similarity(anchor, sv), sv) for sv in cands),
                    key=lambda t: (-round(t[0], 2), abs(t[1].first - _old_symbol_row(anchor))))
    sim, best = scored[0]
    if sim < TWIN_MIN:
        return sim, None, False
    return sim, best, not own


def follow_symbol_extent(anchor: Anchor, hit: Hit) -> Hit:
    """An exact hit for a whole-symbol anchor whose symbol grew or shrank around it.

    (Python code appended at the end of a function leaves the old lines intact.)
    The thread is about the symbol, so it takes the symbol's new extent.
    """
    if anchor.position != "symbol" or not anchor.symbol:
        return hit
    for sv in hit.view.by_name.get(anchor.symbol, ()):
        if not (sv.first <= hit.first and hit.last <= sv.last):
            continue
        if sv.norm_hash == anchor.symbol_hash:
            return hit
        rows = map_into_symbol(anchor, hit.view, sv)
        if rows is not None and rows != (hit.first, hit.last):
            return Hit(hit.file, hit.view, rows[0], rows[1], "symbol", hit.confidence)
    return hit


def was_sibling(anchor: Anchor, sv: SymbolView, before: FileView | None) -> bool:
    """Was `sv`, of the anchor's scope, already there beside the anchor's symbol (so it is
    itself, not the anchor's successor)? The file's previous version says exactly when it is
    known (`before`); else the scope's name filter kept in the anchor, which takes a new name
    for an old one about once in 5,000. A name the file held that now holds the anchor's body
    (name_reused) is no sibling: its old code went elsewhere and the anchor's took its name."""
    if before is not None:
        return sv.qualified_name in before.by_name and not name_reused(anchor, sv, before)
    return in_name_filter(anchor.sibling_names, sv.name)


def name_reused(anchor: Anchor, sv: SymbolView, before: FileView) -> bool:
    """Does `sv`, under a name the file's previous version held, hold the anchor's body rather
    than its own old one (a chain of renames: `f` -> `f_scalar` while `f_joint` -> `f`)? Name-
    blind, the anchor's body by REUSED_MIN and by REUSED_LEAD more than the name's old body."""
    olds = before.by_name.get(sv.qualified_name, ())
    if anchor.position != "symbol" or len(olds) != 1:
        return False
    a, b = len(anchor.selected_text), len(sv.text)
    if 2 * min(a, b) < REUSED_MIN * (a + b) or olds[0].norm_hash == sv.norm_hash:
        return False  # (lengths this far apart bound the likeness below REUSED_MIN)
    mine = symbol_similarity(anchor, sv, blind=True)
    return mine >= REUSED_MIN and mine - blind_similarity(olds[0].text, olds[0].name, sv.text, sv.name) >= REUSED_LEAD


def renamed_step(anchor: Anchor, view: FileView, exact_only: bool = False,
                 before: FileView | None = None) -> Hit | None:
    """Renamed in place (same scope and kind), or same name under a renamed scope.

    exact_only: accept only a candidate whose name-blind text is identical; `before`: the
    file's previous version, when known (was_sibling).
    """
    if not anchor.symbol or not anchor.symbol_name:
        return None
    parent = parent_of(anchor.symbol, anchor.symbol_name)
    renamed, reparented = [], []
    for sv in view.symbols:
        if sv.qualified_name == anchor.symbol or not kinds_compatible(anchor.symbol_kind, sv.kind):
            continue
        if sv.name == anchor.symbol_name:
            if before is None or sv.qualified_name not in before.by_name:  # (else it is itself)
                reparented.append(sv)
        elif sv.parent_name == parent and not was_sibling(anchor, sv, before):
            renamed.append(sv)
    small = anchor.symbol_tokens < SMALL_SYMBOL_TOKENS
    blind = [(symbol_similarity(anchor, sv, blind=True), sv) for sv in renamed]
    renamed_best = _best(blind, 1.0 if exact_only else RENAME_MIN_SMALL if small else RENAME_MIN)
    if renamed_best is None and not exact_only:
        renamed_best = _named_alike(anchor, blind)
    threshold = 1.0 if exact_only else RENAME_MIN_SMALL if small else REPARENT_MIN
    if not exact_only and _sole_heir(anchor, parent, reparented, view, before):
        threshold = min(threshold, SOLE_HEIR_MIN)
    reparented_best = _best([(symbol_similarity(anchor, sv), sv) for sv in reparented], threshold)
    if renamed_best and reparented_best:  # both kinds of change fit: only a clear winner will do
        (a, _), (b, _) = renamed_best, reparented_best
        if abs(a - b) < MARGIN:
            return None
        renamed_best, reparented_best = (renamed_best, None) if a > b else (None, reparented_best)
    sim, best = renamed_best or reparented_best or (0.0, None)
    rows = map_into_symbol(anchor, view, best) if best is not None else None
    if rows is None:
        return None
    return Hit(anchor.file, view, rows[0], rows[1], "renamed", round(0.5 + 0.45 * sim, 4))


def _sole_heir(anchor: Anchor, parent: str, reparented: list[SymbolView], view: FileView,
               before: FileView | None) -> bool:
    """The type around the anchor's symbol was renamed: its simple name is held by one symbol
    of the file before and one after, the old type is gone and the new one was not there. The
    name then says as much as it would in place, so likeness only has to rule out a rewrite. (A
    function nested in a renamed function is not such a member: rewritten with its parent.)"""
    if before is None or not parent or len(reparented) != 1 or parent in view.by_name:
        return False
    heir = reparented[0]
    old_scope = before.by_name.get(parent, ())
    if len(old_scope) != 1 or old_scope[0].kind in FUNCTION_KINDS or heir.parent_name in before.by_name:
        return False
    return sum(1 for sv in before.symbols if sv.name == anchor.symbol_name) == 1


def _named_alike(anchor: Anchor, blind: list[tuple[float, SymbolView]]) -> tuple[float, SymbolView] | None:
    """A renamed symbol whose body was rewritten: a new name much like the old one vouches for
    a body less alike (`blind`: each new symbol's name-blind likeness), when body and name
    together put it well ahead of every other new one."""
    scored = sorted(((sim, name_likeness(anchor.symbol_name, sv.name), sv) for sim, sv in blind),
                    key=lambda t: (-(t[0] + t[1]), t[2].first))
    if not scored:
        return None
    sim, alike, best = scored[0]
    if sim < NAMED_RENAME_MIN or alike < NAME_ALIKE_MIN:
        return None
    if not named_lead(sim, alike, [t[:2] for t in scored[1:]]):
        return None
    return sim, best


def named_lead(sim: float, alike: float, others: list[tuple[float, float]]) -> bool:
    """Is a symbol under a new name (body likeness sim, name likeness alike) well ahead of
    the others? By body and name together, and no other body more alike: a likeness of
    names never outweighs a likelier body."""
    return all(s <= sim and (sim + alike - s - a) / 2 >= MARGIN for s, a in others)


def name_likeness(old: str, new: str) -> float:
    return Indel.normalized_similarity(old.lower(), new.lower())


def _best(candidates: list[tuple[float, SymbolView]], threshold: float) -> tuple[float, SymbolView] | None:
    """The most alike of (likeness, symbol) candidates, at least `threshold` and a margin ahead."""
    if not candidates:
        return None
    scored = sorted(candidates, key=lambda t: (-t[0], t[1].first))
    if threshold >= 1.0:  # identical but for the name: only another identical one is a rival
        scored = [t for t in scored if t[0] >= 1.0]
        if len(scored) != 1:
            return None
    sim, best = scored[0]
    if sim < threshold:
        return None
    if len(scored) > 1 and sim - scored[1][0] < MARGIN:
        return None
    return sim, best


def fuzzy_step(anchor: Anchor, view: FileView, old: Preexisting | None = None) -> Hit | None:
    """Fuzzy text in the same file: long quotes, or shorter ones whose context matches; never
    rows the change left as they were that were not the anchor's (`old`: code already there)."""
    rows = quote_rows(anchor.selected_text)
    weight = quote_weight(rows)
    windows = fuzzy_windows(view, anchor.selected_text)
    if not windows:
        return None
    score, first, last = windows[0]
    settled = settle_window(view, anchor.selected_text, first, last, anchor.prefix, anchor.suffix)
    if settled is not None and settled != (first, last):
        # the window a line diff aligned may reach past the code: score the rows it would be
        rescored = similarity(anchor.selected_text, view.text(*settled))
        if rescored > score:
            score, (first, last) = rescored, settled
    ctx = context_similarity(view, first, last, anchor.prefix, anchor.suffix)
    threshold = FUZZY_MIN_SYMBOL if anchor.position == "symbol" else FUZZY_MIN
    if weight < FUZZY_MIN_CHARS or score < threshold:
        if not (ctx >= 0.8 and score >= FUZZY_MIN_WITH_CONTEXT and weight >= SHORT_QUOTE_CHARS):
            return None
    if anchor.position == "symbol" and _is_other_declaration(anchor, view, first, last):
        return None
    rivals = [w for w in windows[1:] if w[2] < first or w[1] > last]
    if rivals and score - rivals[0][0] < MARGIN:
        return None
    if settled is None:
        return None  # an end in doubt: orphaned beats a range off by a few lines
    if old is not None and old.covers(*settled):
        return None  # a twin that was already there
    return Hit(anchor.file, view, settled[0], settled[1], "fuzzy", round(0.4 + 0.5 * score, 4))


def _is_other_declaration(anchor: Anchor, view: FileView, first: int, last: int) -> bool:
    """Does the window coincide with a symbol the symbol steps already turned down?

    Where the parser sees a declaration, symbol evidence is authoritative; fuzzy
    text only stands in for it where there is none (e.g. a file mid-edit that
    no longer parses).
    """
    for sv in view.symbols:
        if abs(sv.first - first) <= 3 and abs(sv.last - last) <= 3:
            return True
    return False


def parent_of(qualified: str, name: str) -> str:
    suffix = "." + name
    return qualified[: -len(suffix)] if qualified.endswith(suffix) else ""


def _old_symbol_row(anchor: Anchor) -> int:
    return (anchor.symbol_start or anchor.line_start) - 1
