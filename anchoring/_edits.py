"""Two versions of one file: the one region they differ in, and a parse tree told about it.

A new version of a file is compared with the version an anchor was made on, or a cached
view was parsed from: what lies before the edit is the same bytes, what lies after it the
same bytes shifted (`Edit`). The incremental parse, the re-query of symbols (`_symbols.rematch`),
the carried anchors (`_carry`) and the rows with text (`FileView.nonblank_after`) read it.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Edit", "edit_between", "edited_tree"]


class Edit(NamedTuple):
    """The one region that differs between two versions of a file (byte offsets, rows)."""

    start: int
    old_end: int
    new_end: int
    old_end_row: int
    new_end_row: int
    start_row: int = 0


def edit_between(old: bytes, new: bytes) -> Edit:
    """The one region where `old` and `new` differ (common prefix and suffix excluded)."""
    start = _common_prefix(old, new)
    tail = _common_prefix(old[start:][::-1], new[start:][::-1])
    old_end, new_end = len(old) - tail, len(new) - tail
    return Edit(start, old_end, new_end, old.count(b"\n", 0, old_end), new.count(b"\n", 0, new_end),
                new.count(b"\n", 0, start))


def edited_tree(tree, old: bytes, new: bytes, edit: Edit):
    """A copy of `tree` told about the edit (for an incremental parse)."""
    edited = tree.copy()
    edited.edit(start_byte=edit.start, old_end_byte=edit.old_end, new_end_byte=edit.new_end,
                start_point=_point(old, edit.start), old_end_point=_point(old, edit.old_end),
                new_end_point=_point(new, edit.new_end))
    return edited


def _common_prefix(a: bytes, b: bytes) -> int:
    """Length of the common prefix, by bisection over slice comparisons (C speed)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _point(source: bytes, offset: int) -> tuple[int, int]:
    row = source.count(b"\n", 0, offset)
    return row, offset - (source.rfind(b"\n", 0, offset) + 1)
