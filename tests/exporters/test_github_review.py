"""github-review: the body of GitHub's create-a-review call, for the open threads (goldens:
UPDATE_GOLDEN=1 rewrites them after a deliberate change)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

from msgspec.structs import replace

from limpet.exporters import ExportOptions, get_exporter
from limpet.model import Comment

GOLDEN = Path(__file__).parent / "golden"
HEAD = "6dcb09b5b57875f334f61aebed695e2e4193db5e"


def _review(items, **opts) -> dict:
    buf = io.BytesIO()
    result = get_exporter("github-review").write(iter(items), buf, ExportOptions(**opts))
    assert result.bytes_written == len(buf.getvalue())
    doc = json.loads(buf.getvalue())
    assert result.count == len(doc["comments"]) + doc["body"].count("<!-- limpet:")
    return doc


def _check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8", newline="\n")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; UPDATE_GOLDEN=1 if intended"


def test_golden(items):
    buf = io.BytesIO()
    alpha = [i for i in items if i.workspace == "alpha"]
    get_exporter("github-review").write(alpha, buf, ExportOptions(head_commit=HEAD, repo_prefix="service/"))
    _check("github_review.json", buf.getvalue().decode("utf-8"))


def test_one_comment_per_open_thread_placed_on_code_at_its_current_lines(items):
    doc = _review(items, head_commit=HEAD)
    assert doc["event"] == "COMMENT" and doc["commit_id"] == HEAD
    placed = [(c["path"], c.get("start_line"), c["line"], c["side"]) for c in doc["comments"]]
    # open and not orphaned: TODO at 8-12, STAR at 4, the NOTE at 1 (resolved and wontfix left out)
    assert placed == [("src/auth.py", None, 1, "RIGHT"), ("src/auth.py", None, 4, "RIGHT"),
                      ("src/auth.py", 8, 12, "RIGHT")]
    assert all(c.get("start_side", "RIGHT") == "RIGHT" for c in doc["comments"])


def test_replies_are_quoted_under_the_first_comment_with_the_thread_id(items):
    doc = _review(items)
    todo = next(c for c in doc["comments"] if c["line"] == 12)
    assert todo["body"] == ("**TODO** · `AuthService.validate_token`\n\nHandle expired tokens\n\n"
                            "> **dana** (human) · 2026-11-22T10:05:00Z\n>\n> Agreed.\n> Also log it.\n\n"
                            "<!-- limpet:c_1763790000000010 -->")


def test_open_orphans_are_listed_in_the_review_body_not_dropped(items):
    doc = _review(items)
    assert "src/legacy.py` (last at line 1) **NOTE** Old helper <!-- limpet:c_1763790000000040 -->" in doc["body"]
    assert all(c["path"] != "src/legacy.py" for c in doc["comments"])


def test_paths_are_the_repository_s_and_no_commit_outside_git(items):
    doc = _review(items, repo_prefix="service/")
    assert "commit_id" not in doc  # GitHub then takes the pull request's newest commit
    assert {c["path"] for c in doc["comments"]} == {"service/src/auth.py"}


def test_no_open_threads_is_still_a_review_github_takes(items):
    doc = _review([i for i in items if i.thread.status != "open"])
    assert doc == {"body": "limpet: 0 open threads on code.", "comments": [], "event": "COMMENT"}


def test_a_body_past_github_s_limit_is_cut_and_says_so(items):
    t = items[0].thread
    long = t.evolve(comments=(*t.comments, *(Comment(f"{t.id}.{n}", "x" * 9000, "dana", "human", t.created_at)
                                              for n in range(2, 12))))
    doc = _review([replace(items[0], thread=long)])
    body = doc["comments"][0]["body"]
    assert len(body) == 65_536 and body.endswith("the thread has more._")


def test_order_of_input_does_not_matter(items):
    assert _review(items) == _review(list(reversed(items)))


def test_threads_on_lines_the_diff_does_not_show_are_listed_in_the_body(items):
    # the pull request shows src/auth.py lines 1-9 only: the STAR at 4 and the NOTE at 1 fit, the TODO (8-12) not
    doc = _review(items, diff_lines=(("src/auth.py", ((1, 9),)),))
    assert [c["line"] for c in doc["comments"]] == [1, 4]
    assert ("Open threads on lines this pull request's diff does not show:\n- `src/auth.py` (at line 8) **TODO** "
            "Handle expired tokens <!-- limpet:c_1763790000000010 -->") in doc["body"]
    assert _review(items, diff_lines=())["comments"] == []  # a diff that shows nothing: every thread listed
