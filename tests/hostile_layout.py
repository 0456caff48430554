"""Hostile layouts of limpet's own folders, for the confinement tests (issue 33): every
component of `.limpet/` and of the private folder, as a table, and what to plant there.

A generator of hostile repositories extends this by adding rows to `components()` or
bait to `BAIT`; `plant` and `outside_snapshot` stay as they are. Importable from any test
folder (`tests/` is on pytest's pythonpath).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

__all__ = ["BAIT", "Component", "bait_folder", "components", "make_outside_db", "outside_snapshot", "plant",
           "private_prefix"]

THREAD = "c_1"  # the id the tests' first thread gets is not fixed: `components` takes it


@dataclass(frozen=True)
class Component:
    rel: str  # workspace-relative (the private folder spelled with its prefix, see private_prefix)
    kind: str  # "dir" or "file"
    private: bool  # in the private folder (disposable: reads go on without it)

    @property
    def id(self) -> str:
        return f"{self.rel}({self.kind})"


def private_prefix(in_git: bool) -> str:
    """Where the private folder is, relative to the workspace (_layout.py)."""
    return ".git/limpet" if in_git else ".limpet/cache"


def components(in_git: bool, thread_id: str = THREAD) -> list[Component]:
    """Every folder and file of `.limpet/` and of the private folder limpet reads or writes."""
    p = private_prefix(in_git)
    committed = [
        (".limpet", "dir"), (".limpet/threads", "dir"), (f".limpet/threads/{thread_id}.jsonl", "file"),
        (".limpet/store.json", "file"), (".limpet/.gitignore", "file"), (".limpet/.gitattributes", "file"),
        (".limpet/reviews", "dir"), (".limpet/reviews/current.json", "file"),
        (".limpet/exports", "dir"), (".limpet/exports/.gitignore", "file"), (".limpet/prompts", "dir"),
    ]
    private = [
        (p, "dir"), (f"{p}/derived.sqlite", "file"), (f"{p}/derived.sqlite-wal", "file"),
        (f"{p}/derived.sqlite-shm", "file"), (f"{p}/derived.sqlite-journal", "file"),
        (f"{p}/threads.cache", "file"), (f"{p}/backups", "dir"), (f"{p}/backups/threads", "dir"),
        (f"{p}/backups/threads/{thread_id}.jsonl", "file"), (f"{p}/backups/reviews", "dir"),
        (f"{p}/backups/reviews/current.json", "file"), (f"{p}/selection.json", "file"), (f"{p}/review.json", "file"),
    ]
    private += [(f"{p}/tmp", "dir")] if in_git else [(f"{p}/.gitignore", "file")]
    return ([Component(r, k, False) for r, k in committed]
            + [Component(r, k, True) for r, k in private])


# Files a folder outside the workspace holds, named as limpet names its own: a follower of a
# link would overwrite, prune, clean up or open them.
BAIT = {
    "comments-20260101T000000000Z.json": b'{"mine": true}\n',
    "comments-20260101T000000001Z.md": b"# someone's notes\n",
    "notes.tmp-1-1": b"not a temp file of limpet's\n",
    f"{THREAD}.jsonl.tmp-99999999-1": b"someone's file\n",
    "current.json.tmp-2-2": b"keep me\n",
    ".gitignore": b"# someone's ignore file\n",
    "store.json": b'{"schema": 1}\n',
}


def make_outside_db(path: Path) -> None:
    """An SQLite database with tables `files` and `derived` (and rows), as item 1 describes."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE files (path TEXT PRIMARY KEY, state TEXT NOT NULL, hash TEXT NOT NULL)")
        conn.execute("CREATE TABLE derived (thread TEXT PRIMARY KEY, base TEXT NOT NULL, record BLOB NOT NULL)")
        conn.execute("INSERT INTO files VALUES ('precious.py', '1,2,3,4', 'abcdefabcdefabcdef')")
        conn.execute("INSERT INTO derived VALUES ('c_9', 'e_1', x'00')")
    conn.close()


def bait_folder(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in BAIT.items():
        (folder / name).write_bytes(data)
    make_outside_db(folder / "derived.sqlite")
    (folder / "threads").mkdir(exist_ok=True)
    return folder


def plant(workspace: Path, component: Component, outside: Path, *, dangling: bool = False) -> Path:
    """Replace `component` (whatever is there) with a symlink out of the workspace: to a bait
    folder or an existing file (an SQLite database for the database's names), or to a name
    that does not exist (`dangling`). Returns the link's target."""
    here = workspace / component.rel
    here.parent.mkdir(parents=True, exist_ok=True)
    if here.is_symlink() or here.is_file():
        here.unlink()
    elif here.is_dir():
        shutil.rmtree(here)
    slug = component.rel.replace("/", "_")
    if dangling:
        target = outside / f"missing-{slug}"
    elif component.kind == "dir":
        target = bait_folder(outside / f"dir-{slug}")
    else:
        target = outside / f"file-{slug}"
        if "derived.sqlite" in component.rel and not component.rel.endswith(("-wal", "-shm", "-journal")):
            make_outside_db(target)
        else:
            target.write_bytes(b'{"outside": "precious"}\n')
    os.symlink(target, here)
    return target


def outside_snapshot(outside: Path) -> dict[str, tuple[str, bytes | str, int]]:
    """Every entry below `outside`: kind, bytes (or link target), mtime. Equal before and after
    means nothing was created, changed or deleted there."""
    out: dict[str, tuple[str, bytes | str, int]] = {}
    for dirpath, dirnames, filenames in os.walk(outside):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            st = path.lstat()
            rel = path.relative_to(outside).as_posix()
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path), st.st_mtime_ns)
            elif path.is_dir():
                out[rel] = ("dir", b"", st.st_mtime_ns)
            else:
                out[rel] = ("file", path.read_bytes(), st.st_mtime_ns)
    return out
