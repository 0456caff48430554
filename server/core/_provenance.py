"""Where an exported row comes from: the repository's identity and the commit exported.

A dataset built from many repositories needs a name for each that is the same on every
machine and never the same for two different repositories: a folder's basename is neither
(two checkouts named `httpx`, one clone checked out as `httpx-main`). The identity is the
origin remote as host/path, so `https://user:token@github.com/encode/httpx.git`,
`git@github.com:encode/httpx` and `ssh://git@github.com:22/encode/httpx.git` all read
`github.com/encode/httpx`: no scheme, no credentials, no port, no `.git`. A remote that is a
local path names the repository by its last folder; no remote at all, by the workspace's
folder name. A workspace in a folder of a repository (a monorepo's service) adds that folder:
`github.com/org/mono/services/api`.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import msgspec

from limpet.server.store import repository_facts

__all__ = ["Provenance", "provenance_of", "repository_identity"]

_SCP = re.compile(r"^(?:[^@/]+@)?(?P<host>[^:/]+):(?P<path>(?!//).+)$")  # git@host:owner/name(.git)


class Provenance(msgspec.Struct, frozen=True):
    repository: str
    commit: str | None


def repository_identity(remote: str | None, folder: str) -> str:
    """The repository's name in datasets (see the module's docstring)."""
    if not remote:
        return folder
    remote = remote.strip()
    if "://" in remote:
        parts = urlsplit(remote)
        if parts.scheme == "file" or not parts.hostname:
            return _last_folder(parts.path) or folder
        return _join(parts.hostname.lower(), parts.path)
    scp = _SCP.match(remote)
    if scp and len(scp["host"]) > 1 and not remote.startswith(("/", ".")) and "\\" not in remote:  # C:\x is a path
        return _join(scp["host"].lower(), scp["path"])
    return _last_folder(remote) or folder  # a local path


def _join(host: str, path: str) -> str:
    path = path.strip("/")
    path = path.removesuffix(".git").rstrip("/")
    return f"{host}/{path}" if path else host


def _last_folder(path: str) -> str:
    name = re.split(r"[\\/]", path.rstrip("/\\"))[-1]
    return name.removesuffix(".git")


def provenance_of(root: Path) -> Provenance:
    remote, head, prefix = repository_facts(root)
    identity = repository_identity(remote, root.name or str(root))
    return Provenance(f"{identity}/{prefix}" if remote and prefix else identity, head)
