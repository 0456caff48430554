"""search_comments' regex search: the joined-text fast path finds exactly what searching each
comment on its own finds, stops at the limit, and refuses bad or catastrophic patterns."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import regex
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from limpet.model import InvalidArgument
from limpet.server.core import _search
from limpet.server.core._search import _context_free, search_threads

PIECES = ["a", "b", "ab", " ", ".", r"\s", r"\w", r"\b", r"\B", "^", "$", "[ab]", "[^a]", "*", "+", "?", "{2}",
          "(", ")", "|", "(?=a)", "(?<!b)", r"\n", r"\x00", "(?s)", "(?m)", r"\1", "(a)"]


def _threads(bodies: list[list[str]]) -> list[SimpleNamespace]:
    return [SimpleNamespace(id=f"c_{i}", comments=[SimpleNamespace(body=b) for b in comments])
            for i, comments in enumerate(bodies)]


def _reference(threads, query: str, limit: int):
    pattern = regex.compile(query, regex.IGNORECASE | regex.V0)
    hits = [t for t in threads if any(pattern.search(c.body) for c in t.comments)]
    return hits[:limit], len(hits) > limit


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=6),
       bodies=st.lists(st.lists(st.text("abAB \n\x00", min_size=0, max_size=8), min_size=1, max_size=3),
                       min_size=0, max_size=12),
       limit=st.integers(1, 5), start=st.integers(0, 12))
def test_fast_path_finds_what_per_comment_search_finds(pieces, bodies, limit, start):
    query = "".join(pieces)
    try:
        regex.compile(query, regex.IGNORECASE | regex.V0)
    except regex.error:
        assume(False)
    threads = tuple(_threads(bodies))
    found, more = search_threads(threads, query, limit, start=start)
    expected, expected_more = _reference(threads[start:], query, limit)
    assert [t.id for t in found] == [t.id for t in expected] and more == expected_more


def test_context_dependent_patterns_take_the_exact_path():
    assert _context_free(r"rate limit") and _context_free(r"\brate\b") and _context_free("[ab]+c")
    for query in ("^rate", "rate$", r"\Arate", r"(a)\1", "(?<=x)a", "(?!a)b", r"\Gx"):
        assert not _context_free(query), query


def test_limit_stops_early_and_reports_more(monkeypatch):
    monkeypatch.setattr("limpet.server.core._search._CHUNK", 7)  # hits across chunk boundaries
    threads = _threads([["rate limit"] if i % 3 else ["other", "RATE"] for i in range(50)])
    found, more = search_threads(threads, "rate", 10)
    assert [t.id for t in found] == [f"c_{i}" for i in range(10)] and more
    assert search_threads(threads, "rate", 50) == (threads, False)
    assert search_threads(threads, "other", 50) == ([t for i, t in enumerate(threads) if i % 3 == 0], False)


def test_a_later_page_starts_at_its_index_and_reuses_the_joined_text(monkeypatch):
    monkeypatch.setattr("limpet.server.core._search._CHUNK", 7)
    threads = tuple(_threads([["rate limit"] if i % 3 else ["other"] for i in range(50)]))
    first, more = search_threads(threads, "rate", 10)
    assert more and first[-1].id == "c_14"
    corpus = _search._last
    second, more = search_threads(threads, "rate", 10, start=15)
    assert [t.id for t in second] == [f"c_{i}" for i in range(16, 31) if i % 3] and more
    assert _search._last is corpus  # the same selection: its joined text is not built again


def test_bad_and_catastrophic_patterns_are_invalid_arguments():
    with pytest.raises(InvalidArgument) as bad:
        search_threads([], "(unclosed", 10)
    assert bad.value.field == "query"
    threads = _threads([["x" * 5000 + "!"]] * 3)
    with pytest.raises(InvalidArgument, match="longer than"):
        search_threads(threads, "(x+x+)+y", 10)
