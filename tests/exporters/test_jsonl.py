"""JSONL training data: parsed line by line, stable keys, loadable by Arrow's JSON reader."""

from __future__ import annotations

import io
import os
from pathlib import Path

import orjson
import pyarrow.json as pj
import pytest
from msgspec.structs import replace

from limpet.exporters import ExportItem, ExportOptions, get_exporter

TOP = ["prompt", "completion", "metadata"]
PAIR_TOP = ["prompt", "completion", "label", "before", "thread", "after", "decision", "metadata"]


def _export(items, **opts) -> bytes:
    if opts.get("task") == "review-pairs":
        opts.setdefault("all_pairs", True)  # every thread; the default keeps changed code only
    buf = io.BytesIO()
    result = get_exporter("jsonl").write(iter(items), buf, ExportOptions(**opts))
    assert result.count == len(items) and result.bytes_written == len(buf.getvalue())
    assert result.media_type == "application/x-ndjson"
    return buf.getvalue()


def _records(items, **opts) -> list[dict]:
    data = _export(items, **opts)
    assert data.endswith(b"\n") and b"\n\n" not in data
    return [orjson.loads(line) for line in data.split(b"\n")[:-1]]


def _by_id(records) -> dict[str, dict]:
    return {r["metadata"]["thread_id"]: r for r in records}


def test_one_record_per_thread_with_stable_keys(items):
    records = _records(items)
    assert len(records) == len(items)
    assert all(list(r) == TOP for r in records)
    meta_keys = {tuple(r["metadata"]) for r in records}
    assert len(meta_keys) == 1  # same keys, same order, on every line
    assert {tuple(r["metadata"]["ai_meta"]) for r in records} == {("model", "confidence", "reasoning")}


def test_seed_shape_prompt_and_completion(items):
    r = _by_id(_records(items))
    todo = r["c_1763790000000010"]
    assert todo["prompt"].startswith(
        "Analyze this code:\nFile: src/auth.py (lines 8-12, in AuthService.validate_token)"
    )
    assert "```python\n" in todo["prompt"]
    assert todo["completion"] == "TODO: Handle expired tokens"
    assert todo["metadata"]["tag"] == "TODO" and todo["metadata"]["author"] == "claude"
    assert todo["metadata"]["ai_meta"] == {
        "model": "claude-sonnet-4.5",
        "confidence": 0.95,
        "reasoning": "Security",
    }
    assert todo["metadata"]["reply_count"] == 1
    # the body already carries its tag: not doubled
    assert r["c_1763790000000020"]["completion"] == "FIXME: decode never decodes"
    assert r["c_1763790000000030"]["metadata"]["language"] == "typescript"


def _code(prompt: str) -> list[str]:
    body = prompt.split("\n", 2)[2]
    fence = body.split("\n", 1)[0].rstrip("abcdefghijklmnopqrstuvwxyz")
    return body.split("\n", 1)[1].rsplit(fence, 1)[0][:-1].split("\n")


@pytest.mark.parametrize("n", [0, 1, 3, 20])
def test_context_lines(items, n):
    todo = _by_id(_records(items, context_lines=n))["c_1763790000000010"]
    m = todo["metadata"]
    assert (m["context_start"], m["context_end"]) == (max(1, 8 - n), min(16, 12 + n))
    assert m["context_lines"] == n and m["code_origin"] == "source"
    lines = _code(todo["prompt"])
    assert len(lines) == m["context_end"] - m["context_start"] + 1
    assert "    def validate_token(self, token):" in lines


def test_no_source_context_means_anchored_lines_only(items):
    todo = _by_id(_records(items, include_source_context=False))["c_1763790000000010"]
    assert todo["metadata"]["context_lines"] == 0
    assert _code(todo["prompt"])[0] == "    def validate_token(self, token):"


def test_context_clipped_at_file_edges(items):
    first = _by_id(_records(items, context_lines=5))["c_1763790000000060"]
    assert first["metadata"]["context_start"] == 1


def test_orphan_and_missing_source_use_the_kept_text(items):
    orphan = _by_id(_records(items))["c_1763790000000040"]
    assert orphan["metadata"]["code_origin"] == "anchor"
    assert _code(orphan["prompt"]) == ["def old():", "    return 1"]


def test_code_with_backticks_gets_a_longer_fence(items):
    fixme = _by_id(_records(items, task="review-pairs"))["c_1763790000000020"]
    assert "\n````python\n" in fixme["after"]["code"] or "```not a fence```" in fixme["completion"]
    made_on_it = [ExportItem(replace(i.thread, snapshots={}), i.workspace, i.source) for i in items]
    fixme = _by_id(_records(made_on_it))["c_1763790000000020"]
    assert "\n````python\n" in fixme["prompt"] and fixme["prompt"].endswith("````\n")


def test_a_comment_prompt_shows_the_code_it_was_written_on_not_what_replaced_it(items):
    fixme = _by_id(_records(items))["c_1763790000000020"]  # created on `pass`; the file now returns None
    assert _code(fixme["prompt"]) == ["def decode(token, secret):", "    pass"]
    assert fixme["metadata"]["code_origin"] == "snapshot"
    todo = _by_id(_records(items, context_lines=1))["c_1763790000000010"]  # no snapshot: the file, in context
    assert todo["metadata"]["code_origin"] == "source" and todo["metadata"]["context_start"] == 7


def test_review_pairs(items):
    records = _records(items, task="review-pairs")
    assert all(list(r) == PAIR_TOP for r in records)
    r = _by_id(records)
    fixed = r["c_1763790000000020"]
    assert fixed["before"]["origin"] == "snapshot" and fixed["before"]["code"].endswith("pass")
    assert fixed["after"]["origin"] == "resolved" and fixed["after"]["at"] == "2026-11-23T09:00:00Z"
    assert fixed["completion"] == fixed["after"]["code"]
    assert fixed["decision"] == {
        "summary": "Raise instead of returning None", "decider": "dana",
        "decided_at": "2026-11-23T09:00:00Z", "status": "resolved",
    }  # fmt: skip
    assert "Review thread [FIXME]:\ndana (human): FIXME: decode never decodes" in fixed["prompt"]
    open_one = r["c_1763790000000010"]
    assert open_one["before"]["origin"] == "anchor" and open_one["after"]["origin"] == "current"
    assert [c["author"] for c in open_one["thread"]] == ["claude", "dana"]
    assert open_one["decision"] is None
    gone = r["c_1763790000000040"]
    assert gone["after"] == {
        "code": None, "file": "src/legacy.py", "line_start": 1, "line_end": 2, "at": None, "origin": "gone",
    }  # fmt: skip
    assert gone["completion"] == ""


def test_review_pairs_keep_only_threads_whose_code_changed_by_default(items):
    every = _by_id(_records(items, task="review-pairs"))
    buf = io.BytesIO()
    result = get_exporter("jsonl").write(iter(items), buf, ExportOptions(task="review-pairs"))
    kept = _by_id(orjson.loads(line) for line in buf.getvalue().splitlines())
    assert result.count == len(kept) < len(every)
    assert set(kept) == {"c_1763790000000020", "c_1763790000000040"}  # fixed, and code gone
    for tid, record in every.items():
        assert (tid in kept) == (record["before"]["code"] != record["after"]["code"]), tid
        if tid in kept:
            assert kept[tid] == record


def test_review_pairs_ignore_trailing_whitespace_as_a_change(items):
    from limpet.exporters._jsonl import code_changed

    def pair(before, after):
        return {"before": {"code": before}, "after": {"code": after}}

    assert not code_changed(pair("x = 1\n", "x = 1   \r\n"))
    assert code_changed(pair("x = 1", "x = 2"))
    assert code_changed(pair("x = 1", None))  # the code is gone


def test_review_pairs_current_code_is_stamped_with_exported_at(items):
    r = _by_id(_records(items, task="review-pairs", exported_at="2026-12-01T00:00:00Z"))
    assert r["c_1763790000000010"]["after"]["at"] == "2026-12-01T00:00:00Z"


@pytest.mark.parametrize("task", ["comments", "review-pairs"])
def test_arrow_json_loader_reads_it_in_small_blocks(items, task):
    # `datasets`' JSON builder uses pyarrow.json in blocks: types must agree across blocks.
    many = [ExportItem(_retold(i.thread, k), f"{i.workspace}{k}", i.source) for k in range(50) for i in items]
    data = _export(many, task=task)
    table = pj.read_json(io.BytesIO(data), read_options=pj.ReadOptions(block_size=4096))
    assert table.num_rows == len(many)
    assert table.column_names == (TOP if task == "comments" else PAIR_TOP)
    assert table.schema.field("metadata").type.get_field_index("line_start") >= 0


def _retold(thread, k):
    """The thread with its first comment numbered: not an exact duplicate of its other copies."""
    first = replace(thread.comments[0], body=f"{thread.comments[0].body} ({k})")
    return replace(thread, comments=(first, *thread.comments[1:]))


def test_exact_duplicate_pairs_are_written_once(items):
    copies = [ExportItem(i.thread, f"{i.workspace}{k}", i.source) for k in range(3) for i in items]
    buf = io.BytesIO()
    result = get_exporter("jsonl").write(iter(copies), buf, ExportOptions(task="review-pairs", all_pairs=True))
    assert result.count == len(items)


def test_deterministic(items):
    assert _export(items) == _export(items)
    assert _export(items, task="review-pairs") == _export(items, task="review-pairs")


@pytest.mark.parametrize("task,golden", [("comments", "comments.jsonl"), ("review-pairs", "review_pairs.jsonl")])
def test_the_records_are_the_golden_ones_byte_for_byte(items, task, golden):
    # UPDATE_GOLDEN=1 rewrites them after a deliberate change (a key added, a value computed otherwise)
    data = _export(items, task=task, exported_at="2026-11-25T08:00:00Z")
    path = Path(__file__).parent / "golden" / golden
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(data)
    assert data == path.read_bytes(), f"{golden} changed; UPDATE_GOLDEN=1 if intended"


def test_a_record_s_metadata_holds_the_values_of_the_parquet_row_s_columns_of_the_same_names(items):
    # One layout: both read a thread's fields by the model's declaration, and where it comes from
    # and its ai_meta by the exporters' one definition of each (exporters/_provenance.py).
    from limpet.exporters._arrow import PARQUET_SCHEMA, build_batch

    odd = replace(items[0], thread=replace(items[0].thread, id="c_1763790000000099",
                                           ai_meta={"model": 3, "confidence": True, "reasoning": None}))
    items = [*items, odd]
    rows = build_batch(items).to_pylist()
    columns = set(PARQUET_SCHEMA.names)
    for record, row in zip(_records(items), rows, strict=True):
        meta = record["metadata"]
        shared = [name for name in meta if name in columns]
        assert len(shared) == len(meta) - 5  # reply_count and the context's four keys are JSONL's own
        for name in shared:
            value = row[name]
            if name.endswith("_at") and value is not None:
                value = value.strftime("%Y-%m-%dT%H:%M:%SZ")
            if name == "ai_meta" and value is None:
                value = {"model": None, "confidence": None, "reasoning": None}  # JSONL: one shape for every line
            assert meta[name] == value, name
