"""Where might an orphan have gone? Ranked suggestions for a "fix orphans" prompt.

Unlike the cascade, nothing here is accepted automatically: the best few
places by similarity are listed, each with the evidence that produced it.
"""

from __future__ import annotations

from limpet.anchoring._fileview import FileView, SymbolView, file_view
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._locate import fuzzy_windows
from limpet.anchoring._mapping import kinds_compatible, map_into_symbol, symbol_similarity
from limpet.model import Anchor, Record

MIN_SCORE = 0.3  # below this a suggestion is noise


class Candidate(Record):  # its dict form (`to_dict`) is derived, as every record's
    file: str
    line_start: int  # 1-based, inclusive
    line_end: int
    score: float  # 0..1
    method: str  # symbol | renamed | moved | fuzzy


def orphan_candidates(anchor: Anchor, source: bytes | None, index: WorkspaceIndex | None, k: int = 5,
                      ) -> list[Candidate]:
    """The k best places the anchored code may have gone to, best first."""
    found: dict[tuple[str, int, int], Candidate] = {}

    def add(file: str, rows: tuple[int, int] | None, score: float, method: str) -> None:
        if rows is None or score < MIN_SCORE:
            return
        key = (file, rows[0], rows[1])
        if key not in found or found[key].score < score:
            found[key] = Candidate(file, rows[0] + 1, rows[1] + 1, round(score, 4), method)

    if source is not None:
        view = file_view(anchor.file, source)
        for sv in _comparable(anchor, view.symbols):
            method = "symbol" if sv.qualified_name == anchor.symbol else "renamed"
            add(anchor.file, _rows(anchor, view, sv), symbol_similarity(anchor, sv, blind=True), method)
        for score, first, last in fuzzy_windows(view, anchor.selected_text)[:k]:
            add(anchor.file, (first, last), score, "fuzzy")
    if index is not None and anchor.fingerprint:
        paths = [p for p in index.scope(True, family=family_for_path(anchor.file)) if p != anchor.file]
        for path, sv, _shared in index.similar_symbols(anchor.sketch, paths, min_shared=2, limit=3 * k,
                                                       kind=anchor.symbol_kind):  # compatible kinds only
            view = index.view(path)
            add(path, _rows(anchor, view, sv), symbol_similarity(anchor, sv, blind=True), "moved")
    ranked = sorted(found.values(), key=lambda c: (-c.score, c.file, c.line_start, c.line_end))
    return ranked[:k]


def _comparable(anchor: Anchor, symbols: list[SymbolView]) -> list[SymbolView]:
    return [sv for sv in symbols if kinds_compatible(anchor.symbol_kind, sv.kind)] if anchor.symbol else []


def _rows(anchor: Anchor, view: FileView, sv: SymbolView) -> tuple[int, int]:
    """The anchor mapped into the symbol, or the symbol itself when its lines are not there."""
    return map_into_symbol(anchor, view, sv) or (sv.first, sv.last)
