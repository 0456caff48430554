"""The CLI for people: every command, --json, clear messages and exit codes."""

from __future__ import annotations

import json
import subprocess

import click
import pytest
from click.testing import CliRunner

from limpet.server.cli import COMMAND_MODULES, cli


def run(cmd, workspace, *args):
    proc = subprocess.run([*cmd, *args], cwd=workspace, capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def test_add_list_show_reply_resolve_reopen_reconcile_round_trip(limpet_cmd, workspace):
    code, out, err = run(limpet_cmd, workspace, "add", "src/auth.py:10-14", "Handle expired tokens", "--tag", "TODO",
                         "--json")
    assert code == 0, err
    thread = json.loads(out)["thread"]
    assert thread["symbol"] == "AuthService.validate_token"
    assert thread["author"] == "tester" and thread["author_type"] == "human"
    tid = thread["id"]
    code, out, _ = run(limpet_cmd, workspace, "list")  # a short id: the id's last digits (enough to tell)
    assert code == 0 and tid.endswith(out.split()[0]) and len(out.split()[0]) == 6 and "src/auth.py:10-14" in out
    code, out, _ = run(limpet_cmd, workspace, "reply", tid, "On it")
    assert code == 0 and "On it" in out
    code, out, _ = run(limpet_cmd, workspace, "resolve", tid, "--decision", "Added expiry check", "--json")
    assert json.loads(out)["thread"]["decision"]["summary"] == "Added expiry check"
    code, out, _ = run(limpet_cmd, workspace, "reopen", tid, "--json")
    assert json.loads(out)["thread"]["status"] == "open"
    code, out, _ = run(limpet_cmd, workspace, "show", tid)
    assert "Added expiry check" in out
    code, out, _ = run(limpet_cmd, workspace, "reconcile", "--json")
    assert code == 0 and json.loads(out)["counts"]["anchored"] == 1


def test_workspace_option_works_before_and_after_the_command(limpet_cmd, workspace, tmp_path):
    code, _, err = run(limpet_cmd, tmp_path, "add", "PLAN.md:1", "x", "--workspace", str(workspace))
    assert code == 0, err
    code, out, _ = run(limpet_cmd, tmp_path, "--workspace", str(workspace), "list", "--json")
    assert json.loads(out)["count"] == 1


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (("add", "missing.py:1", "x"), 3, "FILE_NOT_FOUND"),
        (("add", "PLAN.md:5-99", "x"), 2, "INVALID_ANCHOR"),
        (("add", "../outside.py:1", "x"), 2, "INVALID_PATH"),
        (("show", "c_1"), 3, "THREAD_NOT_FOUND"),
        (("show", "t_1"), 2, "Invalid thread ID format"),
        (("add", "PLAN.md", "x"), 2, "FILE:START"),
    ],
)
def test_errors_have_messages_and_exit_codes(limpet_cmd, workspace, args, code, needle):
    rc, out, err = run(limpet_cmd, workspace, *args)
    assert rc == code
    assert needle in err
    assert "Traceback" not in err


def test_json_errors_are_the_contract_error_object(limpet_cmd, workspace):
    rc, out, _ = run(limpet_cmd, workspace, "show", "c_42", "--json")
    assert rc == 3
    assert json.loads(out)["error"]["code"] == "THREAD_NOT_FOUND"


def test_every_command_is_documented_in_the_readme():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert f"limpet {name}" in readme, f"README does not document `limpet {name}`"
        assert command.help, f"`limpet {name}` has no help text"
    assert CliRunner().invoke(cli, ["--help"]).exit_code == 0


def test_each_command_loads_from_the_module_that_declares_it():
    """COMMAND_MODULES names each command's module (so a `limpet list` loads only its own):
    every command those modules declare is in it, under the module that declares it."""
    ctx = click.Context(cli)
    for name in COMMAND_MODULES:
        cli.get_command(ctx, name)
    declared = {name: command.callback.__module__.rsplit(".", 1)[-1] for name, command in cli.commands.items()}
    assert declared == COMMAND_MODULES


def test_edit_move_search_delete_use_the_paired_operations(limpet_cmd, workspace):
    code, out, err = run(limpet_cmd, workspace, "add", "src/auth.py:10-14", "Handle expired tokens", "--json")
    assert code == 0, err
    tid = json.loads(out)["thread"]["id"]
    code, out, _ = run(limpet_cmd, workspace, "edit", tid, "Reject expired tokens", "--json")
    thread = json.loads(out)["thread"]
    assert thread["comments"][0]["body"] == "Reject expired tokens"
    code, out, _ = run(limpet_cmd, workspace, "search", "reject", "--file", "src/*.py", "--json")
    assert code == 0 and [t["id"] for t in json.loads(out)["results"]] == [tid]
    code, out, _ = run(limpet_cmd, workspace, "move", tid, "src/auth.py:2", "--json")
    assert code == 0 and json.loads(out)["thread"]["line_start"] == 2 and json.loads(out)["commentId"] == tid
    code, _, err = run(limpet_cmd, workspace, "delete", tid)  # no terminal to confirm on: refused
    assert code == 2 and "--yes" in err
    code, out, _ = run(limpet_cmd, workspace, "delete", tid, "--yes")
    assert code == 0 and f"deleted {tid}" in out
    code, out, _ = run(limpet_cmd, workspace, "list", "--json")
    assert json.loads(out)["threads"] == []


def test_paired_commands_give_the_tools_errors(limpet_cmd, workspace):
    code, _, err = run(limpet_cmd, workspace, "edit", "not-an-id", "x")
    assert code == 2 and "INVALID_ARGUMENT (commentId): Invalid thread ID format" in err
    code, _, err = run(limpet_cmd, workspace, "move", "c_1", "src/auth.py:2")
    assert code == 3 and "THREAD_NOT_FOUND" in err
    code, out, _ = run(limpet_cmd, workspace, "search", "(unclosed", "--json")
    assert code == 2 and json.loads(out)["error"]["field"] == "query"


def test_a_one_shot_add_parses_only_the_file_it_anchors_to(tmp_path, monkeypatch):
    """The CLI's service answers one command and exits: recording the whole workspace for a
    later reconcile (parsing every file) would be work nobody uses."""
    from limpet.anchoring import WorkspaceIndex
    from limpet.server.core import Service

    for i in range(5):
        (tmp_path / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")

    def no_workspace_walk(*_args, **_kwargs):
        raise AssertionError("a one-shot add indexed the workspace")

    monkeypatch.setattr(WorkspaceIndex, "update", no_workspace_walk)
    thread = Service(tmp_path, one_shot=True).add("m0.py", 1, 2, "check f0")
    assert thread.anchor.file == "m0.py"
