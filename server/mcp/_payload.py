"""A tool result's payload carried past the SDK's generic walks, and written with orjson.

The SDK shapes every result for the wire by walking it with pydantic: a dump of the
`CallToolResult` model, the protocol version's sieve (validate, dump again), then the
transport's `model_dump_json`. Our structured content is already plain JSON data, and a
page of 100 threads is ~95 KB twice over (structured content and its text), so those
three walks cost more than the call itself. The tool handler therefore hands the SDK a
placeholder result (empty structured content, empty text), which goes through the whole
pipeline (the initialization gate, argument validation, the sieve, the 2026 `serverInfo`
stamp), and `carry_payload`, the innermost middleware, puts the real payload into the
wire dict the pipeline made. `OrjsonWrites` then serializes responses with orjson on
stdio. Without the middleware (a test calling the handler directly) nothing changes.
A result written as JSON already (operations' `Encoded`: comment_reconcile's hundreds of
moved threads) goes to the stdio writer as those bytes alone; its dict is built only if a
writer needs it (`hand_over_json`).
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any

import mcp_types as types
import orjson

__all__ = ["OrjsonWrites", "carry_payload", "hand_over", "hand_over_json"]

# The request's slot, set by the middleware around the handler; None outside it.
_SLOT: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("limpet_payload", default=None)


class _Serialized(dict):  # type: ignore[type-arg]
    """Structured content whose JSON is already known (the text block is exactly it): a writer
    that can embed pre-serialized JSON writes `text` instead of walking the dict again; any
    other reads it as the dict it is. Handed to such a writer only (`hand_over_json`), it may
    be empty, with `build` making its dict if the writer ever needs it."""

    __slots__ = ("build", "text")

    def filled(self) -> _Serialized:
        build = getattr(self, "build", None)
        if build is not None:
            self.update(build())
            self.build = None
        return self


def hand_over(structured: dict[str, Any], text: str, *, text_is_json: bool) -> tuple[dict[str, Any], str]:
    """What the handler puts into its `CallToolResult`: placeholders when the middleware will
    carry the payload, else the payload itself. `text_is_json`: the text block is the
    structured content's JSON."""
    slot = _SLOT.get()
    if slot is None:
        return structured, text
    if text_is_json:
        structured = _Serialized(structured)
        structured.text = text
    slot["structured"], slot["text"] = structured, text
    return {}, ""


def hand_over_json(json: bytes, payload: Callable[[], dict[str, Any]], *, embedded: bool) -> tuple[dict[str, Any], str]:
    """`hand_over` for a result whose JSON is written already (operations' `Encoded`: the
    structured content's JSON, and the text block). `embedded`: the transport's writer embeds
    pre-serialized JSON (stdio's `OrjsonWrites`), so the dict (`payload()`) is never built."""
    text = json.decode()
    slot = _SLOT.get()
    if slot is None or not embedded:
        return hand_over(payload(), text, text_is_json=True)
    structured = _Serialized()
    structured.text, structured.build = text, payload
    slot["structured"], slot["text"] = structured, text
    return {}, ""


async def carry_payload(ctx: Any, call_next: Any) -> Any:
    if ctx.method != "tools/call":
        return await call_next(ctx)
    slot: dict[str, Any] = {}
    token = _SLOT.set(slot)
    try:
        wire = await call_next(ctx)
    finally:
        _SLOT.reset(token)
    if slot and isinstance(wire, dict):
        if "structuredContent" in wire:
            wire["structuredContent"] = slot["structured"]
        first = wire.get("content") or [{}]
        if first[0].get("type") == "text":
            first[0]["text"] = slot["text"]
    return wire


class _OrjsonResponse(types.JSONRPCResponse):
    """A response whose JSON is orjson's: `result` is already the wire dict the pipeline made."""

    def model_dump_json(self, **kwargs: Any) -> str:  # type: ignore[override]
        result = self.result
        structured = result.get("structuredContent")
        if type(structured) is _Serialized:
            result = {**result, "structuredContent": orjson.Fragment(structured.text)}
        try:
            return orjson.dumps({"jsonrpc": self.jsonrpc, "id": self.id, "result": result}).decode()
        except TypeError:  # not plain JSON data (orjson's error is a TypeError): the SDK's way
            if type(structured) is _Serialized:
                structured.filled()
            return super().model_dump_json(**kwargs)


class OrjsonWrites:
    """The stdio write stream, with each response re-typed as `_OrjsonResponse`; every other
    message is written by the SDK's own serializer."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def send(self, item: Any) -> None:
        message = getattr(item, "message", None)
        if type(message) is types.JSONRPCResponse:
            item.message = _OrjsonResponse.model_construct(jsonrpc=message.jsonrpc, id=message.id,
                                                           result=message.result)
        await self._inner.send(item)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def aclose(self) -> None:
        await self._inner.aclose()

    def close(self) -> None:
        self._inner.close()

    async def __aenter__(self) -> OrjsonWrites:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)
