"""Finding the web page of this workspace, to open a thread there.

The page (`limpet serve --http`) routes `#<percent-encoded file>:<line>` to that file and
line. Its address is the `pageUrl` the editor configured, else the first server on the
loopback ports the HTTP door uses whose `/api/info` says it serves this workspace.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import quote

__all__ = ["find_page", "thread_url"]

_PROBE_SECONDS = 0.5


def thread_url(base: str, file: str, line: int) -> str:
    return f"{base.rstrip('/')}/#{quote(file, safe='')}:{line}"


def _serves(base: str, root: Path) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/api/info", timeout=_PROBE_SECONDS) as reply:  # noqa: S310 (loopback)
            info = json.loads(reply.read())
    except (OSError, ValueError, urllib.error.URLError):
        return False
    try:
        return isinstance(info, dict) and Path(str(info.get("root"))).resolve() == root.resolve()
    except OSError:
        return False


def find_page(root: Path, configured: str | None, ports: Iterable[int]) -> str | None:
    """The page's base URL, or None when no page of this workspace is running."""
    if configured:
        return configured.rstrip("/")
    for port in ports:
        base = f"http://127.0.0.1:{port}"
        if _serves(base, root):
            return base
    return None
