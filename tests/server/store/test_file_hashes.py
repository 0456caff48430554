"""A fresh process does not read a workspace file to learn whether its threads' positions are
current when an earlier process hashed it at the same stat.

Hashes are kept in the derived cache (private folder) with the file's stat; a file whose stat
changed is read and hashed again, a file written in the last seconds is not kept (its stat
may not change on the next write), and a damaged row counts as absent."""

from __future__ import annotations

import os
import sqlite3

import pytest

from limpet.server.core import Service
from limpet.server.store import Workspace


@pytest.fixture
def source_reads(monkeypatch):
    reads: list[str] = []
    real = Workspace.read_or_none
    monkeypatch.setattr(Workspace, "read_or_none", lambda self, rel: reads.append(rel) or real(self, rel))
    return reads


def _fresh_list(workspace) -> list:
    svc = Service(workspace, lock_timeout=5, one_shot=True)
    threads = svc.threads()
    svc.flush()
    return threads


def _database(workspace):
    found = list(workspace.rglob("derived.sqlite"))
    assert len(found) == 1
    return found[0]


def test_a_fresh_process_does_not_read_files_an_earlier_one_hashed(service, workspace, settled, source_reads):
    service.add("src/auth.py", 10, 14, "about validate_token")
    service.add("PLAN.md", 1, 2, "plan note")
    service.flush()
    _fresh_list(workspace)  # hashes what it must and keeps the hashes
    source_reads.clear()
    threads = _fresh_list(workspace)
    assert source_reads == [] and {t.anchor.file for t in threads} == {"src/auth.py", "PLAN.md"}


def test_a_file_that_changed_since_is_read_and_its_thread_follows(service, workspace, settled, source_reads):
    t = service.add("src/auth.py", 10, 14, "about validate_token")
    service.flush()
    _fresh_list(workspace)
    path = workspace / "src" / "auth.py"
    path.write_text("# a new first line\n" + path.read_text())
    source_reads.clear()
    moved = {x.id: x for x in _fresh_list(workspace)}[t.id]
    assert "src/auth.py" in source_reads
    assert (moved.anchor.line_start, moved.anchor.line_end) == (11, 15)


def test_a_file_rewritten_in_place_with_its_size_and_mtime_kept_is_read_again(service, workspace, settled,
                                                                              source_reads):
    t = service.add("src/auth.py", 10, 14, "about validate_token")
    service.flush()
    _fresh_list(workspace)
    path = workspace / "src" / "auth.py"
    st = path.stat()
    text = path.read_text()
    path.write_text("\n" + text[:-1])  # same size, one line down
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # the ctime still changes
    source_reads.clear()
    moved = {x.id: x for x in _fresh_list(workspace)}[t.id]
    assert "src/auth.py" in source_reads and moved.anchor.line_start == 11


def test_files_written_in_the_last_seconds_are_not_kept(service, workspace, source_reads):
    service.add("src/auth.py", 10, 14, "about validate_token")
    service.flush()
    _fresh_list(workspace)
    source_reads.clear()
    _fresh_list(workspace)
    assert "src/auth.py" in source_reads  # just written: not trusted by its stat yet


def test_damaged_rows_count_as_absent(service, workspace, settled, source_reads):
    service.add("src/auth.py", 10, 14, "about validate_token")
    service.flush()
    _fresh_list(workspace)
    with sqlite3.connect(_database(workspace)) as db:
        db.execute("UPDATE files SET state = 'not a stat', hash = hash")
        db.execute("INSERT OR REPLACE INTO files VALUES ('PLAN.md', '1,2,3,4', 'NOT A HASH')")
    source_reads.clear()
    _fresh_list(workspace)
    assert "src/auth.py" in source_reads
