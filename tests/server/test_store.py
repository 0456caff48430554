"""Storage rules of the contract: text, deterministic, versioned, atomic, locked, recoverable."""

from __future__ import annotations

import json
import multiprocessing
import os
import time

import pytest

from limpet.model import LockTimeout, StoreCorrupted, StoreTooNew
from limpet.server.core import Service


def _thread_file(workspace, tid):
    return workspace / ".limpet" / "threads" / f"{tid}.json"


def test_thread_file_is_sorted_indented_text_with_schema_and_one_trailing_newline(service, workspace):
    t = service.add("PLAN.md", 1, 3, "Check")
    raw = _thread_file(workspace, t.id).read_bytes()
    assert raw.endswith(b"}\n") and not raw.endswith(b"\n\n")
    record = json.loads(raw)
    assert record["schema"] == 1
    assert list(record) == sorted(record)
    assert raw == (json.dumps(record, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def test_identical_content_gives_identical_bytes(service, workspace):
    t = service.add("PLAN.md", 1, 3, "Check")
    before = _thread_file(workspace, t.id).read_bytes()
    service._store._cache.clear()
    with service._store.transaction():
        service._store.put(service._store.get(t.id))
    assert _thread_file(workspace, t.id).read_bytes() == before


def test_caches_and_private_folders_are_git_ignored(service, workspace):
    service.add("PLAN.md", 1, 1, "x")
    ignore = (workspace / ".limpet" / ".gitignore").read_text()
    for entry in ("backups/", "cache/", "corrupt/", "exports/", "lock"):
        assert entry in ignore


@pytest.mark.parametrize("damage", [b"", b"{\"schema\": 1, \"id\": ", b"\x00\xff garbage", b"[1, 2, 3]\n",
                                    b"{\"schema\": 1}\n"])
def test_corrupt_thread_file_is_recovered_from_backup_once(service, workspace, damage):
    t = service.add("PLAN.md", 1, 3, "Check")
    service.reply(t.id, "a reply")
    good = _thread_file(workspace, t.id).read_bytes()
    _thread_file(workspace, t.id).write_bytes(damage)
    fresh = Service(workspace)  # a new process would see the file as it is on disk
    with pytest.raises(StoreCorrupted) as info:
        fresh.get(t.id)
    assert info.value.details["recovered"] is True
    kept = list((workspace / ".limpet" / "corrupt").iterdir())
    assert len(kept) == 1 and kept[0].read_bytes() == damage
    assert _thread_file(workspace, t.id).read_bytes() == good
    again = fresh.get(t.id)  # reported once; afterwards the thread reads normally
    assert [c.body for c in again.comments] == ["Check", "a reply"]


def test_other_threads_are_unaffected_by_one_corrupt_file(service, workspace):
    a = service.add("PLAN.md", 1, 1, "a")
    b = service.add("PLAN.md", 3, 3, "b")
    _thread_file(workspace, a.id).write_bytes(b"nope")
    fresh = Service(workspace)
    assert fresh.get(b.id).body == "b"


def test_store_written_by_newer_schema_is_refused_and_left_untouched(service, workspace):
    t = service.add("PLAN.md", 1, 1, "a")
    path = _thread_file(workspace, t.id)
    record = json.loads(path.read_text())
    record["schema"] = 99
    newer = (json.dumps(record) + "\n").encode()
    path.write_bytes(newer)
    with pytest.raises(StoreTooNew):
        Service(workspace).get(t.id)
    assert path.read_bytes() == newer
    meta = workspace / ".limpet" / "store.json"
    meta.write_text('{"schema": 7}\n')
    with pytest.raises(StoreTooNew):
        Service(workspace).add("PLAN.md", 1, 1, "b")
    assert meta.read_text() == '{"schema": 7}\n'


def _hold_lock(path, ready, seconds):
    import filelock

    with filelock.FileLock(path):
        ready.set()
        time.sleep(seconds)


def test_lock_held_elsewhere_gives_lock_timeout_not_a_hang(workspace):
    svc = Service(workspace, lock_timeout=0.5)
    svc.add("PLAN.md", 1, 1, "first")  # creates the store
    ready = multiprocessing.Event()
    holder = multiprocessing.Process(target=_hold_lock, args=(str(workspace / ".limpet" / "lock"), ready, 5))
    holder.start()
    try:
        assert ready.wait(10)
        started = time.monotonic()
        with pytest.raises(LockTimeout):
            svc.add("PLAN.md", 1, 1, "second")
        assert time.monotonic() - started < 4
    finally:
        holder.kill()
        holder.join()
    # the kernel dropped the dead holder's lock: writes work again
    assert svc.add("PLAN.md", 1, 1, "third").body == "third"


def test_stale_temp_files_do_not_block_writes_and_are_cleaned(service, workspace):
    t = service.add("PLAN.md", 1, 1, "a")
    stale = workspace / ".limpet" / "threads" / f"{t.id}.json.tmp-99999-0"
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
