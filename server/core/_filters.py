"""Thread filters shared by listing, search, resources and every export format."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Iterator

import msgspec

from limpet.model import Thread

__all__ = ["ThreadFilter", "is_glob"]

_GLOB_CHARS = frozenset("*?[")


def is_glob(pattern: str) -> bool:
    return not _GLOB_CHARS.isdisjoint(pattern)


def _glob_match(path: str, pattern: str) -> bool:
    # `**/` also matches zero folders, as in .gitignore and most tools.
    if fnmatch.fnmatchcase(path, pattern):
        return True
    return "**/" in pattern and fnmatch.fnmatchcase(path, pattern.replace("**/", ""))


class ThreadFilter(msgspec.Struct, frozen=True):
    file: str | None = None  # exact normalized path, or a glob when it has * ? [
    status: str | None = None
    statuses: tuple[str, ...] | None = None
    health: str | None = None
    author: str | None = None
    tag: str | None = None
    since: str | None = None  # created_at >= since (ISO 8601 text compares correctly in UTC)
    until: str | None = None
    updated_since: str | None = None  # updated_at >= this: changed, or re-anchored (an incremental cursor)
    has_ai_meta: bool | None = None

    @property
    def exact_file(self) -> str | None:
        """The one file this filter is about, when it names a file rather than a glob."""
        return self.file if self.file is not None and not is_glob(self.file) else None

    @property
    def depends_on_positions(self) -> bool:
        """Whether re-anchoring can change what matches: health, a glob a thread may move
        into, or the time of the last change (re-anchoring moves updated_at). Such a filter must bring threads up to date even when nothing matches yet."""
        return self.health is not None or self.updated_since is not None or (
            self.file is not None and is_glob(self.file))

    def matches(self, t: Thread) -> bool:
        if self.file is not None and t.anchor.file != self.file and not (
            is_glob(self.file) and _glob_match(t.anchor.file, self.file)
        ):
            return False
        if self.status is not None and t.status != self.status:
            return False
        if self.statuses is not None and t.status not in self.statuses:
            return False
        if self.health is not None and t.health != self.health:
            return False
        if self.author is not None and t.author != self.author:
            return False
        if self.tag is not None and t.tag != self.tag:
            return False
        if self.since is not None and t.created_at < self.since:
            return False
        if self.until is not None and t.created_at > self.until:
            return False
        if self.updated_since is not None and t.updated_at < self.updated_since:
            return False
        if self.has_ai_meta is not None and bool(t.ai_meta) != self.has_ai_meta:
            return False
        return True

    def apply(self, threads: Iterable[Thread], *, file_chosen: bool = False) -> Iterator[Thread]:
        """The threads that match. `file_chosen`: they are already those of this filter's exact
        file, so only the other criteria are checked (none: no thread is looked at, which is
        what keeps a short page of a big file cheap)."""
        rest = msgspec.structs.replace(self, file=None) if file_chosen else self
        if rest == _NO_FILTER:
            return iter(threads)
        return (t for t in threads if rest.matches(t))


_NO_FILTER = ThreadFilter()
