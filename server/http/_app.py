"""`limpet serve --http`: one ASGI app (Starlette on uvicorn) for every HTTP door.

    /mcp                 MCP Streamable HTTP (the official SDK app, over the same McpApp)
    /mcp/initialize ...  plain JSON endpoints for tools (_tool_routes.py)
    /api/...             the web page's JSON API (_api.py) and rendered views (_page_api.py)
    /, /static/...       the web page (files shipped in this package's static/ folder)

All of it behind one gate (_security.py): loopback by default with Host/Origin checks,
a bearer token anywhere else, a request body limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import sys
from collections.abc import AsyncIterator
from importlib import resources
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import uvicorn
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount, Route

from limpet.server.core import Service, serving
from limpet.server.http._api import api_routes
from limpet.server.http._events import EventHub
from limpet.server.http._page_api import page_routes
from limpet.server.http._render import highlight_css
from limpet.server.http._security import DEFAULT_MAX_BODY, Guard, is_loopback
from limpet.server.http._tool_routes import tool_routes
from limpet.server.mcp import HOSTS, McpApp, build_mcp, host_config

__all__ = ["build_app", "serve_http", "bind_socket", "HttpServer", "PORT_RANGE"]

log = logging.getLogger("limpet.http")
PORT_RANGE = range(9960, 9991)
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon"}
_TOKEN_SLOT = b"LIMPET_PAGE_TOKEN"  # in index.html's <meta name="limpet-token">
_PAGE_HEADERS = {
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "cache-control": "no-cache",
}


def _version() -> str:
    try:
        return version("limpet")
    except PackageNotFoundError:
        return "0"


def _static_files() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once from the package, and the code colours generated from
    Pygments' styles: only these names are ever served."""
    folder = resources.files("limpet.server.http").joinpath("static")
    out = {}
    for entry in folder.iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
        if entry.is_file() and suffix in _TYPES:
            out[entry.name] = (entry.read_bytes(), _TYPES[suffix])
    out["highlight.css"] = (highlight_css().encode(), _TYPES[".css"])
    return out


def _page_routes(page_token: str) -> list[Route]:
    files = _static_files()
    # The page reads its token from its own HTML (a foreign origin cannot read it) and sends it
    # with every state-changing call (_security.py).
    page, media = files["index.html"]
    files["index.html"] = (page.replace(_TOKEN_SLOT, page_token.encode()), media)

    def serve(name: str, **extra: str) -> Response:
        if name not in files:
            return PlainTextResponse("Not found", status_code=404)
        body, media = files[name]
        return Response(body, media_type=media, headers={**_PAGE_HEADERS, **extra})

    async def index(request: Request) -> Response:
        return serve("index.html", **{"cache-control": "no-store"})  # the token is this server's only

    async def static(request: Request) -> Response:
        return serve(request.path_params["name"])

    return [Route("/", index, methods=["GET"]), Route("/static/{name}", static, methods=["GET"])]


def build_app(mcp: McpApp, *, loopback: bool = True, token: str | None = None,
              max_body: int = DEFAULT_MAX_BODY, hub: EventHub | None = None) -> Guard:
    """The whole HTTP server as one ASGI app (the gate wrapping Starlette)."""
    hub = hub or EventHub()
    page_token = secrets.token_urlsafe(24)  # a secret: the OS's random source, new per server
    server = mcp.lowlevel()
    # The gate checks Host/Origin for every route, MCP included; the SDK's copy of that rule
    # would refuse the real hostnames a token-protected server is reached by.
    sdk_app = server.streamable_http_app(
        streamable_http_path="/mcp", max_request_body_size=max_body,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.attach(asyncio.get_running_loop())
        unsubscribe = mcp.service.subscribe(hub.publish)
        async with server.session_manager.run():
            with mcp.service.watching():  # pages see what other processes and editors change
                try:
                    yield
                finally:
                    unsubscribe()
                    hub.close()
                    with contextlib.suppress(OSError):
                        mcp.service.clear_selection()  # no page is open any more

    routes = [*api_routes(mcp, hub), *page_routes(mcp), *tool_routes(mcp, _version()), *_page_routes(page_token), Mount("/", app=sdk_app)]
    app = Starlette(routes=routes, lifespan=lifespan)
    return Guard(app, loopback=loopback, token=token, page_token=page_token, max_body=max_body)


# -- running ---------------------------------------------------------------------------------------
class HttpServer(uvicorn.Server):
    """uvicorn waits for open responses before it stops: end the pages' event streams first."""

    def __init__(self, config: uvicorn.Config, hub: EventHub) -> None:
        super().__init__(config)
        self.hub = hub

    def handle_exit(self, sig: int, frame: Any) -> None:
        self.hub.close_threadsafe()
        super().handle_exit(sig, frame)

    def stop(self) -> None:
        """From another thread (tests, embedding)."""
        self.hub.close_threadsafe()
        self.should_exit = True


def bind_socket(host: str, port: int | None) -> socket.socket:
    """A listening socket on `port`, or on the first free port of PORT_RANGE."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    candidates = [port] if port is not None else list(PORT_RANGE)
    last: OSError | None = None
    for candidate in candidates:
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Inherited by accepted connections: without it a kept-alive client waits ~40 ms per
        # reply (Nagle vs delayed ACK, as the response head and body are separate writes).
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            sock.bind((host, candidate))
            sock.listen(128)
            return sock
        except OSError as exc:
            sock.close()
            last = exc
    where = f"port {port}" if port is not None else f"ports {PORT_RANGE.start}-{PORT_RANGE.stop - 1}"
    raise OSError(f"cannot listen on {host} {where}: {last}")


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):
        return socket.gethostname()
    return f"[{host}]" if ":" in host else host


def _banner(workspace: str, base: str, token: str | None, generated: bool) -> str:
    page = f"{base}/?token={token}" if token else f"{base}/"
    lines = [f"limpet: serving {workspace}", f"  web page:     {page}", f"  MCP endpoint: {base}/mcp"]
    if token:
        lines.append(f"  token:        {token}" + ("  (generated; set --token or LIMPET_TOKEN to choose one)"
                                                 if generated else ""))
    hosts = "|".join(h for h in HOSTS if h != "claude-desktop")  # Claude Desktop's file takes stdio only
    example = host_config("claude-code", url=f"{base}/mcp", token=token)
    lines += [f"MCP hosts: `limpet mcp-config --host {hosts} --http {base}` prints the config yours takes.",
              f"For Claude Code ({example.where}):", example.text.rstrip("\n")]
    return "\n".join(lines)


def serve_http(workspace: str, *, groups: set[str] | None = None, host: str = "127.0.0.1",
               port: int | None = None, token: str | None = None) -> None:
    logging.basicConfig(level=logging.WARNING)
    serving()
    loopback = is_loopback(host)
    generated = False
    if not loopback and not token:
        # A bearer token is a secret, not an id: it comes from the OS's random source.
        token, generated = secrets.token_urlsafe(24), True
    mcp = build_mcp(Service(workspace), groups)
    try:
        sock = bind_socket(host, port)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
    bound = sock.getsockname()[1]
    print(_banner(str(mcp.service.root), f"http://{_url_host(host)}:{bound}", token, generated), flush=True)
    hub = EventHub()
    config = uvicorn.Config(build_app(mcp, loopback=loopback, token=token or None, hub=hub), log_level="warning",
                            timeout_graceful_shutdown=2, server_header=False, proxy_headers=False)
    try:
        HttpServer(config, hub).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        sys.stdout.flush()
