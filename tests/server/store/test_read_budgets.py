"""What limpet reads from `.limpet/` is held to budgets (limpet.model's READ_BUDGETS) before it is
parsed or folded: a record nested too deep, a repeated key, too many events or bytes is refused
and reported (file and line), never applied, and the rest of the store is served."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.model import (
    MAX_CONTEXT_CHARS,
    MAX_EVENTS,
    MAX_NESTING,
    READ_BUDGETS,
    HistoryEvent,
    InvalidArgument,
    StoreCorrupted,
)
from limpet.server.core import Service
from limpet.server.core._edits import RULES
from limpet.server.operations import invoke
from limpet.server.store._events import dump_event, fold, parse_events
from limpet.server.store._untrusted import Refused, check_record, load_record, vet_history

DOCS = Path(__file__).resolve().parents[3] / "docs" / "torture.md"


def _thread_file(workspace: Path, tid: str) -> Path:
    return workspace / ".limpet" / "threads" / f"{tid}.jsonl"


def _no_backups(workspace: Path) -> None:
    """As in a fresh clone: this checkout never wrote the files, so it has no copy of them."""
    shutil.rmtree(workspace / ".limpet" / "cache", ignore_errors=True)


def _nested(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


def _with_ai_meta(line: bytes, meta: str) -> bytes:
    record = orjson.loads(line)
    record.pop("ai_meta", None)
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS)[:-1] + b',"ai_meta":' + meta.encode() + b"}\n"


def _reply(seq: int, at: str = "2030-01-01T00:00:00.000Z") -> bytes:
    return orjson.dumps({"at": at, "body": "x" * 100, "by": "alice", "by_type": "human", "event": "replied",
                         "id": f"e_{1900000000000 + seq}", "schema": 2, "seq": seq},
                        option=orjson.OPT_SORT_KEYS) + b"\n"


# -- nesting ------------------------------------------------------------------------------------
@pytest.fixture
def deep(workspace):
    """A store with a good thread and one whose `created` event nests `ai_meta` 1,000 deep."""
    svc = Service(workspace)
    good = svc.add("PLAN.md", 1, 2, "good").id
    bad = svc.add("src/auth.py", 1, 2, "bad").id
    path = _thread_file(workspace, bad)
    path.write_bytes(_with_ai_meta(path.read_bytes(), _nested(1000)))
    _no_backups(workspace)
    return good, bad


def test_a_created_event_nested_1000_deep_is_refused_and_the_rest_of_the_store_served(workspace, deep):
    good, bad = deep
    svc = Service(workspace)
    assert [t.id for t in svc.threads()] == [good]
    listed = invoke(svc, "comment_list", {})[1]
    assert [t["id"] for t in listed["threads"]] == [good]
    report = invoke(svc, "comment_reconcile", {})[1]
    assert any(f"{bad}.jsonl" in path and "nested more than" in " ".join(problems)
               for path, problems in report["problems"].items())
    with pytest.raises(StoreCorrupted) as caught:
        svc.get(bad)
    assert caught.value.details["file"] == f".limpet/threads/{bad}.jsonl"
    assert "line 1: nested more than" in caught.value.message


@pytest.mark.parametrize("command", [["list"], ["reconcile"], ["show", "BAD"], ["export", "--format", "json", "-o", "out.json"]])
def test_no_command_dies_with_a_traceback_on_a_deeply_nested_event(workspace, deep, limpet_cmd, command):
    good, bad = deep
    argv = [bad if part == "BAD" else part for part in command]
    done = subprocess.run([*limpet_cmd, *argv], cwd=workspace, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    if command[0] == "show":
        assert done.returncode == StoreCorrupted.exit_code and "line 1: nested more than" in done.stderr
    else:
        assert done.returncode == 0, done.stderr


def test_a_new_event_nested_past_the_budget_is_invalid_argument_naming_the_field(service):
    meta: dict = {}
    for _ in range(MAX_NESTING + 1):
        meta = {"a": meta}
    with pytest.raises(InvalidArgument) as caught:
        service.add("PLAN.md", 1, 1, "x", ai_meta=meta)
    assert caught.value.field == "ai_meta"
    assert service.threads() == []


def _derived_row_rewritten(workspace: Path, rewrite) -> tuple[str, Path]:
    """A thread moved down a line by an edit, its derived-cache row saved, then replaced by
    `rewrite(row)`: (its id, the database)."""
    svc = Service(workspace)
    tid = svc.add("src/auth.py", 10, 14, "thread").id
    source = workspace / "src" / "auth.py"
    source.write_text("# moved down\n" + source.read_text())
    svc.threads()
    svc.flush()
    db_path = workspace / ".limpet" / "cache" / "derived.sqlite"
    with sqlite3.connect(db_path) as db:
        (record,) = db.execute("SELECT record FROM derived WHERE thread = ?", (tid,)).fetchone()
        db.execute("UPDATE derived SET record = ? WHERE thread = ?", (rewrite(record), tid))
    return tid, db_path


def _history_nested_1000_deep(record: bytes) -> bytes:
    row = orjson.loads(record)
    del row["history"]
    return orjson.dumps(row)[:-1] + b',"history":[{"at":"2026-01-01T00:00:00Z","event":"reanchored",' \
        b'"by":null,"details":' + _nested(1000).encode() + b"}]}"


def test_a_derived_cache_row_nested_1000_deep_is_dropped_and_the_position_computed_again(workspace):
    tid, db_path = _derived_row_rewritten(workspace, _history_nested_1000_deep)
    fresh = Service(workspace)
    thread = fresh.get(tid)
    assert (thread.anchor.line_start, thread.health) == (11, "anchored")  # placed again, not read from the row
    fresh.flush()
    with sqlite3.connect(db_path) as db:
        (record,) = db.execute("SELECT record FROM derived WHERE thread = ?", (tid,)).fetchone()
    assert b"reanchored" not in record or len(record) < 10_000  # the bad row is gone


@settings(max_examples=60, deadline=None)
@given(depth=st.integers(min_value=1, max_value=3 * MAX_NESTING), arrays=st.booleans())
def test_nesting_is_measured_exactly_whatever_the_brackets_inside_strings(depth, arrays):
    opening, closing = ("[", "]") if arrays else ('{"k":', "}")
    noise = json.dumps("{[" * 40)  # brackets inside a string count for nothing
    data = f'{{"s":{noise},"v":{opening * depth}1{closing * depth}}}'.encode()
    if depth + 1 <= MAX_NESTING:
        check_record(data)
    else:
        with pytest.raises(Refused):
            check_record(data)


# -- duplicate keys -----------------------------------------------------------------------------
def test_a_line_that_reads_as_a_reply_but_repeats_event_as_deleted_is_refused_not_applied(service, workspace):
    tid = service.add("PLAN.md", 1, 2, "the thread").id
    path = _thread_file(workspace, tid)
    # As the issue found it: a diff shows a reply ("LGTM"); a last-key-wins parser deletes the thread.
    smuggled = (b'{"at":"2030-01-01T00:00:00.000Z","body":"LGTM","by":"mallory","by_type":"human",'
                b'"event":"replied","id":"e_1900000000001","schema":2,"seq":1,"event":"deleted"}\n')
    path.write_bytes(path.read_bytes() + smuggled)
    fresh = Service(workspace)
    thread = fresh.get(tid)
    assert [c.body for c in thread.comments] == ["the thread"]  # neither deleted nor replied to
    problems = fresh.reconcile().problems[f".limpet/threads/{tid}.jsonl"]
    assert any(p.startswith("line 2: the key 'event' appears twice") for p in problems)


_KEYS = ("at", "body", "by", "by_type", "event", "id", "schema", "seq")


@settings(max_examples=80, deadline=None)
@given(key=st.sampled_from(_KEYS), other=st.one_of(st.text(max_size=20), st.integers(), st.none()),
       same=st.booleans(), first=st.booleans(), spaced=st.booleans())
def test_any_repeated_key_refuses_the_line_and_a_clean_line_reads_back(key, other, same, first, spaced):
    clean = _reply(1).strip()
    record = orjson.loads(clean)
    value = record[key] if same else other
    extra = json.dumps(key) + (" : " if spaced else ":") + json.dumps(value)
    body = clean[1:-1].decode()
    line = ("{" + extra + "," + body + "}" if first else "{" + body + "," + extra + "}").encode()
    parsed = parse_events(line + b"\n" + clean.replace(b"e_1900000000001", b"e_1900000000002") + b"\n")
    assert [e.id for e in parsed.events] == ["e_1900000000002"]  # refused, whichever copy a parser keeps
    if parsed.too_new is None:  # (a schema from a newer limpet refuses the thread more widely)
        assert parsed.damaged and parsed.problems[0].startswith("line 1: ")
    if same:  # both copies are valid: only the repetition is wrong
        assert parsed.problems[0].startswith(f"line 1: the key {key!r} appears twice")
    assert dump_event(parse_events(clean).events[0]).strip() == clean == orjson.dumps(record)


def test_a_nested_repeated_key_in_an_indented_document_is_refused():
    with pytest.raises(Refused, match="'file' appears twice"):
        load_record(b'{\n  "anchor": {\n    "file": "a.py",\n    "file": "b.py"\n  }\n}\n')
    assert load_record(orjson.dumps({"anchor": {"file": "a.py"}}, option=orjson.OPT_INDENT_2)) == \
        {"anchor": {"file": "a.py"}}


def test_a_review_document_repeating_a_key_is_damaged_and_shown_from_its_backup(service, workspace):
    review = workspace / ".limpet" / "reviews" / "current.json"
    service.present_review("# Review\n\nfirst\n", ".")
    good = review.read_bytes()
    assert b'"content": "# Review\\n\\nfirst\\n"' in good
    review.write_bytes(good.replace(b'"content": "# Review\\n\\nfirst\\n"',
                                    b'"content": "# Review\\n\\nfirst\\n",\n  "content": "# smuggled"'))
    shown = Service(workspace).current_review()
    assert "first" in shown["content"] and "smuggled" not in shown["content"]


# -- events and files ---------------------------------------------------------------------------
def _fold_cpu(created: bytes, replies: int) -> float:
    data = created + b"".join(_reply(seq) for seq in range(1, replies + 1))
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        thread, _, _ = fold(RULES, "c_1", parse_events(data).events, [])
        best = min(best, time.process_time() - start)
    assert thread is not None and len(thread.comments) == replies + 1
    return best


def test_folding_a_thread_is_linear_in_its_events(service, workspace):
    """A tenfold longer thread costs about tenfold (CPU time, best of three), not a hundredfold:
    the fold rebuilt its comment and history tuples at each event (80,000 replies, ~27 s)."""
    created = _thread_file(workspace, service.add("PLAN.md", 1, 2, "long").id).read_bytes()
    small, large = MAX_EVENTS // 10 - 1, MAX_EVENTS - 1
    ratio = _fold_cpu(created, large) / _fold_cpu(created, small)
    assert ratio < 25, f"10x the events cost {ratio:.1f}x"


def test_a_thread_of_more_than_max_events_is_not_read_and_the_rest_is_served(service, workspace):
    good = service.add("PLAN.md", 1, 1, "good").id
    long = service.add("PLAN.md", 1, 2, "long").id
    path = _thread_file(workspace, long)
    path.write_bytes(path.read_bytes() + b"".join(_reply(seq) for seq in range(1, MAX_EVENTS + 1)))
    _no_backups(workspace)
    fresh = Service(workspace)
    assert [t.id for t in fresh.threads()] == [good]
    with pytest.raises(StoreCorrupted, match="MAX_EVENTS"):
        fresh.get(long)


def test_a_thread_file_over_its_size_budget_is_not_read(service, workspace, monkeypatch):
    import limpet.server.store._threadfiles as threadfiles
    good = service.add("PLAN.md", 1, 1, "good").id
    big = service.add("PLAN.md", 1, 2, "big").id
    path = _thread_file(workspace, big)
    limit = path.stat().st_size + 1000
    monkeypatch.setattr(threadfiles, "MAX_THREAD_FILE_BYTES", limit)
    path.write_bytes(path.read_bytes() + b"".join(_reply(seq) for seq in range(1, 20)))
    _no_backups(workspace)
    fresh = Service(workspace)
    assert [t.id for t in fresh.threads()] == [good]
    with pytest.raises(StoreCorrupted, match="MAX_THREAD_FILE_BYTES"):
        fresh.get(big)


# -- the table ----------------------------------------------------------------------------------
def test_the_budgets_table_in_the_docs_is_the_one_in_the_code():
    text = DOCS.read_text()
    for budget in READ_BUDGETS:
        shown = f"{budget.value:,} {budget.unit}" if budget.value else "refused"
        assert f"| `{budget.name}` | {shown} |" in text, budget.name


# -- anchor evidence ----------------------------------------------------------------------------
def _read_cpu(workspace: Path, tid: str) -> tuple[float, object]:
    shutil.rmtree(workspace / ".limpet" / "cache", ignore_errors=True)  # no position saved: placed anew
    start = time.process_time()
    thread = Service(workspace).get(tid)
    return time.process_time() - start, thread


def test_a_megabyte_of_anchor_evidence_costs_a_read_no_more_than_the_evidence_limpet_writes(workspace):
    """A 1 MB suffix (or symbol name) is compared with every candidate place: ~20 s of CPU a
    read on a 100 KB file. Cut to its budget when read, it costs what a real one does."""
    block = "value = compute(a, b)\ncheck(value)\n\n"
    text = "x = 0\n" + block * 300
    for name in ("control.txt", "hostile.txt"):
        (workspace / name).write_text(text)
    svc = Service(workspace)
    control, hostile = (svc.add(name, 302, 303, "on one of many copies").id for name in ("control.txt", "hostile.txt"))
    path = _thread_file(workspace, hostile)
    record = orjson.loads(path.read_bytes())
    record["anchor"].update(suffix="y" * 1_000_000, prefix="z" * 1_000_000, symbol_name="n" * 1_000_000)
    path.write_bytes(orjson.dumps(record, option=orjson.OPT_SORT_KEYS) + b"\n")
    lines = text.split("\n")
    changed = "\n".join(lines[:301] + ["changed = 1", "other(changed)"] + lines[303:])  # its own copy is gone
    for name in ("control.txt", "hostile.txt"):
        (workspace / name).write_text(changed)
    _read_cpu(workspace, control)  # the engine loaded once
    control_cpu, _ = _read_cpu(workspace, control)
    hostile_cpu, thread = _read_cpu(workspace, hostile)
    assert len(thread.anchor.suffix) <= MAX_CONTEXT_CHARS and len(thread.anchor.prefix) <= MAX_CONTEXT_CHARS
    assert hostile_cpu < 3 * control_cpu + 0.1, f"{hostile_cpu:.2f} s against {control_cpu:.2f} s"


def test_evidence_within_its_budget_reads_back_unchanged(service, workspace):
    tid = service.add("src/auth.py", 10, 14, "a thread").id
    assert Service(workspace).get(tid).anchor == service.get(tid).anchor


@pytest.mark.parametrize("depth", [MAX_NESTING - 2, MAX_NESTING - 1, 5_000])
def test_a_new_event_is_measured_without_recursing_and_exactly_at_the_budget(service, depth):
    meta: dict = {}
    for _ in range(depth):  # depth + 1 objects inside the event's own: the line nests depth + 2
        meta = {"a": meta}
    if depth + 2 <= MAX_NESTING:
        assert service.add("PLAN.md", 1, 1, "x", ai_meta=meta).ai_meta == meta
    else:
        with pytest.raises(InvalidArgument) as caught:
            service.add("PLAN.md", 1, 1, "x", ai_meta=meta)
        assert caught.value.field == "ai_meta"


def test_merging_snapshots_past_their_budget_are_reported_not_applied(service):
    from limpet.model import MAX_MERGES
    from limpet.server.core import _edits as edits
    thread = service.add("PLAN.md", 1, 2, "merged").id
    base = service.get(thread)
    events = [edits.new_event("snapshot", "a", "human", at=f"2030-01-01T00:00:{n:02d}.000Z",
                              thread=base.evolve(comments=(*base.comments[:1],), updated_at=f"2030-01-01T00:00:{n:02d}Z"),
                              mode="merge") for n in range(MAX_MERGES + 4)]
    events = [e.replace(seq=n) for n, e in enumerate(events)]
    problems: list[str] = []
    folded, _, _ = fold(RULES, thread, events, problems)
    assert folded is not None
    assert len(problems) == 3 and all("MAX_MERGES" in p for p in problems)  # the first is no merge: nothing to merge into


# -- integers no JSON writer keeps --------------------------------------------------------------
WIDE = "1" + "0" * 30  # JSON sets no bound; a parser reads it as an integer no answer can carry


def test_a_thread_whose_ai_meta_holds_a_30_digit_integer_is_refused_and_the_rest_served(workspace, limpet_cmd):
    svc = Service(workspace)
    good = svc.add("PLAN.md", 1, 2, "good").id
    bad = svc.add("src/auth.py", 1, 2, "bad").id
    path = _thread_file(workspace, bad)
    path.write_bytes(_with_ai_meta(path.read_bytes(), f'{{"n":{WIDE},"edge":18446744073709551615}}'))
    _no_backups(workspace)
    fresh = Service(workspace)
    listed = invoke(fresh, "comment_list", {})[1]
    assert [t["id"] for t in listed["threads"]] == [good]
    problems = invoke(fresh, "comment_reconcile", {})[1]["problems"]
    assert any("out of the 64-bit range" in " ".join(said) for said in problems.values()), problems
    done = subprocess.run([*limpet_cmd, "list", "--json"], cwd=workspace, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert [t["id"] for t in json.loads(done.stdout)["threads"]] == [good]


def test_the_edge_of_the_64_bit_range_is_kept(workspace):
    svc = Service(workspace)
    tid = svc.add("src/auth.py", 1, 2, "edge").id
    path = _thread_file(workspace, tid)
    path.write_bytes(_with_ai_meta(path.read_bytes(), '{"max":18446744073709551615,"min":-9223372036854775808}'))
    thread = Service(workspace).get(tid)
    assert thread.ai_meta == {"max": 2**64 - 1, "min": -(2**63)}
    assert orjson.loads(orjson.dumps(thread.to_wire()))["ai_meta"] == thread.ai_meta


def _wide_integer_in_history(record: bytes) -> bytes:
    at = record.rindex(b'"method":"exact"')  # the history entry's details (the row's own comes first)
    assert at > record.index(b'"history"')
    return record[:at] + b'"n":' + WIDE.encode() + b"," + record[at:]


def test_a_derived_cache_row_with_a_30_digit_integer_in_its_history_is_dropped_and_recomputed(workspace):
    tid, _ = _derived_row_rewritten(workspace, _wide_integer_in_history)
    fresh = Service(workspace)
    wire = invoke(fresh, "comment_show", {"thread_id": tid})[1]["thread"]
    assert (wire["line_start"], wire["health"]) == (11, "anchored")  # placed again, not read from the row
    assert WIDE not in json.dumps(wire)


@pytest.mark.parametrize("number", [1e16, -2.5e300, float("inf"), 10**30])
def test_a_history_entry_holding_a_number_limpet_never_writes_is_refused(number):
    """History details are written with no conversion (limpet.model's plain_numbers): what
    reaches an answer holds only numbers msgspec and orjson spell alike."""
    with pytest.raises(ValueError):
        vet_history((HistoryEvent("2026-11-22T10:00:00Z", "reanchored", "limpet", {"to": {"n": [number]}}),))


def test_the_numbers_limpet_writes_in_a_history_pass():
    vet_history((HistoryEvent("2026-11-22T10:00:00Z", "reanchored", "limpet",
                              {"confidence": 1.0, "near": 9.9e15, "n": [2**64 - 1, -(2**63)], "nan": float("nan")}),))
