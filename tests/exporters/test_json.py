"""JSON export: full fidelity, versioned header, lossless round trip (property-tested)."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from limpet.anchoring import create_anchor
from limpet.exporters import EXPORT_SCHEMA, ExportItem, ExportOptions, get_exporter, read_json_export
from limpet.model import (
    AUTHOR_TYPES,
    HEALTHS,
    STATUSES,
    TAGS,
    Comment,
    Decision,
    HistoryEvent,
    InvalidArgument,
    Snapshot,
    Thread,
)

_PY = b"class A:\n    def f(self, x):\n        return x + 1\n\n\ndef g():\n    '''doc'''\n    return A()\n"
_TS = b"export const k = 1;\nfunction h(a: number): number {\n  return a * 2;\n}\n"
# Built once through the engine's own constructor, so new Anchor fields are exercised too.
ANCHORS = [
    create_anchor(f, src, l1, l2)
    for f, src in (("pkg/mod.py", _PY), ("web/h.ts", _TS))
    for l1 in range(1, 5)
    for l2 in range(l1, min(l1 + 3, 5))
]

text = st.text(max_size=40)
stamps = st.datetimes(datetime(2000, 1, 1), datetime(2100, 1, 1)).map(
    lambda d: d.replace(tzinfo=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
)
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**62), 2**62)
    | text
    | st.floats(allow_nan=False, allow_infinity=False)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=8,
)
anchors = st.builds(
    lambda a, sym, kind, sel, l0: replace(
        a, symbol=sym, symbol_kind=kind, selected_text=sel, start_character=l0
    ),
    st.sampled_from(ANCHORS),
    st.none() | text,
    st.none() | st.sampled_from(["function", "method", "class"]),
    text,
    st.integers(0, 200),
)
comments = st.builds(
    Comment,
    st.integers(0, 10**18).map(lambda n: f"c_{n}"),
    st.text(min_size=1, max_size=200),
    text,
    st.sampled_from(AUTHOR_TYPES),
    stamps,
    st.none() | stamps,
)
snapshots = st.dictionaries(
    st.sampled_from(["created", "resolved"]),
    st.builds(Snapshot, stamps, text, st.integers(1, 99), st.integers(1, 99), text),
    max_size=2,
)
threads = st.builds(
    Thread,
    id=st.integers(0, 10**18).map(lambda n: f"c_{n}"),
    anchor=anchors,
    health=st.sampled_from(HEALTHS),
    status=st.sampled_from(STATUSES),
    tag=st.sampled_from(TAGS),
    author=text,
    author_type=st.sampled_from(AUTHOR_TYPES),
    created_at=stamps,
    updated_at=stamps,
    comments=st.lists(comments, min_size=1, max_size=4).map(tuple),
    ai_meta=st.none() | st.dictionaries(text, json_values, max_size=3),
    resolved_at=st.none() | stamps,
    decision=st.none() | st.builds(Decision, text, text, stamps, st.sampled_from(["resolved", "wontfix"])),
    anchor_method=st.sampled_from(["created", "symbol", "text", "moved"]),
    anchor_confidence=st.floats(0, 1).map(lambda x: round(x, 4)),  # the record keeps 4 decimals
    history=st.lists(
        st.builds(
            HistoryEvent,
            stamps,
            st.sampled_from(["created", "replied", "resolved"]),
            st.none() | text,
            st.dictionaries(text, json_values, max_size=3),
        ),
        max_size=3,
    ).map(tuple),  # fmt: skip
    snapshots=snapshots,
)
workspaces = st.sampled_from(["alpha", "beta", "team/repo with space"])
item_lists = st.lists(
    st.builds(ExportItem, threads, workspaces, st.none()),
    max_size=6,
    unique_by=lambda i: (i.workspace, i.thread.id),
)


def _export(items, **opts) -> bytes:
    buf = io.BytesIO()
    result = get_exporter("json").write(iter(items), buf, ExportOptions(**opts))
    assert result.bytes_written == len(buf.getvalue()) and result.count == len(items)
    return buf.getvalue()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(item_lists)
def test_round_trip_is_lossless(items):
    data = _export(items)
    pairs, header = read_json_export(data)
    assert pairs == [(i.workspace, i.thread) for i in items]
    assert header["schema"] == EXPORT_SCHEMA
    again = [ExportItem(t, ws, None) for ws, t in pairs]
    assert _export(again) == data  # byte-identical: deterministic


def test_header_and_layout(items):
    data = _export(items, exported_at="2026-11-25T08:00:00Z")
    doc = orjson.loads(data)
    assert list(doc) == ["exported_at", "generator", "schema", "thread_schema", "threads"]
    assert doc["exported_at"] == "2026-11-25T08:00:00Z"
    assert len(data.splitlines()) == len(items) + 2  # header line, one line per thread, footer
    first = doc["threads"][0]
    assert first["workspace"] == "alpha" and first["thread"] == items[0].thread.to_record()
    for key in ("anchor", "health", "decision", "history", "comments", "snapshots", "ai_meta"):
        assert key in first["thread"]
    assert _export(items) == _export(items)
    assert b'exported_at":null' in _export(items)


def test_fixture_round_trip(items):
    pairs, _ = read_json_export(_export(items))
    assert pairs == [(i.workspace, i.thread) for i in items]


def test_reads_str_and_bom(items):
    data = _export(items)
    assert read_json_export(b"\xef\xbb\xbf" + data)[0] == read_json_export(data.decode())[0]


def _doc(items) -> dict:
    return orjson.loads(_export(items))


def _mutations():
    def thread(fn):
        def apply(doc):
            fn(doc["threads"][0]["thread"])

        return apply

    yield "not json", lambda d: "{nope"
    yield "array", lambda d: [d]
    yield "no schema", lambda d: d.pop("schema")
    yield "other schema", lambda d: d.update(schema="other/1")
    yield "newer major", lambda d: d.update(schema="limpet.export/2")
    yield "newer thread schema", lambda d: d.update(thread_schema=99)
    yield "no threads", lambda d: d.pop("threads")
    yield "entry not object", lambda d: d["threads"].append(3)
    yield "no workspace", lambda d: d["threads"][0].pop("workspace")
    yield "bad id", thread(lambda t: t.update(id="42"))
    yield "bad tag", thread(lambda t: t.update(tag="HACK"))
    yield "bad status", thread(lambda t: t.update(status="closed"))
    yield "bad health", thread(lambda t: t.update(health="lost"))
    yield "bad lines", thread(lambda t: t["anchor"].update(line_start=5, line_end=2))
    yield "no anchor", thread(lambda t: t.pop("anchor"))
    yield "missing comment field", thread(lambda t: t["comments"][0].pop("body"))
    yield "comments not list", thread(lambda t: t.update(comments="hi"))
    yield "empty body", thread(lambda t: t["comments"][0].update(body=""))
    yield "confidence past 1", thread(lambda t: t.update(anchor_confidence=2.0))
    yield "duplicate", lambda d: d["threads"].append(d["threads"][0])


@pytest.mark.parametrize(("name", "mutate"), list(_mutations()), ids=[n for n, _ in _mutations()])
def test_bad_input_is_invalid_argument(name, mutate, items):
    doc = _doc(items)
    replaced = mutate(doc)
    data = replaced.encode() if isinstance(replaced, str) else orjson.dumps(replaced if replaced else doc)
    with pytest.raises(InvalidArgument) as err:
        read_json_export(data)
    assert err.value.field == "file"


@pytest.mark.parametrize(("change", "named"), [({"tag": "HACK"}, "tag: "), ({"comments": "hi"}, "comments: "),
                                               ({"author": None}, "author: ")])
def test_a_thread_the_types_refuse_is_named_by_its_field(change, named, items):
    doc = _doc(items)
    doc["threads"][0]["thread"].update(change)
    with pytest.raises(InvalidArgument) as err:
        read_json_export(orjson.dumps(doc))
    assert named in err.value.message and err.value.details["thread_id"] == doc["threads"][0]["thread"]["id"]


def test_minor_version_and_unknown_keys_are_accepted(items):
    doc = _doc(items)
    doc["schema"] = "limpet.export/1.1"
    doc["comment"] = "added by a later minor version"
    pairs, header = read_json_export(orjson.dumps(doc))
    assert len(pairs) == len(items) and header["comment"].startswith("added")
