"""HTTP: Host and Origin checked (DNS rebinding), a token required off loopback, bodies over the
limit refused, no directory listing, static files only from the package, no path escapes
through the API — for every kind of route (page, static, API, seed 003, MCP)."""

from __future__ import annotations

import http.client
import json
import os
from collections.abc import Iterator
from importlib import resources
from urllib.parse import urlsplit

import pytest
from support import http_server, page_token, write_files

from limpet.server.http import DEFAULT_MAX_BODY

SECRET = "TOP-SECRET-outside-the-workspace"
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
# One request of each kind: (method, path, body).
ROUTES = [("GET", "/", None), ("GET", "/static/app.js", None), ("GET", "/api/files", None),
          ("GET", "/api/file?path=src/auth.py", None), ("POST", "/api/ops/comment_list", b"{}"),
          ("GET", "/mcp/status", None), ("POST", "/mcp/comment_list", b"{}"),
          ("POST", "/mcp", json.dumps(INIT).encode())]


def request(base: str, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, bytes, dict[str, str]]:
    """One request with the path sent exactly as given (no client-side dot-segment cleanup)."""
    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        all_headers = {"Host": url.netloc, **(MCP_HEADERS if method == "POST" else {}), **(headers or {})}
        if method == "POST" and path.startswith("/api/") and "X-Limpet-Token" not in all_headers:
            all_headers["X-Limpet-Token"] = _token_as_the_page_reads_it(base, all_headers)
        conn.request(method, path, body=body, headers=all_headers)
        reply = conn.getresponse()
        return reply.status, reply.read(), {k.lower(): v for k, v in reply.getheaders()}
    finally:
        conn.close()


def _token_as_the_page_reads_it(base: str, headers: dict[str, str]) -> str:
    """The page's token (what the page sends with a state-changing call), or a wrong one when
    the page itself is refused to these headers."""
    auth = {k: v for k, v in headers.items() if k == "Authorization"}
    try:
        return page_token(base, **auth)
    except AssertionError:
        return "not-the-page-token"


@pytest.fixture
def site(workspace, tmp_path) -> Iterator[str]:
    secret = tmp_path / "outside" / "secret.txt"
    write_files(tmp_path, {"outside/secret.txt": SECRET})
    write_files(workspace, {"static/evil.js": "alert('from the workspace')", "static/index.html": "<h1>fake</h1>"})
    os.symlink(secret, workspace / "leak.txt")
    with http_server(workspace) as base:
        yield base


def test_every_kind_of_route_answers_a_loopback_client(site):
    for method, path, body in ROUTES:
        status, _, _ = request(site, method, path, body)
        assert status == 200, (method, path, status)


@pytest.mark.parametrize("host", ["evil.example.com", "evil.example.com:80", "127.0.0.1.nip.io", "192.168.1.10",
                                  "localhost.evil.com", "[::ffff:8.8.8.8]", ""])
def test_a_foreign_host_header_is_refused_on_every_route(site, host, figures):
    for method, path, body in ROUTES:
        status, _, _ = request(site, method, path, body, headers={"Host": host})
        assert status == 403, (host, path, status)
    figures.setdefault("http", {}).setdefault("foreign_hosts_refused", 0)
    figures["http"]["foreign_hosts_refused"] += len(ROUTES)


@pytest.mark.parametrize("origin", ["http://evil.example.com", "https://localhost.evil.com", "null", "file://",
                                    "chrome-extension://abcdef", "http://127.0.0.1.evil.com", "javascript:alert(1)"])
def test_a_foreign_origin_is_refused_on_every_route(site, origin):
    for method, path, body in ROUTES:
        status, _, _ = request(site, method, path, body, headers={"Origin": origin})
        assert status == 403, (origin, path, status)


def test_off_loopback_a_bearer_token_is_required_on_every_route(workspace, figures):
    with http_server(workspace, token="s3cret-token", loopback=False) as base:
        for method, path, body in ROUTES:
            assert request(base, method, path, body)[0] == 401, path
            assert request(base, method, path, body, headers={"Authorization": "Bearer wrong"})[0] == 401, path
            assert request(base, method, path, body, headers={"Authorization": "Basic czNjcmV0LXRva2Vu"})[0] == 401
            assert request(base, method, path, body, headers={"Authorization": "Bearer s3cret-token"})[0] == 200
        # the query-string form is only the page's entry point, never an API credential
        assert request(base, "GET", "/api/files?token=s3cret-token")[0] == 401
        assert request(base, "GET", "/?token=s3cret-token")[0] == 303
    figures.setdefault("http", {})["token_checks"] = 4 * len(ROUTES) + 2


def test_request_bodies_over_the_limit_are_refused(site, figures):
    big = b'{"body": "' + b"x" * (DEFAULT_MAX_BODY + 1) + b'"}'
    posts = [(m, p) for m, p, _ in ROUTES if m == "POST"]
    for _, path in posts:
        assert request(site, "POST", path, big)[0] == 413, path
        url = urlsplit(site)  # streamed (chunked, no Content-Length)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        try:
            conn.request("POST", path, body=iter([big[i:i + 65536] for i in range(0, len(big), 65536)]),
                         headers={**MCP_HEADERS, "Host": url.netloc, "X-Limpet-Token": page_token(site)},
                         encode_chunked=True)
            assert conn.getresponse().status == 413, path
        finally:
            conn.close()
    assert request(site, "GET", "/mcp/status")[0] == 200  # and it keeps serving
    figures.setdefault("http", {})["oversized_bodies_refused"] = 2 * len(posts)


def test_malformed_mcp_messages_get_json_rpc_errors(site):
    status, body, _ = request(site, "POST", "/mcp", b"{not json")
    assert status == 400 and json.loads(body)["error"]["code"] == -32700
    status, body, _ = request(site, "POST", "/mcp", b'{"jsonrpc": "1.0", "id": 1, "method": "x"}')
    assert status == 400 and json.loads(body)["error"]["code"] in (-32600, -32602)


NOT_SERVED = ["/static/", "/static", "/static/../_app.py", "/static/%2e%2e/_app.py", "/static/..%2f_app.py",
              "/static/%2e%2e%2f%2e%2e%2fpyproject.toml", "/static/evil.js", "/static/.%2e/__init__.py",
              "/static/app.js/../../_app.py", "/static//etc/passwd", "/static/%00", "/.limpet/", "/.limpet/store.json",
              "/.git/config", "/src/", "/src/auth.py", "/api/", "/api", "/mcp/", "/../../etc/passwd", "/leak.txt",
              "/static/..", "/%2e%2e/%2e%2e/etc/passwd", "/server/http/_app.py", "/limpet/server/http/_app.py"]


def test_no_directory_listing_and_only_the_packages_static_files_are_served(site, figures):
    package = resources.files("limpet.server.http").joinpath("static")
    shipped = {entry.name: entry.read_bytes() for entry in package.iterdir() if entry.is_file()}
    token = page_token(site).encode()
    for name, data in shipped.items():
        status, body, headers = request(site, "GET", f"/static/{name}")
        assert status == 200 and body.replace(token, b"LIMPET_PAGE_TOKEN") == data, name
        assert headers.get("x-content-type-options") == "nosniff"
    status, body, _ = request(site, "GET", "/")
    # the package's page (with this server's token), not the workspace's static/index.html
    assert body.replace(token, b"LIMPET_PAGE_TOKEN") == shipped["index.html"]
    for path in NOT_SERVED:
        status, body, _ = request(site, "GET", path)
        redirect = status in (307, 308) and body == b""  # /mcp/ -> /mcp: the endpoint, not a listing
        assert status in (400, 404, 405, 406) or redirect, (path, status, body[:200])
        assert b"alert('from the workspace')" not in body and b"def " not in body and SECRET.encode() not in body
        assert b"Index of" not in body and b"auth.py" not in body, path
    figures.setdefault("http", {})["paths_not_served"] = len(NOT_SERVED)


@pytest.mark.parametrize("path", ["../outside/secret.txt", "leak.txt", ".limpet/store.json", ".git/config",
                                  "%2e%2e/outside/secret.txt", "/etc/passwd", "~/.bashrc", "src/..", "src"])
def test_the_file_api_refuses_escapes_like_the_tools(site, path):
    from urllib.parse import quote

    status, body, _ = request(site, "GET", f"/api/file?path={quote(path, safe='')}")
    assert status in (400, 403, 404) and SECRET.encode() not in body, (path, status)
    assert json.loads(body)["error"]["code"] in ("INVALID_PATH", "FILE_NOT_FOUND")
    if path not in ("src",):
        assert json.loads(body)["error"]["code"] == "INVALID_PATH", (path, body)


ADD = {"file": "PLAN.md", "line_start": 1, "line_end": 1, "body": "from a page elsewhere"}


@pytest.mark.parametrize("content_type, body", [
    ("text/plain", json.dumps(ADD).encode()),
    ("application/x-www-form-urlencoded", b"file=PLAN.md&line_start=1&line_end=1&body=x"),
    ("multipart/form-data; boundary=x", b"--x\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nPLAN.md\r\n--x--\r\n"),
    (None, json.dumps(ADD).encode()),
])
def test_seed_tool_endpoints_take_only_json_bodies(site, content_type, body, figures):
    headers = {"content-type": content_type} if content_type else {"content-type": ""}
    status, reply, _ = request(site, "POST", "/mcp/comment_add", body, headers=headers)
    assert status == 400 and b"application/json" in reply, (content_type, status, reply)
    status, reply, _ = request(site, "POST", "/mcp/comment_list", b"{}")
    assert json.loads(json.loads(reply)["status"])["threads"] == []  # nothing was created
    figures.setdefault("http", {}).setdefault("seed_bodies_not_json_refused", 0)
    figures["http"]["seed_bodies_not_json_refused"] += 1


@pytest.mark.parametrize("origin", ["http://localhost:3000", "http://127.0.0.1:1", "https://{netloc}"])
def test_seed_tool_endpoints_refuse_another_origin_even_on_loopback(site, origin, figures):
    netloc = urlsplit(site).netloc
    status, reply, _ = request(site, "POST", "/mcp/comment_add", json.dumps(ADD).encode(),
                               headers={"Origin": origin.format(netloc=netloc)})
    assert status == 403, (origin, status, reply)
    same, _, _ = request(site, "POST", "/mcp/comment_add", json.dumps(ADD).encode(),
                         headers={"Origin": f"http://{netloc}"})
    assert same == 200
    figures.setdefault("http", {}).setdefault("seed_cross_origin_refused", 0)
    figures["http"]["seed_cross_origin_refused"] += 1


# Every state-changing route, and what another page on this machine can send it: a "simple"
# request (no preflight: text/plain, a form, multipart) or a JSON one from another origin
# (another port of localhost included), with or without the page's token, or a preflight.
STATE_CHANGING = ["/api/ops/comment_add", "/api/ops/delete_comment", "/api/selection", "/mcp/comment_add", "/mcp"]
SIMPLE_TYPES = ["text/plain; charset=json", "text/plain", "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x", "text/plain, application/json"]
OTHER_ORIGINS = ["http://localhost:8080", "http://127.0.0.1:1", "http://[::1]:9960", "https://{netloc}", "null"]


def _cross_site_requests(site: str) -> Iterator[tuple[str, str, dict[str, str]]]:
    netloc, token = urlsplit(site).netloc, page_token(site)
    for path in STATE_CHANGING:
        for media in SIMPLE_TYPES:
            for origin in OTHER_ORIGINS:
                yield "POST", path, {"content-type": media, "Origin": origin.format(netloc=netloc)}
            yield "POST", path, {"content-type": media, "X-Limpet-Token": token}  # even with the token
        for origin in OTHER_ORIGINS:
            yield "POST", path, {"Origin": origin.format(netloc=netloc), "X-Limpet-Token": token}
            yield "OPTIONS", path, {"Origin": origin.format(netloc=netloc), "Access-Control-Request-Method": "POST"}
        if path.startswith("/api/"):
            for wrong in ("", "guess", "LIMPET_PAGE_TOKEN"):
                yield "POST", path, {"Origin": f"http://{netloc}", "X-Limpet-Token": wrong}
        for fetch_site in ("same-site", "cross-site"):
            yield "POST", path, {"Sec-Fetch-Site": fetch_site, "X-Limpet-Token": token}


def test_no_cross_site_request_changes_anything(site, figures):
    tid = json.loads(json.loads(request(site, "POST", "/mcp/comment_add", json.dumps(ADD).encode())[1])["status"])
    tid = tid["thread"]["id"]
    # bodies each route would act on (a refusal is never for want of valid arguments)
    bodies = {"/api/ops/comment_add": ADD, "/mcp/comment_add": ADD, "/mcp": INIT,
              "/api/ops/delete_comment": {"filePath": "PLAN.md", "commentId": tid},
              "/api/selection": {"selection": {"file": "PLAN.md", "line_start": 1, "line_end": 1, "text": "x"}}}
    sent = 0
    for method, path, headers in _cross_site_requests(site):
        body = json.dumps(bodies[path]).encode() if method == "POST" else None
        status, reply, answer = request(site, method, path, body, headers=headers)
        assert status in (400, 403), (method, path, headers, status, reply[:200])
        assert not any(h.startswith("access-control-") for h in answer), (path, headers)
        sent += 1
    threads = json.loads(json.loads(request(site, "POST", "/mcp/comment_list", b"{}")[1])["status"])["threads"]
    assert [t["id"] for t in threads] == [tid]  # nothing added, nothing deleted
    selection = json.loads(json.loads(request(site, "POST", "/mcp/get_selection", b"{}")[1])["status"] or "null")
    assert selection in (None, {"selection": None})
    figures.setdefault("http", {})["cross_site_refused"] = sent
