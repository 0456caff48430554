"""Cascade step: a method of some size that left its scope for a new function of its own file,
told by its statements (RefactoringMiner's statement mapping).

`LogOperations.add_reduce(self, x)` became the module function `set_add_reduce(ops)`, which
defines one `add_reduce` per base and sets the chosen one on the instance: the old statements are
nearly all in the new function (spread over its variants, names replaced), its text only half
alike, its scope and name changed. The step takes the one function new in the anchor's file
that holds MOVED_OLD of the old statements while half of its own are old ones
(MOVED_NEW), leading every other new function by MOVED_LEAD, its text (name-blind) alike by
MOVED_BODY. Functions nested in it hold parts of it (each variant only some of the old
statements) and are no rivals; a function around it is no rival either (it holds it); nor is a
function into which another method gone from the file maps CLAIM_LEAD more (`add` and
`add_inplace`, near twins, became `set_add` and `set_add_inplace`: each is its own one's). Code
that was already there is never the successor (a function its file held before).
"""

from __future__ import annotations

from limpet.anchoring._fileview import FileView
from limpet.anchoring._mapping import kinds_compatible, symbol_similarity
from limpet.anchoring._statements import mapped_shares, statements
from limpet.anchoring._steps_local import Hit, hit_in_symbol
from limpet.anchoring._symbols import FUNCTION_KINDS
from limpet.model import Anchor

__all__ = ["mapped_in_file_step"]

MOVED_MIN_STATEMENTS = 8  # a method this long at least (short bodies map anywhere)
MOVED_OLD, MOVED_NEW = 0.75, 0.45  # old statements in the new function; its own that are old
MOVED_LEAD = 0.3  # ... this much more than in any other new function not nested in or around it
MOVED_BODY = 0.4  # ... and its text this alike
CLAIM_LEAD = 0.1  # a rival is another gone method's when that one's statements map this much more


def mapped_in_file_step(anchor: Anchor, view: FileView, before: FileView | None) -> Hit | None:
    if before is None or anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name:
        return None
    if len(statements(anchor.selected_text)) < MOVED_MIN_STATEMENTS:
        return None
    scored = []
    for sv in view.symbols:
        if sv.kind not in FUNCTION_KINDS or not kinds_compatible(anchor.symbol_kind, sv.kind):
            continue
        if sv.qualified_name in before.by_name:
            continue  # (already there: itself)
        old_share, own_share = mapped_shares(anchor.selected_text, sv.text)
        scored.append((old_share, own_share, sv))
    if not scored:
        return None
    scored.sort(key=lambda t: (-t[0], t[2].first))
    share, own_share, best = scored[0]
    if share < MOVED_OLD or own_share < MOVED_NEW:
        return None
    rivals = [t for t in scored[1:] if not _nested(t[2], best) and not _nested(best, t[2])]
    close = [t for t in rivals if share - t[0] < MOVED_LEAD]
    if close:
        gone = [sv.text for sv in before.symbols if sv.kind in FUNCTION_KINDS and sv.qualified_name != anchor.symbol
                and sv.qualified_name not in view.by_name]
        if any(not _claimed(gone, t[0], t[2].text) for t in close):
            return None
    if symbol_similarity(anchor, best, blind=True) < MOVED_BODY:
        return None
    return hit_in_symbol(anchor, anchor.file, view, best, round(0.4 + 0.5 * share, 4))


def _claimed(gone: list[str], share: float, text: str) -> bool:
    """Does a method gone from the file beside the anchor's map into `text` clearly more than the
    anchor does (by CLAIM_LEAD: two near-twin methods moved out together, each into its own)?"""
    return any(mapped_shares(old, text)[0] >= share + CLAIM_LEAD for old in gone)


def _nested(inner, outer) -> bool:
    return outer.first <= inner.first and inner.last <= outer.last and inner is not outer
