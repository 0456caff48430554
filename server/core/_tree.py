"""The workspace as a person browses it: the file tree with thread counts, a file's text."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from limpet.model import Thread
from limpet.server.store import Workspace

__all__ = ["MAX_FILES", "MAX_SOURCE_BYTES", "file_tree", "looks_binary", "source_of"]

MAX_FILES = 20_000
MAX_SOURCE_BYTES = 4 * 1024 * 1024


def file_tree(ws: Workspace, threads: Iterable[Thread]) -> dict[str, Any]:
    """Every workspace file (and every file threads point at) with counts per status and health."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for t in threads:
        c = counts[t.anchor.file]
        c["total"] += 1
        c[t.status] += 1
        c[t.health] += 1
        if t.status == "open":
            c[f"open_{t.health}"] += 1
    present = ws.walk_sources(max_bytes=MAX_SOURCE_BYTES)
    paths = sorted(set(present) | set(counts))
    truncated = len(paths) > MAX_FILES
    if truncated:  # files with threads first, so a huge checkout still shows them
        paths = sorted(set(counts) | set(sorted(present)[: MAX_FILES - len(counts)]))
    out = [{"path": p, "exists": p in present, "threads": dict(counts[p]) if p in counts else {}} for p in paths]
    return {"workspace": ws.root.name, "files": out, "truncated": truncated}


_CONTROL = bytes(b for b in range(32) if b not in b"\t\n\r\f\b\x1b")


def looks_binary(data: bytes) -> bool:
    """Not text a thread can anchor to: a NUL byte anywhere (git's own test), or bytes that
    are not UTF-8 and are mostly control characters (a Latin-1 source is still text)."""
    if b"\x00" in data:
        return True
    head = data[:8192]
    try:
        head.decode("utf-8")
        return False
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 4:  # a character cut at the 8 KB boundary
            return False
    controls = len(head) - len(head.translate(None, _CONTROL))
    return controls * 10 > len(head)


def source_of(ws: Workspace, path: str) -> dict[str, Any]:
    """A file's text for display: None (with the reason) when it is binary or too large."""
    rel = ws.normalize(path, "path")
    data = ws.read(rel, "path")
    if len(data) > MAX_SOURCE_BYTES:
        return {"path": rel, "text": None, "binary": False, "too_large": True, "size": len(data)}
    binary = b"\x00" in data[:8192]
    try:
        text = None if binary else data.decode("utf-8")
    except UnicodeDecodeError:
        text, binary = None, True
    return {"path": rel, "text": text, "binary": binary, "too_large": False, "size": len(data)}
