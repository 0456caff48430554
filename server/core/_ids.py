"""Thread ids: `c_` + 13-digit Unix milliseconds + 6 digits derived from who made it.

No random source (the contract forbids one): the suffix is a hash of host, process, a
per-process counter and the nanosecond clock, so two machines or branches creating threads
in the same millisecond still differ; the store checks for the rare collision under its lock.
Ids sort by creation time, match `^c_\\d+$` (seed 004's pattern) and fit in JSON numbers'
digit budget when clients parse them loosely.
"""

from __future__ import annotations

import bisect
import getpass
import itertools
import os
import platform
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from limpet.model import InvalidArgument, StoreError, Thread, ThreadNotFound, blake2b, is_thread_id
from limpet.server.store import Event, IdTaken

__all__ = ["SHORT_MAX", "SHORT_MIN", "create_thread", "format_time", "instant", "local_author", "new_event_id",
           "new_thread_id", "ShortIds", "resolve_prefix", "short_ids", "unused_thread_id", "utc_now"]

_counter = itertools.count()
_HOST = platform.node()  # not socket.gethostname(): the socket module costs a command ~2 ms


def new_thread_id(now_ns: int | None = None) -> str:
    return _unique_id("c_", now_ns)


def new_event_id(now_ns: int | None = None) -> str:
    """An event's id (`e_` + the same 19 digits): unique across machines and branches, so two
    sides of a merge never write the same id for different events."""
    return _unique_id("e_", now_ns)


def _unique_id(prefix: str, now_ns: int | None) -> str:
    ns = time.time_ns() if now_ns is None else now_ns
    seed = f"{_HOST}|{os.getpid()}|{next(_counter)}|{ns}".encode()
    suffix = int.from_bytes(blake2b(seed, digest_size=8).digest(), "big") % 1_000_000
    return f"{prefix}{ns // 1_000_000:013d}{suffix:06d}"


def format_time(dt: datetime) -> str:
    """UTC ISO 8601 with milliseconds and a Z: sortable as text."""
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def instant(value: str, *, end: bool = False) -> str:
    """An ISO 8601 date or date-time as limpet's sortable UTC text (ValueError otherwise): any
    offset is converted (`+05:00` and `Z` spellings of one instant are one text); a bare date
    covers the whole day (from its first millisecond, or with `end` to its last); no offset
    is UTC."""
    try:
        parsed = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise ValueError("must be an ISO 8601 date or date-time, e.g. 2026-11-22T10:00:00Z") from None
    if len(value) <= 10 and end:  # a date: through its last millisecond
        parsed = parsed.replace(hour=23, minute=59, second=59, microsecond=999_000)
    return format_time(parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC))


def utc_now() -> str:
    return format_time(datetime.now(UTC))


def local_author() -> str:
    """Who a person at this machine is, for the CLI and the web page: $LIMPET_AUTHOR, else
    the login name, else "human"."""
    try:
        login = getpass.getuser()
    except (OSError, KeyError):  # no login name and no passwd entry (e.g. a bare container uid)
        login = ""
    return os.environ.get("LIMPET_AUTHOR") or os.environ.get("USER") or login or "human"


SHORT_MIN, SHORT_MAX = 6, 10  # digits of a short id


class ShortIds:
    """Short ids over a set of ids, each computed when asked (`limpet list --file` of a big
    store asks for a few): the fewest of an id's last digits, at least SHORT_MIN and at most
    SHORT_MAX, that no other id ends with and no other id begins with; the whole id when no
    such tail exists. The tail, not the head: an id begins with its creation time in
    milliseconds, which threads made together share (a dozen digits in the same second), and
    ends with six digits of its own. Two sorts build it; each id costs two binary searches."""

    __slots__ = ("_heads", "_tails")

    def __init__(self, ids: Iterable[str]) -> None:
        self._heads = sorted(i[2:] for i in ids)
        self._tails = sorted([d[:-SHORT_MAX - 2:-1] for d in self._heads])  # sharing an ending: together

    def get(self, thread_id: str, default: str | None = None) -> str:
        digits = thread_id[2:]
        if not digits.isdigit():
            return default if default is not None else thread_id
        reverse = digits[:-SHORT_MAX - 2:-1]  # as far as a short id reaches, and one more
        at = bisect.bisect_left(self._tails, reverse)
        there = at < len(self._tails) and self._tails[at] == reverse
        neighbours = (at - 1, at + 1) if there else (at - 1, at)
        shared = max((_common(reverse, self._tails[j]) for j in neighbours if 0 <= j < len(self._tails)), default=0)
        for k in range(max(SHORT_MIN, shared + 1), SHORT_MAX + 1):
            tail = digits[-k:]
            if not self._begins_other(tail, digits):
                return tail
        return thread_id

    def _begins_other(self, text: str, own: str) -> bool:
        at = bisect.bisect_left(self._heads, text)
        for d in self._heads[at:at + 2]:  # `own` may be the first that begins with it
            if d.startswith(text) and d != own:
                return True
        return False


def _common(a: str, b: str) -> int:
    n = 0
    limit = min(len(a), len(b), SHORT_MAX)
    while n < limit and a[n] == b[n]:
        n += 1
    return n


def short_ids(ids: Iterable[str]) -> dict[str, str]:
    """Every id's short form (see ShortIds)."""
    ids = list(ids)
    short = ShortIds(ids)
    return {i: short.get(i, i) for i in ids}


def resolve_prefix(prefix: str, exists: Callable[[str], bool], ids: Callable[[], Iterable[str]],
                   field: str = "thread_id") -> str:
    """The full id of the one thread `prefix` names: the whole id, a beginning of it as git
    takes abbreviated hashes (the `c_` may be left out), or, for SHORT_MIN to SHORT_MAX digits
    without `c_`, its short form (an end of it, see short_ids). Several: INVALID_ARGUMENT
    listing the candidates; none: THREAD_NOT_FOUND; not an id's beginning: INVALID_ARGUMENT."""
    text = prefix.strip()
    wanted = text if text.startswith("c_") else f"c_{text}"
    if not is_thread_id(wanted):
        raise InvalidArgument("Invalid thread ID format", field=field, details={"thread_id": prefix})
    if exists(wanted):
        return wanted
    tail = None if text.startswith("c_") or not SHORT_MIN <= len(text) <= SHORT_MAX else text
    found = sorted(i for i in ids() if i.startswith(wanted) or (tail is not None and i.endswith(tail)))
    if len(found) == 1:
        return found[0]
    if not found:
        raise ThreadNotFound(f"No thread id starts with {wanted}" + (f" or ends with {tail}" if tail else ""),
                             field=field, details={"thread_id": prefix})
    raise InvalidArgument(f"{len(found)} threads have ids starting with {wanted}"
                          + (f" or ending with {tail}" if tail else "") + ": give more digits", field=field,
                          details={"thread_id": prefix, "candidates": found[:20], "count": len(found)})


def unused_thread_id(exists: Callable[[str], bool], taken: set[str] | None = None) -> str:
    """A new thread id no file has (`exists`); `taken`: ids a batch made (many per millisecond)
    and not yet wrote."""
    thread_id = new_thread_id()
    while exists(thread_id) or (taken is not None and thread_id in taken):
        thread_id = new_thread_id()
    if taken is not None:
        taken.add(thread_id)
    return thread_id


def create_thread(append: Callable[[str, Event], Thread | None], exists: Callable[[str], bool],
                  event: Event) -> Thread:
    """The thread `event` creates, under a new id: an id taken on disk meanwhile (another
    branch made the same one) means the next."""
    for _ in range(100):
        try:
            thread = append(unused_thread_id(exists), event)
        except IdTaken:
            continue
        assert thread is not None
        return thread
    raise StoreError("Could not find an unused thread id")
