"""The index's compact postings hold exactly what a map of sets would."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from limpet.anchoring._postings import Postings

OPS = st.lists(st.tuples(st.booleans(), st.integers(0, 5), st.integers(0, 6)), max_size=80)


@given(OPS, st.lists(st.integers(0, 6), max_size=8))
def test_postings_hold_what_a_map_of_sets_holds(ops, query):
    postings, reference = Postings(), {}
    for adding, key, code in ops:
        if adding and code not in reference.get(key, set()):  # the index posts a symbol once a key
            postings.add(key, code)
            reference.setdefault(key, set()).add(code)
        elif not adding:
            postings.discard(key, code)
            reference.get(key, set()).discard(code)
    for key in range(6):
        assert sorted(postings.get(key)) == sorted(reference.get(key, ()))
    assert len(postings) == sum(1 for codes in reference.values() if codes)
    assert postings.count(query) == Counter(c for k in query for c in reference.get(k, ()))
