"""Which threads of a file were placed against which content of it: the stale check."""

from __future__ import annotations

from collections.abc import Mapping

from limpet.model import Thread
from limpet.server.store._derived import NEVER
from limpet.server.store._entries import Entry

__all__ = ["PlacedFiles"]

_MIXED = object()  # a file whose threads were placed against different contents (no digest is it)


class PlacedFiles:
    """Per file, the content hash every one of its threads was placed against when the store
    was loaded (None when the file was gone), until one of them changes. A file found so is
    checked by one lookup: a first look at each of a hundred threads of a big store is a cache
    miss each (~1 µs), most of a search's cost on a file it had not touched."""

    def __init__(self) -> None:
        self._uniform: dict[str, object] = {}
        self._changed: set[str] = set()  # files a thread of which changed: never summed up again

    def loaded(self, file: str, checked: object) -> None:
        """A thread of `file` loaded, placed against content `checked`. A file one of whose
        threads changed is not summed up again: a later load (another process's new thread)
        sees only its own threads, not the changed one's placement."""
        if file in self._changed:
            return
        if self._uniform.setdefault(file, checked) != checked:
            self._uniform[file] = _MIXED

    def changed(self, *threads: Thread | None) -> None:
        for thread in threads:
            if thread is not None:
                self._uniform.pop(thread.anchor.file, None)
                self._changed.add(thread.anchor.file)

    def stale(self, entries: Mapping[str, Entry], path: str, threads: list[Thread], digest: str | None,
              ) -> list[Thread]:
        """The threads of `path` whose position was not computed against content `digest`."""
        if self._uniform.get(path, NEVER) == digest:
            return []
        return [t for t in threads if (e := entries.get(t.id)) is None or e.checked[0] != digest]
