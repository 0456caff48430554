"""Where limpet keeps things: what is committed with the code, and what is private to a checkout.

    <workspace>/.limpet/                committed (shared through git)
        store.json                      {"schema": N}
        threads/<thread id>.jsonl       one thread: its events, one JSON object a line
        reviews/current.json            the current review (present_review)
        .gitignore, .gitattributes      keep temp files out; merge thread files as a union
    <private>/                          never committed, disposable
        derived.sqlite                  current positions, health, what they were checked against
        threads.cache                   threads as folded from their files, with each file's stat
        backups/threads/<id>.jsonl      last good copy of each thread file this checkout wrote
        tmp/                            (in git) thread files being written, before their rename
        selection.json                  what the web page has selected

The private folder is `<git dir>/limpet/` when the workspace is (inside) a git checkout: git
never tracks, cleans (`git clean -fdx`) or shows it, and a branch switch never brings it into
the working tree. Each worktree has its own git dir, so its own positions. Outside git it is
`.limpet/cache/` (a folder that ignores itself). It is looked up again for each transaction
(a few stats): a `git init` under a running server moves it for every process at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from limpet.model import blake2b
from limpet.server.store._paths import STORE_DIRNAME

__all__ = ["Places", "SELF_IGNORING", "ensure_private", "git_dir_of", "locate", "scratch_folder"]

# Written into private folders that live inside the working tree: they then ignore themselves.
SELF_IGNORING = "# limpet: private to this checkout, never committed\n*\n"


@dataclass(frozen=True)
class Places:
    store: Path  # <workspace>/.limpet
    threads: Path  # <workspace>/.limpet/threads
    private: Path  # derived state, backups, the page's selection
    in_git: bool

    @property
    def derived_db(self) -> Path:
        return self.private / "derived.sqlite"

    @property
    def backups(self) -> Path:
        return self.private / "backups" / "threads"


def git_dir_of(root: Path) -> tuple[Path, Path] | None:
    """(the git dir, the top of the working tree) of the checkout holding `root`, or None.
    Reads `.git` itself (a folder, or a file `gitdir: PATH` in worktrees and submodules):
    no git process is started."""
    for top in (root, *root.parents):
        dot_git = top / ".git"
        try:
            if dot_git.is_dir():
                return dot_git, top
            if dot_git.is_file():
                text = dot_git.read_text("utf-8", errors="replace").strip()
                if text.startswith("gitdir:"):
                    target = Path(text[len("gitdir:"):].strip())
                    target = target if target.is_absolute() else (top / target)
                    if target.is_dir():
                        return target.resolve(), top
        except OSError:
            continue
    return None


def locate(root: Path) -> Places:
    store = root / STORE_DIRNAME
    found = git_dir_of(root)
    if found is None:
        private = store / "cache"
    else:
        git_dir, top = found
        rel = root.relative_to(top).as_posix() if root != top else ""
        # Several workspaces inside one checkout each get their own folder.
        private = git_dir / "limpet" if not rel else git_dir / "limpet" / "nested" / _key(rel)
    return Places(store, store / "threads", private, found is not None)


def _key(rel: str) -> str:
    return blake2b(rel.encode(), digest_size=8).hexdigest()


def ensure_private(places: Places) -> bool:
    """Create the private folder (inside the working tree, one that ignores itself, so it
    never shows in `git status`). Returns whether it exists now."""
    private = places.private
    if private.is_dir():
        return True
    try:
        private.mkdir(parents=True, exist_ok=True)
        if not places.in_git:
            (private / ".gitignore").write_text(SELF_IGNORING)
    except OSError:
        return False
    return True


def scratch_folder(places: Places) -> Path | None:
    """Inside git, where committed files are written before their rename: the private folder,
    which `git clean -fdx` never reaches (a cleanup in a loop kept deleting temp files written
    beside their thread file). None outside git: temp files then sit beside their file."""
    if not places.in_git or not ensure_private(places):
        return None
    scratch = places.private / "tmp"
    try:
        scratch.mkdir(exist_ok=True)
    except OSError:
        return None
    return scratch
