"""Every listing tool pages the same way: `limit` threads at a time, `nextCursor` to go on."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limpet.model import InvalidArgument
from limpet.server.operations import invoke


@pytest.fixture
def many(service):
    specs = [{"file": f, "line_start": line, "line_end": line, "body": f"note {f}:{line}", "tag": "TODO"}
             for f in ("src/auth.py", "src/app.ts") for line in range(1, 8)]
    return [t.id for t in service.add_many(specs)]


def _walk(service, tool, args, items_key, limit):
    seen, cursor, pages = [], None, 0
    while True:
        _, result = invoke(service, tool, {**args, "limit": limit, **({"cursor": cursor} if cursor else {})})
        seen += [t["id"] for t in result[items_key]]
        pages += 1
        cursor = result["nextCursor"]
        if cursor is None:
            return seen, pages


LISTINGS = [("comment_list", {}, "threads"), ("get_feedback", {}, "feedback"),
            ("get_file_comments", {"filePath": "src/auth.py"}, "comments"),
            ("search_comments", {"query": "note"}, "results")]


@pytest.mark.parametrize("tool,args,key", LISTINGS, ids=[x[0] for x in LISTINGS])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=st.integers(1, 16))
def test_pages_add_up_to_the_whole_listing_in_order(service, many, tool, args, key, limit):
    _, whole = invoke(service, tool, {**args, "limit": 1000})
    expected = [t["id"] for t in whole[key]]
    seen, pages = _walk(service, tool, args, key, limit)
    assert seen == expected
    assert pages == max(1, -(-len(expected) // limit))


def test_a_cursor_survives_threads_added_before_and_after_it(service, many):
    _, first = invoke(service, "comment_list", {"limit": 5})
    service.add("src/app.ts", 1, 1, "added at the start of the order")
    service.add("src/auth.py", 7, 7, "added at the end of the order")
    _, rest = invoke(service, "comment_list", {"limit": 1000, "cursor": first["nextCursor"]})
    ids = [t["id"] for t in first["threads"] + rest["threads"]]
    assert len(ids) == len(set(ids)), "no thread twice"
    assert set(many) <= set(ids)
    assert first["total"] == len(many) and first["count"] == 5


def test_the_default_page_and_its_counts(service, many):
    _, result = invoke(service, "comment_list", {})
    assert result["count"] == result["total"] == len(many) and result["nextCursor"] is None


@pytest.mark.parametrize("cursor", ["nonsense!", "e30", "WyJhIiwiYiIsImMiXQ", "W10"])
def test_a_cursor_that_no_page_returned_is_an_invalid_argument(service, many, cursor):
    with pytest.raises(InvalidArgument) as err:
        invoke(service, "comment_list", {"cursor": cursor})
    assert err.value.field == "cursor"


def test_limits_are_bounded(service):
    with pytest.raises(InvalidArgument) as err:
        invoke(service, "comment_list", {"limit": 1001})
    assert err.value.field == "limit"


def _cli(workspace, *args):
    from click.testing import CliRunner

    from limpet.server.cli import cli

    return CliRunner().invoke(cli, ["--workspace", str(workspace), *args], catch_exceptions=False)


def test_limpet_list_prints_every_thread_page_after_page(workspace, service, many, monkeypatch):
    monkeypatch.setattr("limpet._pages.PAGE", 3)  # 14 threads: five pages
    result = _cli(workspace, "list", "--json")
    listed = json.loads(result.output)
    assert [t["id"] for t in listed["threads"]] == _walk(service, "comment_list", {}, "threads", 1000)[0]
    assert listed["count"] == listed["total"] == len(many) and listed["nextCursor"] is None
    human = _cli(workspace, "list")  # each by its short id (the ids' last digits)
    short = service.short_ids()
    assert sorted(line.split()[0] for line in human.stdout.splitlines()) == sorted(short.get(tid) for tid in many)
    assert human.stderr.strip() == f"{len(many)} thread(s)"


def test_limpet_list_limit_says_where_the_rest_begins(workspace, service, many, monkeypatch):
    monkeypatch.setattr("limpet._pages.PAGE", 3)
    first = json.loads(_cli(workspace, "list", "--limit", "5", "--json").output)
    assert first["count"] == 5 and first["total"] == len(many)
    rest = json.loads(_cli(workspace, "list", "--cursor", first["nextCursor"], "--json").output)
    assert [t["id"] for t in first["threads"] + rest["threads"]] == _walk(service, "comment_list", {}, "threads", 1000)[0]
    human = _cli(workspace, "list", "--limit", "5")
    assert human.stderr.strip() == f"5 of {len(many)} thread(s); the rest: --cursor {first['nextCursor']}"


def test_limpet_list_with_a_bad_cursor_is_an_invalid_argument(workspace, many):
    result = _cli(workspace, "list", "--cursor", "nonsense!")
    assert result.exit_code == 2 and "INVALID_ARGUMENT (cursor)" in result.stderr
