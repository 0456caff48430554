"""Where limpet keeps things: what is committed with the code, and what is private to a checkout.

    <workspace>/.limpet/                committed (shared through git)
        store.json                      {"schema": N}
        threads/<thread id>.jsonl       one thread: its events, one JSON object a line
        reviews/current.json            the current review (present_review)
        .gitignore, .gitattributes      keep temp files out; merge thread files as a union
        exports/                        export_comments' files (a folder that ignores itself)
        prompts/<name>.md.j2            workspace overrides of the prompts
    <private>/                          never committed, disposable
        derived.sqlite (-wal, -shm)     current positions, health, what they were checked against
        threads.cache                   threads as folded from their files, with each file's stat
        backups/threads/<id>.jsonl      last good copy of each thread file this checkout wrote
        backups/reviews/current.json    last good copy of the review
        tmp/                            (in git) thread files being written, before their rename
        selection.json                  what the web page has selected
        review.json                     the review's current positions

The private folder is `<git dir>/limpet/` when the workspace is (inside) a git checkout: git
never tracks, cleans (`git clean -fdx`) or shows it, and a branch switch never brings it into
the working tree. Each worktree has its own git dir, so its own positions. Outside git it is
`.limpet/cache/` (a folder that ignores itself). It is looked up again for each transaction
(a few stats): a `git init` under a running server moves it for every process at once.

Every one of these is reached through the confinement layer (_confined.py): `Places` names
them as `Confined` folders, never as paths to open.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from limpet.model import blake2b
from limpet.server.store._confined import Confined, SafeDir, Unconfined
from limpet.server.store._paths import STORE_DIRNAME
from limpet.server.store._untrusted import log

__all__ = ["Places", "SELF_IGNORING", "ensure_private", "git_dir_of", "locate", "private_problem", "scratch_folder",
           "usable_private"]

# Written into private folders that live inside the working tree: they then ignore themselves.
SELF_IGNORING = "# limpet: private to this checkout, never committed\n*\n"
SELF_IGNORING_NAME = ".gitignore"


@dataclass(frozen=True)
class Places:
    store: Confined  # <workspace>/.limpet
    threads: Confined  # <workspace>/.limpet/threads
    private: Confined  # derived state, backups, the page's selection
    in_git: bool

    @property
    def backups(self) -> Confined:
        return self.private.child("backups", "threads")


def git_dir_of(root: Path) -> tuple[Path, Path] | None:
    """(the git dir, the top of the working tree) of the checkout holding `root`, or None.
    Reads `.git` itself (a folder, or a file `gitdir: PATH` in worktrees and submodules):
    no git process is started. The git dir is trusted as git trusts it: it anchors the
    private folder, whose own components are checked by the confinement layer. A `.git`
    that is a symlink, or a `gitdir:` naming a folder without a HEAD, anchors nothing: the
    checkout is then treated as outside git (its private folder `.limpet/cache/`)."""
    for top in (root, *root.parents):
        dot_git = top / ".git"
        try:
            if dot_git.is_symlink():  # a link to anywhere (a crafted checkout): not trusted to anchor anything
                return None
            if dot_git.is_dir():
                return dot_git, top
            if dot_git.is_file():
                text = dot_git.read_text("utf-8", errors="replace").strip()
                if text.startswith("gitdir:"):
                    target = Path(text[len("gitdir:"):].strip())
                    target = target if target.is_absolute() else (top / target)
                    if (target / "HEAD").is_file():  # a git dir, as git checks it: not any folder named
                        return target.resolve(), top
        except OSError:
            continue
    return None


def locate(root: Path) -> Places:
    store = Confined(root, (STORE_DIRNAME,))
    found = git_dir_of(root)
    if found is None:
        private = store.child("cache")
    else:
        git_dir, top = found
        rel = root.relative_to(top).as_posix() if root != top else ""
        # Several workspaces inside one checkout each get their own folder.
        private = Confined(git_dir, ("limpet",) if not rel else ("limpet", "nested", _key(rel)))
    return Places(store, store.child("threads"), private, found is not None)


def _key(rel: str) -> str:
    return blake2b(rel.encode(), digest_size=8).hexdigest()


def ensure_private(places: Places) -> bool:
    """Create the private folder (inside the working tree, one that ignores itself, so it
    never shows in `git status`). Returns whether it exists now, real: a symlink in any of
    its components means no private folder (logged; reads run without the caches)."""
    try:
        folder = places.private.open(create=True)
        if folder is None:
            return False
        with folder:
            if not places.in_git and folder.regular_or_absent(SELF_IGNORING_NAME) is None:
                folder.write_atomic(SELF_IGNORING_NAME, SELF_IGNORING.encode(), durable=False)
    except Unconfined as exc:
        _refused(exc)
        return False
    except OSError:
        return False
    return True


def usable_private(places: Places, create: bool) -> Confined | None:
    """The private folder when it can be used (made first when `create`), else None: absent,
    or refused (a symlink in a component: logged once, listed by reconcile's problems)."""
    if create:
        return places.private if ensure_private(places) else None
    try:
        folder = places.private.open()
    except Unconfined as exc:
        _refused(exc)
        return None
    except OSError:
        return None
    if folder is None:
        return None
    folder.close()
    return places.private


def private_problem(places: Places) -> str | None:
    """Why the private folder cannot be used (a symlink in a component, a file), or None."""
    return places.private.problem()


_told: set[str] = set()


def _refused(exc: Unconfined) -> None:
    if exc.message not in _told:  # once per process and path: every read would say it again
        _told.add(exc.message)
        log.warning("%s; limpet runs without its private folder (positions recomputed, no backups)", exc.message)


def scratch_folder(places: Places) -> SafeDir | None:
    """Inside git, where committed files are written before their rename: the private folder,
    which `git clean -fdx` never reaches (a cleanup in a loop kept deleting temp files written
    beside their thread file). None outside git: temp files then sit beside their file."""
    if not places.in_git or not ensure_private(places):
        return None
    try:
        return places.private.child("tmp").open(create=True)
    except (Unconfined, OSError):
        return None
