"""Threads placed on unsaved text: where an editor shows them while a file has edits not yet
written.

The editor sends the file's content as it holds it; the engine re-anchors the file's threads
against those bytes as a reconcile would against the saved file. Nothing is persisted: the
store keeps the positions of the saved file, these are derived and disposable (the next
keystroke replaces them), and no history event is recorded for them.
"""

from __future__ import annotations

from limpet.anchoring import content_hash, reanchor
from limpet.model import Thread
from limpet.server.core._reconcile import Reconciler

__all__ = ["placed_on"]


def placed_on(reconciler: Reconciler, rel: str, threads: list[Thread], text: bytes) -> list[Thread]:
    """`threads` (current for the saved `rel`) re-anchored against `text`, ordered by line."""
    digest = content_hash(text)
    if not any(t.anchor.content_hash != digest for t in threads):
        return threads  # the text is the content they were anchored to (usually: the saved file)
    saved = reconciler.hashes.hash_of(rel)
    # Synced only if a thread needs a cross-file search (code cut from the buffer).
    reconciler.index.update_later(reconciler.hashes.workspace_hashes, reconciler.ws.read_or_none)
    placed = []
    for t in threads:
        if t.health == "orphaned" and digest == saved:
            placed.append(t)  # the store already found it gone from exactly this content
            continue
        moved = reanchor(t.anchor, text, reconciler.index)
        if moved.anchor.file != rel:
            continue  # its code is in another file now: that file's editor shows it
        if moved.anchor == t.anchor and moved.health == t.health:
            placed.append(t)
            continue
        placed.append(t.evolve(anchor=moved.anchor, health=moved.health, anchor_method=moved.method,
                               anchor_confidence=moved.confidence))
    placed.sort(key=lambda t: (t.anchor.line_start, t.anchor.line_end, t.id))
    return placed
