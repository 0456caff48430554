"""Corruption: damaged store files are recovered from their backups (STORE_CORRUPTED reported
once, the damaged bytes kept aside for inspection, nothing else lost); a store written by a
newer schema is refused clearly and left exactly as it was."""

from __future__ import annotations

import json
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
    return workspace / ".limpet" / "threads" / f"{tid}.json"


def _corrupt_copies(workspace: Path) -> list[Path]:
    folder = workspace / ".limpet" / "corrupt"
    return sorted(folder.iterdir()) if folder.exists() else []


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


def _assert_recovered(workspace: Path, damaged: dict[str, tuple[bytes, bytes]], errors: list[dict]) -> None:
    assert len(errors) == len(damaged)  # each damaged file reported exactly once
    assert all(e["code"] == "STORE_CORRUPTED" and e["details"]["rpc_code"] == -32007 for e in errors)
    assert all(e["details"]["recovered"] is True for e in errors)
    assert sorted(e["details"]["file"] for e in errors) == sorted(
        f".limpet/threads/{tid}.json" for tid in damaged)
    kept = {e["details"]["kept_at"]: (workspace / e["details"]["kept_at"]).read_bytes() for e in errors}
    assert sorted(kept.values()) == sorted(bad for _, bad in damaged.values())  # kept aside, byte for byte
    for tid, (good, _) in damaged.items():
        assert _thread_file(workspace, tid).read_bytes() == good


def test_damaged_thread_files_are_recovered_from_backups_each_reported_once_when_shown(workspace, figures):
    damaged, intact = _damage_one_thread_per_kind(workspace)
    with RpcServer(workspace, timeout=30) as server:
        errors = [server.error("comment_show", {"thread_id": tid}) for tid in damaged]
        _assert_recovered(workspace, damaged, errors)
        for tid in damaged:  # afterwards every call answers normally, with nothing lost
            shown = server.ok("comment_show", {"thread_id": tid})["thread"]
            assert [c["body"] for c in shown["comments"]] == [shown["comments"][0]["body"],
                                                              shown["comments"][0]["body"].replace("thread", "reply on")]
        assert len(server.ok("comment_list", {})["threads"]) == len(damaged) + 1
        server.ok("comment_reply", {"thread_id": next(iter(damaged)), "body": "writes work again"})
        server.ok("comment_reply", {"thread_id": intact, "body": "and here"})
    figures.setdefault("corruption", {})["thread_files_recovered_via_show"] = len(errors)
    figures["corruption"]["damage_kinds"] = DAMAGES


def test_damaged_thread_files_are_recovered_from_backups_each_reported_once_when_listed(workspace, figures):
    damaged, intact = _damage_one_thread_per_kind(workspace)
    with RpcServer(workspace, timeout=30) as server:
        errors = []
        for _ in range(len(damaged) + 1):
            reply = server.call("comment_list", {})["result"]
            if not reply.get("isError"):
                break
            errors.append(reply["structuredContent"]["error"])
        _assert_recovered(workspace, damaged, errors)
        threads = {t["id"]: t for t in reply["structuredContent"]["threads"]}
        assert set(threads) == {*damaged, intact}
        assert all(len(threads[tid]["comments"]) == 2 for tid in damaged)
    figures.setdefault("corruption", {})["thread_files_recovered_via_list"] = len(errors)


def test_a_thread_file_and_its_backup_both_damaged_is_reported_kept_aside_and_the_rest_works(workspace):
    a, b = _seed(workspace)
    _thread_file(workspace, a).write_bytes(b"{garbage")
    (workspace / ".limpet" / "backups" / "threads" / f"{a}.json").write_bytes(b"")
    with RpcServer(workspace, timeout=30) as server:
        error = server.error("comment_show", {"thread_id": a})
        assert error["code"] == "STORE_CORRUPTED" and error["details"]["recovered"] is False
        assert [p.read_bytes() for p in _corrupt_copies(workspace)] == [b"{garbage"]
        assert server.error("comment_show", {"thread_id": a})["code"] == "THREAD_NOT_FOUND"
        assert [t["id"] for t in server.ok("comment_list", {})["threads"]] == [b]
        server.ok("comment_add", {"file": "PLAN.md", "line_start": 3, "line_end": 3, "body": "still writable"})


def test_a_damaged_store_marker_is_rewritten_and_the_damaged_copy_kept(workspace):
    a, _ = _seed(workspace)
    meta = workspace / ".limpet" / "store.json"
    meta.write_bytes(b'{"sche')
    with RpcServer(workspace, timeout=30) as server:
        server.ok("comment_reply", {"thread_id": a, "body": "after the marker broke"})
    assert json.loads(meta.read_bytes()) == {"schema": 1}
    assert [p.read_bytes() for p in _corrupt_copies(workspace)] == [b'{"sche']


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
    a, _ = _seed(workspace)
    path = _thread_file(workspace, a)
    record = json.loads(path.read_bytes())
    record["schema"] = 99
    newer = (json.dumps(record) + "\n").encode()
    path.write_bytes(newer)
    before = store_snapshot(workspace)
    with RpcServer(workspace, timeout=30) as server:
        for tool, args in [("comment_show", {"thread_id": a}), ("comment_reply", {"thread_id": a, "body": "x"}),
                           ("comment_list", {})]:
            error = server.error(tool, args)
            assert error["code"] == "STORE_TOO_NEW" and error["details"]["schema"] == 99, (tool, error)
    assert store_snapshot(workspace) == before
    assert path.read_bytes() == newer and _corrupt_copies(workspace) == []


# -- the review (present_review's document) has backups too ---------------------------------------
REVIEW = "# Review\n\n## Auth\n\n[`src/auth.py:10`][] compares digests\n\n## Plan\n\n[`PLAN.md:3`][] is vague\n"


def _review_damages(good: bytes) -> dict[str, bytes]:
    return {**_damages(good), "wrong-schema": b'{"schema": 1, "content": 7, "references": "oops"}\n'}


def test_a_damaged_review_is_recovered_from_its_backup_and_reported_once(workspace, figures):
    path = workspace / ".limpet" / "reviews" / "current.json"
    with RpcServer(workspace, timeout=30) as server:
        for n, damage in enumerate(DAMAGES):
            server.ok("present_review", {"content": REVIEW, "baseUri": "."})
            good = path.read_bytes()
            bad = _review_damages(good)[damage]
            path.write_bytes(bad)
            first = server.request("resources/read", {"uri": "review://current"})
            assert first["error"]["data"]["error"]["code"] == "STORE_CORRUPTED", (damage, first)
            assert "STORE_CORRUPTED" in first["error"]["message"]
            kept = first["error"]["data"]["error"]["details"]["kept_at"]
            assert (workspace / kept).read_bytes() == bad and len(_corrupt_copies(workspace)) == 2 * n + 1
            assert path.read_bytes() == good
            again = server.request("resources/read", {"uri": "review://current"})
            review = json.loads(again["result"]["contents"][0]["text"])
            assert review["content"] == REVIEW
            assert [r["text"] for r in review["references"]] == ["src/auth.py:10", "PLAN.md:3"]
            # later edits build on the recovered review, not on an empty one
            path.write_bytes(bad)
            assert server.error("present_review", {"content": "x", "baseUri": "."})["code"] == "STORE_CORRUPTED"
            done = server.ok("present_review", {"content": "## Plan\n\n[`PLAN.md:5`][] now\n", "baseUri": ".",
                                                "mode": "update-section", "section": "Plan"})
            assert [r["text"] for r in done["references"]] == ["src/auth.py:10", "PLAN.md:5"], damage
    figures.setdefault("corruption", {})["reviews_recovered"] = 2 * len(DAMAGES)


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
