"""Compact inverted maps for the workspace index: key -> the symbols posted under it.

A symbol is a code, an int (its file's number << INDEX_BITS | its index in the file's view),
and a key holds one code as a bare int or several in an array of 8-byte integers: about 8
bytes a posting where a set of (path, index) tuples took some 80, and 300 for a key of one
(most hash keys, and sketch values in varied code, are held by one symbol). The index of
20,000 files after an orphan search held 240 MB of postings as sets; the codes, a tenth.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Hashable, Iterable

INDEX_BITS = 24  # symbols a file may post (a larger index is left out: no real file has one)
INDEX_MASK = (1 << INDEX_BITS) - 1


class Postings:
    def __init__(self) -> None:
        self._table: dict[Hashable, int | array] = {}

    def __len__(self) -> int:
        return len(self._table)

    def add(self, key: Hashable, code: int) -> None:
        table = self._table
        held = table.get(key)
        if held is None:
            table[key] = code
        elif type(held) is int:
            table[key] = array("Q", (held, code))
        else:
            held.append(code)

    def discard(self, key: Hashable, code: int) -> None:
        table = self._table
        held = table.get(key)
        if held is None:
            return
        if type(held) is int:
            if held == code:
                del table[key]
            return
        try:
            held.remove(code)
        except ValueError:
            return
        if len(held) == 1:
            table[key] = held[0]

    def get(self, key: Hashable) -> tuple[int, ...] | array:
        held = self._table.get(key)
        if held is None:
            return ()
        return (held,) if type(held) is int else held

    def count(self, keys: Iterable[Hashable]) -> Counter[int]:
        """How many of `keys` each code is posted under."""
        counts: Counter[int] = Counter()
        table = self._table
        for key in keys:
            held = table.get(key)
            if held is None:
                continue
            if type(held) is int:
                counts[held] += 1
            else:
                counts.update(held)
        return counts
