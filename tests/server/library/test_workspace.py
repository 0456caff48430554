"""limpet.Workspace, the Python API (docs/api.md): one checkout's threads as Python calls, with
the rules and typed errors every door shares."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import limpet


@pytest.fixture
def ws(workspace: Path) -> limpet.Workspace:
    return limpet.Workspace(workspace, author="alice")


def test_a_thread_is_added_read_and_listed_with_its_place_and_comments(ws):
    t = ws.add("src/auth.py", 10, 14, "Handle expired tokens", tag="TODO")
    assert (t.file, t.line_start, t.line_end, t.health, t.status, t.tag) == \
        ("src/auth.py", 10, 14, "anchored", "open", "TODO")
    assert [(c.body, c.author, c.author_type) for c in t.comments] == [("Handle expired tokens", "alice", "human")]
    assert ws.thread(t.id) == t
    assert [x.id for x in ws.threads()] == [t.id]


def test_one_line_is_the_default_span_and_a_thread_can_be_found_by_a_prefix_of_its_id(ws):
    t = ws.add("src/auth.py", 17, body="double it")
    assert (t.line_start, t.line_end) == (17, 17)
    assert ws.thread(t.id[:12]).id == t.id


def test_replies_resolution_reopening_edits_and_moves_keep_one_thread(ws):
    t = ws.add("src/auth.py", 10, 14, "Handle expired tokens")
    ws.reply(t.id, "On it", author="bob", author_type="agent")
    resolved = ws.resolve(t.id, decision="Checked in 4f2a")
    assert resolved.status == "resolved" and resolved.decision.summary == "Checked in 4f2a"
    assert ws.resolve(t.id, wontfix=True).status == "wontfix"
    reopened = ws.reopen(t.id)
    assert reopened.status == "open" and reopened.decision is not None  # the decision is kept
    assert ws.edit(t.id, "Handle expired and empty tokens").comments[0].body == "Handle expired and empty tokens"
    moved = ws.move(t.id, "src/auth.py", 17)
    assert (moved.file, moved.line_start, moved.line_end) == ("src/auth.py", 17, 18)  # its 4 extra lines, cut at the file's end
    final = ws.thread(t.id)
    assert [(c.body, c.author) for c in final.comments] == [("Handle expired and empty tokens", "alice"),
                                                              ("On it", "bob")]
    assert [h.event for h in final.history] == ["created", "replied", "resolved", "wontfix", "reopened", "edited",
                                                "moved"]


def test_a_deleted_thread_is_gone_from_every_read(ws):
    t = ws.add("src/auth.py", 17, 18, "double it")
    assert ws.delete(t.id).id == t.id
    assert list(ws.threads()) == []
    with pytest.raises(limpet.ThreadNotFound):
        ws.thread(t.id)


def test_threads_are_filtered_and_ordered_by_file_then_line(ws):
    a = ws.add("src/auth.py", 17, 18, "later", tag="FIXME")
    b = ws.add("src/auth.py", 10, 14, "earlier")
    c = ws.add("main.go", 5, 7, "go", author="carol")
    ws.resolve(b.id)
    assert [t.id for t in ws.threads()] == [c.id, b.id, a.id]
    assert [t.id for t in ws.threads(file="src/**/*.py")] == [b.id, a.id]
    assert [t.id for t in ws.threads(status="open")] == [c.id, a.id]
    assert [t.id for t in ws.threads(tag="FIXME")] == [a.id]
    assert [t.id for t in ws.threads(author="carol")] == [c.id]
    assert [t.id for t in ws.threads(health="anchored")] == [c.id, b.id, a.id]


def test_threads_are_read_a_page_at_a_time_continuing_after_the_last_one_given(ws, monkeypatch):
    from limpet import _pages

    monkeypatch.setattr(_pages, "PAGE", 2)
    made = [ws.add("src/auth.py", line, line, f"line {line}") for line in (1, 4, 7, 10, 17)]
    seen = ws.threads()
    first = [next(seen), next(seen)]
    ws.add("src/auth.py", 2, 2, "added meanwhile, before the cursor")  # not seen: it sorts before
    assert [t.id for t in first + list(seen)] == [t.id for t in made]


def test_reconcile_follows_the_code_and_reports_what_changed(ws, workspace):
    t = ws.add("src/auth.py", 17, 18, "double it")
    path = workspace / "src/auth.py"
    path.write_text("# a new first line\n\n" + path.read_text())
    report = ws.reconcile()
    assert report.checked == 1 and report.counts["anchored"] == 1
    assert [(x.id, x.line_start) for x in report.changed] == [(t.id, 19)]
    assert ws.thread(t.id).line_start == 19


def test_export_passes_format_and_options_to_the_exporters(ws, workspace):
    ws.add("src/auth.py", 17, 18, "double it", tag="FIXME")
    ws.add("main.go", 5, 7, "go")
    result = ws.export("jsonl", workspace / "out.jsonl", tag="FIXME", context_lines=0)
    assert (result.format, result.count) == ("jsonl", 1)
    rows = [json.loads(line) for line in (workspace / "out.jsonl").read_text().splitlines()]
    assert [r["metadata"]["tag"] for r in rows] == ["FIXME"]


@pytest.mark.parametrize("call,error,field", [
    (lambda ws: ws.add("src/auth.py", 1, 999, "x"), limpet.InvalidAnchor, "line_end"),
    (lambda ws: ws.add("../outside.py", 1, 1, "x"), limpet.InvalidPath, "file"),
    (lambda ws: ws.add("missing.py", 1, 1, "x"), limpet.FileNotFound, "file"),
    (lambda ws: ws.add("src/auth.py", 1, 1, ""), limpet.InvalidArgument, "body"),
    (lambda ws: ws.add("src/auth.py", 1, 1, "x", tag="URGENT"), limpet.InvalidArgument, "tag"),
    (lambda ws: ws.threads(status="done"), limpet.InvalidArgument, "status"),
    (lambda ws: ws.thread("c_0000000000000000"), limpet.ThreadNotFound, "id"),
    (lambda ws: ws.reply("nonsense!", "x"), limpet.InvalidArgument, "id"),
    (lambda ws: ws.export("nope", "out.x"), limpet.InvalidArgument, None),
    (lambda ws: ws.export("json", "out.json", since="yesterday"), limpet.InvalidArgument, "since"),
])
def test_bad_input_is_a_typed_error_naming_the_argument(ws, call, error, field):
    with pytest.raises(error) as caught:
        call(ws)
    assert isinstance(caught.value, limpet.LimpetError) and caught.value.code
    if field is not None:
        assert caught.value.field == field


@pytest.mark.parametrize("line_start,line_end,body,tag", [
    (0, 1, "x", "NOTE"), (1, 10_000_001, "x", "NOTE"), (3, 1, "x", "NOTE"), (1, 99, "x", "NOTE"),
    (1, 1, "", "NOTE"), (1, 1, "x" * 10_001, "NOTE"), (1, 1, "x", "note"),
])
def test_the_api_refuses_what_the_tool_refuses_with_the_same_error(ws, workspace, line_start, line_end, body, tag):
    from limpet.server.core import Service
    from limpet.server.operations import invoke

    with pytest.raises(limpet.LimpetError) as by_tool:
        invoke(Service(workspace), "comment_add", {"file": "src/auth.py", "line_start": line_start,
                                                   "line_end": line_end, "body": body, "tag": tag})
    with pytest.raises(limpet.LimpetError) as by_api:
        ws.add("src/auth.py", line_start, line_end, body, tag=tag)
    assert by_api.value.to_dict() == by_tool.value.to_dict()


def test_the_api_and_the_tools_write_the_same_threads(ws, workspace):
    from limpet.server.core import Service
    from limpet.server.operations import invoke

    t = ws.add("src/auth.py", 10, 14, "Handle expired tokens")
    _, shown = invoke(Service(workspace), "comment_show", {"thread_id": t.id})
    assert shown["thread"] == ws.thread(t.id).to_wire()


def test_docs_api_names_everything_the_package_exports():
    documented = (Path(__file__).resolve().parents[3] / "docs/api.md").read_text(encoding="utf-8")
    assert [name for name in limpet.__all__ if f"`{name}`" not in documented] == []
    for cls in (c for c in vars(limpet).values() if isinstance(c, type) and issubclass(c, limpet.LimpetError)):
        assert f"`{cls.code}`" in documented or cls is limpet.LimpetError, cls


def test_import_github_brings_a_pull_request_s_comments_to_the_working_tree(tmp_path):
    from github_support import FIXTURES, build_pull_request_repo

    root = tmp_path / "calc"
    build_pull_request_repo(root)
    ws = limpet.Workspace(root)
    report = ws.import_github(FIXTURES / "pull_comments.json", (FIXTURES / "review_threads.json").read_bytes())
    landed = {t["comment_id"]: (t["file"], t["line_start"], t["health"], t["outdated"]) for t in report.imported}
    assert landed[104] == ("src/calc.py", 15, "anchored", True)  # line 8 of an earlier push, followed here
    assert landed[106][2] == "orphaned"  # on lines the pull request deleted
    assert {t.status for t in ws.threads() if t.comments[0].author == "bob"} == {"resolved", "open"}
    again = ws.import_github((FIXTURES / "pull_comments.json").read_bytes())
    assert (again.imported, again.updated, len(again.unchanged)) == ([], [], 6)
    assert json.loads(json.dumps(again.to_dict()))["unchanged"] == 6
    result = ws.export("sarif", tmp_path / "threads.sarif")
    assert (result.format, result.count) == ("sarif", 5)  # one result per open thread


def test_export_for_a_pull_request_takes_its_base(tmp_path):
    from github_support import build_pull_request_repo

    root = tmp_path / "calc"
    commits = build_pull_request_repo(root, working_tree=False)
    ws = limpet.Workspace(root)
    ws.add("src/calc.py", 1, 2, "add() is outside the pull request's diff")
    ws.add("src/calc.py", 6, 7, "inside it")
    ws.export("github-review", tmp_path / "review.json", base=commits["main"])
    review = json.loads((tmp_path / "review.json").read_text())
    assert [c["line"] for c in review["comments"]] == [7] and "add() is outside" in review["body"]
    with pytest.raises(limpet.InvalidArgument) as caught:
        ws.export("github-review", tmp_path / "r.json", base="no-such-branch")
    assert caught.value.field == "base"


def test_a_thread_reads_briefly_in_a_notebook(ws):
    t = ws.add("src/auth.py", 17, 18, "Double it, or triple it?", tag="QUESTION")
    assert repr(t) == f"Thread({t.id} src/auth.py:17-18 QUESTION open anchored, 1 comment: 'Double it, or triple it?')"


def test_importing_a_package_of_limpet_loads_the_server_only_when_workspace_is_asked_for():
    import subprocess
    import sys

    code = ("import sys, limpet, limpet.model, limpet.exporters; before = 'limpet.server' in sys.modules; "
            "limpet.Workspace; print(before, 'limpet.server.core' in sys.modules, 'Workspace' in dir(limpet))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "True"]


def test_a_listing_says_how_many_match_and_continues_from_its_cursor(ws):
    made = [ws.add("src/auth.py", line, line, f"line {line}") for line in (1, 4, 7)]
    listing = ws.threads()
    first = next(listing)
    assert (first.id, listing.total) == (made[0].id, 3)
    assert [t.id for t in ws.threads(cursor=listing.cursor)] == [made[1].id, made[2].id]
    with pytest.raises(limpet.InvalidArgument) as caught:
        ws.threads(cursor="not a cursor")
    assert caught.value.field == "cursor"


def test_search_finds_threads_by_their_comments_text_with_the_tool_s_rules(ws):
    a = ws.add("src/auth.py", 10, 14, "Handle expired tokens")
    ws.add("src/auth.py", 17, 18, "double it")
    ws.reply(a.id, "and revoked TOKENS too")
    assert [t.id for t in ws.search("revoked tok")] == [a.id]
    assert [t.id for t in ws.search("expired", file="src/*.py", since="2020-01-01")] == [a.id]
    assert list(ws.search("expired", until="2020-01-01")) == []
    for call, field in ((lambda: list(ws.search("(unclosed")), "query"),
                        (lambda: ws.search("x", since="yesterday"), "since"), (lambda: ws.search("x", file="../*"), "file")):
        with pytest.raises(limpet.LimpetError) as caught:
            call()
        assert (caught.value.field, caught.value.code) == (field, "INVALID_PATH" if field == "file" else
                                                           "INVALID_ARGUMENT"), caught.value


def test_edit_move_and_delete_check_their_arguments_as_the_tools_do(ws):
    t = ws.add("src/auth.py", 10, 14, "Handle expired tokens")
    with pytest.raises(limpet.InvalidArgument) as caught:
        ws.edit(t.id, "")
    assert caught.value.field == "body"
    with pytest.raises(limpet.InvalidArgument) as caught:
        ws.delete(t.id, author="x" * 201)
    assert caught.value.field == "author"
    with pytest.raises(limpet.InvalidAnchor):
        ws.move(t.id, "src/auth.py", 17, 99)
    assert ws.thread(t.id).body == "Handle expired tokens"


def test_a_json_export_is_imported_back_losslessly_into_another_workspace(ws, workspace, tmp_path):
    import shutil

    t = ws.add("src/auth.py", 10, 14, "Handle expired tokens")
    ws.export("json", tmp_path / "threads.json")
    other = tmp_path / "copy"
    shutil.copytree(workspace, other, ignore=shutil.ignore_patterns(".limpet"))
    copy = limpet.Workspace(other)
    report = copy.import_json(tmp_path / "threads.json")
    assert report.imported == [t.id] and copy.thread(t.id).to_record() == ws.thread(t.id).to_record()
    assert copy.import_json((tmp_path / "threads.json").read_bytes()).unchanged == [t.id]


def test_an_export_may_hold_the_threads_of_several_workspaces(ws, workspace, tmp_path):
    import shutil

    other = tmp_path / "other"
    shutil.copytree(workspace, other, ignore=shutil.ignore_patterns(".limpet"))
    limpet.Workspace(other).add("main.go", 5, 7, "go")
    ws.add("src/auth.py", 17, 18, "double it")
    done = []
    result = ws.export("jsonl", tmp_path / "both.jsonl", workspaces=[other], progress=done.append)
    assert result.count == 2 and done and ws.count() == 1


def test_each_thread_has_a_short_id_that_names_it_back(ws):
    made = [ws.add("src/auth.py", 17, body=f"note {i}").id for i in range(12)]  # ids made together share a head
    short = ws.short_ids(made)
    assert list(short) == made
    assert len(set(short.values())) == len(made)
    for full, tail in short.items():
        assert full.endswith(tail) and 6 <= len(tail) <= 10
        assert ws.resolve_id(tail) == full and ws.thread(tail).id == full


_IDS = st.lists(st.text(alphabet="019", min_size=19, max_size=19).map("c_".__add__), min_size=1, max_size=8,
                unique=True)  # three digits: ids sharing long tails and heads, as a big store has


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ids=_IDS)
def test_short_ids_are_unique_tails_that_resolve_to_their_thread_whatever_the_ids(ws, ids):
    if not ws.count():
        ws.add("src/auth.py", 17, body="a template thread")
    record = json.loads(_json_export(ws))
    row = record["threads"][0]
    record["threads"] = [{**row, "thread": _renamed(row["thread"], i)} for i in ids]
    with tempfile.TemporaryDirectory() as folder, limpet.Workspace(folder) as other:
        other.import_json(json.dumps(record).encode())
        short = other.short_ids(ids)
        for full, tail in short.items():
            assert full.endswith(tail.removeprefix("c_"))
            assert other.resolve_id(tail) == full


def test_a_file_is_missing_when_neither_the_workspace_nor_a_thread_has_it(ws):
    ws.add("src/auth.py", 17, body="double it")
    assert ws.missing_file("src/auth.py") is False
    assert ws.missing_file("src/**/*.py") is False  # a glob is never a typo
    assert ws.missing_file("src/nope.py") is True
    assert ws.missing_file("../outside.py") is True
    (ws.root / "src/auth.py").unlink()
    assert ws.missing_file("src/auth.py") is False  # its threads still name it


def test_a_prompt_is_the_text_prompts_get_returns_filled_from_the_workspace(ws):
    from limpet.server.core import Service
    from limpet.server.operations import operations_for, tool_specs

    ws.add("src/auth.py", 10, 14, "Handle expired tokens", tag="TODO")
    text = ws.prompt("review_code", filePath="src/auth.py")
    assert "src/auth.py" in text and "validate_token" in text
    assert text == Service(ws.root).prompt("review_code", {"filePath": "src/auth.py"}, tool_specs(operations_for()))
    assert "fix_orphans" not in text and ws.prompt("fix_orphans")


@pytest.mark.parametrize("name,args,error,field", [
    ("nope", {}, limpet.InvalidArgument, "name"),
    ("review_code", {}, limpet.InvalidArgument, "filePath"),
    ("review_code", {"filePath": "../outside.py"}, limpet.InvalidPath, "filePath"),
])
def test_a_prompt_refuses_an_unknown_name_a_missing_argument_or_a_bad_path_naming_it(ws, name, args, error, field):
    with pytest.raises(error) as caught:
        ws.prompt(name, **args)
    assert caught.value.field == field


def _renamed(thread: dict, thread_id: str) -> dict:
    comments = [{**c, "id": c["id"].replace(thread["id"], thread_id)} for c in thread["comments"]]
    return {**thread, "id": thread_id, "comments": comments}


def _json_export(ws: limpet.Workspace) -> bytes:
    import io

    out = io.BytesIO()
    ws.export("json", out)
    return out.getvalue()
