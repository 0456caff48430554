"""The CLI as a person meets it: abbreviated ids, hints in commands, history and original code
in `show`, moving to a range, a missing workspace, one default author across tools."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from limpet.server.cli._hints import NO_COMMAND, TOOL_COMMANDS, cli_suggestion
from limpet.server.core import Service
from limpet.server.operations import operations_for


def run(cmd, cwd, *args):
    proc = subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def two(service):
    a = service.add("src/auth.py", 10, 14, "Check expiry")
    b = service.add("src/auth.py", 17, 18, "Unused helper")
    return a.id, b.id


def _unique_prefix(tid: str, other: str) -> str:
    n = next(i for i in range(len(tid)) if tid[i] != other[i])
    return tid[: n + 1]


def test_a_unique_prefix_of_an_id_is_enough_with_or_without_c_(limpet_cmd, workspace, two):
    a, b = two
    prefix = _unique_prefix(a, b)
    for given in (prefix, prefix.removeprefix("c_"), a):
        code, out, err = run(limpet_cmd, workspace, "show", given, "--json")
        assert code == 0, err
        assert json.loads(out)["thread"]["id"] == a
    code, out, _ = run(limpet_cmd, workspace, "reply", prefix, "Agreed", "--json")
    assert code == 0 and len(json.loads(out)["thread"]["comments"]) == 2
    code, out, err = run(limpet_cmd, workspace, "resolve", prefix.removeprefix("c_"), "--decision", "done")
    assert code == 0, err


def test_an_ambiguous_prefix_lists_the_candidates_and_an_unknown_one_is_not_found(limpet_cmd, workspace, two):
    common = os.path.commonprefix(list(two))[:6]  # c_ and 4 digits: ids made together share more
    code, _, err = run(limpet_cmd, workspace, "show", common)
    assert code == 2 and "INVALID_ARGUMENT" in err and "give more digits" in err
    assert two[0] in err and two[1] in err
    code, out, _ = run(limpet_cmd, workspace, "delete", common, "--yes", "--json")
    assert code == 2 and sorted(json.loads(out)["error"]["details"]["candidates"]) == sorted(two)
    code, _, err = run(limpet_cmd, workspace, "show", "c_9")
    assert code == 3 and "THREAD_NOT_FOUND" in err


def test_hints_name_cli_commands_not_mcp_tools(limpet_cmd, workspace):
    code, _, err = run(limpet_cmd, workspace, "show", "c_42")
    assert code == 3
    hint = err.splitlines()[-1]
    assert hint.startswith("hint: ") and "`limpet list`" in hint
    assert "comment_list" not in err and "get_file_comments" not in err


def test_every_tool_has_a_command_in_the_hint_table_or_is_known_to_have_none():
    names = {op.name for op in operations_for(None)}
    assert names == set(TOOL_COMMANDS) | NO_COMMAND
    for command in TOOL_COMMANDS.values():
        from limpet.server.cli import COMMAND_MODULES

        assert command.split()[1] in COMMAND_MODULES, command


def test_a_missing_workspace_says_so(limpet_cmd, tmp_path):
    code, _, err = run(limpet_cmd, tmp_path, "--workspace", str(tmp_path / "nope"), "list")
    assert code == 3
    assert "Workspace directory does not exist" in err
    assert "--workspace" in err.splitlines()[-1] and "check that the file exists" not in err.lower()


def test_show_prints_the_history_and_for_an_orphan_the_code_it_was_written_against(limpet_cmd, workspace, service):
    t = service.add("src/auth.py", 17, 18, "helper is unused")
    service.resolve(t.id, decision="keep it for now")
    service.reopen(t.id)
    auth = workspace / "src/auth.py"
    auth.write_text(auth.read_text().replace("def helper(x):\n    return x * 2\n", ""))
    code, out, err = run(limpet_cmd, workspace, "show", t.id)
    assert code == 0, err
    assert "orphaned" in out.splitlines()[0]
    history = out[out.index("history:"):]
    assert [w for w in ("created", "resolved", "reopened") if w in history] == ["created", "resolved", "reopened"]
    assert "written against (src/auth.py:17-18" in out
    assert "  | def helper(x):\n  |     return x * 2" in out


def test_show_of_an_anchored_thread_has_no_written_against(limpet_cmd, workspace, two):
    code, out, _ = run(limpet_cmd, workspace, "show", two[0])
    assert code == 0 and "history:" in out and "written against" not in out


def test_move_takes_a_line_or_a_range(limpet_cmd, workspace, two):
    a, _ = two
    code, out, err = run(limpet_cmd, workspace, "move", a, "src/auth.py:7-8", "--json")
    assert code == 0, err
    moved = json.loads(out)["thread"]
    assert (moved["line_start"], moved["line_end"], moved["symbol"]) == (7, 8, "AuthService.__init__")
    code, out, _ = run(limpet_cmd, workspace, "move", a, "src/auth.py:17", "--json")
    assert (json.loads(out)["thread"]["line_start"], json.loads(out)["thread"]["line_end"]) == (17, 18)  # kept 2 lines
    code, out, _ = run(limpet_cmd, workspace, "move", a, "src/auth.py:17-99", "--json")
    assert code == 2 and json.loads(out)["error"]["code"] == "INVALID_ANCHOR"
    assert json.loads(out)["error"]["field"] == "targetEndLine"


def test_comment_add_and_add_comment_default_to_one_author(service):
    from limpet.server.operations import invoke

    _, first = invoke(service, "comment_add", {"file": "PLAN.md", "line_start": 1, "line_end": 1, "body": "x"})
    _, second = invoke(service, "add_comment", {"filePath": "PLAN.md", "line": 3, "text": "y", "tag": "NOTE"})
    assert (first["thread"]["author"], first["thread"]["author_type"]) == ("ai", "agent")
    assert (second["thread"]["author"], second["thread"]["author_type"]) == ("ai", "agent")
    _, replied = invoke(service, "comment_reply", {"thread_id": first["thread"]["id"], "body": "z"})
    assert replied["thread"]["comments"][-1]["author"] == "ai"


def test_cli_suggestion_leaves_other_advice_alone():
    from limpet.model import LockTimeout

    assert cli_suggestion(LockTimeout("busy")) == LockTimeout.default_suggestion


def test_resolve_thread_id_refuses_what_cannot_begin_an_id(workspace):
    from limpet.model import InvalidArgument

    with pytest.raises(InvalidArgument, match="Invalid thread ID format"):
        Service(workspace).resolve_thread_id("t_1")
