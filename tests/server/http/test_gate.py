"""The HTTP gate: loopback with Host/Origin checks (DNS rebinding), tokens off loopback, body limit,
and `limpet serve --http` choosing its port and printing a ready-to-paste client config."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import time

import httpx
import pytest
from support import http_server, page_token

from limpet.server.http import PORT_RANGE, bind_socket

ROUTES = ("/", "/api/files", "/mcp/status", "/mcp/list_tools")


@pytest.fixture
def base(workspace):
    with http_server(workspace) as url:
        yield url


@pytest.mark.parametrize("path", ROUTES)
def test_a_foreign_origin_is_refused(base, path):
    reply = httpx.get(f"{base}{path}", headers={"origin": "http://evil.example.com"})
    assert reply.status_code == 403


@pytest.mark.parametrize("path", ROUTES)
def test_a_foreign_host_is_refused(base, path):
    # DNS rebinding: evil.example.com now resolves to 127.0.0.1, the browser sends its name.
    assert httpx.get(f"{base}{path}", headers={"host": "evil.example.com"}).status_code == 403


@pytest.mark.parametrize("origin", ["http://localhost:1234", "http://127.0.0.1", "http://[::1]:9960"])
def test_loopback_origins_and_hosts_are_accepted(base, origin):
    port = base.rsplit(":", 1)[1]
    reply = httpx.get(f"{base}/api/files", headers={"origin": origin, "host": f"localhost:{port}"})
    assert reply.status_code == 200


def test_null_or_non_http_origins_are_refused(base):
    for origin in ("null", "file://", "chrome-extension://abc"):
        assert httpx.get(f"{base}/api/files", headers={"origin": origin}).status_code == 403


def test_bodies_over_the_limit_are_refused(base):
    big = b'{"body": "' + b"x" * (5 * 1024 * 1024) + b'"}'
    for path in ("/api/ops/comment_list", "/mcp/comment_list", "/mcp"):
        reply = httpx.post(f"{base}{path}", content=big, headers={"content-type": "application/json",
                                                                  "x-limpet-token": page_token(base)})
        assert reply.status_code == 413, path


def test_streamed_bodies_over_the_limit_are_refused(base):
    def chunks():
        for _ in range(6):
            yield b"x" * (1024 * 1024)

    reply = httpx.post(f"{base}/api/ops/comment_list", content=chunks(),
                       headers={"content-type": "application/json", "x-limpet-token": page_token(base)})
    assert reply.status_code == 413


def test_a_token_is_required_when_one_is_set(workspace):
    with http_server(workspace, token="tok-123", loopback=False) as url:
        missing = httpx.get(f"{url}/api/files")
        wrong = httpx.get(f"{url}/api/files", headers={"authorization": "Bearer nope"})
        right = httpx.get(f"{url}/api/files", headers={"authorization": "Bearer tok-123"})
        seed = httpx.post(f"{url}/mcp/comment_list", json={})
        entry = httpx.get(f"{url}/?token=tok-123")
        cookie = httpx.get(f"{url}/api/files", cookies={"limpet_token": "tok-123"})
        foreign = httpx.get(f"{url}/api/files", headers={"authorization": "Bearer tok-123",
                                                         "origin": "http://evil.example.com"})
    assert (missing.status_code, wrong.status_code, right.status_code, seed.status_code) == (401, 401, 200, 401)
    assert missing.headers["www-authenticate"].startswith("Bearer")
    assert entry.status_code == 303 and entry.headers["location"] == "/"
    assert "HttpOnly" in entry.headers["set-cookie"] and "SameSite=Strict" in entry.headers["set-cookie"]
    assert cookie.status_code == 200
    assert foreign.status_code == 403


def test_bind_socket_takes_the_first_free_port_of_the_range():
    held = bind_socket("127.0.0.1", None)
    try:
        port = held.getsockname()[1]
        nxt = bind_socket("127.0.0.1", None)
        assert port in PORT_RANGE and nxt.getsockname()[1] in PORT_RANGE and nxt.getsockname()[1] > port
        nxt.close()
    finally:
        held.close()


def _serve(limpet_cmd, workspace, *args):
    proc = subprocess.Popen([*limpet_cmd, "serve", "--http", "--workspace", str(workspace), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.rstrip("\n") == "}":  # the end of the printed client config
            break
    return proc, "".join(lines)


def _stop(proc):
    proc.terminate()
    proc.wait(15)


def _wait_up(url, **kw):
    for _ in range(100):
        try:
            return httpx.get(url, **kw)
        except httpx.ConnectError:
            time.sleep(0.1)
    raise AssertionError(f"{url} never answered")


def test_serve_http_without_port_prints_url_and_client_config(limpet_cmd, workspace):
    proc, out = _serve(limpet_cmd, workspace)
    try:
        url = re.search(r"web page:\s+(http://127\.0\.0\.1:(\d+))/", out)
        assert url and int(url.group(2)) in PORT_RANGE, out
        assert f"limpet mcp-config --host claude-code|cursor|vscode|codex --http {url.group(1)}" in out
        assert "For Claude Code (.mcp.json" in out
        config = json.loads(out[out.index("{"):])
        assert config == {"mcpServers": {"limpet": {"type": "http", "url": f"{url.group(1)}/mcp"}}}
        assert _wait_up(f"{url.group(1)}/mcp/status").json()["result"]["status"] == "running"
    finally:
        _stop(proc)


def test_serve_http_off_loopback_generates_a_token_and_refuses_requests_without_it(limpet_cmd, workspace):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc, out = _serve(limpet_cmd, workspace, "--host", "0.0.0.0", "--port", str(port))
    try:
        token = re.search(r"token:\s+(\S+)", out).group(1)
        config = json.loads(out[out.index("{"):])
        assert config["mcpServers"]["limpet"]["headers"] == {"Authorization": f"Bearer {token}"}
        url = f"http://127.0.0.1:{port}/mcp/status"
        assert _wait_up(url).status_code == 401
        assert httpx.get(url, headers={"authorization": f"Bearer {token}"}).status_code == 200
    finally:
        _stop(proc)


def test_serve_http_uses_the_given_token(limpet_cmd, workspace, monkeypatch):
    monkeypatch.setenv("LIMPET_TOKEN", "from-env")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc, out = _serve(limpet_cmd, workspace, "--host", "0.0.0.0", "--port", str(port))
    try:
        assert "from-env" in out and "generated" not in out
        url = f"http://127.0.0.1:{port}/api/files"
        assert _wait_up(url).status_code == 401
        assert httpx.get(url, headers={"authorization": "Bearer from-env"}).status_code == 200
    finally:
        _stop(proc)
