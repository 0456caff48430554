"""Re-anchoring: find a thread's code again after edits, or say it is orphaned.

The cascade, first acceptance wins (each step accepts only a unique best
candidate with a margin over the runner-up):

    unchanged  content hash equal: nothing to do, no parse
    shifted    the file's one edit since the anchor's version (a diff against
               that version's cached view) left the anchored lines and their
               symbol intact: they moved by its line count (method "exact")
    exact      the anchored lines (whitespace-blind) occur in the file; a
               whole-symbol anchor then takes its symbol's current extent; never
               a twin that was already there (rows the change left as they were
               that were not the anchor's: _already), in any step
    symbol     the same qualified symbol; whole-symbol anchors take its new
               range, line anchors are located inside it, or take the whole
               symbol (drifted) when their lines are gone from it; a name
               shared by several symbols (overloads) is decided by the
               signature, else by content, and then yields to a copy elsewhere;
               a namesake rewritten past recognition (a shim left under the name
               of a body that moved) yields to that body, found by the moved and
               successor steps below, when it kept the name or the shim names it
               or orphans the thread when it kept none of the old statements and a
               function new in the scope holds them all (only the name is left)
    renamed    same scope and kind under a new name, identical but for the name
    moved      the symbol identical (or identical but for its name) in another
               workspace file, or a substantial quote found there verbatim
    renamed    ... then by name-blind similarity, or the same name under a
               renamed scope (stricter for small symbols, unless the name is the
               file's only one of it before and after and its type was renamed)
    moved      ... then by fingerprint + similarity (stricter still; not for lines
               gone from a symbol that stayed: only their very text moves those)
    successor  several changes at once (renamed and edited, moved to another
               class or changed file with edits, enclosing type renamed): a
               combined score of body, signature, name and place, over symbols
               that were not there before; a unique best with a wide lead, or
               among copies of one body added at once, the one that kept to the
               old symbol's or file's words where the others brought new ones (_twins)
    renamed    ... a method renamed in place while most of its body left (one new method
               of its scope with its very parameters, its statements mostly old ones); a
               method renamed and rewritten whose every reference took the new name
               (_references), or, its parameters changed too, whose every such row was rewritten
               in place into one reading the same up to the new name (_call_sites: an interface
               method, its implementations and calls); no candidate another gone symbol of its
               file claims (_claimed);
               the one symbol new between the same two neighbours the old one stood between,
               its body, name or statements somewhat alike (_replaced_in_place);
               a method of some size whose statements went nearly all into one function new
               in its file, in another scope (a factory of variants: _mapped_in_file)
    moved      ... a method that left its class with at least two siblings, all arriving new under
               their names in one other class, its body still alike (_group_move); a method whose
               calls in its file stayed as they were, its name now declared once in the changed
               files, new there, its body 0.4 alike (_called_still)
    fuzzy      similar text in the same file (long quotes or matching context;
               never onto a declaration the symbol steps turned down)
    inlined    a method gone whose statements, or for a one-row body whose words and call,
               went into one function that was already there (_statements, _inline_calls)
    renamed    ... a one-statement wrapper gone with the sibling it called, one new function holding
               that sibling's body under a name taken from the wrapper's (_wrapper_merged)
    corroborated  a function gone whose successor several weak signs agree on, its old name
               gone from every changed file and half its parameters declared again: the one
               new function 0.4 alike with the rest far less, its name keeping most old words
               or its statements mostly old ones (moved, renamed, its docstring rewritten), or
               the one function its scope gained for it under a name extending the old one
               (_corroborated)
    enclosing  lines gone from a symbol that stayed (above), or a local typedef or
               constant gone from a function that stayed: the whole function, drifted
    orphaned   nothing convincing: the thread keeps its last anchor

Exact evidence is tried everywhere before similarity is tried anywhere.
Health follows the contract: `anchored` when the anchored text equals the text
the thread was written on (trailing spaces and line endings aside), `drifted`
when found but changed, `orphaned` when gone.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from threading import Lock

import msgspec

from limpet.anchoring._already import Preexisting
from limpet.anchoring._anchor import relocated
from limpet.anchoring._body_follows import body_left_namesake, body_went_elsewhere
from limpet.anchoring._call_sites import renamed_at_call_sites_step
from limpet.anchoring._called_still import called_still_step
from limpet.anchoring._carry import carried
from limpet.anchoring._corroborated import corroborated_step
from limpet.anchoring._fileview import FileView, file_view
from limpet.anchoring._group_move import group_move_step
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._inline_calls import inlined_call_step
from limpet.anchoring._mapped_in_file import mapped_in_file_step
from limpet.anchoring._references import renamed_by_references_step
from limpet.anchoring._replaced_in_place import replaced_in_place_step
from limpet.anchoring._statements import (
    extracted_step,
    inlined_step,
    named_move_step,
    renamed_mapped_step,
    renamed_remainder_step,
)
from limpet.anchoring._steps_local import (
    LINES_GONE_CONFIDENCE,
    Hit,
    exact_step,
    follow_symbol_extent,
    fuzzy_step,
    parent_of,
    renamed_step,
    shifted_step,
    symbol_step,
)
from limpet.anchoring._steps_moved import moved_step
from limpet.anchoring._steps_successor import successor_step
from limpet.anchoring._symbols import FUNCTION_KINDS
from limpet.anchoring._text import holds_word
from limpet.anchoring._wrapper_merged import wrapper_merged_step
from limpet.model import Anchor, content_hash

__all__ = ["METHODS", "Relocation", "find", "reanchor", "source_hash"]

METHODS = ("unchanged", "exact", "symbol", "renamed", "moved", "fuzzy", "orphaned")
WEAK_SYMBOL_MATCH = 0.5  # below this, an identical copy elsewhere beats the same name
LOCAL_DECLARATIONS = frozenset({"type", "variable", "constant"})  # a typedef or constant in a body


class Relocation(msgspec.Struct, frozen=True, gc=False):  # built once per re-anchored thread
    anchor: Anchor  # where the thread points now (the old anchor when orphaned)
    health: str  # anchored | drifted | orphaned
    method: str  # one of METHODS
    confidence: float  # 0..1


def reanchor(anchor: Anchor, source: bytes | None, index: WorkspaceIndex | None = None) -> Relocation:
    """Where is the anchor's code in `source` (the current bytes of anchor.file; None if gone)?"""
    if source is not None:
        digest = source_hash(source)
        if digest == anchor.content_hash:
            return Relocation(anchor, _health(anchor, anchor.text_hash), "unchanged", 1.0)
        # pushed by an edit elsewhere in its file: what the cascade would find
        moved = carried(anchor, file_view(anchor.file, source, digest, previous=anchor.content_hash))
        if moved is not None:
            return Relocation(moved, _health(moved, moved.text_hash), "exact", 1.0)
    hit = find(anchor, source, index)
    if hit is None:
        return Relocation(anchor, "orphaned", "orphaned", 0.0)
    new = relocated(anchor, hit.file, hit.view, hit.first, hit.last)
    lost = "" if hit.lines_back else anchor.lost_text or (anchor.selected_text if hit.lines_gone else "")
    if lost:  # on the whole symbol until its lines come back: keep them to look for
        new = msgspec.structs.replace(new, lost_text=lost)
    return Relocation(new, _health(new, new.text_hash), hit.method, hit.confidence)


def find(anchor: Anchor, source: bytes | None, index: WorkspaceIndex | None) -> Hit | None:
    """Run the cascade; None means orphaned. Exact evidence is tried before similarity."""
    if source is None:
        return (moved_step(anchor, index, exact_only=True) or moved_step(anchor, index)
                or named_move_step(anchor, index) or successor_step(anchor, None, index, symbol_gone=True)
                or group_move_step(anchor, index)
                or inlined_step(anchor, None, index) or inlined_call_step(anchor, None, index)
                or corroborated_step(anchor, None, index))
    view = file_view(anchor.file, source, source_hash(source), previous=anchor.content_hash)
    if anchor.lost_text:
        hit = exact_step(msgspec.structs.replace(anchor, selected_text=anchor.lost_text), view)
        if hit is not None:
            return msgspec.structs.replace(hit, lines_back=True)
    old = Preexisting(anchor, view, lambda: index.previous_view(anchor.file) if index is not None else None)
    hit = shifted_step(anchor, view) or exact_step(anchor, view, old)
    if hit is not None:
        return follow_symbol_extent(anchor, hit)
    hit, sim, symbol_exists = symbol_step(anchor, view)
    if hit is not None and hit.weak and old.covers(hit.first, hit.last):
        hit = None  # a namesake picked by likeness that the change left as it was: itself
    on_symbol = None  # lines gone from their symbol: the whole symbol, if nothing finds the lines
    if hit is not None and hit.lines_gone:
        on_symbol, hit = hit, None
    if hit is not None:
        if hit.weak and anchor.position == "symbol":  # a namesake declared otherwise: did the code move?
            return (moved_step(anchor, index, exact_only=True) or moved_step(anchor, index)
                    or successor_step(anchor, None, index, symbol_gone=False) or hit)
        elsewhere = body_went_elsewhere(anchor, view, index.previous_view(anchor.file) if index else None, hit, sim)
        if elsewhere is not None:  # the name kept by other code (a chain of renames, a wrapper)
            return elsewhere
        if sim < WEAK_SYMBOL_MATCH and anchor.position == "symbol":
            # a rewritten namesake (a body moved out, a shim left under the name): the code
            # itself, found elsewhere, says more than the name
            moved = _body_elsewhere(anchor, index, hit)
            if moved is not None:
                return moved
            if body_left_namesake(anchor, index.previous_view(anchor.file) if index else None, hit):
                return None  # only the name is left of the old code
        return hit
    before = index.previous_view(anchor.file) if index is not None else None
    steps = (
        lambda: None if symbol_exists else renamed_step(anchor, view, exact_only=True, before=before),
        lambda: moved_step(anchor, index, exact_only=True),
        lambda: None if symbol_exists else renamed_step(anchor, view, before=before),
        # lines gone from a symbol that stayed: only their very text elsewhere says they moved
        lambda: None if on_symbol is not None else moved_step(anchor, index),
        lambda: None if symbol_exists else named_move_step(anchor, index),
        lambda: None if symbol_exists else renamed_remainder_step(anchor, view, before),
        lambda: successor_step(anchor, None if symbol_exists else view, index, symbol_gone=not symbol_exists),
        lambda: None if symbol_exists else renamed_by_references_step(anchor, view, index, before),
        lambda: None if symbol_exists else renamed_at_call_sites_step(anchor, view, index, before),
        lambda: None if symbol_exists else renamed_mapped_step(anchor, view, before),
        lambda: None if symbol_exists else replaced_in_place_step(anchor, view, before),
        lambda: None if symbol_exists else mapped_in_file_step(anchor, view, before),
        lambda: None if symbol_exists else group_move_step(anchor, index),
        lambda: None if symbol_exists else called_still_step(anchor, index),
        lambda: fuzzy_step(anchor, view, old),
        lambda: None if symbol_exists else inlined_step(anchor, view, index),
        lambda: None if symbol_exists else inlined_call_step(anchor, view, index),
        lambda: None if symbol_exists else wrapper_merged_step(anchor, view, before),
        lambda: None if symbol_exists else corroborated_step(anchor, view, index),
    )
    for step in steps:
        hit = step()
        if hit is not None:
            return hit
    if on_symbol is not None:  # lines taken out of their symbol into a new function (extract method)
        return extracted_step(anchor, view, index) or on_symbol
    return _in_enclosing_function(anchor, view)


def _body_elsewhere(anchor: Anchor, index: WorkspaceIndex | None, namesake: Hit) -> Hit | None:
    """Where the body of a symbol whose namesake was rewritten past recognition went: its very
    text anywhere, else a similar body that kept the name or that the namesake now refers to
    (its name or its module's: the function moved out, a shim forwarding to it left behind).
    A similar body the namesake does not name is a part taken out while the symbol stayed (a
    method cut down to a call of something else): the namesake keeps the thread."""
    hit = moved_step(anchor, index, exact_only=True)
    if hit is not None:
        return hit
    shim = namesake.view.text(namesake.first, namesake.last)
    for step in (lambda: moved_step(anchor, index), lambda: successor_step(anchor, None, index, symbol_gone=False)):
        hit = step()
        found = hit.view.innermost(hit.first, hit.last) if hit is not None else None
        if found is not None and (found.name == anchor.symbol_name or holds_word(shim, found.name)
                                  or holds_word(shim, PurePosixPath(hit.file).stem)):
            return hit
    return None


def _in_enclosing_function(anchor: Anchor, view: FileView) -> Hit | None:
    """A local declaration (a typedef, a constant inside a function body) that is gone while its
    function stays: its rows were lines of that function, so the thread stays on it (drifted)."""
    if anchor.position != "symbol" or anchor.symbol_kind not in LOCAL_DECLARATIONS or not anchor.symbol_name:
        return None  # (a nested function or class that is gone was code of its own: orphaned)
    parent = parent_of(anchor.symbol, anchor.symbol_name)
    namesakes = view.by_name.get(parent, ()) if parent else ()
    if len(namesakes) != 1 or namesakes[0].kind not in FUNCTION_KINDS:
        return None  # (no enclosing function, or overloads: which one held it is not known)
    owner = namesakes[0]
    return Hit(anchor.file, view, owner.first, owner.last, "symbol", LINES_GONE_CONFIDENCE, lines_gone=True)


def _health(anchor: Anchor, current_text_hash: str) -> str:
    origin = anchor.origin_hash or anchor.text_hash
    return "anchored" if current_text_hash == origin else "drifted"


_last_hash: tuple[bytes, str] | None = None
_hash_lock = Lock()


def source_hash(source: bytes) -> str:
    """content_hash, memoized for the same bytes object (a reconcile passes one per file)."""
    global _last_hash
    memo = _last_hash  # one tuple, replaced whole under the lock: read without it
    if memo is not None and memo[0] is source:
        return memo[1]
    digest = content_hash(source)
    with _hash_lock:
        _last_hash = (source, digest)
    return digest
