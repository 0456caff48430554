"""Hostile files: huge, binary, oddly encoded, symlinked out or in loops, FIFOs, files that vanish
or change between calls, a workspace deleted under a running server. Each gets a thread or a
clear error (a contract code), nothing hangs, and nothing outside the workspace is ever read."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest
from support import write_files
from torture.harness import KNOWN_CODES, RpcServer

SECRET = "TOP-SECRET-outside-the-workspace"


def _add(server: RpcServer, file: str, start: int, end: int | None = None) -> dict:
    return server.call("comment_add", {"file": file, "line_start": start, "line_end": end or start,
                                       "body": f"on {file}"})["result"]


def _thread(result: dict) -> dict:
    assert not result.get("isError"), result
    return result["structuredContent"]["thread"]


def _code(result: dict) -> str:
    assert result.get("isError"), result
    code = result["structuredContent"]["error"]["code"]
    assert code in KNOWN_CODES, code
    return code


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(f"{SECRET}\n" * 3)
    return secret


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_5_mb_source_gets_a_thread_that_follows_an_edit(workspace, figures):
    funcs = [f"def function_{n}(value):\n    total = value * {n}\n    return total + {n}\n\n\n" for n in range(66_000)]
    big = workspace / "big.py"
    big.write_text("".join(funcs))
    assert big.stat().st_size >= 5 * 1024 * 1024
    target = 5 * 33_000 + 1  # def function_33000
    with RpcServer(workspace, timeout=120) as server:
        thread = _thread(_add(server, "big.py", target, target + 2))
        assert thread["symbol"] == "function_33000" and thread["line_start"] == target
        big.write_text("# a new header line\n" + "".join(funcs))
        shown = server.ok("comment_show", {"thread_id": thread["id"]})["thread"]
        assert (shown["line_start"], shown["health"]) == (target + 1, "anchored")
    figures.setdefault("hostile_files", {})["big_file_bytes"] = big.stat().st_size


def test_binary_invalid_utf8_crlf_bom_tabs_and_long_lines_each_get_a_thread_or_a_clear_error(workspace, figures):
    rng = random.Random(8)
    files: dict[str, str | bytes] = {
        "bin/blob.bin": bytes(rng.randrange(256) for _ in range(64 * 1024)),
        "bin/nuls.py": b"def f():\n    return 1\n\x00\x00\x00\ndef g():\n    return 2\n",
        "enc/latin1.py": "def caf\xe9():\n    return '\xe9t\xe9'\n".encode("latin-1"),
        "enc/broken.py": b"def f():\n    return '\xff\xfe\xc3('\n\ndef g():\n    pass\n",
        "enc/crlf.py": b"import os\r\n\r\ndef handler(event):\r\n    return os.getcwd()\r\n",
        "enc/bom.py": "\ufeffdef first():\n    return 1\n".encode(),
        "enc/tabs.go": b"package main\n\nfunc main() {\n\tif true {\n\t\tprintln(\"x\")\n\t}\n}\n",
        "long/one_line.js": b"var x = [" + b"1," * (1024 * 1024) + b"0];\n",
        "long/wide.py": b"x = '" + b"y" * 200_000 + b"'\n\ndef after():\n    return x\n",
        "empty.py": b"",
        "only_newlines.txt": b"\n\n\n",
        "no_newline_at_end.py": b"def f():\n    return 1",
    }
    write_files(workspace, files)
    outcomes = {}
    with RpcServer(workspace, timeout=60) as server:
        for rel in files:
            result = _add(server, rel, 1, 1)
            if result.get("isError"):
                outcomes[rel] = _code(result)
                continue
            thread = _thread(result)
            assert (thread["file"], thread["line_start"]) == (rel, 1)
            assert isinstance(thread["selected_text"], str)
            outcomes[rel] = "thread"
            assert server.ok("comment_show", {"thread_id": thread["id"]})["thread"]["id"] == thread["id"]
        # line numbers in CRLF and BOM files are the editor's
        crlf = _thread(_add(server, "enc/crlf.py", 3, 4))
        assert crlf["symbol"] == "handler" and "\r" not in crlf["selected_text"].replace("\r\n", "")
        bom = _thread(_add(server, "enc/bom.py", 1, 2))
        assert bom["symbol"] == "first"
        beyond = {rel: _code(_add(server, rel, 3, 3)) for rel in ("empty.py", "long/one_line.js")}
        assert beyond == {"empty.py": "INVALID_ANCHOR", "long/one_line.js": "INVALID_ANCHOR"}
        reconciled = server.ok("comment_reconcile", {})
        assert reconciled["checked"] >= len([o for o in outcomes.values() if o == "thread"])
    assert all(o == "thread" or o in KNOWN_CODES for o in outcomes.values())
    # binary files are not anchor targets: nothing of them reaches a committed thread file
    assert outcomes["bin/blob.bin"] == outcomes["bin/nuls.py"] == "INVALID_ARGUMENT"
    assert outcomes["enc/latin1.py"] == outcomes["enc/broken.py"] == "thread"  # not UTF-8, still text
    figures.setdefault("hostile_files", {})["odd_files"] = outcomes


def test_symlinks_out_of_the_workspace_in_loops_and_special_files_are_refused_without_hanging(
        workspace, outside, figures):
    os.symlink(outside, workspace / "leak.txt")
    os.symlink(outside.parent, workspace / "leakdir")
    os.symlink("/dev/zero", workspace / "zero")
    os.symlink("loop_b", workspace / "loop_a")
    os.symlink("loop_a", workspace / "loop_b")
    os.symlink("self", workspace / "self")
    (workspace / ".git").mkdir()
    (workspace / ".git" / "config").write_text("[core]\n")
    os.symlink(".git/config", workspace / "gitconfig")
    os.symlink("src/auth.py", workspace / "inside_link.py")  # inside: allowed
    os.mkfifo(workspace / "pipe.py")
    refused = {}
    with RpcServer(workspace, timeout=30) as server:
        for rel in ("leak.txt", "leakdir/secret.txt", "zero", "loop_a", "self", "gitconfig", "pipe.py", "src"):
            for tool, args in (("comment_add", {"file": rel, "line_start": 1, "line_end": 1, "body": "x"}),
                               ("get_file_comments", {"filePath": rel}),
                               ("comment_reconcile", {"file": rel})):
                reply = server.call(tool, args)
                assert SECRET not in server.last_raw.decode(), (tool, rel)
                if tool == "comment_add":
                    refused[rel] = _code(reply["result"])
        assert _thread(_add(server, "inside_link.py", 10, 14))["symbol"] == "AuthService.validate_token"
    assert set(refused.values()) == {"INVALID_PATH"}, refused
    figures.setdefault("hostile_files", {})["special_files_refused"] = len(refused)


def test_files_deleted_or_replaced_between_calls_orphan_their_threads_never_break_the_server(
        workspace, outside, figures):
    write_files(workspace, {f"gone{n}.py": "def f():\n    return 1\n" for n in range(5)})
    with RpcServer(workspace, timeout=30) as server:
        ids = [_thread(_add(server, f"gone{n}.py", 1, 2))["id"] for n in range(5)]
        (workspace / "gone0.py").unlink()                                   # deleted
        (workspace / "gone1.py").write_text("x = 1\n")                      # replaced by other code
        (workspace / "gone2.py").unlink()
        (workspace / "gone2.py").mkdir()                                    # replaced by a directory
        (workspace / "gone3.py").unlink()
        os.symlink(outside, workspace / "gone3.py")                         # by a link out
        (workspace / "gone4.py").unlink()
        os.mkfifo(workspace / "gone4.py")                                   # by a FIFO
        health = {}
        for n, tid in enumerate(ids):
            shown = server.ok("comment_show", {"thread_id": tid})["thread"]
            health[f"gone{n}.py"] = shown["health"]
            assert SECRET not in server.last_raw.decode()
        listed = server.ok("comment_list", {})["threads"]
        assert {t["id"] for t in listed} == set(ids)
        server.ok("comment_reconcile", {})
        for rel in ("gone2.py", "gone3.py", "gone4.py"):
            assert _code(_add(server, rel, 1, 1)) == "INVALID_PATH"
        assert _code(_add(server, "gone0.py", 1, 1)) == "FILE_NOT_FOUND"
        server.ok("comment_reply", {"thread_id": ids[0], "body": "still writable"})
    assert health["gone0.py"] == "orphaned" and health["gone2.py"] == "orphaned"
    assert health["gone3.py"] == "orphaned" and health["gone4.py"] == "orphaned"
    assert health["gone1.py"] in ("drifted", "orphaned")
    figures.setdefault("hostile_files", {})["vanished_or_replaced"] = health


def test_a_workspace_deleted_under_a_running_server_gets_clear_errors_and_no_hang(workspace, figures):
    with RpcServer(workspace, timeout=30) as server:
        tid = _thread(_add(server, "src/auth.py", 10, 14))["id"]
        shutil.rmtree(workspace)
        answers = {}
        for tool, args in (("comment_list", {}), ("comment_show", {"thread_id": tid}),
                           ("comment_add", {"file": "src/auth.py", "line_start": 1, "line_end": 1, "body": "x"}),
                           ("comment_reply", {"thread_id": tid, "body": "x"}),
                           ("comment_reconcile", {}), ("get_feedback_summary", {}),
                           ("present_review", {"content": "# R\n", "baseUri": "."})):
            result = server.call(tool, args)["result"]
            answers[tool] = _code(result) if result.get("isError") else "ok"
        assert server.request("tools/list")["result"]["tools"]
        assert not workspace.exists(), ("a call recreated the deleted workspace", answers)
    assert answers["comment_show"] == "THREAD_NOT_FOUND"
    assert answers["comment_add"] == answers["comment_reply"] == answers["present_review"] == "FILE_NOT_FOUND"
    figures.setdefault("hostile_files", {})["deleted_workspace"] = answers
