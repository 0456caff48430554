"""pygls, adapted: what the server needs of the protocol layer beyond its defaults.

* `limpet/threads` keeps its params a JSON object (pygls makes the params of methods it
  does not know into namedtuples);
* a request whose params do not fit its method is answered with an error (pygls only logs
  it, and the editor would wait for the answer forever);
* diagnostics are sent as the JSON the server built (`Json`): every keystroke re-sends a
  document's diagnostics, and converting them through typed objects, or walking a plain dict
  through the converter, costs more than the rest of the edit's handling.
"""

from __future__ import annotations

from typing import Any

import msgspec
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol, default_converter

__all__ = ["THREADS_REQUEST", "Json", "Protocol", "converter"]

THREADS_REQUEST = "limpet/threads"


class _ThreadsRequest(msgspec.Struct):
    """limpet/threads as a JSON-RPC request whose params stay a JSON object (pygls turns the
    params of methods it does not know into namedtuples)."""

    id: int | str
    method: str
    jsonrpc: str
    params: Any = None  # an object, as the handler checks (not a namedtuple, as pygls would make it)


class Protocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if not ("id" in data and "method" in data):
                raise
            # A request whose params do not fit its method: answer it (pygls would only log it,
            # and the editor would wait for an answer forever).
            self._send_response(data["id"], error=JsonRpcException(
                f"Invalid params for {data['method']}", code=exc.code if exc.code != -32603 else -32602,
                data={"method": data["method"]}).to_response_error())
            return None

    def handle_message(self, message: Any) -> None:
        if message is not None:  # None: a malformed request, already answered
            super().handle_message(message)

    def get_message_type(self, method: str) -> type[Any] | None:
        if method == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
            return None  # sent as the JSON `publish` builds
        return _ThreadsRequest if method == THREADS_REQUEST else super().get_message_type(method)


class Json(dict):
    """JSON the server built itself: sent as it is."""


def converter() -> Any:
    converter = default_converter()
    converter.register_unstructure_hook(Json, lambda value: value)
    converter.register_structure_hook(_ThreadsRequest, lambda data, _: msgspec.convert(data, _ThreadsRequest))
    return converter
