"""A record is declared once: its dict form, the thread JSON clients read and the tools'
result schema are derived from the declaration, and read back to the same values."""

from __future__ import annotations

import msgspec
import orjson
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from record_strategies import anchors, comments, decisions, history_events, snapshots, threads

from limpet.model import PLACE, Anchor, Comment, Decision, HistoryEvent, Thread, encode_json, wire_fields
from limpet.model._record import WireView


def _json(value):
    return orjson.loads(orjson.dumps(value))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(threads())
def test_a_thread_reads_back_from_its_record(t: Thread):
    record = _json(t.to_record())
    assert Thread.from_record(record) == t.evolve(anchor_confidence=round(t.anchor_confidence, 4))
    assert Thread.from_record(record).to_record() == record


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(anchors(), comments, decisions, history_events, snapshots))
def test_each_record_reads_back_from_its_dict(r):
    assert type(r).from_dict(_json(r.to_dict())) == r


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(threads())
def test_the_wire_carries_the_thread_but_its_evidence_and_snapshots(t: Thread):
    wire = _json(t.to_wire())
    assert list(wire) == [f.name for f in wire_fields(Thread)]
    assert {name: wire[name] for name in PLACE} == {name: getattr(t.anchor, name) for name in PLACE}
    assert tuple(Comment.from_dict(c) for c in wire["comments"]) == t.comments
    assert tuple(HistoryEvent.from_dict(h) for h in wire["history"]) == t.history
    assert (Decision.from_dict(wire["decision"]) if wire["decision"] else None) == t.decision
    assert wire["comment_count"] == len(t.comments)
    assert wire["anchor_confidence"] == round(t.anchor_confidence, 4)
    for name in ("id", "health", "status", "tag", "author", "author_type", "ai_meta", "created_at", "updated_at",
                 "resolved_at", "anchor_method"):
        assert wire[name] == getattr(t, name), name
    assert "snapshots" not in wire and "content_hash" not in wire and "anchor" not in wire


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(threads(), max_size=3), st.dictionaries(st.text(max_size=8), st.integers(0, 10**6), max_size=3))
def test_the_wire_json_written_from_the_records_is_byte_for_byte_the_wire_dicts(ts: list[Thread], counts):
    """A reconcile's answer is written straight from the records (`wire_struct`, msgspec): the
    same bytes orjson writes of the dicts, whatever the free-form values hold (ai_meta: floats
    such as 1e+16, nested lists; history details: what the store lets through, plain numbers)
    and the rounded confidence."""
    assert encode_json({"counts": counts, "changed": [t.wire_struct() for t in ts]}) == orjson.dumps(
        {"counts": counts, "changed": [t.to_wire() for t in ts]})


def test_the_wire_json_spells_floats_as_orjson_does():
    t = next(iter(_examples()))
    event = HistoryEvent("2026-11-22T10:00:00Z", "moved", "limpet", {"near": 9.9e15, "small": 1e-7, "n": [2.5, None]})
    t = t.evolve(ai_meta={"score": 1e22, "big": 1e16}, history=(event,), anchor_confidence=0.123456)
    assert encode_json(t.wire_struct()) == orjson.dumps(t.to_wire())
    assert b'"big":1e+16' in encode_json(t.wire_struct()) and b'"anchor_confidence":0.1235' in encode_json(t.wire_struct())


def test_history_details_are_written_by_msgspec_itself():
    """History details hold what limpet writes (plain numbers: msgspec and orjson spell them
    alike), so an answer writes them with no conversion; the store refuses other numbers when
    it reads them (tests/server/store/test_read_budgets.py)."""
    wire = WireView(Thread)
    assert {wire.names[i] for i, _ in wire._converts} == {"ai_meta", "anchor_confidence"}


def test_every_confidence_is_written_by_msgspec_itself_as_orjson_writes_it():
    """The rounded confidence goes to msgspec as a float (no orjson call per thread) where the
    two write floats alike: all 10,001 four-place values of [0, 1]."""
    t = next(iter(_examples()))
    for k in range(10_001):
        c = t.evolve(anchor_confidence=k / 10_000)
        assert encode_json(c.wire_struct()) == orjson.dumps(c.to_wire()), k


@given(st.floats())
@example(1e16)
@example(-1e16)
@example(9999999999999998.0)
@example(1e-7)
@example(5e-324)
@example(float("nan"))
def test_any_float_in_a_rounded_field_is_written_as_orjson_writes_it(x: float):
    t = next(iter(_examples())).evolve(anchor_confidence=x)  # evolve does not check the bounds
    assert encode_json(t.wire_struct()) == orjson.dumps(t.to_wire())


def test_a_newer_limpets_field_is_ignored_and_an_older_record_reads():
    t = next(iter(_examples()))
    record = {**_json(t.to_record()), "priority": "high", "anchor": {**t.anchor.to_dict(), "language": "py"}}
    assert Thread.from_record(record) == t
    older = {k: v for k, v in _json(t.to_record()).items() if k not in ("updated_at", "history", "snapshots",
                                                                       "anchor_method", "anchor_confidence")}
    read = Thread.from_record(older)
    assert (read.updated_at, read.history, read.snapshots, read.anchor_method) == (t.created_at, (), {}, "created")


def test_a_record_of_another_word_is_refused_naming_the_field():
    t = next(iter(_examples()))
    try:
        Thread.from_record({**_json(t.to_record()), "tag": "BUG"})
    except msgspec.ValidationError as exc:
        assert "$.tag" in str(exc)
    else:
        raise AssertionError("a tag outside the vocabulary was read")


def _examples():
    anchor = Anchor(file="src/auth.py", line_start=3, line_end=4, start_character=0, end_character=0,
                    selected_text="def f():\n    pass", content_hash="ab", symbol="f", symbol_kind="function")
    comment = Comment("c_1", "Check it", "claude", "agent", "2026-11-22T10:00:00Z")
    yield Thread(id="c_1763790000000042", anchor=anchor, health="anchored", status="open", tag="TODO",
                 author="claude", author_type="agent", created_at="2026-11-22T10:00:00Z",
                 updated_at="2026-11-22T10:00:00Z", comments=(comment,), anchor_confidence=0.5)
