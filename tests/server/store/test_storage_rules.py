"""Storage rules: committed text, deterministic, versioned, atomic, locked; damaged records
reported and skipped, never moved aside; reads that write nothing; the older layout converted."""

from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
import time

import orjson
import pytest

from limpet.model import LockTimeout, StoreCorrupted, StoreTooNew
from limpet.server.core import Service


def _thread_file(workspace, tid):
    return workspace / ".limpet" / "threads" / f"{tid}.jsonl"


def _events(workspace, tid):
    return [json.loads(line) for line in _thread_file(workspace, tid).read_text().splitlines()]


def _snapshot(workspace):
    root = workspace / ".limpet"
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_thread_is_a_file_of_events_one_sorted_compact_json_object_a_line(service, workspace):
    t = service.add("PLAN.md", 1, 3, "Check", tag="TODO")
    service.reply(t.id, "a reply", author="alice", author_type="human")
    raw = _thread_file(workspace, t.id).read_bytes()
    assert raw.endswith(b"}\n") and not raw.endswith(b"\n\n")
    lines = raw.splitlines()
    assert [json.loads(line)["event"] for line in lines] == ["created", "replied"]
    for line in lines:
        record = json.loads(line)
        assert record["schema"] == 2 and "id" in record and "thread_id" not in record
        assert line == orjson.dumps(record, option=orjson.OPT_SORT_KEYS)
    created, replied = (json.loads(line) for line in lines)
    assert (created["body"], created["tag"], created["anchor"]["file"]) == ("Check", "TODO", "PLAN.md")
    assert (replied["body"], replied["by"], replied["by_type"], replied["seq"]) == ("a reply", "alice", "human", 1)
    assert json.loads((workspace / ".limpet" / "store.json").read_text()) == {"schema": 2}


def test_identical_events_give_identical_bytes(service, workspace):
    t = service.add("PLAN.md", 1, 3, "Check")
    before = _thread_file(workspace, t.id).read_bytes()
    service.resolve(t.id)
    service.resolve(t.id)  # idempotent: nothing appended
    after = _thread_file(workspace, t.id).read_bytes()
    assert after.startswith(before) and len(after.splitlines()) == 2


def test_git_files_ignore_temp_files_and_merge_thread_files_as_a_union(service, workspace):
    service.add("PLAN.md", 1, 1, "x")
    assert "*.tmp-*" in (workspace / ".limpet" / ".gitignore").read_text()
    assert "threads/*.jsonl merge=union" in (workspace / ".limpet" / ".gitattributes").read_text()


def test_reads_write_no_committed_file_not_even_the_store_marker(workspace):
    svc = Service(workspace)
    assert svc.threads() == [] and svc.reconcile().checked == 0
    svc.flush()
    assert not (workspace / ".limpet" / "store.json").exists()
    assert not (workspace / ".limpet" / ".gitignore").exists()


def test_reads_and_reconciles_never_change_a_committed_byte(service, workspace):
    t = service.add("src/auth.py", 10, 14, "validate")
    before = _snapshot(workspace)
    source = workspace / "src" / "auth.py"
    source.write_text("# a new first line\n" + source.read_text())
    fresh = Service(workspace)
    assert fresh.get(t.id).anchor.line_start == 11
    fresh.reconcile()
    fresh.flush()
    committed = {k: v for k, v in _snapshot(workspace).items() if not k.startswith("cache/")}
    assert committed == {k: v for k, v in before.items() if not k.startswith("cache/")}
    assert Service(workspace).get(t.id).anchor.line_start == 11  # the derived position was kept


@pytest.mark.parametrize("damage", [b"{\"schema\": 2, \"event\": ", b"\x00\xff garbage", b"[1, 2, 3]",
                                    b"{\"schema\": 2}", b"{\"schema\": 2, \"event\": \"replied\", \"body\": 5}"])
def test_a_damaged_line_is_skipped_and_reported_never_moved_aside(service, workspace, damage, caplog):
    t = service.add("PLAN.md", 1, 3, "Check")
    service.reply(t.id, "a reply")
    path = _thread_file(workspace, t.id)
    path.write_bytes(path.read_bytes() + damage + b"\n")
    fresh = Service(workspace)
    assert [c.body for c in fresh.get(t.id).comments] == ["Check", "a reply"]
    report = fresh.reconcile()
    assert list(report.problems) == [f".limpet/threads/{t.id}.jsonl"]
    assert not (workspace / ".limpet" / "corrupt").exists()
    assert path.read_bytes().endswith(damage + b"\n")  # kept as it is
    fresh.reply(t.id, "after the damage")  # a write keeps the damaged line too: nothing is lost
    assert damage.strip() in path.read_bytes()
    assert [c.body for c in Service(workspace).get(t.id).comments] == ["Check", "a reply", "after the damage"]


def test_a_thread_whose_creation_is_damaged_is_shown_from_this_checkouts_backup_and_reported(service, workspace):
    a = service.add("PLAN.md", 1, 1, "a")
    _thread_file(workspace, a.id).write_bytes(b"nope\n")
    fresh = Service(workspace)
    assert fresh.get(a.id).body == "a"
    assert list(fresh.reconcile().problems) == [f".limpet/threads/{a.id}.jsonl"]
    assert _thread_file(workspace, a.id).read_bytes() == b"nope\n"  # a read never writes


def test_without_a_backup_a_damaged_thread_is_reported_and_the_others_read(service, workspace):
    import shutil

    a = service.add("PLAN.md", 1, 1, "a")
    b = service.add("PLAN.md", 3, 3, "b")
    _thread_file(workspace, a.id).write_bytes(b"nope\n")
    shutil.rmtree(workspace / ".limpet" / "cache")  # a fresh clone has no backups
    fresh = Service(workspace)
    assert [t.id for t in fresh.threads()] == [b.id]
    with pytest.raises(StoreCorrupted) as info:
        fresh.get(a.id)
    assert info.value.details["thread_id"] == a.id
    assert _thread_file(workspace, a.id).read_bytes() == b"nope\n"


def test_a_thread_file_from_a_newer_schema_is_refused_and_left_untouched(service, workspace):
    t = service.add("PLAN.md", 1, 1, "a")
    path = _thread_file(workspace, t.id)
    newer = path.read_bytes() + b'{"schema": 9, "event": "something new"}\n'
    path.write_bytes(newer)
    with pytest.raises(StoreTooNew):
        Service(workspace).get(t.id)
    with pytest.raises(StoreTooNew):
        Service(workspace).reply(t.id, "x")
    assert path.read_bytes() == newer
    meta = workspace / ".limpet" / "store.json"
    meta.write_text('{"schema": 7}\n')
    with pytest.raises(StoreTooNew):
        Service(workspace).add("PLAN.md", 1, 1, "b")
    assert meta.read_text() == '{"schema": 7}\n'


def _hold_lock(path, ready, seconds):
    fd = os.open(path, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    ready.set()
    time.sleep(seconds)


def test_lock_held_elsewhere_gives_lock_timeout_not_a_hang(workspace):
    svc = Service(workspace, lock_timeout=0.5)
    svc.add("PLAN.md", 1, 1, "first")  # creates the store
    ready = multiprocessing.Event()
    holder = multiprocessing.Process(target=_hold_lock, args=(str(workspace), ready, 5))
    holder.start()
    try:
        assert ready.wait(10)
        started = time.monotonic()
        with pytest.raises(LockTimeout):
            svc.add("PLAN.md", 1, 1, "second")
        assert time.monotonic() - started < 4
        assert svc.threads()[0].body == "first"  # reads never wait for the lock
    finally:
        holder.kill()
        holder.join()
    # the kernel dropped the dead holder's lock: writes work again
    assert svc.add("PLAN.md", 1, 1, "third").body == "third"


def test_stale_temp_files_do_not_block_writes_and_are_cleaned(service, workspace):
    t = service.add("PLAN.md", 1, 1, "a")
    stale = workspace / ".limpet" / "threads" / f"{t.id}.jsonl.tmp-99999-0"
    stale.write_bytes(b"half written")  # what a writer killed mid-write leaves behind
    later = Service(workspace)  # the next process to write cleans up under the lock
    later.reply(t.id, "b")
    assert not stale.exists()
    assert len(later.get(t.id).comments) == 2


def test_source_files_are_never_modified(service, workspace):
    before = {p: p.read_bytes() for p in workspace.rglob("*") if p.is_file()}
    t = service.add("src/auth.py", 10, 14, "x")
    service.reply(t.id, "y")
    service.resolve(t.id, decision="z")
    service.reconcile()
    for path, data in before.items():
        assert path.read_bytes() == data
    assert os.listdir(workspace / ".limpet")


@pytest.mark.parametrize("inotify", [True, False])
def test_an_in_place_rewrite_by_another_program_is_noticed_by_whole_store_reads(workspace, monkeypatch, inotify):
    if not inotify:  # every whole-store read compares each file's size, mtime, inode and ctime
        monkeypatch.setenv("LIMPET_NO_INOTIFY", "1")
    service = Service(workspace)
    t = service.add("PLAN.md", 1, 1, "a")
    service.threads()  # cached
    path = _thread_file(workspace, t.id)
    data = path.read_bytes()
    with open(path, "r+b") as fh:  # same file, same size, same folder mtime
        fh.write(data.replace(b'"body":"a"', b'"body":"b"'))
    assert [x.body for x in service.threads()] == ["b"]


@pytest.mark.parametrize("inotify", [True, False])
def test_other_processes_writes_are_seen_by_whole_store_reads(workspace, monkeypatch, inotify):
    if not inotify:
        monkeypatch.setenv("LIMPET_NO_INOTIFY", "1")
    reader = Service(workspace)
    assert reader.threads() == []
    writer = Service(workspace)
    t = writer.add("PLAN.md", 1, 1, "a")
    assert [x.id for x in reader.threads()] == [t.id]
    writer.reply(t.id, "b")
    assert [len(x.comments) for x in reader.threads()] == [2]
    writer.delete(t.id)
    assert reader.threads() == []
