"""The thread follows the body: a symbol whose name stayed while its body went to a new name.

Two shapes keep the old name on other code (issue 37):

* a chain of renames: `random_distribution` became `random_scalar_distribution` while
  `random_joint_distribution` took the name `random_distribution`; the name's new body is
  another's, and the old body is, nearly verbatim, a symbol new in the file;
* the old name as a wrapper: the body moved to a new symbol and the old name was kept as a thin
  forwarder that calls it (`def old(*a): return new(*a)`).

In both the namesake is much less like the old body than one new symbol is: nearly verbatim,
or alike with its statements mapped onto the old ones nearly all (a parameter renamed, a type
replaced) while the namesake is far less alike (a dispatcher took the name). A new symbol here is
one the file's previous version did not hold (was_sibling: code that was already there is never
where the body went). Likeness is name-blind (a rename costs nothing).

A namesake rewritten past recognition that kept none of the old statements, while every one of
them is in a symbol new in its scope, is no evidence at all (a stub `raise NotImplementedError`
under `__init__` became real code while the stub's statement went to new methods): the name alone
is not the code, and the new symbols' common statement tells no one of them; orphaned
(body_left_namesake).
"""

from __future__ import annotations

from limpet.anchoring._fileview import FileView
from limpet.anchoring._mapping import kinds_compatible, symbol_similarity
from limpet.anchoring._statements import mapped_shares, statements
from limpet.anchoring._steps_local import MARGIN, Hit, hit_in_symbol, parent_of
from limpet.anchoring._symbols import FUNCTION_KINDS
from limpet.anchoring._text import holds_word
from limpet.model import Anchor

__all__ = ["BODY_FOLLOWS_BELOW", "body_left_namesake", "body_went_elsewhere"]

BODY_FOLLOWS_BELOW = 0.95  # a namesake this alike or more keeps the thread without asking
NEARLY_VERBATIM = 0.9  # a new symbol this alike (name-blind) is the old body, renamed
CLEAR_LEAD = 0.1  # ... when it is this much more alike than the namesake
WRAPPER_MIN = 0.6  # a body this alike is the old one when the namesake became a thin wrapper calling it
WRAPPER_LEAD = 0.2
WRAPPER_SHARE = 0.5  # a wrapper has at most this share of the old symbol's tokens
MAPPED_BODY, MAPPED_LEAD = 0.8, 0.4  # a body this alike and this far ahead of the namesake ...
MAPPED_SHARE = 0.85  # ... is the old one when their statements map onto each other this much


def body_went_elsewhere(anchor: Anchor, view: FileView, before: FileView | None, namesake: Hit,
                        sim: float) -> Hit | None:
    """The symbol new in the file that holds the anchor's old body while its name holds other
    code (`namesake`, alike by `sim`), or None."""
    if anchor.position != "symbol" or before is None or sim >= BODY_FOLLOWS_BELOW or not anchor.symbol_name:
        return None
    new = [sv for sv in view.symbols
           if sv.qualified_name != anchor.symbol and sv.qualified_name not in before.by_name
           and kinds_compatible(anchor.symbol_kind, sv.kind)]
    if not new:
        return None
    scored = sorted(((symbol_similarity(anchor, sv, blind=True), sv) for sv in new),
                    key=lambda t: (-t[0], t[1].first))
    body, best = scored[0]
    if len(scored) > 1 and body - scored[1][0] < MARGIN:
        return None
    shim = namesake.view.text(namesake.first, namesake.last)
    wrapper = (holds_word(shim, best.name) and anchor.symbol_tokens
               and len(shim.split()) <= WRAPPER_SHARE * max(len(anchor.selected_text.split()), 1))
    if not (body >= NEARLY_VERBATIM and body - sim >= CLEAR_LEAD
            or wrapper and body >= WRAPPER_MIN and body - sim >= WRAPPER_LEAD
            or body >= MAPPED_BODY and body - sim >= MAPPED_LEAD
            and min(mapped_shares(anchor.selected_text, best.text)) >= MAPPED_SHARE):
        return None
    return hit_in_symbol(anchor, anchor.file, view, best, round(0.5 + 0.45 * body, 4))


def body_left_namesake(anchor: Anchor, before: FileView | None, namesake: Hit) -> bool:
    """Did the namesake (rewritten past recognition) keep none of the anchor's old statements
    while a function new in the anchor's scope holds them all? Then the name is all that is left
    of the old code, and it is not the code: the caller orphans the thread."""
    if anchor.position != "symbol" or before is None or not anchor.symbol or not anchor.symbol_name:
        return False
    if not statements(anchor.selected_text):
        return False
    if mapped_shares(anchor.selected_text, namesake.view.text(namesake.first, namesake.last))[0] > 0.0:
        return False
    parent = parent_of(anchor.symbol, anchor.symbol_name)
    return any(sv.kind in FUNCTION_KINDS and sv.parent_name == parent and sv.qualified_name not in before.by_name
               and mapped_shares(anchor.selected_text, sv.text)[0] == 1.0 for sv in namesake.view.symbols)
