"""Cascade step: code moved to another file of the workspace (stricter than in-file steps).

Order: the symbol's normalized hash, then its name-blind hash (moved and
renamed), then the exact anchored lines, then fingerprint similarity. Changed
files are searched first; the rest of the workspace only for exact evidence.

Only files of the anchor's language family whose bytes hold one of the anchor's most
distinctive identifiers are parsed and searched: code that moved keeps them (a
whitespace-blind hash keeps every identifier verbatim, a rename blinds only the name, an
edit keeps most), and a workspace of thousands of files then costs a substring scan, not
thousands of parses. The whole workspace is searched for exact evidence only, so there a
file must hold every identifier an exact copy keeps (copied_needles).
"""

from __future__ import annotations

from functools import lru_cache

from limpet.anchoring._claimed import claimed_by_its_file
from limpet.anchoring._fileview import SymbolView
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._locate import context_similarity, exact_occurrences, quote_rows, quote_weight
from limpet.anchoring._mapping import kinds_compatible, map_into_symbol, symbol_similarity
from limpet.anchoring._steps_local import MARGIN, NAME_ALIKE_MIN, Hit, name_likeness, named_lead
from limpet.anchoring._text import is_identifier, tokens
from limpet.model import Anchor

MOVED_MIN = 0.9  # similarity for an edited symbol found in another file
MOVED_MIN_SAME_NAME = 0.85
NAMED_MOVED_MIN = 0.55  # ... under a new name much like the old one (NAME_ALIKE_MIN)
SKETCH_MIN = 0.7
SKETCH_MIN_SAME_NAME = 0.55
MOVED_MIN_TOKENS = 20  # smaller symbols move only when their text is identical
BLIND_MIN_TOKENS = 20
LINES_MIN_CHARS = 60  # a non-symbol quote found elsewhere must be this substantial
CANDIDATES_CHECKED = 12
NEEDLES = 6  # distinctive identifiers a file must hold one of to be searched
NEEDLE_MIN_CHARS = 4


def moved_step(anchor: Anchor, index: WorkspaceIndex | None, exact_only: bool = False) -> Hit | None:
    """exact_only: identical (or identical but for the name) symbol text, or identical lines."""
    if index is None:
        return None
    held, family = needles(anchor), family_for_path(anchor.file)
    for everywhere in (False, True):
        all_of = copied_needles(anchor) if everywhere else ()
        paths = [p for p in index.scope(everywhere, held, family=family, all_of=all_of) if p != anchor.file]
        if not paths:
            continue
        hit = _by_hash(anchor, index, paths, blind=False)
        if hit is None and anchor.symbol_tokens >= BLIND_MIN_TOKENS:
            hit = _by_hash(anchor, index, paths, blind=True)
        if hit is None and not anchor.symbol_hash:
            hit = _by_lines(anchor, index, paths)
        if hit is None and not everywhere and not exact_only:
            hit = _by_similarity(anchor, index, paths)
        if hit is not None:
            return hit
    return None


def needles(anchor: Anchor) -> tuple[bytes, ...]:
    """The longest identifiers of the anchored text (and the symbol's name), as bytes; none
    when the text has too few to single out files (then every file is searched)."""
    found = set(_long_identifiers(anchor.selected_text))
    if anchor.symbol_name and anchor.symbol_name.isascii():
        found.add(anchor.symbol_name)
    ranked = sorted(found, key=lambda t: (-len(t), t))[:NEEDLES]
    return tuple(t.encode() for t in ranked) if len(ranked) >= 2 else ()


@lru_cache(maxsize=32)
def _long_identifiers(text: str) -> frozenset[str]:
    """The identifiers of a text long enough to single out files. Kept for the next step's
    call: one anchor's text is read by several steps, and a hostile one is megabytes long."""
    return frozenset(t for t in tokens(text) if len(t) >= NEEDLE_MIN_CHARS and t.isascii() and is_identifier(t))


def copied_needles(anchor: Anchor) -> tuple[bytes, ...]:
    """Identifiers any exact copy of the anchored code holds: those of the anchored text's
    inner rows (whole rows of the symbol when the text lies within it; of the quote itself when
    there is no symbol), but the symbol's name, which a name-blind copy may change. The longest
    NEEDLES of them; none when the text reaches past its symbol (its edge rows are then not
    the symbol's)."""
    within = (anchor.symbol_start is not None and anchor.symbol_end is not None
              and anchor.symbol_start <= anchor.line_start and anchor.line_end <= anchor.symbol_end)
    if anchor.symbol_hash and not within:
        return ()
    inner = "\n".join(anchor.selected_text.split("\n")[1:-1])  # edge rows may be partial
    found = set(_long_identifiers(inner))
    found.discard(anchor.symbol_name or "")
    return tuple(t.encode() for t in sorted(found, key=lambda t: (-len(t), t))[:NEEDLES])


def _by_hash(anchor: Anchor, index: WorkspaceIndex, paths: list[str], blind: bool) -> Hit | None:
    digest = anchor.blind_hash if blind else anchor.symbol_hash
    if not digest:
        return None
    own = (anchor.file, anchor.symbol or "")
    # never a copy its file already held (a twin that was already there is itself)
    hits = [(p, sv) for p, sv in index.symbols_with_hash(digest, blind, paths)
            if kinds_compatible(anchor.symbol_kind, sv.kind)
            and not index.existed_before(p, sv.qualified_name, own, sv.norm_hash)]
    if not hits:
        return None
    if len(hits) > 1:
        # Several identical copies: only a name or context that singles one out will do.
        named = [h for h in hits if h[1].name == anchor.symbol_name]
        if len(named) > 1:
            return None  # copied under its name into several places: no one place
        hits = named if len(named) == 1 else _by_context(anchor, index, hits)
        if len(hits) != 1:
            return None
    path, sv = hits[0]
    if claimed_by_its_file(anchor, path, sv, index):
        return None
    view = index.view(path)
    rows = map_into_symbol(anchor, view, sv)
    if rows is None:
        return None
    confidence = 0.85 if blind else 0.95
    return Hit(path, view, rows[0], rows[1], "moved", confidence)


def _by_context(anchor: Anchor, index: WorkspaceIndex, hits):
    scored = sorted(((context_similarity(index.view(p), sv.first, sv.last, anchor.prefix, anchor.suffix), p, sv)
                     for p, sv in hits), key=lambda t: -t[0])
    if scored[0][0] - scored[1][0] >= MARGIN:
        return [(scored[0][1], scored[0][2])]
    return []


def _by_lines(anchor: Anchor, index: WorkspaceIndex, paths: list[str]) -> Hit | None:
    rows = quote_rows(anchor.selected_text)
    if quote_weight(rows) < LINES_MIN_CHARS or sum(1 for r in rows if r) < 2:
        return None
    found = [(p, start) for p in paths for start in exact_occurrences(index.view(p), rows)]
    if len(found) != 1:
        return None
    path, start = found[0]
    return Hit(path, index.view(path), start, start + len(rows) - 1, "moved", 0.9)


def _by_similarity(anchor: Anchor, index: WorkspaceIndex, paths: list[str]) -> Hit | None:
    if not anchor.symbol or anchor.symbol_tokens < MOVED_MIN_TOKENS or not anchor.fingerprint:
        return None
    near = index.similar_symbols(anchor.sketch, paths, limit=CANDIDATES_CHECKED, kind=anchor.symbol_kind)
    scored = []
    for path, sv, _shared in near:  # of compatible kinds only
        sim = symbol_similarity(anchor, sv, blind=True)
        alike = name_likeness(anchor.symbol_name or "", sv.name)
        scored.append((sim - _needed(anchor, sv, alike), sim, alike, path, sv))
    scored.sort(key=lambda t: (-t[0], t[3], t[4].first))
    if not scored or scored[0][0] < 0:
        return None
    _, sim, alike, path, sv = scored[0]
    if len(scored) > 1:  # well ahead of the next: by likeness, or with a new name, by both
        if _named(anchor, sv, alike):
            if not named_lead(sim, alike, [(t[1], t[2]) for t in scored[1:]]):
                return None
        elif sim - scored[1][1] < MARGIN:
            return None
    if claimed_by_its_file(anchor, path, sv, index):
        return None  # its own file's old code, renamed: a twin that was already there
    view = index.view(path)
    rows = map_into_symbol(anchor, view, sv)
    if rows is None:
        return None
    return Hit(path, view, rows[0], rows[1], "moved", round(0.4 + 0.5 * sim, 4))


def _needed(anchor: Anchor, sv: SymbolView, alike: float) -> float:
    """The likeness a symbol elsewhere needs to be the anchor's: less under the same name, or
    under a new one much like it (moved and renamed, as a rename in place, but stricter)."""
    if anchor.position != "symbol":  # a trigram-Jaccard estimate: runs lower than text similarity
        return SKETCH_MIN_SAME_NAME if sv.name == anchor.symbol_name else SKETCH_MIN
    if sv.name == anchor.symbol_name:
        return MOVED_MIN_SAME_NAME
    return NAMED_MOVED_MIN if _named(anchor, sv, alike) else MOVED_MIN


def _named(anchor: Anchor, sv: SymbolView, alike: float) -> bool:
    """A whole symbol found under a new name much like its old one."""
    return anchor.position == "symbol" and sv.name != anchor.symbol_name and alike >= NAME_ALIKE_MIN
