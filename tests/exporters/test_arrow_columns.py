"""The Parquet columns are read off the model's declarations (limpet.model.Thread and its
records): every thread reads back from its row as it was."""

from __future__ import annotations

import io
from datetime import datetime

import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from record_strategies import threads

from limpet.exporters import PARQUET_SCHEMA, ExportItem, ExportOptions, get_exporter
from limpet.model import PLACE, Thread


def _stamp(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value.replace("Z", "+00:00"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(threads(), min_size=1, max_size=4))
def test_each_thread_reads_back_from_its_row(ts: list[Thread]):
    out = io.BytesIO()
    get_exporter("parquet").write(iter([ExportItem(thread=t, workspace="w") for t in ts]), out, ExportOptions())
    table = pq.read_table(io.BytesIO(out.getvalue()))
    assert table.schema.equals(PARQUET_SCHEMA, check_metadata=False)
    for t, row in zip(ts, table.to_pylist(), strict=True):
        assert row["thread_id"] == t.id
        assert {name: row[name] for name in PLACE} == {name: getattr(t.anchor, name) for name in PLACE}
        for name in ("tag", "status", "health", "author", "author_type", "anchor_method", "anchor_confidence"):
            assert row[name] == getattr(t, name), name
        for name in ("created_at", "updated_at", "resolved_at"):
            assert row[name] == _stamp(getattr(t, name)), name
        assert row["comment_count"] == len(t.comments) and row["body"] == t.comments[0].body
        assert row["comments"] == [{"id": c.id, "body": c.body, "author": c.author, "author_type": c.author_type,
                                    "created_at": _stamp(c.created_at), "edited_at": _stamp(c.edited_at)}
                                   for c in t.comments]
        d = t.decision
        assert row["decision"] == (d and {"summary": d.summary, "decider": d.decider,
                                          "decided_at": _stamp(d.decided_at), "status": d.status})


def test_the_columns_of_the_records_follow_their_declarations():
    comment = PARQUET_SCHEMA.field("comments").type.value_type
    assert [f.name for f in comment] == ["id", "body", "author", "author_type", "created_at", "edited_at"]
    assert [f.nullable for f in comment] == [False, False, False, False, False, True]  # edited_at: str | None
    decision = PARQUET_SCHEMA.field("decision")
    assert decision.nullable and all(f.nullable for f in decision.type)  # inside a null decision, all null
    assert PARQUET_SCHEMA.field("tag").type == pa.dictionary(pa.int32(), pa.string())  # a vocabulary word
    assert PARQUET_SCHEMA.field("resolved_at").type == pa.timestamp("us", tz="UTC")
    assert PARQUET_SCHEMA.field("resolved_at").nullable and not PARQUET_SCHEMA.field("created_at").nullable
