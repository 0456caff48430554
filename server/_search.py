"""Regex search over comment bodies, bounded in time so a catastrophic pattern cannot hang
the server (the `regex` module honours a timeout; `re` cannot be interrupted)."""

from __future__ import annotations

import time
from collections.abc import Iterable

import regex

from limpet.anchoring import InvalidArgument, Thread

__all__ = ["search_threads", "SEARCH_SECONDS"]

SEARCH_SECONDS = 2.0  # the whole search, all threads together


def _compile(query: str) -> regex.Pattern[str]:
    try:
        return regex.compile(query, regex.IGNORECASE | regex.V0)
    except (regex.error, ValueError, OverflowError) as exc:
        raise InvalidArgument(f"Invalid regular expression: {exc}", field="query",
                              details={"query": query[:200]}) from None


def search_threads(threads: Iterable[Thread], query: str, limit: int) -> tuple[list[Thread], int]:
    """(the first `limit` matching threads, how many match in all)."""
    pattern = _compile(query)
    deadline = time.monotonic() + SEARCH_SECONDS
    found: list[Thread] = []
    total = 0
    for t in threads:
        for c in t.comments:
            left = deadline - time.monotonic()
            try:
                hit = pattern.search(c.body, timeout=max(left, 0.001))
            except TimeoutError:
                raise InvalidArgument(
                    f"The pattern took longer than {SEARCH_SECONDS:g}s to match; simplify it (nested "
                    "repetition such as (a+)+ backtracks catastrophically)", field="query",
                    details={"query": query[:200], "seconds": SEARCH_SECONDS}) from None
            if hit:
                total += 1
                if len(found) < limit:
                    found.append(t)
                break
    return found, total
