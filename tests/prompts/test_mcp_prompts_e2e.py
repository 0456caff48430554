"""prompts/list and prompts/get end to end: the official MCP client over real stdio, and the
CLI printing the same text."""

from __future__ import annotations

import json
import subprocess

import pytest
from mcp.shared.exceptions import MCPError
from support import stdio_session

pytestmark = pytest.mark.anyio


async def test_prompts_list_shows_the_four_seed_prompts(workspace):
    async with stdio_session(workspace) as s:
        assert s.server_capabilities.prompts is not None
        prompts = {p.name: p for p in (await s.list_prompts()).prompts}
    assert set(prompts) == {"review_code", "explain_complexity", "training_export", "fix_orphans"}
    review = prompts["review_code"]
    assert review.description == "Review code and suggest TODO/FIXME comments for improvements"
    args = {a.name: a for a in review.arguments}
    assert args["filePath"].required is True and args["focus"].required is False
    assert "security, performance, maintainability, all" in args["focus"].description
    assert 'Default: "all"' in args["focus"].description
    threshold = prompts["explain_complexity"].arguments[1]
    assert threshold.name == "complexityThreshold" and "Default: 10" in threshold.description
    assert prompts["training_export"].arguments[0].name == "includeContext"
    assert [a.required for a in prompts["fix_orphans"].arguments] == [False]
    assert review.meta["limpet/arguments"]["focus"] == {
        "type": "string", "default": "all", "enum": ["security", "performance", "maintainability", "all"]}


async def test_prompts_get_renders_each_prompt_with_string_arguments(workspace):
    async with stdio_session(workspace) as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        await s.call_tool("comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14,
                                          "body": "Constant-time compare", "tag": "FIXME"})
        review = await s.get_prompt("review_code", {"filePath": "src/auth.py", "focus": "security"})
        explain = await s.get_prompt("explain_complexity", {"filePath": "src/auth.py", "complexityThreshold": "2"})
        export = await s.get_prompt("training_export", {"includeContext": "false"})
        orphans = await s.get_prompt("fix_orphans", {})
    [message] = review.messages
    text = message.content.text
    assert message.role == "user" and text.startswith("Review this code for security issues")
    assert "10 |     def validate_token(self, token):" in text and "Constant-time compare" in text
    tool = "add_comment" if "add_comment" in tools else "comment_add"
    assert f"one `{tool}` call" in text
    for arg in tools[tool].input_schema["properties"]:
        assert f"- `{arg}` (" in text
    assert "`AuthService.validate_token` (method, lines 10-14): complexity 2" in explain.messages[0].content.text
    assert "--context-lines 0" in export.messages[0].content.text
    assert "no open orphaned threads" in orphans.messages[0].content.text


@pytest.mark.parametrize(("name", "args", "code", "error"), [
    ("review_code", {"filePath": "src/auth.py", "focus": "style"}, -32602, "INVALID_ARGUMENT"),
    ("review_code", {"focus": "all"}, -32602, "INVALID_ARGUMENT"),
    ("explain_complexity", {"filePath": "src/auth.py", "complexityThreshold": "high"}, -32602, "INVALID_ARGUMENT"),
    ("nope", {}, -32602, "INVALID_ARGUMENT"),
    ("review_code", {"filePath": "src/missing.py"}, -32001, "FILE_NOT_FOUND"),
    ("review_code", {"filePath": "../etc/passwd"}, -32003, "INVALID_PATH"),
])
async def test_prompts_get_errors_are_json_rpc_errors_with_our_error_dict(workspace, name, args, code, error):
    async with stdio_session(workspace) as s:
        with pytest.raises(MCPError) as info:
            await s.get_prompt(name, args)
        assert (await s.list_prompts()).prompts, "the server keeps running"
    assert info.value.error.code == code
    data = info.value.error.data
    assert data["code"] == error and data["details"]["rpc_code"] == code and data["message"]


async def test_a_broken_workspace_template_is_reported_not_replaced(workspace):
    folder = workspace / ".limpet" / "prompts"
    folder.mkdir(parents=True)
    (folder / "training_export.md.j2").write_text("Counts:\n{{ totl }}\n")
    async with stdio_session(workspace) as s:
        with pytest.raises(MCPError) as info:
            await s.get_prompt("training_export", {})
    data = info.value.error.data
    assert data["code"] == "PARSE_ERROR" and data["details"]["line"] == 2
    assert data["details"]["template"].endswith(".limpet/prompts/training_export.md.j2")


@pytest.mark.parametrize("text, line", [
    ("Title\n" + "{% if true %}\n" * 200 + "x\n" + "{% endif %}\n" * 200, 18),
    ("Title\n{{ " + "(" * 5000 + "1" + ")" * 5000 + " }}\n", 2),
    ("Title\n" + "{{ totals }}\n" * 80_000, 7_693),  # ~1 MB: line 7,693 holds its 100,000th character
])
async def test_a_hostile_workspace_template_is_a_parse_error_without_a_traceback(workspace, tmp_path, text, line):
    # Issue 33, items 9 and 11: 200 nested ifs (IndentationError), 5,000 nested parentheses
    # (RecursionError), a megabyte (13-19 s and gigabytes to compile) answered INTERNAL, with
    # ~1,200 lines of traceback on stderr a call.
    folder = workspace / ".limpet" / "prompts"
    folder.mkdir(parents=True)
    (folder / "training_export.md.j2").write_text(text)
    with (tmp_path / "stderr.txt").open("w+") as errlog:
        async with stdio_session(workspace, errlog=errlog) as s:
            for _ in range(2):
                with pytest.raises(MCPError) as info:
                    await s.get_prompt("training_export", {})
                data = info.value.error.data
                assert data["code"] == "PARSE_ERROR" and data["details"]["line"] == line, data
                assert data["details"]["template"].endswith(".limpet/prompts/training_export.md.j2")
            assert (await s.list_prompts()).prompts, "the server keeps running"
        errlog.seek(0)
        assert "Traceback" not in errlog.read()


async def test_the_cli_prints_what_prompts_get_returns(workspace, limpet_cmd):
    args = {"filePath": "src/auth.py", "focus": "maintainability"}
    async with stdio_session(workspace) as s:
        over_mcp = (await s.get_prompt("review_code", args)).messages[0].content.text
    argv = [*limpet_cmd, "prompt", "review_code", "--workspace", str(workspace)]
    for key, value in args.items():
        argv += ["--arg", f"{key}={value}"]
    out = subprocess.run(argv, capture_output=True, text=True, check=True)
    assert out.stdout == over_mcp
    as_json = subprocess.run([*argv, "--json"], capture_output=True, text=True, check=True)
    assert json.loads(as_json.stdout)["text"] == over_mcp


def test_the_cli_reports_errors_with_exit_codes(workspace, limpet_cmd):
    base = [*limpet_cmd, "--workspace", str(workspace), "prompt"]
    bad = subprocess.run([*base, "review_code", "--arg", "filePath=src/auth.py", "--arg", "focus=style"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "INVALID_ARGUMENT (focus)" in bad.stderr
    missing = subprocess.run([*base, "review_code", "--arg", "filePath=nope.py"], capture_output=True, text=True)
    assert missing.returncode == 3 and "FILE_NOT_FOUND" in missing.stderr
    malformed = subprocess.run([*base, "review_code", "--arg", "filePath"], capture_output=True, text=True)
    assert malformed.returncode == 2 and "KEY=VALUE" in malformed.stderr
    listing = subprocess.run(base, capture_output=True, text=True, check=True)
    assert "explain_complexity filePath=... [complexityThreshold=...]" in listing.stdout
