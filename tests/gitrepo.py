"""Helpers for the tests that drive real git over a workspace: a repository with threads,
and a store in the layout limpet wrote before threads were event files."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import orjson

from limpet.server.core import Service

__all__ = ["git", "git_init", "commit_all", "comments", "to_legacy_layout", "status"]

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}


def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, check=check, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV})


def git_init(workspace: Path) -> None:
    git(workspace, "init", "-q", "-b", "main")
    git(workspace, "config", "commit.gpgsign", "false")
    commit_all(workspace, "base")


def commit_all(workspace: Path, message: str) -> None:
    git(workspace, "add", "-A")
    git(workspace, "commit", "-qm", message, "--allow-empty")


def status(workspace: Path) -> str:
    """`git status --porcelain --ignored=no`: empty when the working tree is clean."""
    return git(workspace, "status", "--porcelain").stdout


def comments(workspace: Path, thread_id: str) -> list[str]:
    """The thread's comment bodies, as a new process reads them."""
    return [c.body for c in Service(workspace).get(thread_id).comments]


def to_legacy_layout(workspace: Path) -> None:
    """Rewrite the store as limpet wrote it before events: `<id>.json` documents, schema 1."""
    store = workspace / ".limpet"
    svc = Service(workspace)
    threads = svc.threads(fresh=False)
    for t in threads:
        (store / "threads" / f"{t.id}.jsonl").unlink()
        data = orjson.dumps(t.to_record(), option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"
        (store / "threads" / f"{t.id}.json").write_bytes(data)
    (store / "store.json").write_text('{\n  "schema": 1\n}\n')
    (store / ".gitattributes").unlink()
    (store / ".gitignore").write_text("backups/\ncache/\ncorrupt/\nexports/\nlock\n*.tmp-*\n")


def legacy_reply(workspace: Path, thread_id: str, body: str, at: str) -> None:
    """What the older limpet did for a reply: rewrite the thread's whole document."""
    path = workspace / ".limpet" / "threads" / f"{thread_id}.json"
    record = orjson.loads(path.read_bytes())
    record["comments"].append({"id": f"{thread_id}.{len(record['comments'])}", "body": body, "author": "old",
                               "author_type": "human", "created_at": at, "edited_at": None})
    record["history"].append({"at": at, "event": "replied", "by": "old", "details": {}})
    record["updated_at"] = at
    path.write_bytes(orjson.dumps(record, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n")
