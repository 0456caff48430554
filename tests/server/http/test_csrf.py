"""Cross-site requests (issue 33, item 5): a state-changing call is accepted only as exactly
application/json, from this server's own origin, and, to the page's API, with the token the page
reads from its own HTML. Another page on this machine (another port of localhost included) can
neither send such a call without a CORS preflight nor get a preflight through."""

from __future__ import annotations

import httpx
import pytest
from support import api_post, http_server, page_token


@pytest.fixture
def base(workspace):
    with http_server(workspace) as url:
        yield url


def _thread(base: str) -> str:
    reply = api_post(base, "/api/ops/comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14,
                                                     "body": "keep me"})
    assert reply.status_code == 200, reply.text
    return reply.json()["result"]["thread"]["id"]


def _threads(base: str) -> list[str]:
    return [t["id"] for t in api_post(base, "/api/ops/comment_list", {}).json()["result"]["threads"]]


def test_the_issue_s_attack_deletes_nothing(base):
    # A "simple" request (no preflight) from a page served on another port of localhost.
    tid = _thread(base)
    reply = httpx.post(f"{base}/api/ops/delete_comment", content=f'{{"filePath": "src/auth.py", "commentId": "{tid}"}}',
                       headers={"content-type": "text/plain; charset=json", "origin": "http://localhost:8080"})
    assert reply.status_code == 403
    assert _threads(base) == [tid]


def test_the_selection_cannot_be_set_from_another_page(base):
    sel = {"selection": {"file": "src/auth.py", "line_start": 4, "line_end": 4, "text": "class AuthService:"}}
    reply = httpx.post(f"{base}/api/selection", content=httpx.Request("POST", "/", json=sel).content,
                       headers={"content-type": "text/plain; charset=json", "origin": "http://localhost:8080"})
    assert reply.status_code == 403
    assert api_post(base, "/api/ops/get_selection", {}).json()["result"] == {"selection": None}


@pytest.mark.parametrize("origin", ["http://localhost:8080", "http://127.0.0.1:1", "http://[::1]:9960",
                                    "https://127.0.0.1:{port}", "http://localhost:{port}"])
def test_only_this_server_s_exact_origin_may_change_state(base, origin):
    # The requests come to 127.0.0.1:PORT: localhost:PORT is another origin (another scheme too).
    port = base.rsplit(":", 1)[1]
    tid = _thread(base)
    reply = httpx.post(f"{base}/api/ops/delete_comment", json={"filePath": "src/auth.py", "commentId": tid},
                       headers={"origin": origin.format(port=port), "x-limpet-token": page_token(base)})
    assert reply.status_code == 403
    assert tid in _threads(base)


def test_the_page_s_own_calls_are_accepted(base):
    tid = _thread(base)
    reply = httpx.post(f"{base}/api/ops/delete_comment", json={"filePath": "src/auth.py", "commentId": tid},
                       headers={"origin": base, "sec-fetch-site": "same-origin", "x-limpet-token": page_token(base)})
    assert reply.status_code == 200, reply.text
    assert _threads(base) == []


@pytest.mark.parametrize("token", [None, "", "guessed", "LIMPET_PAGE_TOKEN"])
def test_the_page_api_wants_the_page_s_token(base, token):
    headers = {} if token is None else {"x-limpet-token": token}
    tid = _thread(base)
    for path, body in (("/api/ops/delete_comment", {"filePath": "src/auth.py", "commentId": tid}),
                       ("/api/selection", {"selection": None, "active_file": "src/auth.py"})):
        assert httpx.post(f"{base}{path}", json=body, headers=headers).status_code == 403, path
    assert tid in _threads(base)


def test_each_server_has_its_own_page_token(workspace, base):
    with http_server(workspace) as other:
        assert page_token(other) != page_token(base)
        refused = httpx.post(f"{other}/api/ops/comment_list", json={}, headers={"x-limpet-token": page_token(base)})
    assert refused.status_code == 403


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_browser_s_cross_site_marker_is_refused(base, site):
    reply = httpx.post(f"{base}/api/ops/comment_list", json={},
                       headers={"sec-fetch-site": site, "x-limpet-token": page_token(base)})
    assert reply.status_code == 403


@pytest.mark.parametrize("path", ["/api/ops/delete_comment", "/api/selection", "/mcp/delete_comment", "/mcp"])
def test_preflights_are_refused_without_cors_headers(base, path):
    reply = httpx.options(f"{base}{path}", headers={"origin": "http://localhost:8080",
                                                    "access-control-request-method": "POST",
                                                    "access-control-request-headers": "content-type, x-limpet-token"})
    assert reply.status_code == 403
    assert not any(h.startswith("access-control-") for h in reply.headers)


def test_seed_tool_calls_stay_open_to_non_browser_clients_but_not_to_other_pages(base):
    tid = _thread(base)
    args = {"filePath": "src/auth.py", "commentId": tid}
    for headers in ({"content-type": "text/plain; charset=json"},
                    {"content-type": "text/plain; charset=json", "origin": "http://localhost:8080"},
                    {"content-type": "application/json", "origin": "http://localhost:8080"}):
        reply = httpx.post(f"{base}/mcp/delete_comment", content=httpx.Request("POST", "/", json=args).content,
                           headers=headers)
        assert reply.status_code in (400, 403) and reply.json()["status"] is None, headers
    assert tid in _threads(base)
    # seed 003's documented client: JSON, no Origin, no page token
    reply = httpx.post(f"{base}/mcp/delete_comment", json=args)
    assert reply.status_code == 200 and reply.json()["error"] is None
    assert _threads(base) == []


def test_off_loopback_the_bearer_token_still_works_for_scripts_and_the_page(workspace):
    with http_server(workspace, token="tok-123", loopback=False) as url:
        bearer = {"authorization": "Bearer tok-123"}
        script = httpx.post(f"{url}/api/ops/comment_list", json={}, headers=bearer)
        cookie_only = httpx.post(f"{url}/api/ops/comment_list", json={}, cookies={"limpet_token": "tok-123"})
        token = page_token(url, **bearer)
        page = httpx.post(f"{url}/api/ops/comment_list", json={}, cookies={"limpet_token": "tok-123"},
                          headers={"x-limpet-token": token})
    assert (script.status_code, cookie_only.status_code, page.status_code) == (200, 403, 200)
