"""A derived position is current only for a file that exists with the content it was placed
against: a thread re-anchored into a file that a checkout then removes is placed again, never
left pointing into a file that is not there."""

from __future__ import annotations

import json
import sqlite3

from gitrepo import commit_all, git, git_init

from limpet.server.core import Service

SOURCE = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"


def test_checking_out_the_commit_before_a_rename_brings_the_thread_back_to_the_old_name(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text(SOURCE)
    git_init(ws)
    tid = Service(ws).add("a.py", 1, 2, "look").id
    commit_all(ws, "thread")
    git(ws, "mv", "a.py", "b.py")
    commit_all(ws, "rename a.py to b.py")

    after_rename = Service(ws)
    placed = after_rename.get(tid)
    assert (placed.anchor.file, placed.health) == ("b.py", "anchored")
    after_rename.flush()  # the position at b.py is saved in the derived cache

    git(ws, "checkout", "-q", "HEAD~1")  # b.py is gone, a.py is back
    assert not (ws / "b.py").exists()
    for service in (after_rename, Service(ws)):  # the same process, and a new one reading the cache
        thread = service.get(tid)
        assert thread.anchor.file != "b.py", "placed in a file that does not exist"
        assert (thread.anchor.file, thread.anchor.line_start, thread.anchor.line_end, thread.health) == \
            ("a.py", 1, 2, "anchored")


def test_a_thread_whose_file_is_gone_is_an_orphan_of_that_file_until_the_file_returns(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text(SOURCE)
    git_init(ws)
    tid = Service(ws).add("a.py", 1, 2, "look").id
    commit_all(ws, "thread")
    git(ws, "rm", "-q", "a.py")
    commit_all(ws, "remove a.py")
    gone = Service(ws)
    assert gone.get(tid).health == "orphaned"
    gone.flush()
    git(ws, "checkout", "-q", "HEAD~1")
    assert Service(ws).get(tid).health == "anchored"


def test_a_saved_position_checked_against_an_absent_file_is_never_current_for_a_placed_thread(tmp_path):
    """Rows an earlier limpet saved for a moved thread carry the hash of the file it left (None:
    absent). Once the file it was moved to is gone too, absent must not equal absent."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text(SOURCE)
    git_init(ws)
    tid = Service(ws).add("a.py", 1, 2, "look").id
    commit_all(ws, "thread")
    git(ws, "mv", "a.py", "b.py")
    commit_all(ws, "rename a.py to b.py")
    service = Service(ws)
    assert service.get(tid).anchor.file == "b.py"
    service.flush()
    with sqlite3.connect(ws / ".git" / "limpet" / "derived.sqlite") as db:
        (record,) = db.execute("SELECT record FROM derived WHERE thread = ?", (tid,)).fetchone()
        row = json.loads(record)
        assert row["anchor"]["file"] == "b.py" and row["health"] == "anchored"
        db.execute("UPDATE derived SET record = ? WHERE thread = ?", (json.dumps({**row, "checked": None}), tid))
    git(ws, "checkout", "-q", "HEAD~1")
    thread = Service(ws).get(tid)
    assert (thread.anchor.file, thread.health) == ("a.py", "anchored")
