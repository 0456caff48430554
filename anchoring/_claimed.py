"""A symbol elsewhere that its own file's old code claims: never where the anchor's code went.

A method gone from one file and a symbol new in another are alike; but that other file also
lost a symbol in the same change (renamed in place, or its file renamed with its type), and the
new symbol is at least as like that one: it is that file's own code, renamed, a twin of the
anchor's that was already there (`PairedTextData.length_tensor_name` gone while
`MonoTextData.length_tensor_name` became `MonoTextData.length_name`, the same one-line body).
Two files deleted and merged into one new file that holds their common method once: each
file's copy went there, whichever of them git would call the new file's origin.
"""

from __future__ import annotations

from limpet.anchoring._fileview import SymbolView
from limpet.anchoring._fingerprint import blind_similarity
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._mapping import kinds_compatible
from limpet.model import Anchor

__all__ = ["claimed_by_its_file"]


def claimed_by_its_file(anchor: Anchor, path: str, sv: SymbolView, index: WorkspaceIndex | None) -> bool:
    """Is `sv`, new in `path` (another file than the anchor's), at least as like (name-blind) a
    symbol `path` held before the change (or the file it continues) and no longer holds?"""
    if index is None or path == anchor.file or anchor.position != "symbol":
        return False
    earlier = index.earlier_view(path)
    now = index.view(path)
    if earlier is None or now is None:
        return False
    origin, before = earlier
    gone = [g for g in before.symbols
            if g.qualified_name not in now.by_name and (origin, g.qualified_name) != (anchor.file, anchor.symbol)
            and kinds_compatible(g.kind, sv.kind)]
    if not gone:
        return False
    mine = blind_similarity(anchor.selected_text, anchor.symbol_name, sv.text, sv.name)
    theirs = max(blind_similarity(g.text, g.name, sv.text, sv.name) for g in gone)
    # as alike: the two were twins. While the anchor's file stays, its code had a place of its own
    # and the new symbol is the twin's; with its file gone too, two files were merged into one
    return theirs > mine or theirs == mine and index.view(anchor.file) is not None
