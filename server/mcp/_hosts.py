"""How each MCP host is told about limpet: the snippet its documented config file takes.

    host_config("vscode", stdio=["/abs/limpet", "serve", "--workspace", "/abs/repo"])
    host_config("cursor", url="http://127.0.0.1:9960/mcp", token="...")

Each host spells the same server differently (from each host's documentation):

| host           | file                                              | shape |
|----------------|---------------------------------------------------|-------|
| claude-desktop | claude_desktop_config.json                        | mcpServers.NAME {command, args} (local servers only) |
| claude-code    | .mcp.json (project) or `claude mcp add-json`      | mcpServers.NAME {type: stdio, command, args} or {type: http, url, headers} |
| cursor         | .cursor/mcp.json or ~/.cursor/mcp.json            | mcpServers.NAME {command, args, env} or {url, headers} |
| vscode         | .vscode/mcp.json                                  | servers.NAME {type: stdio, command, args} or {type: http, url, headers} |
| codex          | ~/.codex/config.toml                              | [mcp_servers.NAME] command, args or url, bearer_token_env_var |

Claude Desktop's file only starts local servers (remote ones are added in its Connectors
settings), so it has no HTTP form. Codex refuses a token written in its config: it reads
the token from the environment variable named by `bearer_token_env_var`.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

import msgspec
import orjson
import tomli_w

from limpet.model import InvalidArgument

__all__ = ["HOSTS", "Host", "HostConfig", "TOKEN_ENV", "host_config"]

Host = Literal["claude-desktop", "claude-code", "cursor", "vscode", "codex"]
HOSTS: tuple[str, ...] = get_args(Host)
TOKEN_ENV = "LIMPET_TOKEN"  # the variable `limpet serve` reads its token from, too

_WHERE = {
    "claude-desktop": "claude_desktop_config.json (Settings → Developer → Edit Config); merge into mcpServers",
    "claude-code": ".mcp.json at the project root (or: claude mcp add-json NAME 'JSON' with the inner object)",
    "cursor": ".cursor/mcp.json in the project, or ~/.cursor/mcp.json for every project",
    "vscode": ".vscode/mcp.json in the workspace (or the user profile's mcp.json)",
    "codex": "~/.codex/config.toml (or .codex/config.toml in a trusted project)",
}


class HostConfig(msgspec.Struct, frozen=True):
    host: str
    text: str  # what goes in the file, as the file's format (JSON or TOML)
    where: str  # which file it goes in
    note: str | None = None  # anything else the person must do (set a variable, ...)


def host_config(host: str, *, stdio: list[str] | None = None, url: str | None = None,
                token: str | None = None, name: str = "limpet") -> HostConfig:
    """The snippet for `host`: a local server started as `stdio` (argv, absolute paths), or the
    Streamable HTTP endpoint `url` (with `token` as a bearer token)."""
    if host not in HOSTS:
        raise InvalidArgument(f"Unknown host {host!r}; expected one of {', '.join(HOSTS)}", field="host",
                              details={"allowed": list(HOSTS)})
    if (stdio is None) == (url is None):
        raise InvalidArgument("Give either the command to start (stdio) or the server's URL", field="url")
    if url is not None and host == "claude-desktop":
        raise InvalidArgument(
            "Claude Desktop's config file only starts local (stdio) servers", field="http",
            suggestion="Use the stdio snippet (leave out --http), or add the URL in Claude Desktop's Settings → "
                       "Connectors.")
    if host == "codex":
        return _codex(stdio, url, token, name)
    server = _stdio_server(host, stdio) if stdio is not None else _http_server(host, url or "", token)
    key = "servers" if host == "vscode" else "mcpServers"
    text = orjson.dumps({key: {name: server}}, option=orjson.OPT_INDENT_2).decode() + "\n"
    return HostConfig(host, text, _WHERE[host])


def _stdio_server(host: str, argv: list[str]) -> dict[str, Any]:
    server: dict[str, Any] = {"command": argv[0], "args": list(argv[1:])}
    # Claude Code and VS Code name the transport ("stdio" is Claude Code's default: said anyway).
    return {"type": "stdio", **server} if host in ("claude-code", "vscode") else server


def _http_server(host: str, url: str, token: str | None) -> dict[str, Any]:
    server: dict[str, Any] = {"url": url} if host == "cursor" else {"type": "http", "url": url}
    if token:
        server["headers"] = {"Authorization": f"Bearer {token}"}
    return server


def _codex(stdio: list[str] | None, url: str | None, token: str | None, name: str) -> HostConfig:
    table: dict[str, Any]
    note = None
    if stdio is not None:
        table = {"command": stdio[0], "args": list(stdio[1:])}
    else:
        table = {"url": url}
        if token:
            table["bearer_token_env_var"] = TOKEN_ENV
            note = f"Codex reads the token from the environment: export {TOKEN_ENV}='{token}' before starting it."
    return HostConfig("codex", tomli_w.dumps({"mcp_servers": {name: table}}), _WHERE["codex"], note)
