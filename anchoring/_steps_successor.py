"""Cascade step: the symbol's successor after several changes at once.

Real history mixes changes: a method renamed *and* edited, moved to another class or file with
edits, a member whose enclosing type was renamed. When the single-change steps found nothing,
every symbol that could be the successor is scored by a combined similarity:

    score = BODY * body + SIGNATURE * signature + NAME * name + PLACE * place

* body: text similarity with the symbol's own name and its enclosing type's name blinded on both
  sides (a rename of either costs nothing);
* signature: likeness of what the declaration says after the name (parameters, labels, types);
* name: likeness of the simple names (a rename usually keeps part of the old one);
* place: nearness to the old position, in the anchor's own file only.

Candidates are the anchor's own file's symbols of a compatible kind and the most alike symbols of
the files changed with it, but never one that was already there before the change (a sibling the
anchor had when it was written, a name the file's previous version held): that one is itself.

A candidate is accepted only when its body clears a floor and, below BODY_ALONE, most of the old
symbol's telling rows survive in it verbatim (otherwise the code was rewritten, and a thread about
the old code is better orphaned), and when its score leads every other candidate by MARGIN: a
safe orphan beats a wrong place. Two exceptions, each with more evidence than the lead:
a rival is no rival when another symbol that disappeared in the same change claims it, being far
more like it (two near-twins renamed together: each goes to its own), or, standing in another
scope, a symbol gone from that scope likes it as much (a tie goes to its own class), provided
the successor itself is claimed by no one more than by the anchor's symbol; close rivals left that
are near-verbatim copies of the best (one body added twice at once) yield to the one copy whose
own words are the old symbol's or its file's where the others brought new ones (_twins; copies
of one standing stay orphaned); and a candidate that leads every
rival by STRONG_LEAD with a STRONG_SCORE, in the same file and the same enclosing scope (a rename
in place; or a top-level function taken into a table or class of its file under its own name,
Lua's `local function f` -> `function M.f`), needs no rows kept verbatim; so does such a candidate
alike by LONE_BODY that no other candidate comes within LONE_LEAD of (the one plausible
successor: a renamed function whose every check was reworded) (a rename with every statement rewritten the same way:
`strict_eq(a, b)` → `assert a == b`). A symbol that left its file and reappears under its very
qualified name in a file changed with it (a module split, a renamed file) is that symbol even when
a parameter renamed throughout left no row verbatim, and needs a smaller lead when its body is
clearly alike: the name is evidence the other candidates lack. A candidate keeping the symbol's
simple name needs no rows kept verbatim either, if it leads every rival by STRONG_LEAD: when the
anchor's whole file is gone (renamed, its class renamed with it), or when the symbol, of
SMALL_TOKENS or more, is alike by STRONG_BODY (its class or namespace renamed, or it was taken
into a class, with edits); nor does the successor of a
symbol of SMALL_TOKENS or more that left its file, in a file changed with it, alike by STRONG_BODY
and leading every rival by STRONG_LEAD (moved, renamed and reworked at once: a function taken
into a class of another module with its statements rewritten). Small symbols never follow so:
two-line bodies are alike everywhere.
"""

from __future__ import annotations

from rapidfuzz.distance import Indel

from limpet.anchoring._claimed import claimed_by_its_file
from limpet.anchoring._fileview import FileView, SymbolView
from limpet.anchoring._fingerprint import renamed_similarity, similarity, sketch_similarity
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._mapping import compared_in_full, kinds_compatible, map_into_symbol
from limpet.anchoring._signature import signature
from limpet.anchoring._steps_local import Hit, parent_of, was_sibling
from limpet.anchoring._steps_moved import needles
from limpet.anchoring._text import decode, replace_identifier
from limpet.anchoring._twins import kept_to_old_words, words
from limpet.model import Anchor

BODY, SIGNATURE, NAME, PLACE = 0.6, 0.2, 0.1, 0.1
BODY_MIN = 0.5  # a deleted symbol's nearest neighbour stays below this (the benchmark's truth: < 0.5)
BODY_MIN_SMALL = 0.65  # ... for small symbols, whose similarity says less
SMALL_TOKENS = 40
BODY_ALONE = 0.75  # below this, most telling rows must also survive (else the code was rewritten)
TELLING_ROW_CHARS = 20
MARGIN = 0.15  # the best must lead every other candidate by this much
MARGIN_SAME_NAME = 0.1  # ... when the best alone keeps the old name and is alike by BODY_ALONE
CLAIM_MARGIN = 0.05  # a rival is another gone symbol's when it scores this much more there
STRONG_SCORE, STRONG_LEAD, STRONG_BODY = 0.7, 0.3, 0.65  # a lead this large needs no rows kept verbatim
LONE_BODY, LONE_LEAD = 0.6, 0.4  # ... nor does a body this alike with no candidate near it
RENAMED_FLOOR, RENAMED_MIN_TOKENS = 0.4, 20  # a body this alike and long may differ by renames alone
RENAMED_ALIKE = 0.9  # ... nor does a body alike by this once identifiers renamed throughout are renamed
PLACE_ROWS = 40  # rows away at which nearness counts for nothing
OWN_CANDIDATES = 24  # own-file symbols scored in full (the nearest by sketch and by place)
OTHER_CANDIDATES = 12  # symbols of other changed files scored in full (the nearest by sketch)
BLIND = "\u2400"


def successor_step(anchor: Anchor, view: FileView | None, index: WorkspaceIndex | None, *,
                   symbol_gone: bool) -> Hit | None:
    """The one symbol, in this file or one changed with it, that clearly continues the anchor's.

    `view` is the anchor's file when its symbols are candidates (None when the file is gone or
    the symbol is still there); `symbol_gone`: the anchor's file no longer holds its symbol."""
    if anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name or not compared_in_full(anchor):
        return None  # (a text too long to compare in full: only its hashes and fingerprint follow it)
    old = _Old.of_anchor(anchor)
    own = (anchor.file, anchor.symbol)
    scored = []
    for path, cand_view, sv in candidates(anchor, view, index):
        body = old.body_similarity(sv)
        if body < old.body_min and not (path == anchor.file and body >= RENAMED_FLOOR
                                        and old.tokens >= RENAMED_MIN_TOKENS
                                        and old.renamed_similarity(sv) >= 1.0):
            continue  # (a body that differs by renames alone, in the same file, is no rewrite)
        if index is not None and index.existed_before(path, sv.qualified_name, own):
            continue  # (asked last: the previous version's symbols may cost a parse)
        scored.append((_score(old, body, path, sv), body, path, cand_view, sv))
    if not scored:
        return None
    scored.sort(key=lambda t: (-t[0], t[2], t[4].first))
    score, body, path, cand_view, best = scored[0]
    same_name = symbol_gone and best.qualified_name == anchor.symbol
    rivals = [other for other in scored[1:]  # every alike candidate is a rival, accepted or not
              if not (other[2] == path and _encloses(other[4], best))]  # an enclosing symbol shares its text
    named = best.name == anchor.symbol_name and body >= BODY_ALONE
    close = [other for other in rivals
             if score - other[0] < (MARGIN_SAME_NAME if named and other[4].name != best.name else MARGIN)]
    if close:
        gone = _gone_symbols(anchor, index, {path} | {other[2] for other in close})
        if gone and _claims(gone, best, path) > score:
            return None  # the successor fits another gone symbol better: not clearly the anchor's
        unclaimed = [other for other in close if not gone or not _claimed(anchor, gone, other)]
        if unclaimed:  # copies of one body, added at once: the one that kept to the old words
            twins = [scored[0], *unclaimed]
            chosen = _kept_to_old_words(anchor, index, twins)
            if chosen is None:
                return None
            score, body, path, cand_view, best = chosen
            same_name = symbol_gone and best.qualified_name == anchor.symbol
            close = close + [scored[0]]
        rivals = [other for other in rivals if other not in close and other[4] is not best]
    old_parent = parent_of(anchor.symbol, anchor.symbol_name)
    # in place: the same scope, or a top-level function taken into a table or class of its file
    # under its own name (Lua's `local function f` -> `function M.f`)
    in_place = best.parent_name == old_parent or not old_parent and best.name == anchor.symbol_name
    lead = min((score - other[0] for other in rivals), default=1.0)  # over every rival left
    strong = (path == anchor.file and in_place
              and (score >= STRONG_SCORE and body >= STRONG_BODY and lead >= STRONG_LEAD
                   or body >= LONE_BODY and lead >= LONE_LEAD))
    # the file renamed with its class, or the class renamed (or the function taken into a
    # class) in its file, the body clearly alike: the simple name is kept, the qualified one is not
    named_lead = (symbol_gone and best.name == anchor.symbol_name and lead >= STRONG_LEAD
                  and (view is None or body >= STRONG_BODY and old.tokens >= SMALL_TOKENS))
    # moved and reworked: a symbol of some size gone from its file, one alike successor elsewhere
    moved_lead = (symbol_gone and path != anchor.file and old.tokens >= SMALL_TOKENS
                  and body >= STRONG_BODY and lead >= STRONG_LEAD)
    if body < BODY_ALONE and not (same_name or strong or named_lead or moved_lead) \
            and not old.most_rows_kept(best) and not _renamed_through(old, best, lead):
        return None  # rewritten: the old code's telling rows are gone
    if claimed_by_its_file(anchor, path, best, index):
        return None  # its own file's old code, renamed: a twin that was already there
    rows = map_into_symbol(anchor, cand_view, best)
    if rows is None:
        return None
    method = "renamed" if path == anchor.file else "moved"
    return Hit(path, cand_view, rows[0], rows[1], method, round(0.4 + 0.5 * score, 4))


def _kept_to_old_words(anchor: Anchor, index: WorkspaceIndex | None, twins: list[tuple]) -> tuple | None:
    """Of candidates (score, body, path, view, symbol) that are near-verbatim copies of one another,
    the one whose own words are the old symbol's or its files' before the change (_twins)."""
    file_words = words(anchor.selected_text)
    if index is not None:
        for path in sorted({anchor.file} | {twin[2] for twin in twins}):
            before = index.previous_view(path)
            if before is not None:
                file_words |= words(decode(before.source))
    at = kept_to_old_words([twin[4] for twin in twins], words(anchor.selected_text), file_words)
    return None if at is None else twins[at]


def _renamed_through(old: _Old, best: SymbolView, lead: float) -> bool:
    """Rows changed only by identifiers renamed throughout (a type, an error, a helper renamed
    with the symbol), with a lead (over every rival) no rival comes near."""
    renamed = old.renamed_similarity(best)
    needed = MARGIN if renamed >= 1.0 else STRONG_LEAD  # nothing but consistent renames: the usual lead
    return renamed >= RENAMED_ALIKE and lead >= needed


def _score(old: _Old, body: float, path: str, sv: SymbolView) -> float:
    place = max(0.0, 1.0 - abs(sv.first - old.row) / PLACE_ROWS) if path == old.file else 0.0
    return (BODY * body + SIGNATURE * _likeness(old.signature, signature(sv.text, sv.name))
            + NAME * _likeness(old.name, sv.name) + PLACE * place)


def _gone_symbols(anchor: Anchor, index: WorkspaceIndex | None, paths: set[str]) -> list[_Old]:
    """The symbols of `paths` (and the anchor's file) that the change removed, other than the
    anchor's own, as they were before it (nothing when the index did not see that version)."""
    if index is None:
        return []
    out = []
    for path in sorted(paths | {anchor.file}):
        before, now = index.previous_view(path), index.view(path)
        if before is None:
            continue
        present = now.by_name if now is not None else {}
        out += [_Old.of_symbol(path, sv) for sv in before.symbols
                if sv.qualified_name not in present and sv.qualified_name != anchor.symbol
                and kinds_compatible(anchor.symbol_kind, sv.kind)]
    return out


def _claimed(anchor: Anchor, gone: list[_Old], rival: tuple) -> bool:
    """Is the rival (score, body, path, view, symbol) another gone symbol's: one scoring it
    CLAIM_MARGIN more than the anchor does, or, when the rival stands in another scope than the
    anchor's, one of the rival's own scope scoring it as much (a tie goes to its own class:
    `Mono.text_tensor_name` -> `Mono.text_name` while `Paired.text_tensor_name`, alike word for
    word, is gone from the class that gained `Paired.target_text_name`)."""
    score, _, path, _, sv = rival
    if _claims(gone, sv, path) >= score + CLAIM_MARGIN:
        return True
    scope = sv.parent_name.rsplit(".", 1)[-1] if sv.parent_name else ""
    if path == anchor.file and parent_of(anchor.symbol or "", anchor.symbol_name or "") == sv.parent_name:
        return False  # (the anchor's own scope: no tie to break)
    own = [g for g in gone if g.file == path and g.parent == scope]
    return _claims(own, sv, path) >= score - 1e-9


def _claims(gone: list[_Old], sv: SymbolView, path: str) -> float:
    """The best score `sv` gets as the successor of one of the `gone` symbols (0: none)."""
    return max((_score(g, g.body_similarity(sv), path, sv) for g in gone), default=0.0)


class _Old:
    """A symbol as it was before the change, as the scoring compares it: both sides' names and
    enclosing types' names are blinded in both texts (a rename of either costs nothing, and a
    string that mentions the new name is not held against it)."""

    def __init__(self, file: str, qualified: str, name: str, text: str, tokens: int, row: int) -> None:
        self.file, self.row = file, row
        self.name = name
        parent = parent_of(qualified, name)
        self.parent = parent.rsplit(".", 1)[-1] if parent else ""
        self.source = text
        self.signature = signature(text, name)
        self.tokens = tokens
        self.body_min = BODY_MIN_SMALL if tokens < SMALL_TOKENS else BODY_MIN
        self._texts: dict[tuple[str, ...], tuple[str, set[str]]] = {}
        self._renamed: dict[SymbolView, float] = {}

    @classmethod
    def of_anchor(cls, anchor: Anchor) -> _Old:
        return cls(anchor.file, anchor.symbol or "", anchor.symbol_name or "", anchor.selected_text,
                   anchor.symbol_tokens, (anchor.symbol_start or anchor.line_start) - 1)

    @classmethod
    def of_symbol(cls, file: str, sv: SymbolView) -> _Old:
        return cls(file, sv.qualified_name, sv.name, sv.text, sv.token_count, sv.first)

    def body_similarity(self, sv: SymbolView) -> float:
        old, _ = self._old_text(sv)
        return similarity(old, _blinded(sv.text, self._names(sv)))

    def renamed_similarity(self, sv: SymbolView) -> float:
        """renamed_similarity of the two texts (asked of a candidate twice at most: kept)."""
        if sv not in self._renamed:  # (views compare by identity)
            self._renamed[sv] = renamed_similarity(self.source, sv.text)
        return self._renamed[sv]

    def most_rows_kept(self, sv: SymbolView) -> bool:
        """Do most of the old symbol's telling rows (long ones, names blinded) survive verbatim in `sv`?"""
        _, rows = self._old_text(sv)
        if not rows:
            return False
        kept = {r.strip() for r in _blinded(sv.text, self._names(sv)).split("\n")}
        return 2 * sum(1 for r in rows if r in kept) > len(rows)

    def _names(self, sv: SymbolView) -> tuple[str, ...]:
        parent = sv.parent_name.rsplit(".", 1)[-1] if sv.parent_name else ""
        return tuple(sorted({n for n in (self.name, sv.name, self.parent, parent) if n}, key=lambda n: (-len(n), n)))

    def _old_text(self, sv: SymbolView) -> tuple[str, set[str]]:
        names = self._names(sv)
        if names not in self._texts:
            text = _blinded(self.source, names)
            rows = {r for r in (row.strip() for row in text.split("\n")) if len(r) >= TELLING_ROW_CHARS}
            self._texts[names] = (text, rows)
        return self._texts[names]


def _blinded(text: str, names: tuple[str, ...]) -> str:
    for name in names:  # longest first: a name inside a longer one is not cut out of it
        text = replace_identifier(text, name, BLIND)
    return text


def candidates(anchor: Anchor, view: FileView | None, index: WorkspaceIndex | None):
    """(path, view, symbol) worth scoring in full: own file first, then files changed with it."""
    if view is not None:
        before = index.previous_view(anchor.file) if index is not None else None
        for sv in _own_candidates(anchor, view, before):
            yield anchor.file, view, sv
    if index is None or not anchor.fingerprint:
        return
    paths = [p for p in index.scope(False, needles(anchor), family=family_for_path(anchor.file)) if p != anchor.file]
    if not paths:
        return
    for path, sv, _shared in index.similar_symbols(anchor.sketch, paths, min_shared=2, limit=OTHER_CANDIDATES,
                                                   kind=anchor.symbol_kind):  # compatible kinds only
        yield path, index.view(path), sv


def _own_candidates(anchor: Anchor, view: FileView, before: FileView | None) -> list[SymbolView]:
    parent = parent_of(anchor.symbol or "", anchor.symbol_name or "")
    pool = [sv for sv in view.symbols
            if kinds_compatible(anchor.symbol_kind, sv.kind) and sv.qualified_name != anchor.symbol
            and not (sv.parent_name == parent and was_sibling(anchor, sv, before))]
    if len(pool) <= OWN_CANDIDATES:
        return pool
    old_row = (anchor.symbol_start or anchor.line_start) - 1
    own = anchor.sketch
    by_sketch = sorted(pool, key=lambda sv: (-sketch_similarity(own, sv.sketch), sv.index))
    by_place = sorted(pool, key=lambda sv: (abs(sv.first - old_row), sv.index))
    keep = {sv.index: sv for sv in by_sketch[: OWN_CANDIDATES // 2]}
    for sv in by_place:
        if len(keep) >= OWN_CANDIDATES:
            break
        keep.setdefault(sv.index, sv)
    return sorted(keep.values(), key=lambda sv: sv.index)


def _likeness(a: str, b: str) -> float:
    if a == b:
        return 1.0
    return Indel.normalized_similarity(a.lower(), b.lower())


def _encloses(outer: SymbolView, inner: SymbolView) -> bool:
    return (outer.symbol.start_byte <= inner.symbol.start_byte and inner.symbol.end_byte <= outer.symbol.end_byte
            and outer is not inner)
