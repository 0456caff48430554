"""Training data as a data team needs it: secrets redacted, pairs labelled, before and after
over the same lines, every row saying where it comes from."""

from __future__ import annotations

import io

import orjson
import pyarrow.parquet as pq
import pytest

from limpet.exporters import ExportItem, ExportOptions, Origin, get_exporter
from limpet.model import Snapshot

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"  # split: no scanner flags this test file
AWS = "AKIA" + "IOSFODNN7EXAMPLE"
LEAKY = f'API = "{TOKEN}"\nAWS_KEY = "{AWS}"\npassword = "hunter2"\nport = 8080\n'.encode()


def _jsonl(items, **opts):
    buf = io.BytesIO()
    result = get_exporter("jsonl").write(iter(items), buf, ExportOptions(**opts))
    return [orjson.loads(line) for line in buf.getvalue().splitlines()], result


@pytest.fixture
def leaky(make_thread):
    t = make_thread(7, "settings.py", LEAKY, 1, 4, body=f"Rotate {TOKEN} please")
    return ExportItem(t, "alpha", LEAKY)


@pytest.mark.parametrize("task", ["comments", "review-pairs"])
def test_secrets_in_code_and_comments_become_typed_placeholders(task, leaky):
    (record,), result = _jsonl([leaky], task=task, all_pairs=True)
    text = orjson.dumps(record).decode()
    assert TOKEN not in text and AWS not in text and "hunter2" not in text
    assert "<SECRET:GitHubToken>" in text and "<SECRET:AWSAccessKey>" in text and "<SECRET:SecretKeyword>" in text
    assert "port = 8080" in text  # code without secrets stays as it was
    assert result.secrets["GitHub Token"] >= 2 and result.secrets["AWS Access Key"] >= 1
    (kept,), result = _jsonl([leaky], task=task, all_pairs=True, keep_secrets=True)
    assert TOKEN in orjson.dumps(kept).decode() and result.secrets == {}


def test_parquet_redacts_every_text_column(tmp_path, leaky):
    result = get_exporter("parquet").write([leaky], tmp_path / "t.parquet", ExportOptions())
    row = pq.read_table(tmp_path / "t.parquet").to_pylist()[0]
    assert TOKEN not in str(row) and "<SECRET:GitHubToken>" in row["selected_text"]
    assert "<SECRET:GitHubToken>" in row["body"] and result.secrets["GitHub Token"] >= 2


def test_rows_carry_repository_commit_language_and_a_split_by_repository(tmp_path, make_thread, auth_py):
    origin = Origin("github.com/encode/httpx", "0" * 40)
    items = [ExportItem(make_thread(n, "src/auth.py", auth_py, 1, 1), "httpx", auth_py, origin) for n in (1, 2)]
    items.append(ExportItem(make_thread(3, "web/app.ts", b"let a = 1;\n", 1, 1), "web", None))
    get_exporter("parquet").write(items, tmp_path / "t.parquet", ExportOptions(split_shares=(0.5, 0.25, 0.25)))
    rows = pq.read_table(tmp_path / "t.parquet", columns=["repository", "commit", "language", "split"]).to_pylist()
    assert rows[0] == rows[1] and rows[0]["repository"] == "github.com/encode/httpx" and rows[0]["commit"] == "0" * 40
    assert [r["language"] for r in rows] == ["python", "python", "typescript"]
    assert rows[2]["repository"] == "web" and rows[2]["commit"] is None
    (meta,), _ = _jsonl(items[:1], split_shares=(0.5, 0.25, 0.25))
    assert meta["metadata"]["split"] == rows[0]["split"] and meta["metadata"]["repository"] == rows[0]["repository"]


def test_splits_follow_the_shares_of_repositories():
    from limpet.exporters._provenance import split_of

    names = [f"github.com/org/repo{i}" for i in range(2000)]
    splits = [split_of(n, (0.8, 0.1, 0.1)) for n in names]
    assert 0.75 < splits.count("train") / 2000 < 0.85 and splits.count("test") > 100
    assert [split_of(n, (0.8, 0.1, 0.1)) for n in names] == splits  # stable
    assert {split_of(n, (0.0, 0.0, 1.0)) for n in names} == {"test"}


@pytest.fixture
def pair(make_thread, auth_py):
    return lambda *a, **kw: _pair(make_thread, auth_py, *a, **kw)


def _pair(make_thread, auth_py, status="resolved", after_text="def decode(token, secret):\n    raise ValueError(token)",
          **kw):
    before = Snapshot("2026-11-22T10:00:00Z", "src/auth.py", 15, 16, "def decode(token, secret):\n    pass")
    snaps = {"created": before}
    if status != "open":
        snaps["resolved"] = Snapshot("2026-11-23T10:00:00Z", "src/auth.py", 15, 16, after_text, **kw)
    t = make_thread(2, "src/auth.py", auth_py, 15, 16, status=status, snapshots=snaps)
    return ExportItem(t, "alpha", auth_py)


@pytest.mark.parametrize(("how", "label"), [
    ({}, "fixed"),
    ({"status": "wontfix"}, "wontfix"),
    ({"gone": True}, "code_deleted"),
    ({"status": "open"}, "changed_while_open"),  # the file holds `return None` now: changed, not confirmed
    ({"after_text": "def decode(token, secret):\n    pass"}, "unchanged"),
])
def test_every_pair_is_labelled_by_what_happened(pair, how, label):
    (record,), _ = _jsonl([pair(**how)], task="review-pairs", all_pairs=True)
    assert record["label"] == label
    if label == "code_deleted":
        assert record["after"]["code"] is None


def test_pairs_filter_by_label_and_size(pair):
    items = [pair(), pair("wontfix")]
    records, _ = _jsonl(items, task="review-pairs", labels=("wontfix",))
    assert [r["label"] for r in records] == ["wontfix"]
    assert _jsonl(items, task="review-pairs", max_chars=10)[0] == []


def test_before_and_after_cover_the_same_lines_when_the_thread_drifted_out_to_its_symbol(make_thread):
    body = "\n".join(f"    step_{i}()" for i in range(30))
    source = f"def run():\n{body}\n".encode()
    before = Snapshot("2026-11-22T10:00:00Z", "job.py", 12, 13, "    step_10()\n    step_11()")
    t = make_thread(2, "job.py", source, 1, 31, snapshots={"created": before})  # the whole function now
    (record,), _ = _jsonl([ExportItem(t, "alpha", source)], task="review-pairs", all_pairs=True)
    assert record["after"]["code"] == "    step_10()\n    step_11()"
    assert (record["after"]["line_start"], record["after"]["line_end"]) == (12, 13)
