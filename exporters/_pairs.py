"""Review pairs: the code when a thread was made, the code when it was settled (or now), and
what happened in between, as a label.

    fixed               resolved, and the code changed
    wontfix             resolved as won't fix (whatever the code did)
    code_deleted        the code is gone (the thread was orphaned when resolved, or is now)
    changed_while_open  still open, but the code changed under it (not a fix anyone confirmed)
    unchanged           the code is as it was (written only with all_pairs)

"before" and "after" cover the same lines: a thread that drifted out to its whole symbol
pairs its few lines with the window of the symbol most like them, not the whole symbol.
"""

from __future__ import annotations

from typing import Any

from limpet.exporters._excerpt import LineCache, excerpt
from limpet.exporters._types import PAIR_LABELS as LABELS
from limpet.exporters._types import ExportItem, ExportOptions
from limpet.model import Thread

__all__ = ["LABELS", "code_changed", "label_of", "normalized", "pair_code"]


def pair_code(item: ExportItem, options: ExportOptions, cache: LineCache | None) -> tuple[dict, dict, str]:
    """(before, after, label) of a thread."""
    before = _before(item.thread)
    after = _same_lines(before, _after(item, options, cache))
    return before, after, label_of(item.thread, before, after)


def label_of(thread: Thread, before: dict[str, Any], after: dict[str, Any]) -> str:
    if thread.status == "wontfix":
        return "wontfix"
    if after["code"] is None:
        return "code_deleted"
    if normalized(before["code"]) == normalized(after["code"]):
        return "unchanged"
    return "changed_while_open" if thread.status == "open" else "fixed"


def _before(thread: Thread) -> dict[str, Any]:
    snap = thread.snapshots.get("created")
    if snap is not None:
        return _code(snap.text, snap.file, snap.line_start, snap.line_end, snap.at, "snapshot")
    a = thread.anchor  # no snapshot kept: the anchor's text is the best record of that code
    return _code(a.selected_text, a.file, a.line_start, a.line_end, thread.created_at, "anchor")


def _after(item: ExportItem, options: ExportOptions, cache: LineCache | None) -> dict[str, Any]:
    thread = item.thread
    snap = thread.snapshots.get("resolved")
    if snap is not None and thread.status != "open":
        if snap.gone:  # resolved as an orphan: its code was gone by then
            return _code(None, snap.file, snap.line_start, snap.line_end, snap.at, "gone")
        return _code(snap.text, snap.file, snap.line_start, snap.line_end, snap.at, "resolved")
    a = thread.anchor
    ex = excerpt(item, 0, cache)
    if ex.origin == "source":
        return _code(ex.text, a.file, a.line_start, a.line_end, options.exported_at, "current")
    return _code(None, a.file, a.line_start, a.line_end, None, "gone")


def _code(text: str | None, file: str, l1: int, l2: int, at: str | None, origin: str) -> dict[str, Any]:
    return {"code": text, "file": file, "line_start": l1, "line_end": l2, "at": at, "origin": origin}


def _same_lines(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """`after` over the lines `before` covers: a thread that drifted out to its whole symbol
    (before 3 lines, after 40) pairs with the window of the symbol most like those 3 lines."""
    old, new = before["code"], after["code"]
    if old is None or new is None:
        return after
    old_lines, new_lines = old.split("\n"), new.split("\n")
    width = len(old_lines)
    if len(new_lines) <= width + 2:
        return after
    from rapidfuzz.fuzz import ratio

    best = max(range(len(new_lines) - width + 1),
               key=lambda i: (ratio(old, "\n".join(new_lines[i:i + width])), -i))
    start = after["line_start"] + best
    return {**after, "code": "\n".join(new_lines[best:best + width]), "line_start": start,
            "line_end": start + width - 1}


def code_changed(record: dict[str, Any]) -> bool:
    """Did the code change between the pair's two snapshots? (Gone counts as changed.)"""
    before, after = record["before"]["code"], record["after"]["code"]
    return after is None or normalized(before) != normalized(after)


def normalized(code: str | None) -> str:
    # Trailing whitespace and line endings are not a change anyone acted on.
    return "\n".join(line.rstrip() for line in (code or "").splitlines()).strip("\n")
