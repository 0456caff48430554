"""The HTTP server's gate: DNS-rebinding protection, cross-site request refusal, the bearer
token and the body size limit.

One ASGI middleware in front of everything (MCP at /mcp, seed 003's endpoints, /api, the
page), so the rules are written once:

* bound to loopback: the Host header must name a loopback host (localhost, 127.0.0.0/8,
  [::1]) and an Origin, when sent, must be a loopback http(s) origin; otherwise 403. A
  page on evil.example whose DNS now points at 127.0.0.1 is refused.
* bound anywhere else a token is required (and it is also enforced on loopback when one is
  given): `Authorization: Bearer TOKEN`, or the HttpOnly SameSite=Strict cookie the page
  gets by opening `/?token=TOKEN` once; otherwise 401. An Origin must then be the same
  origin as Host (or loopback).
* a state-changing request (POST, PUT, PATCH, DELETE; seed 003's read-only POSTs aside) that
  a browser sends (it carries an Origin) must come from exactly this server's origin
  (scheme://host:port as the Host header names it: another port of localhost is another
  origin), and one whose Sec-Fetch-Site says same-site or cross-site is refused: 403.
  Its body must be exactly `application/json` (`is_json_media_type`, checked where bodies
  are read, _api.read_json): the other types are what a page elsewhere can send without a
  CORS preflight.
* a state-changing request to the page's API (/api/...) must also carry the page token in
  `X-Limpet-Token` (or a valid `Authorization: Bearer`): a random value made per server and
  written into the page's own HTML (`<meta name="limpet-token">`), which no other origin can
  read; a custom header a foreign page cannot send without a preflight: 403 otherwise.
* preflights (OPTIONS with Access-Control-Request-Method) are refused (403, no CORS headers):
  no other origin is ever allowed to send what needs one.
* bodies larger than `max_body` bytes are refused with 413 (Content-Length or streamed).
"""

from __future__ import annotations

import hmac
import ipaddress
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlsplit

import orjson
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["Guard", "is_loopback", "is_json_media_type", "COOKIE", "DEFAULT_MAX_BODY", "PAGE_TOKEN_HEADER"]

COOKIE = "limpet_token"
PAGE_TOKEN_HEADER = "x-limpet-token"
DEFAULT_MAX_BODY = 4 * 1024 * 1024
_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Seed 003's POSTs that only read (its clients may send them without a body or a type).
_READ_ONLY_POSTS = frozenset({"/mcp/initialize", "/mcp/status", "/mcp/list_tools"})
_PAGE_API = "/api/"


def is_json_media_type(content_type: str) -> bool:
    """Whether a Content-Type header names exactly application/json (parameters such as
    charset aside): `text/plain; charset=json` or `application/json, text/plain` do not."""
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


def is_loopback(host: str) -> bool:
    name = host.strip().strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _hostname(authority: str) -> str:
    """'[::1]:9960' -> '::1', 'localhost:9960' -> 'localhost'."""
    return urlsplit(f"//{authority}").hostname or ""


class Guard:
    def __init__(self, app: ASGIApp, *, loopback: bool, token: str | None, page_token: str,
                 max_body: int = DEFAULT_MAX_BODY) -> None:
        self.app = app
        self.loopback = loopback
        self.token = token
        self.page_token = page_token
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = (self._check_origin(headers) or self._check_token(scope, headers)
                   or self._check_cross_site(scope, headers))
        if refusal is not None:
            await _reply(send, *refusal)
            return
        if self.token and self._token_in_query(scope) and scope["method"] == "GET" and scope["path"] == "/":
            await self._set_cookie_and_redirect(send)
            return
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.max_body:
            await _reply(send, 413, f"Request body larger than {self.max_body} bytes")
            return
        await self._forward_limited(scope, receive, send)

    # -- checks: each returns (status, message) when the request is refused --------------------------
    def _check_origin(self, headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if self.loopback and not is_loopback(_hostname(host)):
            return 403, "Host not allowed (this server only answers loopback names)"
        origin = headers.get("origin")
        if origin is None:
            return None
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return 403, "Origin not allowed"
        if is_loopback(parts.hostname) or (not self.loopback and parts.netloc.lower() == host.lower()):
            return None
        return 403, "Origin not allowed"

    def _check_cross_site(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        method, path = scope["method"], scope["path"]
        if method == "OPTIONS" and "access-control-request-method" in headers:
            return 403, "Cross-origin requests are not allowed"
        if method not in _UNSAFE or path in _READ_ONLY_POSTS:
            return None
        origin = headers.get("origin")
        if origin is not None and not self._own_origin(scope, origin, headers.get("host", "")):
            return 403, "Origin not allowed: state-changing requests are accepted from this server's own origin only"
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "Cross-site requests are not allowed"
        if path.startswith(_PAGE_API) and not (self._bearer_matches(headers) or self._page_token_matches(headers)):
            return 403, f"The page token is required ({PAGE_TOKEN_HEADER}, from the page's HTML)"
        return None

    def _own_origin(self, scope: Scope, origin: str, host: str) -> bool:
        """Exactly scheme://host:port of this server, as the request's Host names it. Off
        loopback a TLS proxy may stand in front: https then names the same server."""
        parts = urlsplit(origin)
        schemes = {scope.get("scheme", "http")} | (set() if self.loopback else {"https"})
        return parts.scheme in schemes and bool(host) and parts.netloc.lower() == host.lower() \
            and not parts.path and not parts.query

    def _page_token_matches(self, headers: dict[str, str]) -> bool:
        return hmac.compare_digest(headers.get(PAGE_TOKEN_HEADER, "").encode(), self.page_token.encode())

    def _bearer_matches(self, headers: dict[str, str]) -> bool:
        auth = headers.get("authorization", "")
        return bool(self.token) and auth[:7].lower() == "bearer " and \
            hmac.compare_digest(auth[7:].strip().encode(), self.token.encode())  # type: ignore[union-attr]

    def _check_token(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        if not self.token:
            return None
        auth = headers.get("authorization", "")
        candidates = [auth[7:].strip()] if auth[:7].lower() == "bearer " else []
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except CookieError:  # a malformed cookie header is just no cookie
            cookie = SimpleCookie()
        if COOKIE in cookie:
            candidates.append(cookie[COOKIE].value)
        if scope["method"] == "GET" and scope["path"] == "/":
            candidates.extend(self._token_in_query(scope))
        if any(hmac.compare_digest(c.encode(), self.token.encode()) for c in candidates):
            return None
        return 401, "A bearer token is required (Authorization: Bearer TOKEN, or open /?token=TOKEN)"

    @staticmethod
    def _token_in_query(scope: Scope) -> list[str]:
        return parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [])

    async def _set_cookie_and_redirect(self, send: Send) -> None:
        # Moves the token from the URL (history, screenshots) into a cookie scripts cannot read.
        cookie = f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
        await send({"type": "http.response.start", "status": 303,
                    "headers": [(b"location", b"/"), (b"set-cookie", cookie.encode()), (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})

    async def _forward_limited(self, scope: Scope, receive: Receive, send: Send) -> None:
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:  # Starlette's exception middleware turns this into a 413
                    raise HTTPException(413, f"Request body larger than {self.max_body} bytes")
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except HTTPException as exc:
            if exc.status_code != 413 or started:
                raise
            if not started:
                await _reply(send, 413, f"Request body larger than {self.max_body} bytes")


async def _reply(send: Send, status: int, message: str) -> None:
    """Refusals use seed 003's reply shape, which every client of this server can read."""
    body = orjson.dumps({"status": None, "error": message})
    headers: list[Any] = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="limpet"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
