"""limpet.server.http: the HTTP door (`limpet serve --http`) — one ASGI app on uvicorn:
MCP Streamable HTTP at /mcp, plain JSON tool endpoints, the web page (static/) and its JSON
API with server-rendered views (markdown-it-py, Pygments), all behind one gate (loopback,
Host/Origin checks, bearer token, body limit)."""

from limpet.server.http._app import PORT_RANGE, HttpServer, bind_socket, build_app, serve_http
from limpet.server.http._security import DEFAULT_MAX_BODY, Guard, is_loopback

__all__ = ["DEFAULT_MAX_BODY", "PORT_RANGE", "Guard", "HttpServer", "bind_socket", "build_app", "is_loopback",
           "serve_http"]
