"""A cloned repository is hostile (issue 33): every file of `.limpet/` and of the private
folder goes through one confinement layer (server/store/_confined.py). These are the
reproductions of items 1-4 and 12 as the issue states them, and the layer's own rules."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from hostile_layout import BAIT, bait_folder, make_outside_db, outside_snapshot
from support import SAMPLE, write_files

from limpet.model import InvalidPath, LimpetError, StoreError
from limpet.server.core import Service, ThreadFilter
from limpet.server.store import Confined, Unconfined
from limpet.server.store._threadfiles import ThreadFiles


def _crafted_checkout(tmp_path: Path) -> tuple[Path, str]:
    """A checkout outside git whose `.limpet/` came with it (threads and the store marker,
    as committed), no private folder of its own yet, and code that moved since the thread was
    written (so a read has positions to keep)."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    write_files(workspace, SAMPLE)
    tid = Service(workspace).add("src/auth.py", 10, 14, "about validate_token").id
    subprocess.run(["rm", "-rf", str(workspace / ".limpet" / "cache")], check=True)
    (workspace / "src/auth.py").write_text("import os\n\n" + SAMPLE["src/auth.py"])  # moved: a read re-anchors
    hour_ago = time.time() - 3600  # as a clone's files are: settled, so their hashes are worth keeping
    for path in workspace.rglob("*"):
        os.utime(path, (hour_ago, hour_ago), follow_symlinks=False)
    return workspace, tid


def _list(limpet_cmd, workspace: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*limpet_cmd, "list", "--json"], cwd=workspace, capture_output=True, text=True, timeout=60)


def _rows(path: Path) -> dict[str, list]:
    conn = sqlite3.connect(path)
    try:
        tables = sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'"))
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall()) for t in tables}
    finally:
        conn.close()


# -- item 1: a committed .limpet/cache/derived.sqlite symlink ------------------------------------

def test_a_dangling_derived_sqlite_link_creates_nothing_where_it_points(limpet_cmd, tmp_path):
    workspace, tid = _crafted_checkout(tmp_path)
    target = tmp_path / "outside" / "planted.sqlite"
    target.parent.mkdir()
    (workspace / ".limpet" / "cache").mkdir()
    os.symlink(target, workspace / ".limpet" / "cache" / "derived.sqlite")

    proc = _list(limpet_cmd, workspace)

    assert proc.returncode == 0, proc.stderr
    assert tid in proc.stdout  # served without the cache: positions computed in memory
    assert "Traceback" not in proc.stderr
    assert "symlink" in proc.stderr  # said once, naming the link
    assert list(target.parent.iterdir()) == []


def test_a_derived_sqlite_link_to_a_database_leaves_its_tables_and_rows_alone(limpet_cmd, tmp_path):
    workspace, tid = _crafted_checkout(tmp_path)
    db = tmp_path / "outside" / "theirs.sqlite"
    db.parent.mkdir()
    make_outside_db(db)
    before, rows = db.read_bytes(), _rows(db)
    (workspace / ".limpet" / "cache").mkdir()
    os.symlink(db, workspace / ".limpet" / "cache" / "derived.sqlite")

    for _ in range(2):  # the second read would find what the first one wrote
        proc = _list(limpet_cmd, workspace)
        assert proc.returncode == 0 and tid in proc.stdout, proc.stderr

    assert db.read_bytes() == before
    assert _rows(db) == rows  # no table added, no DELETE FROM files / derived
    assert sorted(p.name for p in db.parent.iterdir()) == ["theirs.sqlite"]  # no -wal, no -shm


@pytest.mark.parametrize("sidecar", ["-wal", "-shm", "-journal"])
def test_a_symlinked_wal_shm_or_journal_keeps_sqlite_from_opening_the_cache(tmp_path, sidecar):
    workspace, tid = _crafted_checkout(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x").write_bytes(b"precious")
    (workspace / ".limpet" / "cache").mkdir()
    os.symlink(outside / "x", workspace / ".limpet" / "cache" / f"derived.sqlite{sidecar}")

    svc = Service(workspace)
    assert [t.id for t in svc.threads()] == [tid]
    svc.flush()

    assert (outside / "x").read_bytes() == b"precious" and os.listdir(outside) == ["x"]


# -- item 2: a committed .limpet/exports symlink ---------------------------------------------------

def test_export_comments_through_a_symlinked_exports_folder_is_refused_and_prunes_nothing(tmp_path):
    workspace, _tid = _crafted_checkout(tmp_path)
    outside = tmp_path / "outside"
    for i in range(30):  # more than KEEP_EXPORTS: the pruning would delete the oldest
        (outside / f"comments-20260101T0000000{i:02d}Z.json").parent.mkdir(exist_ok=True)
        (outside / f"comments-20260101T0000000{i:02d}Z.json").write_text(json.dumps({"theirs": i}))
    before = outside_snapshot(outside)
    os.symlink(outside, workspace / ".limpet" / "exports")

    with pytest.raises(StoreError) as refused:
        Service(workspace).export_to_folder("json", ThreadFilter())

    assert refused.value.code == "STORE_ERROR"
    assert "symlink" in refused.value.message and ".limpet/exports" in refused.value.message
    assert outside_snapshot(outside) == before  # no export, no .gitignore, nothing pruned


def test_pruning_deletes_only_the_exports_limpet_named_and_only_regular_files(tmp_path):
    workspace, _tid = _crafted_checkout(tmp_path)
    svc = Service(workspace)
    exports = workspace / ".limpet" / "exports"
    first = svc.export_to_folder("json", ThreadFilter())["path"]
    others = {"comments-mine.json": b"x", "comments-2026.txt": b"y", "notes.json": b"z"}
    for name, data in others.items():
        (exports / name).write_bytes(data)
    outside = tmp_path / "outside.json"
    outside.write_bytes(b"theirs")
    os.symlink(outside, exports / "comments-20200101T000000000Z.json")  # a name limpet makes, as a link
    for _ in range(25):
        svc.export_to_folder("json", ThreadFilter())

    names = set(os.listdir(exports))
    assert workspace / first not in exports.iterdir()  # the oldest of limpet's own went
    assert set(others) <= names and "comments-20200101T000000000Z.json" in names
    assert outside.read_bytes() == b"theirs"


# -- item 3: a symlinked .limpet/cache ---------------------------------------------------------------

def test_a_symlinked_cache_folder_is_never_written_by_a_read_nor_by_a_write(limpet_cmd, tmp_path):
    workspace, tid = _crafted_checkout(tmp_path)
    outside = bait_folder(tmp_path / "outside")
    before = outside_snapshot(outside)
    os.symlink(outside, workspace / ".limpet" / "cache")

    proc = _list(limpet_cmd, workspace)
    assert proc.returncode == 0 and tid in proc.stdout, proc.stderr
    svc = Service(workspace)
    svc.reply(tid, "a write: its backup has nowhere to go, the write itself lands")
    svc.flush()

    assert outside_snapshot(outside) == before  # no derived.sqlite, -wal, -shm, backups/
    assert len(Service(workspace).get(tid).comments) == 2
    problems = Service(workspace).problems()
    assert any("symlink" in " ".join(p) for p in problems.values()), problems  # reconcile says so


# -- item 4: a symlinked .limpet/reviews ------------------------------------------------------------

def test_the_temp_cleanup_never_deletes_through_a_symlinked_reviews_folder(tmp_path):
    workspace, tid = _crafted_checkout(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    for name in ("current.json.tmp-1-1", "their.tmp-file", "x.tmp-99-3"):
        (outside / name).write_bytes(b"theirs")
    before = outside_snapshot(outside)
    os.symlink(outside, workspace / ".limpet" / "reviews")

    svc = Service(workspace)
    svc.reply(tid, "store preparation runs the cleanup")
    with pytest.raises(StoreError) as refused:
        svc.present_review("# Review\n", ".")

    assert "symlink" in refused.value.message
    assert outside_snapshot(outside) == before


def test_the_temp_cleanup_deletes_only_limpets_own_temp_names(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    names = {"a.jsonl.tmp-99999999-1": True, "a.jsonl.tmp-x-1": False, "tmp-1-1": False, "b.tmp-": False,
             "c.json": False}
    for name in names:
        (folder / name).write_bytes(b"")
    (folder / "d.jsonl.tmp-99999999-2").mkdir()  # a folder with a temp name: not a file limpet made
    os.symlink(tmp_path / "elsewhere", folder / "e.jsonl.tmp-99999999-3")

    with Confined(tmp_path, ("f",)).open() as held:
        assert held.remove_stale_temps() == 1

    assert sorted(os.listdir(folder)) == sorted([n for n, gone in names.items() if not gone]
                                                + ["d.jsonl.tmp-99999999-2", "e.jsonl.tmp-99999999-3"])


# -- item 12: protected folders compared case-insensitively, after Unicode normalisation ----------

@pytest.mark.parametrize("path", [".GIT/config", ".Git/hooks/x", ".LIMPET/threads/c_1.jsonl", ".Limpet/store.json",
                                  "\uff0e\uff47\uff49\uff54/config", ".g\u200cit/config", ".git./config",
                                  ".git /config", ".git::$INDEX_ALLOCATION/config", "./.GIT/config"])
def test_case_and_unicode_variants_of_protected_folders_are_invalid_paths(service, path):
    with pytest.raises(InvalidPath) as refused:
        service.add(path, 1, 1, "x")
    assert refused.value.code == "INVALID_PATH"
    with pytest.raises(InvalidPath):
        service.normalize(path)


@pytest.mark.parametrize("path", [".github/workflows/ci.yml", ".gitignore", "src/.GIT/x", ".limpetrc", "git/x"])
def test_names_that_only_look_alike_stay_commentable(service, path):
    assert service.normalize(path) == path


# -- the layer's own rules ----------------------------------------------------------------------

@pytest.mark.parametrize("depth", [0, 1, 2])
def test_a_symlink_at_any_depth_of_a_confined_folder_is_refused_naming_it(tmp_path, depth):
    names = ("a", "b", "c")
    real = tmp_path.joinpath(*names)
    real.mkdir(parents=True)
    link = tmp_path.joinpath(*names[:depth + 1])
    moved = tmp_path / f"moved-{depth}"
    link.rename(moved)
    os.symlink(moved, link)

    for create in (False, True):
        with pytest.raises(Unconfined) as refused:
            Confined(tmp_path, names).open(create=create)
        assert refused.value.code == "STORE_ERROR" and str(link) in refused.value.message
        assert "symlink" in refused.value.message


def test_missing_folders_are_made_and_opened_again_without_following(tmp_path):
    held = Confined(tmp_path, ("x", "y", "z")).open(create=True)
    assert held is not None
    with held:
        held.write_atomic("f", b"data")
        assert held.read("f") == b"data"
    assert (tmp_path / "x" / "y" / "z" / "f").read_bytes() == b"data"
    assert Confined(tmp_path, ("nope",)).open() is None


def test_a_file_read_through_the_layer_must_be_a_regular_file(tmp_path):
    (tmp_path / "real").write_bytes(b"r")
    os.symlink(tmp_path / "real", tmp_path / "link")
    os.mkfifo(tmp_path / "fifo")
    with Confined(tmp_path).open() as held:
        assert held.read("real") == b"r"
        for name in ("link", "fifo"):  # a FIFO never blocks the read
            with pytest.raises(OSError):
                held.read(name)
        for bad in ("..", "a/b", ".", ""):
            with pytest.raises(ValueError):
                held.read(bad)


def test_removal_takes_only_the_names_given_and_only_regular_files(tmp_path):
    (tmp_path / "mine").write_bytes(b"")
    (tmp_path / "theirs").write_bytes(b"")
    os.symlink(tmp_path / "theirs", tmp_path / "link")
    with Confined(tmp_path).open() as held:
        assert not held.remove("theirs", ("mine",))
        assert not held.remove("link", ("link",))
        assert held.remove("mine", ("mine",))
    assert sorted(os.listdir(tmp_path)) == ["link", "theirs"]


def test_every_refusal_is_a_typed_store_error():
    assert issubclass(Unconfined, StoreError) and issubclass(Unconfined, LimpetError)
    assert Unconfined("x").code == "STORE_ERROR"
    assert set(BAIT)  # the bait table a generator extends


@pytest.mark.parametrize("how", ["symlink", "gitdir file"])
def test_a_crafted_dot_git_pointing_out_anchors_no_private_folder_there(tmp_path, how):
    workspace, tid = _crafted_checkout(tmp_path)
    outside = bait_folder(tmp_path / "outside")
    before = outside_snapshot(outside)
    if how == "symlink":
        os.symlink(outside, workspace / ".git")
    else:
        (workspace / ".git").write_text(f"gitdir: {outside}\n")  # no HEAD there: not a git dir

    svc = Service(workspace)
    assert [t.id for t in svc.threads()] == [tid]
    svc.reply(tid, "a write")
    svc.flush()

    assert outside_snapshot(outside) == before  # no limpet/ folder, no database, no backups there


# -- thread files are reached relative to the folder held open, never by a path ------------------

@pytest.mark.parametrize("component", [".limpet", ".limpet/threads"])
def test_a_component_swapped_for_a_symlink_once_the_folder_is_open_cannot_redirect_a_read(tmp_path, component):
    workspace = tmp_path / "ws"
    workspace.mkdir()
    write_files(workspace, SAMPLE)
    tid = Service(workspace).add("src/auth.py", 10, 14, "the real thread").id
    name = f"{tid}.jsonl"
    evil = tmp_path / "evil"  # the same layout and thread id elsewhere, saying something else
    shutil.copytree(workspace / ".limpet", evil / ".limpet")
    planted = evil / ".limpet" / "threads" / name
    planted.write_bytes(planted.read_bytes().replace(b"the real thread", b"planted text"))
    (evil / ".limpet" / "threads" / "c_1.jsonl").write_bytes(planted.read_bytes())
    files = ThreadFiles(Confined(workspace, (".limpet", "threads")))

    with files.held() as folder:
        os.rename(workspace / component, workspace / f"{component}.real")  # swapped between the
        os.symlink(evil / component, workspace / component)  # folder's open and the file's read
        _states, parsed, data = files.read(tid)
        listed = folder.names()
        present = files.states(tid)

    assert data is not None and b"the real thread" in data and b"planted" not in data
    assert [e.body for e in parsed.events] == ["the real thread"]
    assert listed == [name] and present[0] is not None
    with files.held() as folder:  # the next hold walks the path again: the link is refused
        assert folder is None and "symlink" in (files.problem or "")
    assert files.read(tid)[2] is None
