"""search_comments' regex search: the joined-text fast path finds exactly what searching each
comment on its own with RE2 finds (also when chunks are skipped for lacking a piece every match
must contain), stops at the limit, refuses bad patterns and what RE2 cannot run, and cannot be
made to exhaust memory or time by a pattern."""

from __future__ import annotations

import sys
from types import SimpleNamespace
from unittest import mock

import pytest
import re2
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from limpet.model import InvalidArgument
from limpet.server.core import _search_corpus
from limpet.server.core._search import _context_free, search_threads
from limpet.server.core._search_corpus import corpus_of
from limpet.server.core._search_literals import fold, required_runs, trigrams

PIECES = ["a", "b", "ab", " ", ".", r"\s", r"\w", r"\b", r"\B", "^", "$", "[ab]", "[^a]", "*", "+", "?", "{2}",
          "(", ")", "|", "(?=a)", "(?<!b)", r"\n", r"\x00", "(?s)", "(?m)", r"\1", "(a)",
          "abk", "sib", "KIS", r"\.", "5", r"\d", "{e<=1}", "(?:ab)", "[]a]", r"\x61", "(?i)", "(?x)"]
BODY_CHARS = "abAB \n\x00ksiKSI.5\u017f\u0130\u0131\u212a"


def _small_chunks():
    """Chunks of ~4 threads in blocks of 2, every selection filtered by trigrams: the paths big
    stores take."""
    return mock.patch.multiple(_search_corpus, CHUNK=4, BLOCK=2, FILTER_MIN=0)


def _threads(bodies: list[list[str]]) -> list[SimpleNamespace]:
    return [SimpleNamespace(id=f"c_{i}", comments=[SimpleNamespace(body=b) for b in comments])
            for i, comments in enumerate(bodies)]


def _re2(query: str):
    """RE2 as the search uses it (case-insensitive), through its plain API."""
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False
    return re2.compile(query, options)


def _reference(threads, query: str, limit: int):
    pattern = _re2(query)
    hits = [t for t in threads if any(pattern.search(c.body) for c in t.comments)]
    return hits[:limit], len(hits) > limit


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=6),
       bodies=st.lists(st.lists(st.text(BODY_CHARS, min_size=0, max_size=8), min_size=1, max_size=3),
                       min_size=0, max_size=12),
       limit=st.integers(1, 5), start=st.integers(0, 12), filtered=st.booleans())
def test_fast_path_finds_what_per_comment_search_finds(pieces, bodies, limit, start, filtered):
    query = "".join(pieces)
    try:
        _re2(query)
    except re2.error:
        assume(False)
    threads = tuple(_threads(bodies))
    if filtered:
        with _small_chunks():
            found, more = search_threads(threads, query, limit, start=start)
    else:
        found, more = search_threads(threads, query, limit, start=start)
    expected, expected_more = _reference(threads[start:], query, limit)
    assert [t.id for t in found] == [t.id for t in expected] and more == expected_more


def test_context_dependent_patterns_take_the_exact_path():
    assert _context_free(r"rate limit") and _context_free(r"\brate\b") and _context_free("[ab]+c")
    for query in ("^rate", "rate$", r"\Arate", r"(a)\1", "(?<=x)a", "(?!a)b", r"\Gx"):
        assert not _context_free(query), query


ALIKE = {"k": "kK\u212a", "s": "sS\u017f", "i": "iI\u0130\u0131", "a": "aA", "b": "bB"}


@settings(max_examples=1000, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=6), body=st.text(BODY_CHARS, max_size=12),
       rnd=st.randoms(use_true_random=False))
def test_every_match_holds_the_pieces_read_off_its_pattern(pieces, body, rnd):
    query = "".join(pieces)
    try:
        pattern = _re2(query)
    except re2.error:
        assume(False)
    # Also a body made of the pattern's own characters, in other cases and look-alikes, a few
    # dropped: random text seldom matches a pattern with a literal run.
    alike = "".join(rnd.choice(ALIKE.get(c.lower(), c)) for c in query
                    if c not in "\\()[]{}|*+?^$" and rnd.random() > 0.1)
    for text in (body, body + alike + body):
        if pattern.search(text):
            assert all(piece in fold(text) for piece in trigrams(query)), (query, text)


def test_required_runs_are_read_conservatively():
    assert required_runs(r"handler 5\.1\d") == ["handler 5.1"]
    assert required_runs("rate limits? exceeded") == ["rate limit", " exceeded"]
    assert required_runs("time(out)?s{2,3} left") == ["time", " left"]
    assert required_runs("ab[c-e]fg(?:hij)+klm{e<=1}") == ["ab", "fg", "kl"]
    # not understood, so nothing is required: alternation at the top, flags, escapes with arguments
    for query in ("timeout|deadline", "(?x)time out", "(?i)x", r"\x41bc", r"\p{L}abc", "[[:alpha:]]abc", r"\Qa.b\E"):
        assert required_runs(query) == [], query
    assert trigrams("ab.cde") == {"cde"} and trigrams("HANDLER") == {"han", "and", "ndl", "dle", "ler"}


def test_non_ascii_letters_matching_ascii_ones_fold_to_them():
    """Under Unicode case rules a few non-ASCII letters match ASCII ones; fold() must map every
    one of them, or a chunk holding a match could be skipped."""
    everything = "".join(chr(c) for c in range(0x80, sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    for letter in "abcdefghijklmnopqrstuvwxyz":
        alike = _re2(letter).findall(everything)
        assert all(fold(ch) == letter for ch in alike), (letter, alike)


def test_a_changed_selection_rebuilds_only_the_chunks_it_changed():
    threads = _threads([[f"note {i};"] for i in range(200)])
    with _small_chunks():
        assert search_threads(tuple(threads), "note 17;", 10)[0] == [threads[17]]
        before = corpus_of(tuple(threads))
        chunks = {id(before.chunk(k)) for k in range(len(before.spans) - 1)}
        changed = tuple(threads[:100] + threads[101:])
        assert search_threads(changed, "note 1[07];", 10)[0] == [threads[10], threads[17]]
        after = corpus_of(changed)
        rebuilt = [k for k in range(len(after.spans) - 1) if id(after.chunk(k)) not in chunks]
    # The chunk that held thread 100 (none, when it was a chunk of its own: chunks end where ids say)
    assert len(rebuilt) <= 1 and all(after.spans[k] <= 100 <= after.spans[k + 1] for k in rebuilt)


@settings(max_examples=150, deadline=None)
@given(edits=st.lists(st.tuples(st.sampled_from(["drop", "add", "reword", "move"]), st.integers(0, 59),
                                st.sampled_from(["rate limit", "other", "RATE", "limit rate"])), max_size=8),
       query=st.sampled_from(["rate", "rate l", "limit", "e li", "ot.er", "xyz"]))
def test_searches_after_writes_find_what_per_comment_search_finds(edits, query):
    """Each write gives a new selection; the chunks it left alone are reused, the others rebuilt."""
    threads = _threads([["rate limit" if i % 3 else "other"] for i in range(60)])
    with _small_chunks():
        for n, (edit, at, body) in enumerate(edits):
            at = min(at, len(threads) - 1)
            if edit == "drop" and len(threads) > 1:
                threads.pop(at)
            elif edit == "add":
                threads.insert(at, SimpleNamespace(id=f"c_new{n}", comments=[SimpleNamespace(body=body)]))
            elif edit == "reword":
                threads[at] = SimpleNamespace(id=threads[at].id, comments=[SimpleNamespace(body=body)])
            else:  # the same thread, moved (a new object with the same text)
                threads[at] = SimpleNamespace(id=threads[at].id, comments=threads[at].comments)
            selection = tuple(threads)
            assert search_threads(selection, query, 100)[0] == _reference(selection, query, 100)[0]


@settings(max_examples=200, deadline=None)
@given(size=st.integers(0, 120), cut=st.integers(0, 120), dropped=st.integers(0, 5), added=st.integers(0, 5))
def test_a_new_selection_ends_its_chunks_where_a_fresh_one_would(size, cut, dropped, added):
    """The chunk ends a selection inherits from the one before it (its shared start and end)
    are those a fresh computation finds."""
    threads = _threads([[f"note {i}"] for i in range(size)])
    cut = min(cut, size)
    changed = tuple(threads[:cut] + [SimpleNamespace(id=f"c_new{i}", comments=[SimpleNamespace(body="x")])
                                     for i in range(added)] + threads[cut + dropped:])
    with _small_chunks():
        before = _search_corpus.Corpus(tuple(threads), {})
        after = _search_corpus.Corpus(changed, {}, like=before)
        assert after.ends == _search_corpus.Corpus(changed, {}).ends


def test_limit_stops_early_and_reports_more():
    threads = _threads([["rate limit"] if i % 3 else ["other", "RATE"] for i in range(50)])
    with _small_chunks():
        found, more = search_threads(threads, "rate", 10)
        assert [t.id for t in found] == [f"c_{i}" for i in range(10)] and more
        assert search_threads(threads, "rate", 50) == (threads, False)
    assert search_threads(threads, "other", 50) == ([t for i, t in enumerate(threads) if i % 3 == 0], False)


def test_a_later_page_starts_at_its_index_and_reuses_the_joined_text():
    threads = tuple(_threads([["rate limit"] if i % 3 else ["other"] for i in range(50)]))
    with _small_chunks():  # hits across chunk boundaries
        first, more = search_threads(threads, "rate", 10)
        assert more and first[-1].id == "c_14"
        corpus = corpus_of(threads)
        second, more = search_threads(threads, "rate", 10, start=15)
    assert [t.id for t in second] == [f"c_{i}" for i in range(16, 31) if i % 3] and more
    assert corpus_of(threads) is corpus  # the same selection: its joined text is not built again


def test_bad_patterns_are_invalid_arguments_naming_the_query():
    with pytest.raises(InvalidArgument) as bad:
        search_threads([], "(unclosed", 10)
    assert bad.value.field == "query" and "Invalid regular expression" in bad.value.message


@pytest.mark.parametrize("query, why", [
    (r"(a)\1", "Back references are not supported"), ("(?P<x>a)(?P=x)", "Back references are not supported"),
    ("a(?=b)", "Lookarounds are not supported"), ("a(?!b)", "Lookarounds are not supported"),
    ("(?<=a)b", "Lookarounds are not supported"), ("(?<!a)b", "Lookarounds are not supported"),
    ("a{10000000}", "over 1000"), ("(?:(?:(?:a{999}){999}){999})", "over 1000"), ("a{1001}", "over 1000"),
    ("(?:a{1000}b{1000}c{1000}d{1000}){1000}", "over 1000"),
])
def test_what_re2_cannot_run_is_an_invalid_argument_saying_why(query, why):
    with pytest.raises(InvalidArgument) as refused:
        search_threads(_threads([["a" * 20 + "b"]]), query, 10)
    assert refused.value.field == "query" and why in refused.value.message
    assert refused.value.details["query"] == query


def test_a_catastrophic_pattern_is_linear_on_re2():
    threads = _threads([["x" * 5000 + "!"]] * 3)
    assert search_threads(threads, "(x+x+)+y", 10) == ([], False)
    assert search_threads(threads, "(x+x+)+!", 10) == (threads, False)


def test_the_issue_s_patterns_run_under_a_memory_limit(tmp_path):
    """a{10000000} took 2.7 GB, a{4294967294} over 18 GB, (?:(?:(?:a{999}){999}){999}) 24 GB to
    compile: under a 1 GB address-space limit each is refused, or runs (RE2 reads a count it
    cannot represent as literal text), and a counted repetition within RE2's limit runs."""
    import subprocess

    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "from types import SimpleNamespace as NS\n"
        "from limpet.model import InvalidArgument\n"
        "from limpet.server.core._search import search_threads\n"
        "threads = [NS(id=f'c_{i}', comments=[NS(body='a' * 3000 + ' a{4294967294}')]) for i in range(50)]\n"
        "for q in sys.argv[1:]:\n"
        "    try:\n"
        "        print(q, len(search_threads(threads, q, 100)[0]))\n"
        "    except InvalidArgument as exc:\n"
        "        print(q, exc.field)\n"
    )
    queries = ["a{10000000}", "a{4294967294}", "(?:(?:(?:a{999}){999}){999})", "(?:a{1000}){1}"]
    out = subprocess.run([sys.executable, "-c", script, *queries], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines() == ["a{10000000} query", "a{4294967294} 50", "(?:(?:(?:a{999}){999}){999}) query",
                                       "(?:a{1000}){1} 50"]


def test_a_pattern_over_the_memory_cap_is_refused_naming_the_query():
    from limpet.server.core._search import MAX_PATTERN_MEMORY

    query = "(?:[\\pL\\pN]{1000}){1}" * 40  # Unicode classes, repeated: a program over the cap
    with pytest.raises(InvalidArgument) as refused:
        search_threads(_threads([["x"]]), query, 10)
    assert refused.value.field == "query" and f"{MAX_PATTERN_MEMORY >> 20} MB" in refused.value.message


def test_a_chunk_without_pieces_to_find_is_scanned_whole():
    chunk = _search_corpus.Chunk(tuple(_threads([["a"], ["b"], ["c"]])))
    assert chunk.runs_holding((), 1) == [(1, 3)] and chunk.runs_holding((), 3) == []


def test_folding_keeps_every_character_one_character():
    # Offsets in the folded text are offsets in the text: block maps are cut from one folded chunk.
    assert [hex(c) for c in range(0x110000) if len(fold(chr(c))) != 1] == []
