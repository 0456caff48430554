"""Corruption: a damaged store file is reported (reconcile's `problems`, the log), kept exactly as
it is and never able to fail the rest of the store; this checkout's backup shows it meanwhile
and the next write repairs it; a store written by a newer schema is refused clearly and left
exactly as it was."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from torture.harness import RpcServer, store_snapshot

from limpet.server.core import Service


def _damages(good: bytes) -> dict[str, bytes]:
    return {
        "truncated": good[: len(good) // 2],
        "garbled": bytes(b ^ 0x5A for b in good[:200]) + good[200:],
        "empty": b"",
        "invalid-utf8": good.replace(b'"', b"\xff\xfe", 3),
        "wrong-schema": b'{"schema": 1, "comments": "not a list"}\n',
        "not-an-object": b"[1, 2, 3]\n",
        "nul-bytes": b"\x00" * len(good),
    }


DAMAGES = sorted(_damages(b"x" * 300))


def _seed(workspace: Path) -> tuple[str, str]:
    svc = Service(workspace)
    a = svc.add("src/auth.py", 10, 14, "first thread")
    svc.reply(a.id, "a reply that must survive")
    b = svc.add("PLAN.md", 1, 1, "second thread")
    return a.id, b.id


def _thread_file(workspace: Path, tid: str) -> Path:
    return workspace / ".limpet" / "threads" / f"{tid}.jsonl"


def _damage_one_thread_per_kind(workspace: Path) -> tuple[dict[str, tuple[bytes, bytes]], str]:
    """One thread (with a reply) per kind of damage, plus one left intact: id → (good, bad)."""
    svc = Service(workspace)
    damaged = {}
    for n, kind in enumerate(DAMAGES):
        t = svc.add("src/auth.py", 1 + n, 1 + n, f"thread {kind}")
        svc.reply(t.id, f"reply on {kind}")
        good = _thread_file(workspace, t.id).read_bytes()
        damaged[t.id] = (good, _damages(good)[kind])
    intact = svc.add("PLAN.md", 1, 1, "intact").id
    for tid, (_, bad) in damaged.items():
        _thread_file(workspace, tid).write_bytes(bad)
    return damaged, intact


def _assert_whole(thread: dict) -> None:
    first = thread["comments"][0]["body"]
    assert [c["body"] for c in thread["comments"]] == [first, first.replace("thread", "reply on")]


def test_damaged_thread_files_are_shown_from_backups_reported_and_kept_as_they_are(workspace, figures):
    damaged, intact = _damage_one_thread_per_kind(workspace)
    with RpcServer(workspace, timeout=30) as server:
        for tid in damaged:  # never an error: each is shown from this checkout's backup
            _assert_whole(server.ok("comment_show", {"thread_id": tid})["thread"])
        listed = {t["id"]: t for t in server.ok("comment_list", {})["threads"]}
        assert set(listed) == {*damaged, intact}
        problems = server.ok("comment_reconcile", {})["problems"]
        assert sorted(problems) == sorted(f".limpet/threads/{tid}.jsonl" for tid in damaged)
        for tid, (_, bad) in damaged.items():
            assert _thread_file(workspace, tid).read_bytes() == bad  # a read never writes
        assert not (workspace / ".limpet" / "corrupt").exists()  # nothing moved aside
        for tid in damaged:  # the next write repairs the file from the backup, keeping the damage too
            after = server.ok("comment_reply", {"thread_id": tid, "body": "writes work again"})["thread"]
            assert len(after["comments"]) == 3
        server.ok("comment_reply", {"thread_id": intact, "body": "and here"})
    fresh = Service(workspace)
    assert all(len(fresh.get(tid).comments) == 3 for tid in damaged)
    figures.setdefault("corruption", {})["damaged_thread_files_shown_from_backup"] = len(damaged)
    figures["corruption"]["damage_kinds"] = DAMAGES
    figures["corruption"]["problems_reported_by_reconcile"] = len(problems)


def test_without_backups_damaged_threads_are_reported_and_never_fail_the_store(workspace, figures):
    damaged, intact = _damage_one_thread_per_kind(workspace)
    shutil.rmtree(workspace / ".limpet" / "cache")  # a fresh clone: no backups
    with RpcServer(workspace, timeout=30) as server:
        listed = [t["id"] for t in server.ok("comment_list", {})["threads"]]
        assert listed == [intact]  # the rest of the store is served
        errors = [server.error("comment_show", {"thread_id": tid}) for tid in damaged]
        kinds = {e["code"] for e in errors}
        assert kinds <= {"STORE_CORRUPTED", "THREAD_NOT_FOUND"} and "STORE_CORRUPTED" in kinds
        assert sorted(server.ok("comment_reconcile", {})["problems"]) == sorted(
            f".limpet/threads/{tid}.jsonl" for tid in damaged)
        server.ok("comment_add", {"file": "PLAN.md", "line_start": 3, "line_end": 3, "body": "still writable"})
    for tid, (_, bad) in damaged.items():
        assert _thread_file(workspace, tid).read_bytes() == bad
    figures.setdefault("corruption", {})["damaged_without_backup_reported"] = len(damaged)


def test_a_damaged_store_marker_is_rewritten_by_the_next_write(workspace):
    a, _ = _seed(workspace)
    meta = workspace / ".limpet" / "store.json"
    meta.write_bytes(b'{"sche')
    with RpcServer(workspace, timeout=30) as server:
        server.ok("comment_list", {})
        assert meta.read_bytes() == b'{"sche'  # a read writes nothing
        server.ok("comment_reply", {"thread_id": a, "body": "after the marker broke"})
    assert json.loads(meta.read_bytes()) == {"schema": 2}


WRITES = [
    ("comment_add", lambda a: {"file": "PLAN.md", "line_start": 1, "line_end": 1, "body": "x"}),
    ("comment_reply", lambda a: {"thread_id": a, "body": "x"}),
    ("comment_resolve", lambda a: {"thread_id": a, "decision": "x"}),
    ("edit_comment", lambda a: {"filePath": "src/auth.py", "commentId": a, "text": "x"}),
    ("delete_comment", lambda a: {"filePath": "src/auth.py", "commentId": a}),
    ("present_review", lambda a: {"content": "# R\n\n[`src/auth.py:10`][]\n", "baseUri": "."}),
]


def test_a_store_from_a_newer_schema_is_refused_and_never_overwritten(workspace, figures):
    a, _ = _seed(workspace)
    meta = workspace / ".limpet" / "store.json"
    meta.write_bytes(b'{"schema": 99}\n')
    before = store_snapshot(workspace)
    with RpcServer(workspace, timeout=30) as server:
        for tool, args in WRITES:
            error = server.error(tool, args(a))
            assert error["code"] == "STORE_TOO_NEW", (tool, error)
            assert "newer" in error["message"] and error["details"]["schema"] == 99
    assert store_snapshot(workspace) == before
    figures.setdefault("corruption", {})["newer_store_writes_refused"] = len(WRITES)


def test_a_thread_file_from_a_newer_schema_is_refused_and_left_in_place(workspace):
    a, b = _seed(workspace)
    path = _thread_file(workspace, a)
    newer = path.read_bytes() + b'{"schema": 99, "event": "from the future"}\n'
    path.write_bytes(newer)
    before = store_snapshot(workspace)
    with RpcServer(workspace, timeout=30) as server:
        for tool, args in [("comment_show", {"thread_id": a}), ("comment_reply", {"thread_id": a, "body": "x"})]:
            error = server.error(tool, args)
            assert error["code"] == "STORE_TOO_NEW" and error["details"]["schema"] == 99, (tool, error)
        assert [t["id"] for t in server.ok("comment_list", {})["threads"]] == [b]  # the rest is served
    assert store_snapshot(workspace) == before


# -- the review (present_review's document) has backups too ---------------------------------------
REVIEW = "# Review\n\n## Auth\n\n[`src/auth.py:10`][] compares digests\n\n## Plan\n\n[`PLAN.md:3`][] is vague\n"


def _review_damages(good: bytes) -> dict[str, bytes]:
    return {**_damages(good), "wrong-schema": b'{"schema": 1, "content": 7, "references": "oops"}\n'}


def test_a_damaged_review_is_shown_from_its_backup_and_later_edits_build_on_it(workspace, figures):
    path = workspace / ".limpet" / "reviews" / "current.json"
    with RpcServer(workspace, timeout=30) as server:
        for damage in DAMAGES:
            server.ok("present_review", {"content": REVIEW, "baseUri": "."})
            good = path.read_bytes()
            bad = _review_damages(good)[damage]
            path.write_bytes(bad)
            read = server.request("resources/read", {"uri": "review://current"})
            review = json.loads(read["result"]["contents"][0]["text"])
            assert review["content"] == REVIEW, damage
            assert [r["text"] for r in review["references"]] == ["src/auth.py:10", "PLAN.md:3"]
            assert path.read_bytes() == bad  # a read never writes, nothing moved aside
            done = server.ok("present_review", {"content": "## Plan\n\n[`PLAN.md:5`][] now\n", "baseUri": ".",
                                                "mode": "update-section", "section": "Plan"})
            assert [r["text"] for r in done["references"]] == ["src/auth.py:10", "PLAN.md:5"], damage
    assert not (workspace / ".limpet" / "corrupt").exists()
    figures.setdefault("corruption", {})["reviews_shown_from_backup"] = len(DAMAGES)


def test_a_review_from_a_newer_schema_is_refused_and_never_overwritten(workspace):
    with RpcServer(workspace, timeout=30) as server:
        server.ok("present_review", {"content": REVIEW, "baseUri": "."})
    path = workspace / ".limpet" / "reviews" / "current.json"
    record = json.loads(path.read_bytes())
    path.write_bytes((json.dumps({**record, "schema": 5}) + "\n").encode())
    before = store_snapshot(workspace)
    with RpcServer(workspace, timeout=30) as server:
        error = server.error("present_review", {"content": "# Other\n", "baseUri": "."})
        assert error["code"] == "STORE_TOO_NEW", error
        read = server.request("resources/read", {"uri": "review://current"})
        assert read["error"]["data"]["error"]["code"] == "STORE_TOO_NEW", read
    assert store_snapshot(workspace) == before
