"""The MCP Inspector CLI (the reference TypeScript client) lists and calls every tool.

The test installs what it needs itself, once, into a cache folder ($LIMPET_TEST_CACHE or
~/.cache/limpet-tests): Node 22 from the npm package `node-linux-<arch>@22`, then the
Inspector with that Node on PATH. It needs `npm` and the registry; it is never skipped.
The TypeScript SDK validates every structuredContent — failed calls included — against the
tool's outputSchema, and `--strict` reports schema portability problems: both must pass.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
from pathlib import Path

import pytest
from filelock import FileLock
from support import limpet_argv

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
NODE = "node-linux-{}@22".format("arm64" if platform.machine() in ("aarch64", "arm64") else "x64")
EXIT_TOOL_ERROR = 5  # the Inspector's exit code for a tool result with isError: true


def _cache() -> Path:
    base = os.environ.get("LIMPET_TEST_CACHE") or Path.home() / ".cache" / "limpet-tests"
    return Path(base) / "inspector"


def _npm(prefix: Path, spec: str, path_env: str) -> None:
    npm = shutil.which("npm")
    assert npm, "npm is required to install the MCP Inspector (any Node version; Node 22 is installed from npm)"
    subprocess.run([npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--loglevel=error", spec],
                   check=True, env={**os.environ, "PATH": path_env}, capture_output=True, timeout=600)


@pytest.fixture(scope="module")
def inspector() -> tuple[list[str], dict[str, str]]:
    """(argv prefix of the Inspector CLI, its environment)."""
    root = _cache()
    root.mkdir(parents=True, exist_ok=True)
    marker = root / "installed.txt"
    with FileLock(str(root / ".lock"), timeout=900):
        node_link = root / "node_modules" / ".bin" / "node"
        if not marker.exists() or marker.read_text() != f"{NODE} {INSPECTOR}":
            _npm(root, NODE, os.environ.get("PATH", ""))
            node_dir = str(node_link.resolve().parent)
            _npm(root, INSPECTOR, f"{node_dir}{os.pathsep}{os.environ.get('PATH', '')}")
            marker.write_text(f"{NODE} {INSPECTOR}")
    node = node_link.resolve()
    env = {**os.environ, "PATH": f"{node.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    version = subprocess.run([str(node), "--version"], capture_output=True, text=True, check=True).stdout
    assert version.startswith("v22."), version
    launcher = root / "node_modules" / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / "build"
    return [str(node), str(launcher / "index.js"), "--cli"], env


class Cli:
    def __init__(self, inspector: tuple[list[str], dict[str, str]], workspace: Path) -> None:
        self.argv, self.env = inspector
        self.server = [*limpet_argv(), "serve", "--workspace", str(workspace)]

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.argv, *self.server, "--format", "json", *args], capture_output=True,
                              text=True, env=self.env, timeout=120, stdin=subprocess.DEVNULL)

    def call(self, tool: str, arguments: dict, *, error: bool = False) -> dict:
        """The tool result's structuredContent; the call must succeed (or fail as a tool)."""
        done = self.run("--method", "tools/call", "--tool-name", tool, "--tool-args-json", json.dumps(arguments))
        assert done.returncode == (EXIT_TOOL_ERROR if error else 0), (tool, done.stdout, done.stderr)
        assert "output schema" not in done.stdout + done.stderr, done.stdout
        result = json.loads(done.stdout)["result"]
        assert result["isError"] is error
        json.loads(result["content"][0]["text"])  # the text block is JSON (get_selection's may be null)
        return result["structuredContent"]


def test_inspector_lists_every_tool_with_portable_input_schemas(inspector, workspace):
    done = Cli(inspector, workspace).run("--strict", "--method", "tools/list")
    assert done.returncode == 0, done.stderr  # --strict exits 6 on any error-severity finding
    listing = json.loads(done.stdout)
    tools = {t["name"]: t for t in listing["result"]["tools"]}
    assert len(tools) == 19 and {"add_comment", "get_feedback", "search_comments", "comment_add"} <= set(tools)
    findings = [f for tool in listing.get("schemaFindings", []) for f in tool["findings"]]
    assert not [f for f in findings if f["severity"] == "error"]
    # Input schemas are what model providers map onto their dialects: no finding at all there.
    # (Output schemas spell nullable fields as `type` lists, which --strict warns about.)
    assert not [f for f in findings if f["schema"] == "inputSchema"]
    for tool in tools.values():
        assert tool["description"] and tool["inputSchema"]["type"] == "object" and tool["outputSchema"]
        assert set(tool["annotations"]) >= {"readOnlyHint", "destructiveHint", "idempotentHint"}


def test_inspector_calls_every_tool(inspector, workspace):
    cli = Cli(inspector, workspace)
    ai = {"model": "claude-sonnet-4.5", "confidence": 0.95, "reasoning": "security"}
    added = cli.call("add_comment", {"filePath": "src/auth.py", "line": 11, "text": "Add rate limiting",
                                     "tag": "TODO", "author": "claude", "aiMeta": ai})
    cid = added["commentId"]
    assert added["anchoredSymbol"] == "AuthService.validate_token"
    assert cli.call("edit_comment", {"filePath": "src/auth.py", "commentId": cid, "text": "Use Redis"})["commentId"] == cid
    found = cli.call("search_comments", {"query": "redis", "filters": {"tag": "TODO", "hasAIMetadata": True},
                                         "limit": 10})
    assert found["totalResults"] == 1
    assert cli.call("get_file_comments", {"filePath": "src/auth.py", "includeOrphaned": False})["commentCount"] == 1
    moved = cli.call("move_comment", {"sourceFile": "src/auth.py", "targetFile": "main.go", "commentId": cid,
                                      "targetLine": 5})
    assert moved["filePath"] == "main.go"
    assert cli.call("export_comments", {"format": "jsonl", "options": {"contextLines": 2}})["totalComments"] == 1
    thread = cli.call("comment_add", {"file": "PLAN.md", "line_start": 1, "line_end": 3, "body": "Scope?"})["thread"]
    cli.call("comment_reply", {"thread_id": thread["id"], "body": "Later."})
    assert cli.call("comment_list", {"file": "PLAN.md"})["count"] == 1
    assert len(cli.call("comment_show", {"thread_id": thread["id"]})["thread"]["comments"]) == 2
    assert cli.call("get_feedback", {})["feedback"][0]["file"] == "PLAN.md"
    assert cli.call("get_feedback_summary", {})["totalThreads"] == 2
    assert cli.call("resolve_feedback", {"threadId": thread["id"]}) == {"resolved": True, "threadId": thread["id"]}
    assert cli.call("resolve_feedback", {"threadId": thread["id"]})["resolved"] is False
    cli.call("comment_reopen", {"thread_id": thread["id"]})
    cli.call("comment_resolve", {"thread_id": thread["id"], "decision": "Out of scope"})
    assert "counts" in cli.call("comment_reconcile", {})
    cli.call("present_review", {"content": "Checked [`src/auth.py:10`][].", "baseUri": str(workspace)})
    cli.call("get_selection", {})
    cli.call("delete_comment", {"filePath": "main.go", "commentId": cid})
    # Failed calls: the structured error validates against the output schema too.
    assert cli.call("comment_show", {"thread_id": cid}, error=True)["error"]["code"] == "THREAD_NOT_FOUND"
    assert cli.call("add_comment", {"filePath": "../x.py", "line": 1, "text": "x", "tag": "NOTE"},
                    error=True)["error"]["code"] == "INVALID_PATH"
    assert cli.call("search_comments", {"query": "(unclosed"}, error=True)["error"]["field"] == "query"


def test_inspector_reads_resources(inspector, workspace):
    cli = Cli(inspector, workspace)
    cli.call("add_comment", {"filePath": "src/auth.py", "line": 11, "text": "t", "tag": "NOTE"})
    listed = json.loads(cli.run("--method", "resources/list").stdout)["result"]["resources"]
    assert "comment://workspace/src/auth.py.comments" in {r["uri"] for r in listed}
    templates = json.loads(cli.run("--method", "resources/templates/list").stdout)["result"]["resourceTemplates"]
    assert {t["uriTemplate"] for t in templates} >= {"comment://workspace/{+filePath}.comments"}
    done = cli.run("--method", "resources/read", "--uri", "comment://workspace/all")
    assert done.returncode == 0, done.stderr
    assert json.loads(json.loads(done.stdout)["result"]["contents"][0]["text"])["totalComments"] == 1
