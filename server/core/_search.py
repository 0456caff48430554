"""Regex search over comment bodies: fast, stopping at the limit, and bounded in time so a
catastrophic pattern cannot hang the server (the `regex` module honours a timeout; `re`
cannot be interrupted).

The fast path searches all bodies joined into one text, one `search` per hit instead of
one per comment (a timeout costs ~2 µs per call; 100,000 calls add up). A hit is verified
against its own comments, so the joined text never invents a match. It is used only for
patterns whose matches cannot depend on what surrounds a body (no anchors, boundaries or
lookarounds); a hit that spans two bodies sends the rest of the search down the slow path.
The joined text is cut into chunks (_search_corpus.py); in a big selection, chunks that lack
a piece of text every match must contain (_search_literals.py) are not scanned at all.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from limpet.model import InvalidArgument, Thread
from limpet.server.core._search_corpus import SEP, Chunk, corpus_of, pieces_to_find

if TYPE_CHECKING:  # imported by the search itself: most commands never search
    import regex

__all__ = ["search_threads", "SEARCH_SECONDS"]

SEARCH_SECONDS = 2.0  # the whole search, all threads together
# Anchors, \K and back references see past a body in the joined text. Word boundaries
# (\b \B \m \M) do not: the separator is made of non-word characters, like a string edge.
_CONTEXT_ESCAPE = re.compile(r"\\[AZzGKg0-9]")


class _Deadline:
    def __init__(self, query: str) -> None:
        self.query = query
        self.at = time.monotonic() + SEARCH_SECONDS

    def left(self) -> float:
        return max(self.at - time.monotonic(), 0.001)

    def expired(self) -> InvalidArgument:
        return InvalidArgument(
            f"The pattern took longer than {SEARCH_SECONDS:g}s to match; simplify it (nested repetition "
            "such as (a+)+ backtracks catastrophically)", field="query",
            details={"query": self.query[:200], "seconds": SEARCH_SECONDS})


@functools.lru_cache(maxsize=256)
def _compile(query: str) -> regex.Pattern[str]:
    import regex

    try:
        return regex.compile(query, regex.IGNORECASE | regex.V0)
    except (regex.error, ValueError, OverflowError) as exc:
        raise InvalidArgument(f"Invalid regular expression: {exc}", field="query",
                              details={"query": query[:200]}) from None


def _context_free(query: str) -> bool:
    """True when a match inside one body is a match in the joined text too: no anchors,
    lookarounds or back references. Lexical and conservative (`\\$` counts as
    an anchor): a false "no" only costs the slow path."""
    if any(ch in query for ch in "^$") or any(s in query for s in ("(?=", "(?!", "(?<", "(?P=", "(?(")):
        return False
    return _CONTEXT_ESCAPE.search(query) is None


def _matches(pattern: regex.Pattern[str], t: Thread, deadline: _Deadline) -> bool:
    try:
        return any(pattern.search(c.body, timeout=deadline.left()) for c in t.comments)
    except TimeoutError:
        raise deadline.expired() from None


def _slow(pattern: regex.Pattern[str], threads: Sequence[Thread], want: int, deadline: _Deadline) -> list[Thread]:
    found: list[Thread] = []
    for t in threads:
        if len(found) >= want:
            break
        if _matches(pattern, t, deadline):
            found.append(t)
    return found


def _fast(pattern: regex.Pattern[str], threads: Sequence[Thread], start: int, want: int,
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


def _scan(pattern: regex.Pattern[str], chunk: Chunk, lo: int, hi: int, want: int, found: list[Thread],
          deadline: _Deadline) -> int | None:
    """Add the hits among the chunk's threads lo..hi-1 to `found`, up to `want` in all; when a
    hit spans two bodies, stop and return the index of the thread it starts in."""
    starts, joined, threads = chunk.starts, chunk.text, chunk.threads
    at, end = starts[lo], starts[hi] - len(SEP)  # the text of threads lo..hi-1, as a string's whole
    while len(found) < want and at <= end:  # past the end: the last thread was a hit
        try:
            hit = pattern.search(joined, at, end, timeout=deadline.left())
        except TimeoutError:
            raise deadline.expired() from None
        if hit is None:
            break
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
    import regex

    pattern = _compile(query)
    deadline = _Deadline(query)
    # Reverse and best-match searches do not return the leftmost hit: exact path only.
    if _context_free(query) and not pattern.flags & (regex.REVERSE | regex.BESTMATCH):
        found = _fast(pattern, threads, start, limit + 1, deadline, query)
    else:
        found = _slow(pattern, threads[start:], limit + 1, deadline)  # one more tells whether there are more
    return found[:limit], len(found) > limit
