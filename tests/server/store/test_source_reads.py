"""Reading a workspace file: the path that was checked is the file that is read.

`Workspace.read` checks every component of the path (no symlink out, no protected folder)
and then opens it without following a symlink and without waiting on a FIFO, checking the
open file again: a file swapped between the check and the open is refused, not followed.
"""

from __future__ import annotations

import os

import pytest

from limpet.model import InvalidPath
from limpet.server.store import Workspace
from limpet.server.store._paths import _read_to_end


def test_a_file_is_read_whole(tmp_path):
    (tmp_path / "a.py").write_bytes(b"x = 1\n" * 10_000)
    assert Workspace(tmp_path).read("a.py") == b"x = 1\n" * 10_000


def test_a_file_that_grew_since_its_stat_is_read_to_its_end(tmp_path):
    (tmp_path / "a.py").write_bytes(b"0123456789" * 10_000)
    fd = os.open(tmp_path / "a.py", os.O_RDONLY)
    try:
        assert _read_to_end(fd, 10) == b"0123456789" * 10_000  # its stat said 10 bytes
    finally:
        os.close(fd)


@pytest.mark.parametrize("swap", ["symlink", "fifo"])
def test_a_file_swapped_after_its_check_is_refused_not_followed(tmp_path, monkeypatch, swap):
    outside = tmp_path / "outside.txt"
    outside.write_text("secret\n")
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    ws = Workspace(root)
    checked = ws._real

    def swapped_after_check(rel, field):
        found = checked(rel, field)
        os.unlink(root / rel)
        if swap == "symlink":
            os.symlink(outside, root / rel)
        else:
            os.mkfifo(root / rel)
        return found

    monkeypatch.setattr(ws, "_real", swapped_after_check)
    with pytest.raises(InvalidPath):
        ws.read("a.py")
