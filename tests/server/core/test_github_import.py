"""`Service.import_github`: a pull request's review comments become threads on the working tree.

The repository is tests/github_support.py's (three commits with fixed ids, then an uncommitted
edit that moves every line of src/calc.py down by 7); the comments are
fixtures/github/pull_comments.json, in the shape GitHub's REST API answers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import orjson
import pytest
from github_support import CALC_SECOND, FIXTURES, build_pull_request_repo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limpet.model import InvalidArgument, ParseFailure
from limpet.server.core import Service, ThreadFilter

COMMENTS = (FIXTURES / "pull_comments.json").read_bytes()
REVIEW_THREADS = (FIXTURES / "review_threads.json").read_bytes()


@pytest.fixture
def repo(tmp_path) -> Path:
    root = tmp_path / "calc"
    commits = build_pull_request_repo(root)
    named = {c["commit_id"] for c in json.loads(COMMENTS)} | {c["original_commit_id"] for c in json.loads(COMMENTS)}
    assert named <= set(commits.values()), "git made other commit ids than the fixture names"
    return root


def by_comment(svc: Service) -> dict[int, object]:
    out = {}
    for t in svc.threads():
        source = next(h.details for h in t.history if h.event == "imported")
        out[source["comment_id"]] = t
    return out


def test_a_comment_on_the_head_anchors_at_its_lines_then_follows_the_working_tree(repo):
    svc = Service(repo)
    svc.import_github(COMMENTS)
    t = by_comment(svc)[101]  # lines 6-7 of the head: `if b == 0:` and the raise, now 7 lines down
    assert (t.anchor.file, t.anchor.line_start, t.anchor.line_end, t.health) == ("src/calc.py", 13, 14, "anchored")
    assert t.anchor.selected_text == '    if b == 0:\n        raise ZeroDivisionError("b is zero")'


def test_an_outdated_comment_anchors_at_its_original_lines_in_the_original_commit(repo):
    svc = Service(repo)
    report = svc.import_github(COMMENTS)
    floor = by_comment(svc)[104]  # line 8 of the first push, `return a / b`: the same code, now at 15
    assert (floor.anchor.line_start, floor.anchor.line_end, floor.health) == (15, 15, "anchored")
    assert floor.snapshots["created"].text == "    return a / b"  # the code as the reviewer saw it
    gone = by_comment(svc)[103]  # lines 6-7 of the first push (`return None`): rewritten since
    assert gone.anchor.symbol == "divide" and gone.health == "drifted"
    assert gone.snapshots["created"].text == "    if b == 0:\n        return None"
    landed = {t["comment_id"]: t for t in report.to_dict()["threads"]}
    assert landed[104]["from"] == {"commit_id": "75a1c4b30a6ee03ac38e7723ce218cb9a49ecf28", "lines": [8, 8]}
    assert landed[104]["outdated"] and landed[104]["placed_on"] == "commit"


def test_replies_join_their_thread_in_order_and_a_bot_is_an_agent(repo):
    svc = Service(repo)
    svc.import_github(COMMENTS)
    threads = by_comment(svc)
    assert [(c.author, c.author_type, c.created_at) for c in threads[101].comments] == [
        ("alice", "human", "2026-11-22T11:00:00Z"), ("lint-bot[bot]", "agent", "2026-11-22T11:05:00Z")]
    assert [c.author for c in threads[103].comments] == ["bob", "alice"]
    assert len(svc.threads()) == 6  # 8 comments, 2 of them replies


def test_a_file_level_comment_anchors_at_line_one_and_says_so(repo):
    svc = Service(repo)
    report = svc.import_github(COMMENTS)
    t = by_comment(svc)[107]
    assert (t.anchor.line_start, t.anchor.line_end) == (1, 1)
    source = next(h.details for h in t.history if h.event == "imported")
    assert source["subject_type"] == "file"
    assert next(x for x in report.to_dict()["threads"] if x["comment_id"] == 107)["subject_type"] == "file"


def test_deleted_files_and_left_side_comments_are_orphans_never_dropped(repo):
    svc = Service(repo)
    svc.import_github(COMMENTS)
    threads = by_comment(svc)
    old, left = threads[105], threads[106]
    assert (old.anchor.file, old.health, old.anchor.selected_text) == ("src/old.py", "orphaned", "    return 42")
    assert (left.anchor.line_start, left.health, left.anchor.selected_text) == (10, "orphaned", "    return x * 2")
    assert {t.id for t in svc.threads(ThreadFilter(health="orphaned"))} == {old.id, left.id}


def test_importing_again_adds_nothing(repo):
    svc = Service(repo)
    svc.import_github(COMMENTS, REVIEW_THREADS)
    files = sorted(p.read_bytes() for p in (repo / ".limpet" / "threads").iterdir())
    again = Service(repo).import_github(COMMENTS, REVIEW_THREADS)
    assert (len(again.imported), len(again.updated), len(again.unchanged)) == (0, 0, 6)
    assert sorted(p.read_bytes() for p in (repo / ".limpet" / "threads").iterdir()) == files


def test_a_later_import_brings_only_the_new_replies_and_the_resolution(repo):
    comments = json.loads(COMMENTS)
    Service(repo).import_github(json.dumps([c for c in comments if c["id"] != 108]).encode())
    svc = Service(repo)
    report = svc.import_github(COMMENTS, REVIEW_THREADS)
    t = by_comment(svc)[103]
    assert [c.body for c in t.comments] == ["Returning None hides the error from callers; raise instead.",
                                            "Done in the second push."]
    assert t.status == "resolved" and t.decision is None
    assert [h.by for h in t.history if h.event == "resolved"] == ["bob"]
    assert report.updated == [t.id] and len(report.unchanged) == 5


def test_resolution_comes_from_graphql_review_threads(repo):
    svc = Service(repo)
    svc.import_github(COMMENTS, REVIEW_THREADS)
    threads = by_comment(svc)
    assert threads[103].status == "resolved" and threads[101].status == "open"


def test_the_github_record_is_kept_in_the_thread_s_history(repo):
    svc = Service(repo)
    svc.import_github(COMMENTS)
    t = by_comment(svc)[101]
    source = next(h for h in t.history if h.event == "imported")
    assert source.by == "limpet"
    assert source.details == {
        "source": "github", "comment_id": 101, "replies": [102], "path": "src/calc.py", "side": "RIGHT",
        "url": "https://github.com/octocat/calc/pull/7#discussion_r101", "subject_type": "line",
        "outdated": False, "commit_id": "a2641973c954793b26bd1b43a9b1ad5fe895784b", "lines": [6, 7],
        "placed_on": "commit"}


def test_the_thread_file_is_one_snapshot_event_an_older_limpet_reads(repo):
    svc = Service(repo)
    svc.import_github(COMMENTS)
    t = by_comment(svc)[101]
    lines = (repo / ".limpet" / "threads" / f"{t.id}.jsonl").read_bytes().splitlines()
    record = orjson.loads(lines[0])
    assert len(lines) == 1 and record["event"] == "snapshot" and record["mode"] == "merge"
    assert record["schema"] == 2  # no new store schema: every field was there before
    assert set(record["thread"]) <= {"id", "anchor", "health", "status", "tag", "author", "author_type", "ai_meta",
                                     "created_at", "updated_at", "resolved_at", "decision", "anchor_method",
                                     "anchor_confidence", "comments", "history", "snapshots"}


def test_a_workspace_inside_the_repository_takes_its_own_paths_and_reports_the_others(tmp_path):
    repo = tmp_path / "mono"
    build_pull_request_repo(repo)
    workspace = repo / "src"
    comments = json.loads(COMMENTS)
    svc = Service(workspace)
    report = svc.import_github(json.dumps(comments + [dict(comments[0], id=999, path="docs/x.md")]).encode())
    assert {t.anchor.file for t in svc.threads()} == {"calc.py", "old.py"}
    assert report.left_out == [{"comment_id": 999, "path": "docs/x.md", "reason": "outside the workspace"}]


def test_paths_limpet_never_comments_are_left_out_and_reported(repo):
    comments = json.loads(COMMENTS)
    hostile = [dict(comments[0], id=900, path="../etc/passwd"), dict(comments[0], id=901, path=".git/config")]
    report = Service(repo).import_github(json.dumps(hostile).encode())
    assert [x["comment_id"] for x in report.left_out] == [900, 901]
    assert report.imported == [] and not (repo / ".limpet" / "threads").exists() or \
        not any((repo / ".limpet" / "threads").iterdir())


def test_without_git_comments_on_the_head_anchor_on_the_working_tree_and_outdated_ones_by_their_hunk(tmp_path):
    plain = tmp_path / "plain"
    (plain / "src").mkdir(parents=True)
    (plain / "src" / "calc.py").write_text(CALC_SECOND)
    svc = Service(plain)
    report = {t["comment_id"]: t for t in svc.import_github(COMMENTS).to_dict()["threads"]}
    assert (report[101]["placed_on"], report[101]["line_start"], report[101]["health"]) == ("working_tree", 6,
                                                                                            "anchored")
    # the first push's `return None` is shown by the hunk only: looked for, gone, kept on divide
    assert report[103]["placed_on"] == "diff_hunk" and report[103]["health"] in ("drifted", "orphaned")
    assert report[105]["health"] == "orphaned"
    assert len(report) == 6


def test_malformed_input_is_a_typed_error_and_writes_nothing(repo):
    svc = Service(repo)
    with pytest.raises(ParseFailure):
        svc.import_github(b"[{")
    with pytest.raises(InvalidArgument) as caught:
        svc.import_github(json.dumps([{"id": 1, "path": "src/calc.py", "body": "x", "created_at": 5}]).encode())
    assert caught.value.field == "comments[0].created_at"
    with pytest.raises(InvalidArgument):
        svc.import_github(COMMENTS, b'{"data": {}}')
    assert svc.threads() == []


def test_a_reply_whose_thread_was_not_exported_is_a_thread_of_its_own(repo):
    comments = [c for c in json.loads(COMMENTS) if c["id"] == 102]
    svc = Service(repo)
    svc.import_github(json.dumps(comments).encode())
    (t,) = svc.threads()
    source = next(h.details for h in t.history if h.event == "imported")
    assert source["in_reply_to_id"] == 101 and t.author == "lint-bot[bot]" and t.author_type == "agent"


def test_a_clone_reads_the_imported_threads_where_they_landed(repo, tmp_path):
    Service(repo).import_github(COMMENTS)
    clone = tmp_path / "clone"
    shutil.copytree(repo, clone, ignore=shutil.ignore_patterns("cache"))
    shutil.rmtree(clone / ".limpet" / "cache", ignore_errors=True)
    here = {t.id: (t.anchor.line_start, t.health) for t in Service(repo).threads()}
    there = {t.id: (t.anchor.line_start, t.health) for t in Service(clone).threads()}
    assert there == here


def test_a_comment_limpet_posted_is_its_thread_and_github_replies_join_it(repo, tmp_path):
    svc = Service(repo)
    mine = svc.add("src/calc.py", 12, 15, "divide() should say which argument was zero", tag="TODO", author="claude")
    from limpet.server.core import export_workspaces

    export_workspaces([svc], "github-review", ThreadFilter(), tmp_path / "review.json")
    posted = json.loads((tmp_path / "review.json").read_text())["comments"][0]
    # GitHub answers with the comment as posted, and a person's reply under it
    template = json.loads(COMMENTS)[0]
    back = [dict(template, id=500, body=posted["body"], line=posted["line"], start_line=posted.get("start_line"),
                 user={"login": "claude-limpet[bot]", "type": "Bot"}, created_at="2026-11-23T10:00:00Z"),
            dict(template, id=501, in_reply_to_id=500, body="Agreed, will fix.", created_at="2026-11-23T11:00:00Z")]
    for _ in range(2):
        report = Service(repo).import_github(json.dumps(back).encode())
    assert report.imported == [] and report.unchanged == [mine.id]
    (t,) = Service(repo).threads()
    assert t.id == mine.id and [c.body for c in t.comments] == [mine.body, "Agreed, will fix."]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.tuples(st.integers(0, 9), st.integers(1, 40), st.sampled_from(["LEFT", "RIGHT", None]),
                                st.booleans(), st.sampled_from(["User", "Bot"])), min_size=1, max_size=12))
def test_no_comment_is_dropped_and_importing_again_adds_nothing(tmp_path_factory, shape):
    """Any mix of comments, replies (to comments or to replies), sides, outdated or not, lines
    past the end of the file: every comment is in exactly one thread, once."""
    root = tmp_path_factory.mktemp("ws")
    (root / "src").mkdir()
    (root / "src" / "calc.py").write_text(CALC_SECOND)  # 8 lines: many of the lines below are past its end
    comments = []
    for n, (parent, line, side, outdated, kind) in enumerate(shape):
        c = {"id": 1000 + n, "path": "src/calc.py", "body": f"comment {n}", "created_at": f"2026-11-22T10:{n:02d}:00Z",
             "user": {"login": f"u{n % 3}", "type": kind}, "side": side,
             "line": None if outdated else line, "original_line": line}
        if n and parent % 3 == 0:
            c["in_reply_to_id"] = 1000 + parent % n
        comments.append(c)
    data = json.dumps(comments).encode()
    svc = Service(root)
    svc.import_github(data)
    bodies = sorted(c.body for t in svc.threads() for c in t.comments)
    assert bodies == sorted(c["body"] for c in comments)
    again = Service(root).import_github(data)
    assert again.imported == [] and again.updated == []
    assert sorted(c.body for t in Service(root).threads() for c in t.comments) == bodies


def test_two_clones_importing_one_pull_request_make_the_same_threads_and_merge_as_one(repo, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(repo, other)
    Service(repo).import_github(COMMENTS)
    Service(other).import_github(COMMENTS, REVIEW_THREADS)  # the other one also knows what is resolved
    ours, theirs = repo / ".limpet" / "threads", other / ".limpet" / "threads"
    assert sorted(p.name for p in ours.iterdir()) == sorted(p.name for p in theirs.iterdir())
    for path in ours.iterdir():  # what git's union merge driver makes of the two sides (theirs first here)
        path.write_bytes((theirs / path.name).read_bytes() + path.read_bytes())
    threads = Service(repo).threads()
    assert len(threads) == 6
    assert sorted(len(t.comments) for t in threads) == [1, 1, 1, 1, 2, 2]
    assert sorted(t.status for t in threads) == ["open"] * 5 + ["resolved"]  # either side's news is kept
    assert {t.id: t.created_at for t in threads}  # ids sort by the comments' own times
    assert [t.id for t in sorted(threads, key=lambda t: t.id)] == \
        [t.id for t in sorted(threads, key=lambda t: (t.created_at, t.id))]


def test_imported_threads_count_as_changed_now_for_incremental_exports(repo):
    from limpet.server.core import utc_now

    before = utc_now()
    svc = Service(repo)
    svc.import_github(COMMENTS)
    assert len(svc.threads(ThreadFilter(updated_since=before))) == 6  # their comments are days older
    assert all(t.created_at < before for t in svc.threads())  # created when GitHub says


def test_the_input_is_bytes_a_path_or_a_stream_and_is_read_within_its_budget(repo, tmp_path):
    import io

    from limpet.exporters import MAX_GITHUB_INPUT

    path = FIXTURES / "pull_comments.json"
    assert len(Service(repo).import_github(path).imported) == 6
    assert len(Service(repo).import_github(str(path), io.BytesIO(REVIEW_THREADS)).updated) == 1  # resolved
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as fh:  # sparse: 1 GiB on paper, nothing on disk
        fh.truncate(1 << 30)
    with pytest.raises(InvalidArgument) as caught:
        Service(repo).import_github(huge)
    assert caught.value.field == "file" and caught.value.details["limit"] == MAX_GITHUB_INPUT
    with pytest.raises(InvalidArgument) as caught:
        Service(repo).import_github(tmp_path / "missing.json")
    assert caught.value.field == "file"
    with pytest.raises(InvalidArgument) as caught:
        Service(repo).import_github(COMMENTS, review_threads=12)
    assert caught.value.field == "review_threads"


def test_a_comment_with_only_its_diff_position_is_placed_by_where_its_hunk_ends(repo):
    floor = next(c for c in json.loads(COMMENTS) if c["id"] == 104)  # the hunk ends at `return a / b`
    old_style = dict(floor, id=700, line=None, original_line=None, start_line=None, original_start_line=None)
    nothing = dict(old_style, id=701, diff_hunk=None)
    report = Service(repo).import_github(json.dumps([old_style, nothing]).encode())
    landed = {t["comment_id"]: t for t in report.to_dict()["threads"]}
    assert (landed[700]["line_start"], landed[700]["health"], landed[700]["from"]["lines"]) == (15, "anchored", [8, 8])
    assert landed[701]["health"] == "orphaned" and landed[701]["placed_on"] == "none"  # kept, never dropped
