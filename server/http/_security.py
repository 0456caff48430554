"""The HTTP server's gate: DNS-rebinding protection, the bearer token and the body size limit.

One ASGI middleware in front of everything (MCP at /mcp, seed 003's endpoints, /api, the
page), so the rules are written once:

* bound to loopback: the Host header must name a loopback host (localhost, 127.0.0.0/8,
  [::1]) and an Origin, when sent, must be a loopback http(s) origin; otherwise 403. A
  page on evil.example whose DNS now points at 127.0.0.1 is refused.
* bound anywhere else a token is required (and it is also enforced on loopback when one is
  given): `Authorization: Bearer TOKEN`, or the HttpOnly SameSite=Strict cookie the page
  gets by opening `/?token=TOKEN` once; otherwise 401. An Origin must then be the same
  origin as Host (or loopback).
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

__all__ = ["Guard", "is_loopback", "COOKIE", "DEFAULT_MAX_BODY"]

COOKIE = "limpet_token"
DEFAULT_MAX_BODY = 4 * 1024 * 1024


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
    def __init__(self, app: ASGIApp, *, loopback: bool, token: str | None, max_body: int = DEFAULT_MAX_BODY) -> None:
        self.app = app
        self.loopback = loopback
        self.token = token
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self._check_origin(headers) or self._check_token(scope, headers)
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
