"""Paths: every path a tool or a resource URI takes is refused with INVALID_PATH when it escapes
the workspace (`..`, absolute, `~`, URL-encoded, backslashes, NUL, symlinks) or names `.git/`
or `.limpet/` — and nothing outside the workspace is ever read into an answer."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from support import SAMPLE, write_files
from torture.harness import RpcServer

SECRET = "TOP-SECRET-outside-the-workspace"
ESCAPES = [
    "..", "../etc/passwd", "src/../../etc/passwd", "../ws/src/auth.py", "src/..", "./../x",
    "..\\..\\etc\\passwd", "src\\..\\..\\secret.txt",
    "/etc/passwd", "/", "//etc/passwd", "{outside}",
    "~", "~/.bashrc", "~root/.ssh/id_rsa",
    "%2e%2e/%2e%2e/etc/passwd", "%2E%2E%2Fetc%2Fpasswd", "..%2f..%2fetc%2fpasswd", "src/%2e%2e/%2e%2e/x",
    "%2Fetc%2Fpasswd", "%7e/.bashrc", "src/auth.py%00.txt",
    "src/auth.py\x00", "src/\nauth.py", "\x1b[2J",
    ".git", ".git/config", "./.git/config", ".git/../src/auth.py", ".limpet", ".limpet/store.json",
    ".limpet/threads/c_1.json", "{workspace}/.limpet/store.json", "{workspace}/.git/config", "{workspace}/../x",
    "../*", "../**/*.py", "/etc/*", ".limpet/**", ".git/*", "~/*",  # globs (filters) are checked like paths
]
SYMLINK_ESCAPES = ["leak.txt", "leakdir/secret.txt", "gitlink", "storelink/store.json", "loop"]

# Every tool field that takes a path, with the rest of a valid call around it.
PATH_FIELDS: dict[str, Callable[[str, str], tuple[str, dict]]] = {
    "comment_add.file": lambda p, t: ("comment_add", {"file": p, "line_start": 1, "line_end": 1, "body": "x"}),
    "comment_list.file": lambda p, t: ("comment_list", {"file": p}),
    "comment_reconcile.file": lambda p, t: ("comment_reconcile", {"file": p}),
    "add_comment.filePath": lambda p, t: ("add_comment", {"filePath": p, "line": 1, "text": "x", "tag": "NOTE"}),
    "edit_comment.filePath": lambda p, t: ("edit_comment", {"filePath": p, "commentId": t, "text": "y"}),
    "delete_comment.filePath": lambda p, t: ("delete_comment", {"filePath": p, "commentId": t}),
    "get_file_comments.filePath": lambda p, t: ("get_file_comments", {"filePath": p}),
    "move_comment.sourceFile": lambda p, t: ("move_comment", {"sourceFile": p, "targetFile": "PLAN.md",
                                                              "commentId": t, "targetLine": 1}),
    "move_comment.targetFile": lambda p, t: ("move_comment", {"sourceFile": "src/auth.py", "targetFile": p,
                                                              "commentId": t, "targetLine": 1}),
    "export_comments.filePath": lambda p, t: ("export_comments", {"format": "json", "filePath": p}),
    "search_comments.filters.filePath": lambda p, t: ("search_comments", {"query": "x", "filters": {"filePath": p}}),
    "get_feedback.filePath": lambda p, t: ("get_feedback", {"filePath": p}),
    "present_review.baseUri": lambda p, t: ("present_review", {"content": "x", "baseUri": p}),
}
# The fields whose file is read (the others only filter by name): symlinks matter there.
READING = ["comment_add.file", "add_comment.filePath", "move_comment.targetFile", "get_file_comments.filePath"]


class Served:
    def __init__(self, root: Path, server: RpcServer, thread_id: str) -> None:
        self.root, self.server, self.thread_id = root, server, thread_id
        self.refused = 0

    def expand(self, path: str) -> str:
        return path.format(workspace=self.root / "ws", outside=self.root / "outside" / "secret.txt")

    def refused_as_invalid_path(self, tool: str, args: dict) -> None:
        before = self.server.ok("comment_show", {"thread_id": self.thread_id})["thread"]
        reply = self.server.call(tool, args)
        assert SECRET not in self.server.last_raw.decode()
        result = reply["result"]
        assert result.get("isError"), (tool, args, result)
        error = result["structuredContent"]["error"]
        assert error["code"] == "INVALID_PATH" and error["details"]["rpc_code"] == -32003, (tool, args, error)
        assert self.server.ok("comment_show", {"thread_id": self.thread_id})["thread"] == before
        self.refused += 1


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("paths")
    ws = root / "ws"
    write_files(ws, {**SAMPLE, ".git/config": "[core]\n"})
    write_files(root, {"outside/secret.txt": f"{SECRET}\n{SECRET}\n"})
    os.symlink(root / "outside" / "secret.txt", ws / "leak.txt")
    os.symlink(root / "outside", ws / "leakdir")
    os.symlink(".git/config", ws / "gitlink")
    os.symlink(".limpet", ws / "storelink")
    os.symlink("loop", ws / "loop")
    with RpcServer(ws, timeout=30) as server:
        tid = server.ok("comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14,
                                        "body": "the thread moves must not touch"})["thread"]["id"]
        yield Served(root, server, tid)


@pytest.mark.parametrize("field", sorted(PATH_FIELDS))
def test_escaping_and_protected_paths_are_refused_in_every_path_field(served, field, figures):
    for path in ESCAPES:
        served.refused_as_invalid_path(*PATH_FIELDS[field](served.expand(path), served.thread_id))
    figures.setdefault("paths", {})["tool_paths_refused"] = served.refused


@pytest.mark.parametrize("field", READING)
def test_symlinks_out_of_the_workspace_or_into_protected_folders_are_refused(served, field, figures):
    for path in SYMLINK_ESCAPES:
        served.refused_as_invalid_path(*PATH_FIELDS[field](path, served.thread_id))
    figures.setdefault("paths", {})["tool_paths_refused"] = served.refused


def test_review_references_through_escapes_are_orphaned_never_read(served):
    refs = [*ESCAPES[:6], "{outside}", *SYMLINK_ESCAPES]
    content = "# Review\n\n" + "\n".join(f"- [`{served.expand(p)}:1`][]" for p in refs if "\n" not in p) + "\n"
    result = served.server.ok("present_review", {"content": content, "baseUri": "."})
    assert SECRET not in served.server.last_raw.decode()
    assert result["references"] and all(r["health"] == "orphaned" for r in result["references"])


RESOURCE_ESCAPES = [*(p for p in ESCAPES if p not in ("..", "src/..")), "%252e%252e/etc/passwd", "%2elimpet/store.json",
                    "%2Egit/config", *SYMLINK_ESCAPES[:2]]


def test_comment_resource_uris_are_validated_like_paths(served, figures):
    refused = 0
    for path in RESOURCE_ESCAPES:
        plain = served.expand(path)
        encoded = [] if "%" in plain else [quote(plain, safe="")]  # encoding '%' again names a file, not '..'
        for uri in (f"comment://workspace/{p}.comments" for p in (plain, *encoded)):
            reply = served.server.request("resources/read", {"uri": uri})
            assert SECRET not in served.server.last_raw.decode()
            if path in SYMLINK_ESCAPES:  # a filter by name: nothing is read, no thread matches
                assert "error" in reply or json_empty(reply), (uri, reply)
                continue
            assert "error" in reply, (uri, reply)
            assert reply["error"]["data"]["error"]["code"] == "INVALID_PATH", (uri, reply)
            refused += 1
    for uri in ("comment://workspace/tags/../../etc/passwd", "comment://workspace/../all",
                "comment://other/all", "file:///etc/passwd"):
        reply = served.server.request("resources/read", {"uri": uri})
        assert "error" in reply and SECRET not in served.server.last_raw.decode(), (uri, reply)
        refused += 1
    figures.setdefault("paths", {})["resource_uris_refused"] = refused


def json_empty(reply: dict) -> bool:
    return json.loads(reply["result"]["contents"][0]["text"])["totalComments"] == 0
