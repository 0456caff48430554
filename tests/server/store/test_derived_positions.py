"""Re-anchoring results are derived: kept in the private cache (written behind), never in a
committed thread file, never over a newer move."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time

import anyio
import pytest
from support import call, stdio_session

from limpet.server.core import Service


def _committed(workspace, tid):
    return (workspace / ".limpet" / "threads" / f"{tid}.jsonl").read_bytes()


def _seen_by_a_new_process(workspace, tid):
    """What a new process shows without re-anchoring anything itself (the cache, or the commit)."""
    return Service(workspace).get(tid, fresh=False)


def _shift(workspace, rel="src/auth.py", lines=2):
    path = workspace / rel
    path.write_text("# added\n" * lines + path.read_text())


def test_reconcile_is_visible_at_once_and_written_on_flush(service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    report = service.reconcile()
    assert [c.id for c in report.changed] == [t.id]
    committed = _committed(workspace, t.id)
    assert service.get(t.id).anchor.line_start == 12  # this process sees the new position now
    assert _seen_by_a_new_process(workspace, t.id).anchor.line_start == 10  # ... other processes later
    assert service.flush() == 1
    assert _seen_by_a_new_process(workspace, t.id).anchor.line_start == 12
    assert service.flush() == 0
    assert _committed(workspace, t.id) == committed  # derived state never touches the thread file


def test_a_reply_appends_one_event_and_keeps_the_derived_position(service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    service.reconcile()
    committed = _committed(workspace, t.id)
    replied = service.reply(t.id, "y")
    assert replied.anchor.line_start == 12 and len(replied.comments) == 2
    after = _committed(workspace, t.id)
    assert after.startswith(committed) and json.loads(after.splitlines()[-1])["event"] == "replied"
    service.flush()
    assert _seen_by_a_new_process(workspace, t.id).anchor.line_start == 12


def test_a_derived_position_never_overrides_a_newer_move_by_another_process(service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    service.reconcile()
    other = Service(workspace)
    other.move(t.id, "PLAN.md", 1)
    other.reply(t.id, "moved by hand")
    service.flush()  # derived from the anchor before the move: ignored from now on
    seen = _seen_by_a_new_process(workspace, t.id)
    assert seen.anchor.file == "PLAN.md" and len(seen.comments) == 2


def test_derived_positions_survive_replies_made_elsewhere_meanwhile(service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    service.reconcile()
    Service(workspace).reply(t.id, "from another process")  # that process re-anchors on its own
    service.flush()
    seen = _seen_by_a_new_process(workspace, t.id)
    assert seen.anchor.line_start == 12
    assert [c.body for c in seen.comments] == ["x", "from another process"]


def test_cli_reconcile_keeps_positions_before_it_exits(limpet_cmd, service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    subprocess.run([*limpet_cmd, "reconcile"], cwd=workspace, check=True, capture_output=True)
    assert _seen_by_a_new_process(workspace, t.id).anchor.line_start == 12


@pytest.mark.anyio
async def test_server_keeps_staged_positions_when_idle(service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    async with stdio_session(workspace) as s:
        _, data, _ = await call(s, "comment_reconcile", {})
        assert data["counts"]["anchored"] == 1
        deadline = time.monotonic() + 10
        while _seen_by_a_new_process(workspace, t.id).anchor.line_start != 12 and time.monotonic() < deadline:
            await anyio.sleep(0.1)
    assert _seen_by_a_new_process(workspace, t.id).anchor.line_start == 12


def test_staged_moves_keep_the_thread_order(service, workspace):
    # Staging re-sorts only the files it touched; the order must equal a full sort.
    helper = service.add("src/auth.py", 17, 18, "helper")
    validate = service.add("src/auth.py", 10, 14, "validate")
    plan = service.add("PLAN.md", 1, 1, "plan")
    path = workspace / "src/auth.py"
    source = path.read_text()
    block = "def helper(x):\n    return x * 2\n"
    path.write_text(block + "\n\n" + source.replace(block, ""))  # helper moves above the class
    service.reconcile()

    def key(t):
        return (t.anchor.file, t.anchor.line_start, t.id)

    threads = service.threads()
    assert [t.id for t in threads] == [t.id for t in sorted(threads, key=key)] == [plan.id, helper.id, validate.id]
    assert [t.id for t in service._store.by_file()["src/auth.py"]] == [helper.id, validate.id]
    service.flush()
    assert [t.id for t in Service(workspace).threads()] == [plan.id, helper.id, validate.id]


def _search(service, query):
    from limpet.server.operations import invoke

    return invoke(service, "search_comments", {"query": query})[1]


def test_a_search_in_a_new_process_places_threads_whose_file_changed_since_the_cache(workspace, settled):
    """A file none of whose threads changed since the load, all placed against its content then,
    is checked by one lookup; a file edited since is re-anchored as before."""
    first = Service(workspace)
    a = first.add("src/auth.py", 10, 14, "check the token expiry")
    b = first.add("src/auth.py", 17, 18, "check the token audience")
    first.reconcile()
    first.flush()
    fresh = Service(workspace)
    threads = fresh._store.by_file(refresh=True)["src/auth.py"]
    digest = fresh._reconciler.hashes.hash_of("src/auth.py")
    assert fresh._store.checked_against("src/auth.py", threads, digest) == []
    assert {t.id for t in fresh._store.checked_against("src/auth.py", threads, "another")} == {a.id, b.id}
    _shift(workspace)
    later = Service(workspace)
    _search(later, "token")
    assert later.get(a.id, fresh=False).anchor.line_start == 12
    assert later.get(b.id, fresh=False).anchor.line_start == 19


def test_a_thread_placed_anew_takes_its_file_out_of_the_one_lookup(workspace, settled):
    first = Service(workspace)
    a = first.add("src/auth.py", 10, 14, "check the token expiry")
    first.add("src/auth.py", 17, 18, "check the token audience")
    first.reconcile()
    first.flush()
    fresh = Service(workspace)
    store = fresh._store
    threads = store.by_file(refresh=True)["src/auth.py"]
    digest = fresh._reconciler.hashes.hash_of("src/auth.py")
    store.stage(store.get(a.id), store.get(a.id), "another content")
    assert [t.id for t in store.checked_against("src/auth.py", threads, digest)] == [a.id]


def test_a_file_with_a_changed_thread_is_not_summed_up_again_by_a_later_load():
    """A thread placed against an older content, changed since (a reply): a thread another
    process adds later, placed against the current content, does not vouch for it."""
    from types import SimpleNamespace

    from limpet.server.store._loaded import PlacedFiles

    def thread(tid):
        return SimpleNamespace(id=tid, anchor=SimpleNamespace(file="src/auth.py"))

    old, new = thread("t1"), thread("t2")
    entries = {"t1": SimpleNamespace(checked=("content 1", None)), "t2": SimpleNamespace(checked=("content 2", None))}
    placed = PlacedFiles()
    placed.loaded("src/auth.py", "content 1")
    assert placed.stale(entries, "src/auth.py", [old], "content 1") == []
    placed.changed(old)
    placed.loaded("src/auth.py", "content 2")  # the later load of t2
    assert placed.stale(entries, "src/auth.py", [old, new], "content 2") == [old]


def test_a_file_whose_threads_disagree_is_checked_thread_by_thread_even_once_it_is_gone():
    """Threads of one file placed against two contents, then the file deleted (its content hash
    None): no summary stands for both, each thread is stale."""
    from types import SimpleNamespace

    from limpet.server.store._loaded import PlacedFiles

    threads = [SimpleNamespace(id=tid, anchor=SimpleNamespace(file="src/auth.py")) for tid in ("t1", "t2")]
    entries = {"t1": SimpleNamespace(checked=("content 1", None)), "t2": SimpleNamespace(checked=("content 2", None))}
    placed = PlacedFiles()
    placed.loaded("src/auth.py", "content 1")
    placed.loaded("src/auth.py", "content 2")
    assert placed.stale(entries, "src/auth.py", threads, None) == threads


# -- a derived cache anyone could have written --------------------------------------------------
def _placed_and_cached(service, workspace):
    """A thread moved by an edit, its position saved in the cache: (thread id, the database)."""
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    service.reconcile()
    service.flush()
    return t.id, workspace / ".limpet" / "cache" / "derived.sqlite"


def _schema(db_path):
    with sqlite3.connect(db_path) as db:
        return sorted(db.execute("SELECT type, name FROM sqlite_master"))


@pytest.mark.parametrize("crafted", [
    "DROP TABLE derived; CREATE VIEW derived AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
    "SELECT 'c_' || x AS thread, 'e_1' AS base, x AS record FROM c",
    "CREATE TRIGGER refuse BEFORE INSERT ON derived BEGIN SELECT RAISE(ABORT, 'no'); END",
    "DROP TABLE files; CREATE TABLE files (x)",
    "CREATE TABLE other (x)",
], ids=["an endless view", "a trigger", "other columns", "another table"])
def test_a_derived_cache_holding_what_limpet_never_made_is_started_anew(service, workspace, crafted):
    tid, db_path = _placed_and_cached(service, workspace)
    made = _schema(db_path)
    with sqlite3.connect(db_path) as db:
        db.executescript(crafted)
    fresh = Service(workspace)
    assert fresh.get(tid).anchor.line_start == 12  # placed again: nothing read from the crafted file
    fresh.flush()
    assert _schema(db_path) == made
    assert _seen_by_a_new_process(workspace, tid).anchor.line_start == 12  # and kept again


@pytest.mark.parametrize("change", [{"confidence": 1e308}, {"confidence": -5.0}, {"method": "m" * 100_000},
                                    {"method": "Exact!"}, {"moved_at": "yesterday"}])
def test_a_derived_row_with_a_value_limpet_never_writes_is_dropped_and_computed_again(service, workspace, change):
    tid, db_path = _placed_and_cached(service, workspace)
    with sqlite3.connect(db_path) as db:
        (record,) = db.execute("SELECT record FROM derived WHERE thread = ?", (tid,)).fetchone()
        hostile = json.dumps({**json.loads(record), **change}).encode()
        db.execute("UPDATE derived SET record = ? WHERE thread = ?", (hostile, tid))
    thread = Service(workspace).get(tid)
    assert (thread.anchor.line_start, thread.anchor_method) == (12, "exact")
    assert 0.0 <= thread.anchor_confidence <= 1.0 and thread.updated_at[:4].isdigit()
