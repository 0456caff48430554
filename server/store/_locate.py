"""Which workspace a command run in some folder means: found as git finds its repository.

From the folder a command runs in, up: the first folder holding `.limpet/` (a store) or `.git`
(the top of a worktree, where `limpet add` makes the store) is the workspace; outside both,
the folder itself. A command run in `src/` of a checkout thus
lists the checkout's threads and never starts a second store in `src/`. Paths a person types
there (`limpet add util.py:3`) are relative to that folder, as git's are: `prefix` is where
the folder lies in the workspace.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from limpet.server.store._paths import STORE_DIRNAME

__all__ = ["Located", "locate_workspace"]


@dataclass(frozen=True)
class Located:
    root: Path  # the workspace
    prefix: str  # the folder the command runs in, relative to root ("" at the top)

    def path(self, typed: str) -> str:
        """A path typed in that folder, as a workspace path (`../x.py` from `src/` is `x.py`);
        one that leaves the workspace stays as typed, for the workspace to refuse it."""
        if not self.prefix or os.path.isabs(typed):
            return typed
        joined = os.path.normpath(os.path.join(self.prefix, typed))
        return typed if joined == ".." or joined.startswith("../") else PurePosixPath(joined).as_posix()


def locate_workspace(start: str | os.PathLike[str]) -> Located:
    here = Path(start).absolute()
    # The nearest folder with a store or a `.git` (the worktree's top): nothing above a checkout
    # is its workspace, as git never looks past the repository it found.
    found = next((p for p in (here, *here.parents) if (p / STORE_DIRNAME).is_dir() or (p / ".git").exists()), None)
    if found is None:
        return Located(here, "")
    prefix = here.relative_to(found).as_posix()
    return Located(found, "" if prefix == "." else prefix)
