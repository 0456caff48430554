"""One line of a thread file is one event, read as strictly as tool input: a line that is not
exactly an event is skipped and reported, whatever else the file holds."""

from __future__ import annotations

import orjson
import pytest

from limpet.model import InvalidArgument
from limpet.server.core import _edits as edits
from limpet.server.store._events import dump_event, parse_events

REPLY = {"schema": 2, "event": "replied", "id": "e_17636000000001", "at": "2026-11-22T10:00:00.000Z",
         "seq": 1, "by": "alice", "by_type": "human", "body": "Done in 4f2a"}


def _line(**changes) -> bytes:
    record = {k: v for k, v in {**REPLY, **changes}.items() if v is not ...}
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS) + b"\n"


def test_a_well_formed_line_reads_back_to_the_same_bytes():
    parsed = parse_events(_line())
    assert not parsed.problems
    assert dump_event(parsed.events[0]) == _line()


@pytest.mark.parametrize(("changes", "where"), [
    ({"id": "e_1\n"}, "id"),  # an id is the whole string: a trailing newline is not an id
    ({"at": "2026-11-22T10:00:00Z\n"}, "at"),
    ({"seq": True}, "seq"),  # strict: a boolean is not a number
    ({"seq": "1"}, "seq"),
    ({"seq": -1}, "seq"),
    ({"by": ""}, "by"),
    ({"by_type": "robot"}, "by_type"),
    ({"body": ...}, ""),  # a reply must carry its body
    ({"schema": 0}, "schema"),
    ({"colour": "red"}, ""),  # unknown fields are refused, not ignored
])
def test_a_line_that_is_not_exactly_an_event_is_skipped_and_reported(changes, where):
    parsed = parse_events(_line(**changes) + _line(id="e_17636000000002", seq=2))
    assert [e.id for e in parsed.events] == ["e_17636000000002"]  # the rest of the file still reads
    assert parsed.damaged and len(parsed.problems) == 1
    assert parsed.problems[0].startswith(f"line 1: {where}" if where else "line 1: ")


def test_a_line_from_a_newer_limpet_is_not_damage_but_too_new():
    parsed = parse_events(_line(schema=99))
    assert parsed.too_new == 99 and not parsed.damaged


def test_a_new_event_is_checked_like_a_line_read_from_disk():
    with pytest.raises(InvalidArgument) as caught:
        edits.new_event("replied", "x" * 201, "human", body="hello")
    assert caught.value.field == "by"
    with pytest.raises(InvalidArgument):
        edits.new_event("replied", "alice", "human")  # no body
    event = edits.new_event("replied", "alice", "human", body="hello")
    assert parse_events(dump_event(event)).events == [event]


def test_a_snapshot_whose_thread_breaks_a_bound_of_its_types_is_a_damaged_line(service, workspace):
    """The bounds on a thread (a body's length, the vocabulary, ...) are its declaration's
    (limpet.model.Thread): a snapshot event breaking one is refused as it is decoded."""
    t = service.add("PLAN.md", 1, 1, "Check")
    record = t.to_record()
    del record["schema"]
    record["comments"][0]["body"] = "x" * 10_001
    line = {**REPLY, "event": "snapshot", "id": "e_17636000000009", "mode": "replace", "thread": record}
    del line["body"]
    parsed = parse_events(orjson.dumps(line, option=orjson.OPT_SORT_KEYS))
    assert parsed.damaged and not parsed.events and "thread.comments" in parsed.problems[0]
