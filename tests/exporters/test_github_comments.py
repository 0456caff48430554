"""Reading GitHub's review comments (GET /repos/{o}/{r}/pulls/{n}/comments) and GraphQL review
threads: the shapes GitHub documents, the ways `gh api --paginate` prints them, and typed
errors naming the field for everything else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from limpet.exporters import (
    MAX_GITHUB_INPUT,
    author_of,
    limpet_body,
    read_github_comments,
    read_review_threads,
)
from limpet.model import MAX_BODY, InvalidArgument, ParseFailure

FIXTURES = Path(__file__).parents[1] / "server" / "fixtures" / "github"
SHA = "6dcb09b5b57875f334f61aebed695e2e4193db5e"


def comment(cid: int, **fields) -> dict:
    """A review comment in the shape of GitHub's OpenAPI example (pull-request-review-comment)."""
    base = {"url": f"https://api.github.com/repos/octocat/Hello-World/pulls/comments/{cid}", "id": cid,
            "node_id": "MDI0OlB1bGxSZXF1ZXN0UmV2aWV3Q29tbWVudDEw", "pull_request_review_id": 42,
            "diff_hunk": "@@ -16,33 +16,40 @@ public class Connection : IConnection...", "path": "file1.txt",
            "position": 1, "original_position": 4, "commit_id": SHA, "original_commit_id": SHA,
            "user": {"login": "octocat", "id": 1, "type": "User", "site_admin": False},
            "body": "Great stuff!", "created_at": f"2011-04-14T16:00:{cid % 60:02d}Z",
            "updated_at": "2011-04-14T16:00:49Z",
            "html_url": f"https://github.com/octocat/Hello-World/pull/1#discussion-diff-{cid}",
            "author_association": "NONE", "start_line": 1, "original_start_line": 1, "start_side": "RIGHT",
            "line": 2, "original_line": 2, "side": "RIGHT"}
    return {**base, **fields}


def dump(value) -> bytes:
    return json.dumps(value).encode()


def test_the_fixture_reads_as_threads_with_replies_in_order():
    threads = read_github_comments((FIXTURES / "pull_comments.json").read_bytes())
    roots = [t.root.id for t in threads]
    assert roots == [103, 104, 105, 106, 101, 107]  # by the time each was written
    by_root = {t.root.id: [r.id for r in t.replies] for t in threads}
    assert by_root[101] == [102] and by_root[103] == [108]
    outdated = {t.root.id for t in threads if t.root.outdated}
    assert outdated == {103, 104, 105}  # line null; the file-level comment is not "outdated"


def test_pages_one_after_another_and_slurped_pages_read_alike():
    page1, page2 = [comment(1), comment(2, in_reply_to_id=1)], [comment(3, in_reply_to_id=1)]
    one = read_github_comments(dump(page1 + page2))
    assert read_github_comments(dump(page1) + b"\n" + dump(page2)) == one  # gh api --paginate
    assert read_github_comments(dump([page1, page2])) == one  # gh api --paginate --slurp
    assert [r.id for r in one[0].replies] == [2, 3]


def test_a_repeated_comment_is_read_once_and_replies_follow_the_chain_to_their_first_comment():
    threads = read_github_comments(dump([comment(1), comment(2, in_reply_to_id=1), comment(2, in_reply_to_id=1),
                                         comment(3, in_reply_to_id=2)]))
    assert [(t.root.id, [r.id for r in t.replies]) for t in threads] == [(1, [2, 3])]


def test_a_reply_whose_thread_is_missing_starts_its_own_never_dropped():
    threads = read_github_comments(dump([comment(5, in_reply_to_id=4)]))
    assert [(t.root.id, t.orphan_reply) for t in threads] == [(5, True)]


def test_authors_a_bot_is_an_agent_a_deleted_account_is_ghost():
    bot = read_github_comments(dump([comment(1, user={"login": "dependabot[bot]", "type": "Bot"})]))[0].root
    gone = read_github_comments(dump([comment(1, user=None)]))[0].root
    assert author_of(bot) == ("dependabot[bot]", "agent")
    assert author_of(gone) == ("ghost", "human")


def test_bodies_fit_limpet_empty_and_overlong_ones_say_so():
    empty = read_github_comments(dump([comment(1, body="")]))[0].root
    long = read_github_comments(dump([comment(1, body="y" * 20_000)]))[0].root
    assert limpet_body(empty) == "(an empty comment on GitHub)"
    text = limpet_body(long)
    assert len(text) == MAX_BODY and "cut at 10,000 characters" in text and long.html_url in text


@pytest.mark.parametrize("data", [b"", b"{not json", b"[1,", b"\xff\xfe"])
def test_what_is_not_json_is_a_parse_error_on_the_file(data):
    with pytest.raises(ParseFailure) as caught:
        read_github_comments(data)
    assert caught.value.code == "PARSE_ERROR" and caught.value.field == "file"


@pytest.mark.parametrize(("bad", "field"), [
    ({"line": "2"}, "comments[1].line"),
    ({"line": 0}, "comments[1].line"),
    ({"id": None}, "comments[1].id"),
    ({"side": "MIDDLE"}, "comments[1].side"),
    ({"user": {"type": "User"}}, "comments[1].user"),
    ({"commit_id": "not-a-sha"}, "comments[1].commit_id"),
    ({"created_at": "yesterday"}, "comments[1].created_at"),
])
def test_a_field_of_the_wrong_type_is_named(bad, field):
    with pytest.raises(InvalidArgument) as caught:
        read_github_comments(dump([comment(1), comment(2, **bad)]))
    assert caught.value.field == field and "comments[1]" in caught.value.message


def test_an_object_is_not_a_list_of_comments():
    with pytest.raises(InvalidArgument) as caught:
        read_github_comments(dump({"message": "Not Found", "documentation_url": "https://docs.github.com"}))
    assert caught.value.field == "comments"


def test_the_size_is_checked_before_parsing():
    with pytest.raises(InvalidArgument) as caught:
        read_github_comments(b"[" + b" " * MAX_GITHUB_INPUT + b"]")
    assert caught.value.field == "file" and caught.value.details["limit"] == MAX_GITHUB_INPUT


def test_review_threads_name_each_comment_s_resolution():
    resolved = read_review_threads((FIXTURES / "review_threads.json").read_bytes())
    assert {k: (v.resolved, v.by) for k, v in resolved.items()} == {
        103: (True, "bob"), 108: (True, "bob"), 101: (False, None), 102: (False, None)}


def test_review_threads_as_edges_and_slurped_pages():
    page = {"data": {"repository": {"pullRequest": {"reviewThreads": {"edges": [
        {"node": {"isResolved": True, "resolvedBy": None, "comments": {"nodes": [{"databaseId": 7}]}}}]}}}}}
    assert read_review_threads(dump([page, page]))[7].resolved


@pytest.mark.parametrize(("doc", "field"), [
    ({"data": {"repository": None}}, "reviewThreads"),
    ({"data": {"repository": {"pullRequest": {"reviewThreads": {"nodes": [{"isResolved": "yes"}]}}}}},
     "reviewThreads.nodes[0].isResolved"),
    ({"data": {"repository": {"pullRequest": {"reviewThreads": {"nodes": [{"isResolved": True}]}}}}},
     "reviewThreads.nodes[0].comments.nodes"),
])
def test_malformed_review_threads_name_the_field(doc, field):
    with pytest.raises(InvalidArgument) as caught:
        read_review_threads(dump(doc))
    assert caught.value.field == field
