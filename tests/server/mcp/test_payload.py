"""A tool result's payload carried past the SDK's walks: what the client receives is exactly
what the SDK's own pipeline would have sent, for every kind of result."""

from __future__ import annotations

import orjson
import pytest
from mcp import Client
from mcp_types import JSONRPCResponse
from support import write_files

from limpet.server.core import Service
from limpet.server.mcp._build import build_mcp
from limpet.server.mcp._payload import OrjsonWrites, _OrjsonResponse, _Serialized, carry_payload

pytestmark = pytest.mark.anyio

CALLS = [
    ("comment_list", {}),
    ("comment_list", {"file": "app.py", "limit": 1}),
    ("comment_show", {"thread_id": "c_0"}),  # replaced by a real id below
    ("search_comments", {"query": "limit"}),
    ("get_file_comments", {"filePath": "app.py"}),
    ("comment_show", {"thread_id": "c_000000000000000000"}),  # THREAD_NOT_FOUND: an error result
    ("comment_list", {"limit": 0}),  # INVALID_ARGUMENT
    ("comment_reconcile", {}),
]


async def _results(workspace, *, carried: bool) -> list[dict]:
    app = build_mcp(Service(workspace))
    server = app.lowlevel()
    if not carried:
        server.middleware.remove(carry_payload)
    out = []
    async with Client(server) as client:
        first = None
        for name, args in CALLS:
            if name == "comment_show" and args["thread_id"] == "c_0":
                args = {"thread_id": first}
            result = await client.call_tool(name, args)
            if first is None and not result.is_error:
                first = result.structured_content["threads"][0]["id"]
            out.append(result.model_dump(mode="json", by_alias=True))
    return out


@pytest.fixture
def threads(workspace):
    write_files(workspace, {"app.py": "def check(limit):\n    return limit > 3\n\n\ndef other():\n    return 1\n"})
    svc = Service(workspace)
    svc.add("app.py", 1, 2, "Check the limit handling", tag="TODO")
    svc.add("app.py", 5, 6, "Is this used?")
    svc.flush()
    return workspace


async def test_the_client_receives_what_the_sdk_alone_would_send(threads):
    carried = await _results(threads, carried=True)
    plain = await _results(threads, carried=False)
    assert carried == plain
    assert carried[0]["structuredContent"]["count"] == 2
    assert orjson.loads(carried[0]["content"][0]["text"]) == carried[0]["structuredContent"]
    assert [r["isError"] for r in carried] == [False] * 5 + [True, True, False]


def _response(result: dict) -> JSONRPCResponse:
    return JSONRPCResponse(jsonrpc="2.0", id=7, result=result)


def test_orjson_writes_the_same_json_as_the_sdk():
    structured = {"threads": [{"id": "c_1", "line_start": 3, "text": "é \" \\ \n"}], "count": 1}
    text = orjson.dumps(structured).decode()
    serialized = _Serialized(structured)
    serialized.text = text
    for result in ({"content": [{"type": "text", "text": text}], "structuredContent": structured},
                   {"content": [{"type": "text", "text": text}], "structuredContent": serialized}, {}):
        plain = _response(result)
        fast = _OrjsonResponse.model_construct(jsonrpc="2.0", id=7, result=result)
        assert orjson.loads(fast.model_dump_json()) == orjson.loads(plain.model_dump_json(by_alias=True,
                                                                                           exclude_unset=True))


def test_data_orjson_cannot_write_goes_the_sdks_way():
    result = {"content": [], "structuredContent": {"value": 1 << 70}}  # beyond orjson's 64-bit ints
    fast = _OrjsonResponse.model_construct(jsonrpc="2.0", id=7, result=result)
    assert orjson.loads(fast.model_dump_json(by_alias=True, exclude_unset=True))["result"] == result


async def test_orjson_writes_retype_responses_only():
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCNotification

    sent = []

    class Sink:
        async def send(self, item):
            sent.append(item)

    writes = OrjsonWrites(Sink())
    await writes.send(SessionMessage(_response({"ok": True})))
    await writes.send(SessionMessage(JSONRPCNotification(jsonrpc="2.0", method="notifications/x")))
    assert type(sent[0].message) is _OrjsonResponse
    assert type(sent[1].message) is JSONRPCNotification



def _shift_down(workspace) -> None:
    (workspace / "app.py").write_text("# a line above\n" + (workspace / "app.py").read_text())


async def test_a_reconcile_written_as_json_reaches_a_stdio_client_whole(threads):
    """comment_reconcile's answer is written from the threads (no dicts: `Encoded`) and the
    stdio writer embeds those bytes as they are: the client reads structured content and a
    text block that is its JSON, the moved threads in both."""
    from support import stdio_session

    _shift_down(threads)
    async with stdio_session(threads) as session:
        result = (await session.call_tool("comment_reconcile", {})).model_dump(mode="json", by_alias=True)
    structured = result["structuredContent"]
    assert orjson.loads(result["content"][0]["text"]) == structured
    assert structured["counts"] == {"anchored": 2, "drifted": 0, "orphaned": 0}
    assert sorted(t["line_start"] for t in structured["changed"]) == [2, 6]


def test_a_reconcile_is_written_as_json_as_orjson_writes_its_dict(threads):
    from limpet.server.operations import Encoded, invoke

    _shift_down(threads)
    svc = Service(threads)
    _, encoded = invoke(svc, "comment_reconcile", {}, encoded=True)
    assert type(encoded) is Encoded and len(encoded.payload()["changed"]) == 2
    assert encoded.json == orjson.dumps(encoded.payload())
    _shift_down(threads)
    _, plain = invoke(svc, "comment_reconcile", {})  # every other door: the dict
    assert type(plain) is dict and len(plain["changed"]) == 2


def test_structured_content_never_built_is_built_if_the_writer_falls_back():
    payload = {"counts": {"anchored": 1}, "changed": [{"id": "c_1"}], "problems": {}}
    serialized = _Serialized()
    serialized.text, serialized.build = orjson.dumps(payload).decode(), lambda: payload
    result = {"content": [{"type": "text", "text": serialized.text}], "structuredContent": serialized,
              "_meta": {"big": 1 << 70}}  # orjson cannot write it: the SDK's way, which walks the dict
    fast = _OrjsonResponse.model_construct(jsonrpc="2.0", id=7, result=result)
    assert orjson.loads(fast.model_dump_json(by_alias=True, exclude_unset=True))["result"]["structuredContent"] == payload
