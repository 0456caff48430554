"""The tools' thread schema (ThreadOut) is read off the thread's declaration: it publishes
the contract's fields of the thread JSON, and holds every thread JSON the wire writes."""

from __future__ import annotations

import typing

import msgspec
import orjson
from hypothesis import HealthCheck, given, settings
from record_strategies import threads

from limpet.model import Thread, wire_fields
from limpet.server.operations import REGISTRY

ThreadOut = typing.get_type_hints(REGISTRY["comment_show"].result)["thread"]


def _json(value):
    return orjson.loads(orjson.dumps(value))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(threads())
def test_the_tools_schema_holds_every_thread_json(t: Thread):
    wire = _json(t.to_wire())
    out = msgspec.convert(wire, ThreadOut)  # the published struct reads what the wire writes
    assert set(ThreadOut.__struct_fields__) <= set(wire)
    assert msgspec.to_builtins(out) == {name: wire[name] for name in ThreadOut.__struct_fields__}


def test_the_contract_is_the_wire_without_its_extras():
    contract = [f.name for f in wire_fields(Thread) if f.contract]
    assert list(ThreadOut.__struct_fields__) == contract
    extras = [f.name for f in wire_fields(Thread) if not f.contract]
    assert extras == ["updated_at", "anchor_method", "anchor_confidence", "comment_count", "history"]


