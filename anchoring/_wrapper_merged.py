"""Cascade step: a thin wrapper merged with the function it called, under the wrapper's name.

A one-statement method that forwarded to a sibling (`hydratedInstanceById(id) =
hydrate(instanceDumpRecordById(id))`) is gone, the sibling it called is gone too, and one
function new in their scope holds the sibling's body under a name taken from the wrapper's
(`hydrateInstance`, leakcanary e5a07bd5): the two were merged, and the merged function is where
both threads go (RefactoringMiner reads it as the wrapper renamed, the callee inlined into it).

Each condition is evidence the others lack: the wrapper says nothing of its own (one statement);
its callee's body is, name-blind, MERGED_BODY alike to the new function and MERGED_LEAD ahead of
every other new one (that is where the body went); and the new name is NAME_MIN like the
wrapper's and NAME_LEAD more like it than the callee's (a callee merely renamed keeps nothing of
the wrapper's name: `hydrate` -> `hydrateRecord` leaves `instanceById` orphaned). A callee that
is still there, or two callees that qualify: orphaned. Code that was already there is never the
successor (new_in_scope).
"""

from __future__ import annotations

from limpet.anchoring._fileview import FileView
from limpet.anchoring._fingerprint import blind_similarity
from limpet.anchoring._mapping import compared_in_full
from limpet.anchoring._references import new_in_scope
from limpet.anchoring._statements import body_statements
from limpet.anchoring._steps_local import Hit, hit_in_symbol, name_likeness, parent_of
from limpet.anchoring._symbols import FUNCTION_KINDS
from limpet.anchoring._text import holds_word
from limpet.model import Anchor

__all__ = ["wrapper_merged_step"]

MERGED_BODY, MERGED_LEAD = 0.6, 0.3  # the callee's body in the new function, far ahead of any other
NAME_MIN, NAME_LEAD = 0.7, 0.15  # the new name like the wrapper's, and more than like the callee's


def wrapper_merged_step(anchor: Anchor, view: FileView, before: FileView | None) -> Hit | None:
    if before is None or anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name \
            or anchor.symbol_kind not in FUNCTION_KINDS or not compared_in_full(anchor):
        return None
    body = body_statements(anchor.selected_text)
    if len(body) != 1:
        return None  # (not a thin wrapper: its own code says where it went, or nothing does)
    call = body[0]
    parent = parent_of(anchor.symbol, anchor.symbol_name)
    callees = [sv for sv in before.by_scope.get(parent, ())
               if sv.kind in FUNCTION_KINDS and sv.name != anchor.symbol_name and holds_word(call, sv.name)
               and sv.qualified_name not in view.by_name]
    fresh = [sv for sv in new_in_scope(anchor, view, before) if sv.kind in FUNCTION_KINDS]
    if not callees or not fresh:
        return None
    merged = []
    for callee in callees:
        scored = sorted(((blind_similarity(callee.text, callee.name, sv.text, sv.name), sv) for sv in fresh),
                        key=lambda t: (-t[0], t[1].first))
        alike, best = scored[0]
        if alike < MERGED_BODY or len(scored) > 1 and alike - scored[1][0] < MERGED_LEAD:
            continue
        named = name_likeness(anchor.symbol_name, best.name)
        if named >= NAME_MIN and named - name_likeness(callee.name, best.name) >= NAME_LEAD:
            merged.append(best)
    if len(merged) != 1:
        return None
    return hit_in_symbol(anchor, anchor.file, view, merged[0], 0.5)
