"""What a limpet does with what a newer one wrote (docs/architecture.md, "Adding things"): a
line of a newer schema is kept and not read, and its thread refuses writes; a line of an
unknown kind, or with an unknown event field, at the same schema is damage to it (skipped,
reported, kept in the file); a field a thread or an anchor does not know is ignored."""

from __future__ import annotations

import json

import orjson
import pytest

from limpet.model import StoreTooNew, Thread
from limpet.server.core import Service
from limpet.server.store._events import STORE_SCHEMA, parse_events


def _path(workspace, tid):
    return workspace / ".limpet" / "threads" / f"{tid}.jsonl"


def _append(workspace, tid, **record) -> bytes:
    line = orjson.dumps({"schema": STORE_SCHEMA, "id": "e_99999999999999999", "at": "2030-01-01T00:00:00Z",
                         "seq": 9, "by": "future", **record}, option=orjson.OPT_SORT_KEYS) + b"\n"
    with _path(workspace, tid).open("ab") as f:
        f.write(line)
    return line


def test_an_unknown_kind_at_this_schema_is_skipped_reported_and_kept(service, workspace):
    t = service.add("PLAN.md", 1, 1, "Check", tag="TODO")
    line = _append(workspace, t.id, event="pinned", by_type="human")
    fresh = Service(workspace)
    assert fresh.get(t.id).comments == t.comments  # the thread reads from its other lines
    problems = fresh.problems()
    assert any(t.id in name for name in problems), problems
    assert any("event" in why for whys in problems.values() for why in whys)
    fresh.reply(t.id, "still writable", author="alice", author_type="human")
    assert line in _path(workspace, t.id).read_bytes()  # an append keeps it


def test_an_unknown_event_field_at_this_schema_is_damage_not_silently_dropped():
    line = orjson.dumps({"schema": STORE_SCHEMA, "event": "replied", "id": "e_1", "at": "2030-01-01T00:00:00Z",
                         "seq": 1, "by": "a", "by_type": "human", "body": "x", "mood": "calm"})
    parsed = parse_events(line)
    assert parsed.damaged and not parsed.events and "mood" in parsed.problems[0]


def test_a_newer_schema_line_of_a_new_kind_is_too_new_not_damage(service, workspace):
    t = service.add("PLAN.md", 1, 1, "Check")
    before = _path(workspace, t.id).read_bytes()
    line = _append(workspace, t.id, schema=STORE_SCHEMA + 1, event="pinned", colour="red")
    parsed = parse_events(before + line)
    assert parsed.too_new == STORE_SCHEMA + 1 and not parsed.damaged
    with pytest.raises(StoreTooNew):
        Service(workspace).reply(t.id, "x")
    assert _path(workspace, t.id).read_bytes() == before + line


def test_a_field_a_thread_or_an_anchor_does_not_know_is_ignored(service, workspace):
    t = service.add("PLAN.md", 1, 1, "Check")
    record = {**t.to_record(), "priority": "high", "anchor": {**t.anchor.to_dict(), "language": "markdown"}}
    del record["schema"]
    _append(workspace, t.id, event="snapshot", mode="replace", by_type="human", thread=record)
    assert not parse_events(_path(workspace, t.id).read_bytes()).damaged
    read = Service(workspace).get(t.id)
    assert read.id == t.id and read.body == t.body and not hasattr(read, "priority")
    assert Thread.from_record(json.loads(json.dumps(record))).anchor == t.anchor
