"""Workspace files a reconcile need not stat: the kernel named no change to them since they
were last looked at. Never a file the kernel cannot vouch for: a symlink, a file with another
hard link, a folder no watch covers, a process that looks once."""

from __future__ import annotations

import os

from limpet.server.store._loaded import FolderChanges


def _files(tmp_path, names):
    (tmp_path / "src").mkdir(exist_ok=True)
    for name in names:
        (tmp_path / "src" / name).write_text(f"# {name}\n")
    return [f"src/{n}" for n in names]


def _settled(changes, paths, looks=3):
    """Ask as a reconcile does, `looks` times, looking at every file not vouched for."""
    quiet = set()
    for _ in range(looks):
        quiet = changes.settle(paths)
        for p in paths:
            if p not in quiet:
                changes.looked_at(p)
    return quiet


def test_files_nothing_touched_since_they_were_looked_at_are_vouched_for(tmp_path):
    paths = _files(tmp_path, ["a.py", "b.py", "c.py"])
    changes = FolderChanges(str(tmp_path))
    assert changes.settle(paths) == set()  # the first look vouches for nothing
    assert _settled(changes, paths) == set(paths)


def test_a_write_a_rename_over_and_a_delete_are_each_seen_before_the_next_answer(tmp_path):
    paths = _files(tmp_path, ["a.py", "b.py", "c.py", "d.py"])
    changes = FolderChanges(str(tmp_path))
    _settled(changes, paths)
    (tmp_path / "src" / "a.py").write_text("changed\n")  # in place
    (tmp_path / "src" / "tmp").write_text("saved\n")
    os.replace(tmp_path / "src" / "tmp", tmp_path / "src" / "b.py")  # an editor's atomic save
    (tmp_path / "src" / "c.py").unlink()
    assert changes.settle(paths) == {"src/d.py"}


def test_a_symlink_or_a_file_with_another_link_is_never_vouched_for(tmp_path):
    paths = _files(tmp_path, ["a.py", "b.py"])
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "target.py").write_text("x\n")
    (tmp_path / "src" / "link.py").symlink_to(tmp_path / "elsewhere" / "target.py")
    os.link(tmp_path / "src" / "b.py", tmp_path / "elsewhere" / "b_again.py")
    paths.append("src/link.py")
    changes = FolderChanges(str(tmp_path))
    assert _settled(changes, paths) == {"src/a.py"}
    (tmp_path / "elsewhere" / "target.py").write_text("changed through the target\n")
    (tmp_path / "elsewhere" / "b_again.py").write_text("changed through the other link\n")
    assert "src/link.py" not in changes.settle(paths) and "src/b.py" not in changes.settle(paths)


def test_a_folder_replaced_by_another_vouches_for_nothing_in_it(tmp_path):
    paths = _files(tmp_path, ["a.py", "b.py"])
    changes = FolderChanges(str(tmp_path))
    _settled(changes, paths)
    os.rename(tmp_path / "src", tmp_path / "old")
    _files(tmp_path, ["a.py", "b.py"])  # a checkout that removed and recreated the folder
    assert changes.settle(paths) == set()


def test_a_process_that_looks_once_or_a_network_file_system_is_never_vouched_for(tmp_path, monkeypatch):
    paths = _files(tmp_path, ["a.py"])
    assert _settled(FolderChanges(str(tmp_path), watch=False), paths) == set()
    monkeypatch.setenv("LIMPET_NO_INOTIFY", "1")
    assert _settled(FolderChanges(str(tmp_path)), paths) == set()
