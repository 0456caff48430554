"""`Threads`: what `Workspace.threads()` and `Workspace.search()` return, an iterator that
fetches a page of threads at a time as it is read."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from limpet.model import Thread
from limpet.server.operations import next_cursor

__all__ = ["PAGE", "Threads"]

PAGE = 1_000  # threads fetched at a time

# The page after a cursor (None: from the start), and the total matching when it is known.
Fetch = Callable[[str | None, int], tuple[list[Thread], int | None]]


class Threads(Iterator[Thread]):
    """Threads ordered by file, then line, then id, fetched a page at a time. Each page
    continues after the last thread the previous one gave (the listing tools' cursor), so
    threads added or deleted meanwhile neither repeat nor shift the rest.

    `cursor`: the listing tools' cursor after the last thread given (what `cursor=` takes to
    continue there; before the first, the one the listing started from). `total`: how many
    threads matched when the first page was read (None for a search, which stops at each
    page's end)."""

    def __init__(self, fetch: Fetch, cursor: str | None = None) -> None:
        self._fetch = fetch
        self._start = cursor
        self._given: Thread | None = None
        self._page: list[Thread] = []
        self._at = 0
        self._last = False
        self._total: int | None = None
        self._fetched = False

    @property
    def cursor(self) -> str | None:
        return self._start if self._given is None else next_cursor([self._given])

    @property
    def total(self) -> int | None:
        if not self._fetched:
            self._next_page()
        return self._total

    def __iter__(self) -> Threads:
        return self

    def __next__(self) -> Thread:
        if self._at >= len(self._page):
            if self._last or not self._next_page():
                raise StopIteration
        thread = self._page[self._at]
        self._at += 1
        self._given = thread
        return thread

    def _next_page(self) -> bool:
        page, total = self._fetch(self.cursor, PAGE)
        if not self._fetched:
            self._total, self._fetched = total, True
        self._page, self._at, self._last = page, 0, len(page) < PAGE
        return bool(page)

