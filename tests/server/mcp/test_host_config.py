"""`limpet mcp-config --host H`: each snippet matches the shape the host documents, and the
stdio and HTTP snippets really connect.

The schemas below are written from each host's documentation of its config file:
- Claude Desktop, claude_desktop_config.json: "mcpServers": {NAME: {"command", "args", "env"}}
  (local servers only; remote ones are added under Settings → Connectors).
- Claude Code, .mcp.json: "mcpServers": {NAME: {"type": "stdio", "command", "args", "env"}} or
  {"type": "http" | "sse", "url", "headers"} (type may be left out for stdio).
- Cursor, .cursor/mcp.json: "mcpServers": {NAME: {"command", "args", "env"}} or {"url", "headers"}.
- VS Code, .vscode/mcp.json: "servers": {NAME: {"type": "stdio", "command" (required), "args",
  "env", "envFile"}} or {"type": "http" | "sse", "url", "headers"}; optional "inputs".
- Codex, ~/.codex/config.toml: [mcp_servers.NAME] with command, args, env, cwd; or url,
  bearer_token_env_var, http_headers, env_http_headers (an inline bearer_token is refused).
"""

from __future__ import annotations

import json
import os
import subprocess
import tomllib

import anyio
import httpx2
import jsonschema
import pytest
from support import http_server

STRINGS = {"type": "array", "items": {"type": "string"}}
STRING_MAP = {"type": "object", "additionalProperties": {"type": "string"}}
ABSOLUTE = {"type": "string", "pattern": "^/"}


def _servers(key: str, server: dict) -> dict:
    return {"type": "object", "required": [key], "properties": {key: {
        "type": "object", "minProperties": 1, "additionalProperties": server}}}


def _obj(required: list[str], **props) -> dict:
    return {"type": "object", "required": required, "properties": props, "additionalProperties": False}


SCHEMAS = {
    "claude-desktop": _servers("mcpServers", _obj(["command"], command=ABSOLUTE, args=STRINGS, env=STRING_MAP)),
    "claude-code": _servers("mcpServers", {"oneOf": [
        _obj(["command"], type={"const": "stdio"}, command=ABSOLUTE, args=STRINGS, env=STRING_MAP),
        _obj(["type", "url"], type={"enum": ["http", "sse"]}, url={"type": "string"}, headers=STRING_MAP),
    ]}),
    "cursor": _servers("mcpServers", {"oneOf": [
        _obj(["command"], command=ABSOLUTE, args=STRINGS, env=STRING_MAP),
        _obj(["url"], url={"type": "string"}, headers=STRING_MAP),
    ]}),
    "vscode": {**_servers("servers", {"oneOf": [
        _obj(["type", "command"], type={"const": "stdio"}, command=ABSOLUTE, args=STRINGS, env=STRING_MAP,
             envFile={"type": "string"}),
        _obj(["type", "url"], type={"enum": ["http", "sse"]}, url={"type": "string"}, headers=STRING_MAP),
    ]}), "additionalProperties": False, "properties": {"servers": {"type": "object"}, "inputs": {"type": "array"}}},
    "codex": _servers("mcp_servers", {"oneOf": [
        _obj(["command"], command=ABSOLUTE, args=STRINGS, env=STRING_MAP, cwd={"type": "string"}),
        _obj(["url"], url={"type": "string"}, bearer_token_env_var={"type": "string"}, http_headers=STRING_MAP,
             env_http_headers=STRING_MAP),
    ]}),
}
HTTP_HOSTS = ["claude-code", "cursor", "vscode", "codex"]


def mcp_config(limpet_cmd, cwd, *args) -> tuple[int, str, str]:
    proc = subprocess.run([*limpet_cmd, "mcp-config", *args], cwd=cwd, capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def parse(host: str, text: str) -> dict:
    return tomllib.loads(text) if host == "codex" else json.loads(text)


def server_of(host: str, config: dict) -> dict:
    key = {"vscode": "servers", "codex": "mcp_servers"}.get(host, "mcpServers")
    return config[key]["limpet"]


@pytest.mark.parametrize("host", list(SCHEMAS))
def test_stdio_snippet_matches_the_hosts_schema_with_absolute_paths(limpet_cmd, workspace, tmp_path, host):
    code, out, err = mcp_config(limpet_cmd, tmp_path, "--host", host, "--workspace", str(workspace))
    assert code == 0, err
    config = parse(host, out)
    jsonschema.validate(config, SCHEMAS[host])
    server = server_of(host, config)
    assert os.path.isabs(server["command"]) and os.access(server["command"], os.X_OK)
    assert server["args"][-5:] == ["serve", "--tools", "lean", "--workspace", str(workspace.resolve())]
    assert err.startswith("# ")  # where it goes, on stderr: stdout is only the snippet


@pytest.mark.parametrize("host", HTTP_HOSTS)
def test_http_snippet_matches_the_hosts_schema(limpet_cmd, tmp_path, host):
    code, out, err = mcp_config(limpet_cmd, tmp_path, "--host", host, "--http", "http://127.0.0.1:9960",
                                "--token", "s3cret")
    assert code == 0, err
    config = parse(host, out)
    jsonschema.validate(config, SCHEMAS[host])
    server = server_of(host, config)
    assert server["url"] == "http://127.0.0.1:9960/mcp"
    if host == "codex":  # Codex takes the token from the environment only
        assert server["bearer_token_env_var"] == "LIMPET_TOKEN" and "s3cret" not in out
        assert "export LIMPET_TOKEN='s3cret'" in err
    else:
        assert server["headers"] == {"Authorization": "Bearer s3cret"}


def test_claude_desktop_has_no_http_form(limpet_cmd, tmp_path):
    code, out, err = mcp_config(limpet_cmd, tmp_path, "--host", "claude-desktop", "--http", "http://127.0.0.1:9960")
    assert code == 2 and out == ""
    assert "only starts local (stdio) servers" in err and "Connectors" in err


def test_a_url_that_is_not_http_is_refused(limpet_cmd, tmp_path):
    code, _, err = mcp_config(limpet_cmd, tmp_path, "--host", "cursor", "--http", "localhost:9960")
    assert code == 2 and "Not an http(s) URL" in err


def test_the_stdio_snippet_starts_a_working_server(limpet_cmd, workspace, tmp_path):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def tools(*selection: str) -> set[str]:
        _, out, _ = mcp_config(limpet_cmd, tmp_path, "--host", "vscode", "--workspace", str(workspace), *selection)
        server = server_of("vscode", json.loads(out))
        params = StdioServerParameters(command=server["command"], args=server["args"], cwd=str(tmp_path))
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return {t.name for t in (await session.list_tools()).tools}

    # By default a lean selection: the threads family and the edits only the paired family has.
    assert anyio.run(tools) == {"comment_add", "comment_list", "comment_show", "comment_reply", "comment_resolve",
                                "comment_reopen", "comment_reconcile", "edit_comment", "move_comment",
                                "delete_comment", "search_comments"}
    assert {"comment_add", "add_comment", "get_feedback", "present_review"} <= anyio.run(tools, "--tools", "all")


def test_the_http_snippet_connects_with_its_token(limpet_cmd, workspace, tmp_path):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    with http_server(workspace, token="s3cret") as base:
        _, out, _ = mcp_config(limpet_cmd, tmp_path, "--host", "cursor", "--http", base, "--token", "s3cret")
        server = server_of("cursor", json.loads(out))

        async def main() -> set[str]:
            async with httpx2.AsyncClient(headers=server["headers"], timeout=30) as http:
                async with streamable_http_client(server["url"], http_client=http) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        return {t.name for t in (await session.list_tools()).tools}

        assert "comment_show" in anyio.run(main)
