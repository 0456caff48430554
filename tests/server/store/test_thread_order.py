"""The store's reading order — by (file, line, id), and the same grouped by file — stays what a
full sort gives, whether threads arrive one by one, in bulk (a store's load), move or leave."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.server.store._loaded import ThreadOrder, position


def _thread(tid: str, file: str, line: int) -> SimpleNamespace:
    return SimpleNamespace(id=tid, anchor=SimpleNamespace(file=file, line_start=line))


_threads = st.lists(st.tuples(st.sampled_from(["a.py", "b/c.py", "b.py", "z.md"]), st.integers(1, 9)),
                    max_size=150).map(lambda rows: [_thread(f"c_{i}", f, n) for i, (f, n) in enumerate(rows)])


def _order(held: dict) -> ThreadOrder:
    return ThreadOrder(lambda: iter(held.values()), held.__getitem__)


def _expected(held: dict) -> tuple[list, dict]:
    ordered = sorted(held.values(), key=position)
    by_file: dict = {}
    for t in ordered:
        by_file.setdefault(t.anchor.file, []).append(t)
    return ordered, by_file


@settings(max_examples=60, deadline=None)
@given(bulk=_threads, later=_threads, read_between=st.booleans())
def test_bulk_and_single_additions_and_moves_keep_the_order_a_full_sort_gives(bulk, later, read_between):
    held: dict = {}
    order = _order(held)
    if read_between:
        order.sorted()
        order.by_file()
    for t in bulk:
        held[t.id] = t
    version = order.version
    order.added(bulk)
    assert order.version > version or not bulk
    assert (order.sorted(), order.by_file()) == _expected(held)
    for i, t in enumerate(later):  # one by one: new threads, and some of the bulk moved
        if i % 3 == 0 and bulk:
            old = bulk[i % len(bulk)]
            new = _thread(old.id, t.anchor.file, t.anchor.line_start)
            held[old.id] = new
            order.changed(old, new)
            bulk[i % len(bulk)] = new
        else:
            t = _thread(f"n_{i}", t.anchor.file, t.anchor.line_start)
            held[t.id] = t
            order.changed(None, t)
    assert (order.sorted(), order.by_file()) == _expected(held)
