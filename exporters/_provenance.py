"""What every thread row says of where it comes from, besides the thread: the repository's
split and the file's language.

The split is decided by the repository alone (a stable hash of its identity against the
shares), so one repository's threads never straddle train and test, every run and every
machine agrees, and a repository keeps its split as others are added.
"""

from __future__ import annotations

from functools import lru_cache

from limpet.anchoring import language_for
from limpet.model import blake2b

__all__ = ["Languages", "split_of"]

_SPLITS = ("train", "validation", "test")


@lru_cache(maxsize=4096)
def split_of(repository: str, shares: tuple[float, float, float]) -> str:
    """train / validation / test for `repository`: where its hash falls among the shares."""
    point = int.from_bytes(blake2b(repository.encode(), digest_size=8).digest(), "big") / 2.0**64
    edge = 0.0
    for name, share in zip(_SPLITS, shares, strict=True):
        edge += share
        if point < edge:
            return name
    return next(n for n, s in zip(reversed(_SPLITS), reversed(shares), strict=True) if s > 0)


class Languages:
    """limpet's language name for a file (the engine's registry), each path decided once."""

    def __init__(self) -> None:
        self._known: dict[str, str | None] = {}

    def of(self, path: str, source: bytes | None = None) -> str | None:
        known = self._known.get(path, False)
        if known is not False:
            return known  # type: ignore[return-value]
        if len(self._known) > 65536:
            self._known.clear()
        lang = self._known[path] = language_for(path, source or b"")
        return lang
