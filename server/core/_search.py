"""Regex search over comment bodies: fast, stopping at the limit, and bounded in time and
memory whatever the pattern: patterns run on RE2 (google-re2), which matches in time linear
in the text and compiles within a memory cap (MAX_PATTERN_MEMORY), so neither a short
pattern (`a{10000000}`, nested counted repetitions) nor a catastrophic one (`(x+x+)+y`) can
exhaust the server. What RE2 cannot run (back references, lookarounds, `\\Z`, `(?x)`) is
INVALID_ARGUMENT naming `query`, saying why. Matching is case-insensitive (RE2's Unicode
simple case folding).

The fast path searches all bodies joined into one UTF-8 text, one `search` per hit instead of
one per comment. A hit is verified against its own comments, so the joined text never
invents a match. It is used only for patterns whose matches cannot depend on what surrounds
a body (no anchors); a hit that spans two bodies sends the rest of the search down the slow
path. The joined text is cut into chunks (_search_corpus.py); in a big selection, chunks that
lack a piece of text every match must contain (_search_literals.py) are not scanned at all.
RE2 cannot be interrupted, but a call reads at most a window of text: the time spent
matching is checked between calls.
"""

from __future__ import annotations

import bisect
import functools
import re
import time
from collections.abc import Sequence
from typing import Any

from limpet.model import InvalidArgument, Thread
from limpet.server.core._search_corpus import SEP, Chunk, corpus_of, pieces_to_find, utf8

Pattern = Any  # a compiled RE2 pattern (google-re2 is imported by the search itself: most commands never search)
__all__ = ["search_threads", "SEARCH_SECONDS", "MAX_PATTERN_MEMORY"]

SEARCH_SECONDS = 2.0  # the whole search, all threads together
# RE2's budget for one compiled pattern (its program and its DFA caches); a bigger program is
# refused. Patterns are cached (_PATTERNS of them), so this bounds what they hold together too.
MAX_PATTERN_MEMORY = 8 << 20
_PATTERNS = 32
WINDOW = 16 << 10  # bytes of text one RE2 call reads, at most (whole bodies; a longer body alone)
# Anchors see past a body in the joined text. Word boundaries (\b \B) do not: the separator is
# made of non-word characters, like a string edge.
_CONTEXT_ESCAPE = re.compile(r"\\[AZzGKg0-9]")
_BACK_REFERENCE = re.compile(r"\\[1-9]|\(\?P=")
_LOOKAROUND = re.compile(r"\(\?<?[=!]")


class _Deadline:
    """The time RE2 spends matching in one search, all calls together (building the joined text
    is not the pattern's cost); checked after each call."""

    def __init__(self, query: str) -> None:
        self.query = query
        self.spent = 0.0

    def search(self, pattern: Pattern, text: bytes, at: int = 0, end: int | None = None) -> Any:
        began = time.perf_counter()
        hit = pattern.search(text, at, len(text) if end is None else end)
        self.spent += time.perf_counter() - began
        if self.spent > SEARCH_SECONDS:
            raise InvalidArgument(
                f"The search took longer than {SEARCH_SECONDS:g}s; narrow it (a filter, a longer literal text)",
                field="query", details={"query": self.query[:200], "seconds": SEARCH_SECONDS})
        return hit


@functools.lru_cache(maxsize=_PATTERNS)
def _compile(query: str) -> Pattern:
    import re2

    options = re2.Options()
    options.case_sensitive = False
    options.max_mem = MAX_PATTERN_MEMORY
    options.log_errors = False  # RE2 would print to stderr
    try:
        return re2.compile(query, options)
    except re2.error as exc:
        raise InvalidArgument(_why(query, exc), field="query", details={"query": query[:200]}) from None
    finally:
        re2.purge()  # re2.compile keeps 128 patterns of its own: only this module's _PATTERNS are kept


def _why(query: str, exc: Exception) -> str:
    said = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
    if _BACK_REFERENCE.search(query):
        return f"Back references are not supported: patterns run on RE2, which matches in linear time ({said})"
    if _LOOKAROUND.search(query):
        return f"Lookarounds are not supported: patterns run on RE2, which matches in linear time ({said})"
    if "repetition" in said:
        return f"A counted repetition is over 1000, or repetitions nest past 1000 (RE2's limit): {said}"
    if "too large" in said:
        return f"The pattern is too large: it would need over {MAX_PATTERN_MEMORY >> 20} MB to compile ({said})"
    return f"Invalid regular expression: {said}"


def _context_free(query: str) -> bool:
    """True when a match inside one body is a match in the joined text too: no anchors,
    lookarounds or back references. Lexical and conservative (`\\$` counts as
    an anchor): a false "no" only costs the slow path."""
    if any(ch in query for ch in "^$") or any(s in query for s in ("(?=", "(?!", "(?<", "(?P=", "(?(")):
        return False
    return _CONTEXT_ESCAPE.search(query) is None


def _matches(pattern: Pattern, t: Thread, deadline: _Deadline) -> bool:
    return any(deadline.search(pattern, utf8(c.body)) is not None for c in t.comments)


def _slow(pattern: Pattern, threads: Sequence[Thread], want: int, deadline: _Deadline) -> list[Thread]:
    found: list[Thread] = []
    for t in threads:
        if len(found) >= want:
            break
        if _matches(pattern, t, deadline):
            found.append(t)
    return found


def _fast(pattern: Pattern, threads: Sequence[Thread], start: int, want: int,
          deadline: _Deadline, query: str) -> list[Thread]:
    corpus = corpus_of(threads)
    threads = corpus.threads
    pieces = pieces_to_find(query, len(threads))
    found: list[Thread] = []
    start = min(start, len(threads))
    k0 = corpus.chunk_index(start)
    chunks = corpus.holding(pieces, k0) if pieces else range(k0, len(corpus.spans) - 1)
    for k in chunks:  # an early stop skips the rest
        first = corpus.spans[k]
        chunk = corpus.chunk(k)
        skip = max(start - first, 0)
        runs = chunk.runs_holding(pieces, skip) if pieces else [(skip, len(chunk.threads))]
        for lo, hi in runs:
            spanning = _scan(pattern, chunk, lo, hi, want, found, deadline)
            if spanning is not None:  # a hit spans bodies: be exact from here
                return found + _slow(pattern, threads[first + spanning:], want - len(found), deadline)
            if len(found) >= want:
                return found
    return found


def _scan(pattern: Pattern, chunk: Chunk, lo: int, hi: int, want: int, found: list[Thread],
          deadline: _Deadline) -> int | None:
    """Add the hits among the chunk's threads lo..hi-1 to `found`, up to `want` in all; when a
    hit spans two bodies, stop and return the index of the thread it starts in."""
    starts, joined, threads = chunk.starts, chunk.data, chunk.threads  # UTF-8: offsets in bytes
    at, end = starts[lo], starts[hi] - len(SEP)  # the text of threads lo..hi-1, as a string's whole
    while len(found) < want and at <= end:  # past the end: the last thread was a hit
        # One call reads at most a window of whole bodies, so that the deadline is checked
        # that often: linear, RE2's time per byte still grows with the pattern (its NFA).
        after = max(bisect.bisect_left(starts, at + WINDOW), chunk.thread_at(at) + 1)
        stop = min(starts[after] - len(SEP), end) if after < len(starts) else end
        hit = deadline.search(pattern, joined, at, stop)
        if hit is None:
            if stop >= end:
                break
            at = starts[after]
            continue
        i = chunk.thread_at(hit.start())
        thread = threads[i]
        # Within a lone body, a context-free pattern's hit is a hit in that body alone; one
        # reaching into a separator (after the body, or between a thread's comments) is
        # checked against the thread's own comments.
        inside = len(thread.comments) == 1 and hit.end() <= starts[i + 1] - len(SEP)
        if not inside and not _matches(pattern, thread, deadline):
            return i
        found.append(thread)
        at = starts[i + 1]
    return None


def search_threads(threads: Sequence[Thread], query: str, limit: int, start: int = 0) -> tuple[list[Thread], bool]:
    """(the first `limit` matching threads of threads[start:], in the given order, whether more
    match). Passing the whole selection and a start, rather than a slice, lets the next page
    reuse the joined text of the first."""
    pattern = _compile(query)
    deadline = _Deadline(query)
    if _context_free(query):
        found = _fast(pattern, threads, start, limit + 1, deadline, query)
    else:
        found = _slow(pattern, threads[start:], limit + 1, deadline)  # one more tells whether there are more
    return found[:limit], len(found) > limit
