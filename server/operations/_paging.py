"""Cursor pagination for every listing tool: the same arguments, the same cursor, one rule.

Listings are ordered by (file, line, id). A cursor names the last thread a page returned by
that key (opaque to clients: base64url of it), so the next page starts right after it even
when threads were added or deleted in between. A thread that moves across the cursor
between two calls (re-anchoring) may be seen twice or not at all; a client that needs an
exact snapshot asks for a bigger page.
"""

from __future__ import annotations

import base64
import binascii
from bisect import bisect_right
from collections.abc import Sequence
from typing import Annotated, Any

import msgspec
import orjson
from msgspec import Meta

from limpet.model import InvalidArgument, Thread
from limpet.server.core import Service, ThreadFilter, invalid_argument_from_decoding

__all__ = ["MAX_PAGE", "Cursor", "PageLimit", "cursor_key", "key_cursor", "next_cursor", "page_limit",
           "page_of", "search_page", "start_after"]

MAX_PAGE = 1000

# `cursor: Cursor = None`
Cursor = Annotated[Annotated[str, Meta(max_length=8192)] | None,
                   Meta(description="Continue after the page that returned this nextCursor (omit for the first page)")]

_LIMIT = Annotated[int, Meta(ge=1, le=MAX_PAGE)]


def PageLimit(default: int) -> Any:  # noqa: N802 (a type, named like one): `limit: PageLimit(200) = 200`
    return Annotated[_LIMIT, Meta(description=f"Threads per page (default {default}, at most {MAX_PAGE})")]


def page_limit(raw: str | None, default: int, field: str = "limit") -> int:
    """A page size given as text (a query string), by the tools' own rule."""
    if raw is None:
        return default
    try:
        return msgspec.convert(raw, _LIMIT, strict=False)
    except msgspec.ValidationError as exc:
        problem = invalid_argument_from_decoding(exc)
        raise InvalidArgument(f"{field}: {problem.message}", field=field, details={field: raw[:40]}) from None


_THREAD_KEY = (str, int, str)


def _key(t: Thread) -> tuple[str, int, str]:
    return (t.anchor.file, t.anchor.line_start, t.id)


def key_cursor(key: tuple[str | int, ...]) -> str:
    """The cursor naming the last item of a page by its listing key."""
    return base64.urlsafe_b64encode(orjson.dumps(list(key))).decode().rstrip("=")


def cursor_key(cursor: str, shape: tuple[type, ...], field: str = "cursor") -> tuple[Any, ...]:
    """The listing key a cursor names; INVALID_ARGUMENT unless it has `shape` (the key's types)."""
    try:
        key = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if (isinstance(key, list) and len(key) == len(shape)
                and all(type(v) is t for v, t in zip(key, shape, strict=True))):
            return tuple(key)
    except (binascii.Error, ValueError, TypeError):
        pass
    raise InvalidArgument("Invalid cursor: pass the nextCursor a previous page returned", field=field)


def start_after(threads: Sequence[Thread], cursor: str | None) -> int:
    """Index of the first thread after the one `cursor` names (`threads` in listing order)."""
    return bisect_right(threads, cursor_key(cursor, _THREAD_KEY), key=_key) if cursor else 0


def page_of(threads: Sequence[Thread], cursor: str | None, limit: int) -> tuple[list[Thread], str | None]:
    """(the page after `cursor`, the cursor of the next page or None)."""
    start = start_after(threads, cursor)
    page = list(threads[start:start + limit])
    return page, next_cursor(page) if start + limit < len(threads) else None


def next_cursor(page: Sequence[Thread]) -> str | None:
    return key_cursor(_key(page[-1])) if page else None


def search_page(svc: Service, flt: ThreadFilter, query: str, limit: int,
                cursor: str | None) -> tuple[list[Thread], str | None]:
    """(at most `limit` threads matching `flt` whose comments match the regular expression
    `query`, after `cursor`; the cursor of the next page or None): search_comments' page and
    the library's. Filtered first, then the regex over every match (it is text: positions do
    not decide it), so only the files of the matches need to be current."""
    from limpet.server.core import search_threads  # the regex search (RE2), loaded by a search only

    matches = svc.matching(flt, lambda threads: search_threads(threads, query, limit + 1,
                                                               start=start_after(threads, cursor))[0])
    found = matches[:limit]
    return found, next_cursor(found) if len(matches) > limit else None
