"""Hostile thread files: what arrives through git is input. 1,250 mutated thread files (paths
that escape, wrong types, bogus vocabulary, huge numbers, ids that are paths, conflict
markers, binary garbage, symlinks, the older layout with the same tricks) are dropped into a
real store under a running `limpet serve`. Every read of every kind keeps serving the good
threads (no store-wide failure), never answers INTERNAL or a traceback, never reads or
writes a byte outside the workspace, and a write to a hostile thread stays inside it."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from torture.harness import KNOWN_CODES, TRACEBACK_MARKS, RpcServer

from limpet.server.core import Service

SECRET = "TOP-SECRET-outside-the-workspace"
BATCHES, PER_BATCH = 25, 50


def _paths(outside: Path) -> list[Any]:
    return ["../SECRET.py", str(outside), "/etc/passwd", "../../../../etc/passwd", ".git/config",
            ".limpet/store.json", "src/../../SECRET.py", "", "./src/auth.py", "src//auth.py", "%2e%2e/SECRET.py",
            "src\\..\\..\\SECRET.py", "~/SECRET.py", "a" * 5000, "src/auth.py\x00.txt", 5, None, ["src/auth.py"],
            {"file": "src/auth.py"}, "leak.py", "leakdir/SECRET.py"]


BAD_INTS: list[Any] = ["5", -1, 0, 10**12, 1.5, None, True, [1], 2**64, "10**12"]
BAD_TEXT: list[Any] = [None, 5, "", " ", "x" * 20_000, {"a": 1}, ["x"], "\ud800", False]
BAD_WORDS: list[Any] = ["BOGUS", "", None, 7, "todo", "open ", "orphaned\x00", ["TODO"]]
BAD_IDS: list[Any] = ["../../../x/evil", "/tmp/evil", "e_", "e_../x", "c_1", 5, None, "e_" + "9" * 100]


def _mutations(good: dict[str, Any], outside: Path) -> list[tuple[str, Any]]:
    """(what, how): each how takes a deep copy of a good created event and breaks it."""
    paths = _paths(outside)
    out: list[tuple[str, Any]] = []
    for p in paths:
        out.append(("anchor.file", lambda e, p=p: e["anchor"].__setitem__("file", p)))
    for field in ("line_start", "line_end", "start_character", "end_character", "symbol_start", "start_byte"):
        for v in BAD_INTS:
            out.append((f"anchor.{field}", lambda e, f=field, v=v: e["anchor"].__setitem__(f, v)))
    for field in ("body", "by", "at", "selected_text"):
        for v in BAD_TEXT:
            target = "anchor" if field == "selected_text" else None
            out.append((field, lambda e, f=field, v=v, t=target: (e[t] if t else e).__setitem__(f, v)))
    for field in ("tag", "by_type", "event"):
        for v in BAD_WORDS:
            out.append((field, lambda e, f=field, v=v: e.__setitem__(f, v)))
    for v in BAD_IDS:
        out.append(("id", lambda e, v=v: e.__setitem__("id", v)))
    for v in (-1, 10**12, "1", None, 1.5):
        out.append(("seq", lambda e, v=v: e.__setitem__("seq", v)))
    for v in ([["x"]], [10**30], "abc", None, list(range(100_000))):
        out.append(("fingerprint", lambda e, v=v: e["anchor"].__setitem__("fingerprint", v)))
    for v in ("a string", [1, 2], None, 5):
        out.append(("anchor", lambda e, v=v: e.__setitem__("anchor", v)))
    for v in ({"x": "y" * 100_000}, [1], "meta", {"confidence": "high"}):
        out.append(("ai_meta", lambda e, v=v: e.__setitem__("ai_meta", v)))
    for key in ("anchor", "body", "tag", "id", "at", "seq", "by", "event", "schema"):
        out.append((f"missing {key}", lambda e, k=key: e.pop(k)))
    out.append(("extra field", lambda e: e.__setitem__("thread_id", "../../evil")))
    out.append(("schema string", lambda e: e.__setitem__("schema", "2")))
    out.append(("nested deep", lambda e: e.__setitem__("ai_meta", json.loads("[" * 500 + "]" * 500))))
    return out


def _raw_mutations(good_line: bytes) -> list[tuple[str, bytes]]:
    rng = random.Random(15)
    garbage = bytes(rng.randrange(256) for _ in range(2048))
    return [
        ("binary", garbage),
        ("truncated", good_line[: len(good_line) // 2]),
        ("nul bytes", b"\x00" * 500),
        ("conflict markers only", b"<<<<<<< HEAD\n=======\n>>>>>>> other\n"),
        ("markers around garbage", b"<<<<<<< HEAD\n" + good_line + b"\n=======\n{nope\n>>>>>>> b\n"),
        ("deep nesting", b"[" * 100_000 + b"]" * 100_000),
        ("huge number", good_line.replace(b'"seq":0', b'"seq":' + b"9" * 5000)),
        ("not json lines", b"hello\nworld\n"),
        ("array", b"[1,2,3]\n"),
        ("utf-16", good_line.decode().encode("utf-16")),
        ("crlf", good_line + b"\r\n"),
        ("newer schema", good_line.replace(b'"schema":2', b'"schema":99')),
    ]


def _legacy_mutations(outside: Path) -> list[tuple[str, dict[str, Any]]]:
    """The older one-document layout, with the same tricks (the inner id a path)."""
    out = []
    for p in _paths(outside)[:8]:
        out.append((f"legacy anchor.file {p!r}"[:60], {"anchor": {"file": p}}))
    for tid in ("../../../x/evil", "/tmp/evil", "c_1"):
        out.append((f"legacy id {tid}", {"id": tid}))
    for key, v in (("status", "BOGUS"), ("health", "fine"), ("tag", 5), ("comments", "none"), ("comments", []),
                   ("schema", 99), ("anchor", None), ("snapshots", {"x": 5}), ("history", [{"at": 5}])):
        out.append((f"legacy {key}", {key: v}))
    return out


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "secret.py"
    secret.parent.mkdir()
    secret.write_text(f"def leak():\n    return '{SECRET}'\n" * 20)
    (tmp_path / "SECRET.py").write_text(f"def leak():\n    return '{SECRET}'\n" * 20)
    return secret


def _check(server: RpcServer, reply: dict, counts: Counter[str]) -> dict:
    raw = server.last_raw.decode()
    assert SECRET not in raw, raw[:500]
    assert not any(mark in raw for mark in TRACEBACK_MARKS), raw[:2000]
    result = reply.get("result")
    if result is None:
        counts["rpc-error"] += 1
        return {}
    if result.get("isError"):
        code = result["structuredContent"]["error"]["code"]
        assert code in KNOWN_CODES, result  # never INTERNAL
        counts[code] += 1
        return {}
    counts["ok"] += 1
    return result.get("structuredContent") or {}


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_mutated_thread_files_never_escape_never_fail_the_store(workspace, outside, figures, tmp_path):
    os.symlink(outside, workspace / "leak.py")
    os.symlink(outside.parent, workspace / "leakdir")
    svc = Service(workspace)
    good = [svc.add("src/auth.py", 10, 14, "good one"), svc.add("PLAN.md", 1, 1, "good two")]
    svc.reply(good[0].id, "a good reply")
    threads_dir = workspace / ".limpet" / "threads"
    template_line = (threads_dir / f"{good[0].id}.jsonl").read_bytes().splitlines()[0]
    template = json.loads(template_line)
    rng = random.Random(14)
    structured = _mutations(template, outside)
    raw = _raw_mutations(template_line)
    legacy = _legacy_mutations(outside)
    before_outside = {p for p in tmp_path.rglob("*") if workspace not in p.parents and p != workspace}
    counts: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    files = 0
    good_ids = {t.id for t in good}
    with RpcServer(workspace, timeout=120) as server:
        for batch in range(BATCHES):
            hostile = []
            for n in range(PER_BATCH):
                tid = f"c_{9_000_000_000_000 + batch * 1000 + n}"
                kind = rng.random()
                if kind < 0.7:
                    what, how = rng.choice(structured)
                    event = json.loads(template_line)
                    how(event)
                    extra = rng.random() < 0.3  # sometimes after a good creation, as a later event
                    data = (template_line + b"\n" if extra else b"") + json.dumps(event).encode() + b"\n"
                    name = f"{tid}.jsonl"
                elif kind < 0.85:
                    what, data = rng.choice(raw)
                    name = f"{tid}.jsonl"
                elif kind < 0.97:
                    what, patch = rng.choice(legacy)
                    record = svc.get(good[0].id, fresh=False).to_record()
                    for key, value in patch.items():
                        if key == "anchor" and isinstance(value, dict):
                            record["anchor"] = {**record["anchor"], **value}
                        else:
                            record[key] = value
                    data, name = json.dumps(record).encode(), f"{tid}.json"
                else:
                    what, data, name = "symlink out", None, f"{tid}.jsonl"
                    os.symlink(outside, threads_dir / name)
                if data is not None:
                    (threads_dir / name).write_bytes(data)
                hostile.append(tid)
                kinds[what.split(" ")[0]] += 1
                files += 1
            listed = _check(server, server.call("comment_list", {}), counts)
            assert good_ids <= {t["id"] for t in listed["threads"]}, "a hostile file failed the listing"
            for t in listed["threads"]:
                assert not t["file"].startswith(("/", "..")) and ".." not in t["file"].split("/")
            for tid in hostile:
                _check(server, server.call("comment_show", {"thread_id": tid}), counts)
            for tool, args in (("comment_reconcile", {}), ("search_comments", {"query": "good", "limit": 100}),
                               ("get_feedback", {}), ("get_feedback_summary", {}),
                               ("get_file_comments", {"filePath": "src/auth.py"}),
                               ("export_comments", {"format": "json"}),
                               ("comment_reply", {"thread_id": rng.choice(hostile), "body": "written?"}),
                               ("comment_resolve", {"thread_id": rng.choice(hostile)})):
                reply = server.call(tool, args)
                result = _check(server, reply, counts)
                if tool == "comment_reconcile":
                    assert result["problems"], "hostile files not reported"
            resource = server.request("resources/read", {"uri": "comment://workspace/all"})
            assert SECRET not in server.last_raw.decode() and "result" in resource
            for path in list(threads_dir.iterdir()):  # next batch starts from the good threads only
                if path.name.split(".")[0] not in good_ids:
                    path.unlink()
        assert "Traceback" not in server.stderr()
    tree = Service(workspace).file_tree()
    assert all(not f["path"].startswith(("/", "..")) for f in tree["files"])
    after_outside = {p for p in tmp_path.rglob("*") if workspace not in p.parents and p != workspace}
    escapes = sorted(str(p) for p in after_outside - before_outside if "server-stderr" not in p.name)
    assert escapes == [], escapes
    assert not (tmp_path / "x").exists() and not Path("/tmp/evil.json").exists()
    assert [c.body for c in Service(workspace).get(good[0].id).comments] == ["good one", "a good reply"]
    figures["hostile_thread_files"] = {"files": files, "escapes": len(escapes), "store_wide_failures": 0,
                                       "tracebacks": 0, "answers": dict(counts), "mutation_kinds": len(kinds)}


def test_a_committed_threads_symlink_is_refused_for_reads_and_writes(workspace, tmp_path, figures):
    svc = Service(workspace)
    good = svc.add("PLAN.md", 1, 1, "good")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / f"{good.id}.jsonl").write_bytes((workspace / ".limpet/threads" / f"{good.id}.jsonl").read_bytes())
    real = workspace / ".limpet" / "threads"
    real.rename(tmp_path / "kept")
    os.symlink(outside, real)  # what a hostile commit can contain
    before = sorted(p.name for p in outside.iterdir())
    codes = Counter()
    with RpcServer(workspace, timeout=30) as server:
        for tool, args in (("comment_list", {}), ("comment_show", {"thread_id": good.id}),
                           ("comment_reply", {"thread_id": good.id, "body": "x"}),
                           ("comment_add", {"file": "PLAN.md", "line_start": 1, "line_end": 1, "body": "x"}),
                           ("comment_reconcile", {})):
            reply = server.call(tool, args)["result"]
            assert reply.get("isError"), (tool, reply)
            error = reply["structuredContent"]["error"]
            assert error["code"] == "STORE_ERROR" and "symlink" in error["message"], (tool, error)
            codes[error["code"]] += 1
    assert sorted(p.name for p in outside.iterdir()) == before  # nothing written through the link
    figures["hostile_thread_files"] = {**figures.get("hostile_thread_files", {}), "threads_symlink_refused": len(codes)
                                       and sum(codes.values())}
