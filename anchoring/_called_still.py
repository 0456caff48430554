"""Cascade step: a method moved elsewhere while its callers still call it, by its name.

A function gone from its file whose calls there stay as they were (`assertLeak(View::class.java)`,
rows the change did not touch) is still called: the name now resolves to a declaration
somewhere else. When the files changed with it declare that name exactly once, in a symbol
new in this change, that is where the function went, however much its body was reworked on the
way (leakcanary 7c149da7: `FragmentLeakTest.assertLeak` became `TestUtils.assertLeak`, a third of
its statements kept). Its body must still read somewhat alike, and at least CALLS_MIN calls must
have stayed; a name declared twice among the changed files (overloads, two classes) says nothing.
"""

from __future__ import annotations

import re

from limpet.anchoring._claimed import claimed_by_its_file
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._mapping import kinds_compatible, symbol_similarity
from limpet.anchoring._steps_local import Hit, hit_in_symbol
from limpet.anchoring._symbols import FUNCTION_KINDS
from limpet.anchoring._text import is_identifier
from limpet.model import Anchor

__all__ = ["called_still_step"]

CALLS_MIN = 2  # calls of the name, outside its own body, left as they were
CALLED_BODY_MIN = 0.4  # the body still this alike (name-blind)


def called_still_step(anchor: Anchor, index: WorkspaceIndex | None) -> Hit | None:
    if index is None or anchor.position != "symbol" or not anchor.symbol or anchor.symbol_kind not in FUNCTION_KINDS:
        return None
    name = anchor.symbol_name or ""
    if not is_identifier(name) or _calls_kept(anchor, index, name) < CALLS_MIN:
        return None
    declared = []
    for path in index.scope(False, (name.encode(),), family=family_for_path(anchor.file)):
        view = index.view(path)
        if view is None:
            continue
        declared += [(path, view, sv) for sv in view.symbols if sv.name == name]
    if len(declared) != 1:
        return None  # (none, or the name declared twice: which one the calls reach is not told)
    path, view, sv = declared[0]
    if not kinds_compatible(anchor.symbol_kind, sv.kind) or sv.kind not in FUNCTION_KINDS:
        return None
    if index.existed_before(path, sv.qualified_name, (anchor.file, anchor.symbol)):
        return None
    if symbol_similarity(anchor, sv, blind=True) < CALLED_BODY_MIN or claimed_by_its_file(anchor, path, sv, index):
        return None
    return hit_in_symbol(anchor, path, view, sv, 0.5)


def _calls_kept(anchor: Anchor, index: WorkspaceIndex, name: str) -> int:
    """Rows of the anchor's file, outside its symbol, that called it before (its name, then an
    opening parenthesis: not the bare word, as in a string or a prose comment) and are still there."""
    before, now = index.previous_view(anchor.file), index.view(anchor.file)
    if before is None or now is None:
        return 0
    first = (anchor.symbol_start or anchor.line_start) - 1
    last = (anchor.symbol_end or anchor.line_end) - 1
    present, call = now.row_index, re.compile(rf"(?<![\w$]){re.escape(name)}\s*\(")
    return sum(1 for i, row in enumerate(before.rows)
               if not first <= i <= last and name in row and call.search(row) and row in present)
