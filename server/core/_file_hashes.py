"""The content hashes of workspace files a reconcile checks threads against.

A hash is trusted while the file's stat (size, mtime, inode, ctime) is unchanged, and in a
process that asks again (a server) while the kernel named no change to the file since its
last stat (store.FolderChanges): a reconcile of the whole store then stats only the files
written since. Hashes earlier processes computed come from the derived cache (FileHashes).
"""

from __future__ import annotations

from collections.abc import Iterable

from limpet.model import content_hash
from limpet.server.store import FileHashes, FileState, FolderChanges, Workspace

__all__ = ["HashCache"]


class HashCache:
    """path → content hash, trusted while the file's stat is unchanged, or while the kernel
    reported no change to it since its last stat (`settle`)."""

    def __init__(self, workspace: Workspace, known: FileHashes | None = None, *, watch: bool = True) -> None:
        self.ws = workspace
        self._known = known  # hashes earlier processes computed (and the ones to keep for later)
        self._hashes: dict[str, tuple[FileState, str]] = {}
        self._folders = FolderChanges(str(workspace.root), watch=watch)

    def settle(self, paths: Iterable[str]) -> dict[str, str]:
        """path → hash for those of `paths` that no event changed since they were hashed (as
        the kernel says now: a write is queued before it returns); the others need `hash_of`
        and then `looked_at`."""
        hashes = self._hashes
        return {p: hashes[p][1] for p in self._folders.settle(paths) if p in hashes}

    def looked_at(self, rel: str) -> None:
        """`hash_of(rel)` just checked the file: `settle` may vouch for it from now on."""
        if rel in self._hashes:
            self._folders.looked_at(rel)

    def hash_of(self, rel: str, keep: dict[str, tuple[bytes, str]] | None = None) -> str | None:
        """keep: receives the bytes and their hash when they had to be read (a reconcile
        re-anchors from them)."""
        state = self.ws.state(rel)
        if state is None:
            self._hashes.pop(rel, None)
            return None
        cached = self._hashes.get(rel)
        if cached and cached[0] == state:
            return cached[1]
        if self._known is not None:
            digest = self._known.get(rel, state)
            if digest is not None:
                self._hashes[rel] = (state, digest)
                return digest
        data = self.ws.read_or_none(rel)
        if data is None:
            return None
        digest = content_hash(data)
        self._hashes[rel] = (state, digest)
        if self._known is not None:
            self._known.put(rel, state, digest)
        if keep is not None:
            keep[rel] = (data, digest)
        return digest

    def prefetch(self, paths: Iterable[str]) -> None:
        """Look up what earlier processes hashed for these files, in one query."""
        if self._known is not None:
            self._known.prefetch(p for p in paths if p not in self._hashes)

    def remember(self, rel: str, data: bytes) -> None:
        state = self.ws.state(rel)
        if state is not None:
            self._hashes[rel] = (state, content_hash(data))

    def workspace_hashes(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for rel, state in self.ws.walk_sources().items():
            cached = self._hashes.get(rel)
            if cached and cached[0] == state:
                out[rel] = cached[1]
                continue
            digest = self.hash_of(rel)
            if digest is not None:
                out[rel] = digest
        return out
