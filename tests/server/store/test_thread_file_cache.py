"""A fresh process does not re-read thread files that did not change since one was read.

The folded threads are kept in the private folder with the stat of the file they came from;
any change to a file (even one that keeps its size and restores its mtime) reads it again,
and a damaged or foreign cache is no cache."""

from __future__ import annotations

import os

import pytest

from limpet.server.core import Service
from limpet.server.store import Confined, FileState, _entries


@pytest.fixture
def file_reads(monkeypatch):
    reads: list[str] = []
    real = _entries.read_entry

    def counting(files, thread_id, *args, **kwargs):
        reads.append(thread_id)
        return real(files, thread_id, *args, **kwargs)

    monkeypatch.setattr(_entries, "read_entry", counting)
    return reads


def _fresh_read(workspace) -> list:
    svc = Service(workspace, lock_timeout=5)
    threads = svc.threads()
    svc.flush()
    return threads


def _cache_file(workspace):
    return workspace / ".limpet" / "cache" / "threads.cache"


def _as_records(threads) -> list[dict]:
    return [t.to_record() for t in threads]


def test_a_fresh_process_takes_unchanged_threads_from_the_cache(service, workspace, settled, file_reads):
    a = service.add("src/auth.py", 10, 14, "about validate_token")
    service.reply(a.id, "a reply", author="alice", author_type="human")
    b = service.add("PLAN.md", 1, 2, "plan note")
    service.resolve(b.id, decision="done")
    first = _fresh_read(workspace)  # reads the files, keeps their folds
    assert sorted(file_reads) == sorted([a.id, b.id]) and _cache_file(workspace).is_file()
    file_reads.clear()
    again = _fresh_read(workspace)
    assert file_reads == []
    assert _as_records(again) == _as_records(first)


def test_a_file_rewritten_in_place_is_read_again(service, workspace, settled, file_reads):
    t = service.add("src/auth.py", 10, 14, "Check the expiry")
    _fresh_read(workspace)
    path = workspace / ".limpet" / "threads" / f"{t.id}.jsonl"
    before = os.stat(path)
    path.write_bytes(path.read_bytes().replace(b"Check the expiry", b"Chock the expiry"))  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the same mtime
    file_reads.clear()
    assert [x.comments[0].body for x in _fresh_read(workspace)] == ["Chock the expiry"]
    assert file_reads == [t.id]


def test_a_deleted_thread_and_a_new_one_are_seen(service, workspace, settled):
    gone = service.add("src/auth.py", 10, 14, "to delete")
    _fresh_read(workspace)
    service.delete(gone.id)
    new = service.add("PLAN.md", 1, 1, "new")
    assert [x.id for x in _fresh_read(workspace)] == [new.id]


@pytest.mark.parametrize("damage", [b"", b"LIMPETC1", b"LIMPETC1\x00\x00\x00\x09garbage!!", b"not a cache at all",
                                    b"LIMPETC1\x7f\xff\xff\xff"])
def test_a_damaged_cache_is_no_cache(service, workspace, settled, file_reads, damage):
    t = service.add("src/auth.py", 10, 14, "about validate_token")
    first = _fresh_read(workspace)
    _cache_file(workspace).write_bytes(damage)
    file_reads.clear()
    assert _as_records(_fresh_read(workspace)) == _as_records(first)
    assert file_reads == [t.id]
    assert _cache_file(workspace).read_bytes().startswith(b"LIMPETC1")  # written anew


def test_a_cut_short_cache_is_no_cache(service, workspace, settled, file_reads):
    for i in range(3):
        service.add("src/auth.py", 10, 14, f"note {i}")
    first = _fresh_read(workspace)
    data = _cache_file(workspace).read_bytes()
    _cache_file(workspace).write_bytes(data[: len(data) - 10])
    file_reads.clear()
    assert _as_records(_fresh_read(workspace)) == _as_records(first)
    assert len(file_reads) == 3


def test_a_cache_made_by_other_code_is_not_used(tmp_path, service, settled):
    t = service.add("src/auth.py", 10, 14, "about validate_token")
    ours = _entries.EntryCache(lambda create: Confined(tmp_path), code=[1, 2])
    st = os.stat(tmp_path)
    state = FileState(st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)
    ours.put(t.id, state, "key", False, t)
    assert ours.save(lambda: {t.id})
    assert _entries.EntryCache(lambda create: Confined(tmp_path), code=[1, 2]).get(t.id, state) is not None
    assert _entries.EntryCache(lambda create: Confined(tmp_path), code=[3, 4]).get(t.id, state) is None


def test_files_written_in_the_last_seconds_are_not_kept(service, workspace, file_reads):
    t = service.add("src/auth.py", 10, 14, "just written")
    _fresh_read(workspace)
    file_reads.clear()
    _fresh_read(workspace)
    assert file_reads == [t.id]  # a write within the clock's tick could leave its stat unchanged


def test_a_big_store_loads_in_one_pass_in_listing_order_with_a_damaged_file_recovered_and_reported(
        service, workspace, settled, file_reads):
    specs = [{"file": "src/auth.py" if i % 2 else "PLAN.md", "line_start": 1 + i % 5, "line_end": 1 + i % 5,
              "body": f"note {i}"} for i in range(90)]  # more than a few dozen: the store's bulk load
    made = service.add_many(specs)
    first = _fresh_read(workspace)
    damaged = workspace / ".limpet" / "threads" / f"{made[7].id}.jsonl"
    damaged.write_bytes(b"{not json\n")
    file_reads.clear()
    svc = Service(workspace, lock_timeout=5)
    again = svc.threads()
    assert file_reads == [made[7].id]  # the others came from the cache
    assert _as_records(again) == _as_records(first)  # the damaged one from this checkout's backup
    assert [(t.file, t.anchor.line_start, t.id) for t in again] == sorted(
        (t.file, t.anchor.line_start, t.id) for t in again)
    [(path, problems)] = svc.problems().items()
    assert made[7].id in path and any("backup" in p for p in problems)
