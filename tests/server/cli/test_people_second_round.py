"""A person's second round with the CLI (issue 38): the store found from any folder, every write
credited to its author, a history that says what happened in time order, a delete that removes
the text, a reply merged onto a deleted thread kept in sight, short ids, typos answered plainly."""

from __future__ import annotations

import json
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from limpet.server.core import Service, locate_workspace
from limpet.server.core._ids import short_ids


def run(cmd, cwd, *args, env=None):
    import os

    proc = subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})
    return proc.returncode, proc.stdout, proc.stderr


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@x", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.fixture
def repo(workspace):
    git(workspace, "init", "-q")
    return workspace


# -- 1: the store from any folder ---------------------------------------------------------------
def test_from_a_subfolder_the_checkouts_store_is_used_and_paths_are_relative_to_the_folder(limpet_cmd, repo):
    src = repo / "src"
    code, out, err = run(limpet_cmd, src, "add", "auth.py:10-14", "Check expiry", "--json")
    assert code == 0, err
    assert json.loads(out)["thread"]["file"] == "src/auth.py"
    assert not (src / ".limpet").exists() and (repo / ".limpet").is_dir()  # no second store
    code, out, _ = run(limpet_cmd, src, "list")
    assert code == 0 and "src/auth.py:10-14" in out
    code, out, _ = run(limpet_cmd, src, "list", "--file", "auth.py")
    assert "src/auth.py:10-14" in out
    code, out, _ = run(limpet_cmd, repo, "list", "--file", "src/auth.py")  # from the top as before
    assert "src/auth.py:10-14" in out
    tid = json.loads(run(limpet_cmd, src, "list", "--json")[1])["threads"][0]["id"]
    code, out, err = run(limpet_cmd, src, "move", tid, "../PLAN.md:3", "--json")
    assert code == 0, err
    assert json.loads(out)["thread"]["file"] == "PLAN.md"


def test_the_workspace_is_the_nearest_folder_with_a_store_or_a_git_top():
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        top = Path(tmp) / "checkout"
        (top / "a" / "b").mkdir(parents=True)
        (top / ".git").mkdir()
        assert locate_workspace(top / "a" / "b").root == top
        assert locate_workspace(top / "a" / "b").prefix == "a/b"
        assert locate_workspace(top / "a" / "b").path("../x.py") == "a/x.py"
        assert locate_workspace(top / "a").path("../../x.py") == "../../x.py"  # left for the workspace to refuse
        (top / "a" / ".limpet").mkdir()  # a nested workspace with its own store
        assert locate_workspace(top / "a" / "b").root == top / "a"
        nowhere = Path(tmp) / "plain"
        nowhere.mkdir()
        assert locate_workspace(nowhere).root == nowhere and locate_workspace(nowhere).prefix == ""


# -- 2: every write names its author ------------------------------------------------------------
def test_edit_move_and_delete_are_credited_to_the_person(limpet_cmd, workspace):
    carol = {"LIMPET_AUTHOR": "carol"}
    code, out, _ = run(limpet_cmd, workspace, "add", "src/auth.py:10-14", "Check expiry", "--json", env=carol)
    tid = json.loads(out)["thread"]["id"]
    run(limpet_cmd, workspace, "edit", tid, "Check expiry first", env=carol)
    run(limpet_cmd, workspace, "move", tid, "src/auth.py:17", env=carol)
    code, out, _ = run(limpet_cmd, workspace, "show", tid, "--json")
    history = json.loads(out)["thread"]["history"]
    assert [(h["event"], h["by"]) for h in history] == [("created", "carol"), ("edited", "carol"), ("moved", "carol")]
    code, out, _ = run(limpet_cmd, workspace, "delete", tid, "--yes", "--author", "dave")
    assert code == 0
    lines = [json.loads(line) for line in (workspace / ".limpet" / "threads" / f"{tid}.jsonl").read_text().splitlines()]
    assert [(e["event"], e["by"]) for e in lines] == [("deleted", "dave")]


# -- 3: history ---------------------------------------------------------------------------------
def test_history_logs_a_move_while_anchored_an_orphaning_and_keeps_time_order(limpet_cmd, workspace, service):
    t = service.add("src/auth.py", 17, 18, "helper doubles")
    service.reply(t.id, "and why?", author="bob", author_type="human")
    auth = workspace / "src" / "auth.py"
    auth.write_text("# a header\n# of two lines\n" + auth.read_text())  # the function moves down, anchored
    code, out, _ = run(limpet_cmd, workspace, "show", t.id)
    assert code == 0
    history = out.split("history:")[1]
    assert "reanchored by limpet (from src/auth.py:17-18 to src/auth.py:19-20)" in history, out
    code, _, _ = run(limpet_cmd, workspace, "reply", t.id, "later reply")
    auth.write_text("# only this now\n")  # the code is gone
    code, out, _ = run(limpet_cmd, workspace, "show", t.id, "--json")
    events = json.loads(out)["thread"]["history"]
    kinds = [h["event"] for h in events]
    assert kinds == ["created", "replied", "reanchored", "replied", "orphaned"], kinds
    assert [h["at"] for h in events] == sorted(h["at"] for h in events)  # oldest first
    code, out, _ = run(limpet_cmd, workspace, "show", t.id)
    assert "orphaned by limpet (src/auth.py:19-20, anchored -> orphaned)" in out
    assert not any(" to " in line and line.count("src/auth.py:19-20") == 2 for line in out.splitlines())


def test_shifts_in_a_row_make_one_entry_and_a_shift_undone_leaves_none(workspace, service):
    t = service.add("src/auth.py", 17, 18, "helper doubles")
    auth = workspace / "src" / "auth.py"
    original = auth.read_text()
    for n in range(1, 4):
        auth.write_text("#\n" * n + original)
        moved = Service(workspace).get(t.id)
        assert moved.anchor.line_start == 17 + n
    entries = [h for h in moved.history if h.by == "limpet"]
    assert len(entries) == 1 and entries[0].details["from"]["line_start"] == 17
    assert entries[0].details["to"]["line_start"] == 20
    auth.write_text(original)
    back = Service(workspace).get(t.id)
    assert [h.event for h in back.history] == ["created"]


# -- 4: delete and edit leave no old text -------------------------------------------------------
def test_edit_and_delete_take_the_text_out_of_the_working_tree(limpet_cmd, workspace):
    code, out, _ = run(limpet_cmd, workspace, "add", "src/auth.py:10-14", "token=hunter2-SECRET", "--json")
    tid = json.loads(out)["thread"]["id"]
    run(limpet_cmd, workspace, "reply", tid, "a reply")
    path = workspace / ".limpet" / "threads" / f"{tid}.jsonl"
    code, out, err = run(limpet_cmd, workspace, "edit", tid, "token=<redacted>", "--json")
    assert code == 0, err
    assert "hunter2" not in path.read_text()
    thread = json.loads(out)["thread"]
    assert [c["body"] for c in thread["comments"]] == ["token=<redacted>", "a reply"]
    assert [h["event"] for h in thread["history"]] == ["created", "replied", "edited"]
    run(limpet_cmd, workspace, "edit", tid, "second edit")
    code, out, _ = run(limpet_cmd, workspace, "show", tid, "--json")
    assert [h["event"] for h in json.loads(out)["thread"]["history"]] == ["created", "replied", "edited", "edited"]
    assert json.loads(out)["thread"]["comments"][0]["body"] == "second edit"
    run(limpet_cmd, workspace, "delete", tid, "--yes")
    text = path.read_text()
    assert "redacted" not in text and "a reply" not in text and "second edit" not in text and "anchor" not in text
    code, _, err = run(limpet_cmd, workspace, "show", tid)
    assert code == 3 and "THREAD_NOT_FOUND" in err


# -- 5: a reply merged onto a deleted thread ----------------------------------------------------
def test_a_reply_merged_onto_a_thread_deleted_on_another_branch_brings_it_back(limpet_cmd, repo):
    code, out, _ = run(limpet_cmd, repo, "add", "src/auth.py:10-14", "Check expiry", "--json")
    tid = json.loads(out)["thread"]["id"]
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "thread")
    git(repo, "checkout", "-qb", "other")
    run(limpet_cmd, repo, "reply", tid, "Fixed on the other branch", env={"LIMPET_AUTHOR": "bob"})
    git(repo, "commit", "-qam", "reply")
    git(repo, "checkout", "-q", "-")
    run(limpet_cmd, repo, "delete", tid, "--yes", env={"LIMPET_AUTHOR": "carol"})
    git(repo, "commit", "-qam", "delete")
    git(repo, "merge", "-q", "other", "-m", "merge")
    code, out, err = run(limpet_cmd, repo, "show", tid, "--json")
    assert code == 0, err
    thread = json.loads(out)["thread"]
    assert [c["body"] for c in thread["comments"]] == ["Check expiry", "Fixed on the other branch"]
    deleted = [h for h in thread["history"] if h["event"] == "deleted"]
    assert deleted and deleted[0]["by"] == "carol" and "delete it again" in deleted[0]["details"]["undone"]
    code, out, _ = run(limpet_cmd, repo, "search", "other branch")
    assert "1 thread(s)" in out + _
    code, _, _ = run(limpet_cmd, repo, "delete", tid, "--yes")  # deleting again, having seen it: gone
    code, _, err = run(limpet_cmd, repo, "show", tid)
    assert code == 3


def test_replies_merged_without_their_thread_are_reported(workspace, service):
    t = service.add("src/auth.py", 10, 14, "Check expiry")
    path = workspace / ".limpet" / "threads" / f"{t.id}.jsonl"
    created = path.read_text()
    service.reply(t.id, "late reply", author="bob", author_type="human")
    reply_line = path.read_text()[len(created):]
    service.delete(t.id, by="carol")
    tombstone = json.loads(path.read_text())
    late = json.loads(reply_line)
    late["seq"] = tombstone["seq"]  # written on a branch that never saw the deletion
    path.write_text(path.read_text() + json.dumps(late) + "\n")
    fresh = Service(workspace)
    problems = fresh.reconcile().problems
    assert any("later event(s) (replied) were merged in" in p for reasons in problems.values() for p in reasons)


# -- 6: short ids -------------------------------------------------------------------------------
def test_short_ids_are_the_fewest_last_digits_that_tell_threads_apart():
    ids = ["c_1763805600000111111", "c_1763805600000222222", "c_1763805600001222222", "c_1763805600002176380"]
    short = short_ids(ids)
    assert short["c_1763805600000111111"] == "111111"
    assert short["c_1763805600000222222"] == "0222222"  # 222222 ends two ids
    assert short["c_1763805600001222222"] == "1222222"
    assert short["c_1763805600002176380"] == "2176380"  # 176380 also begins every id


def test_list_shows_short_ids_and_every_command_takes_them(limpet_cmd, workspace, service):
    made = [service.add("src/auth.py", 4 + i, 4 + i, f"thread {i}") for i in range(12)]  # one second
    code, out, _ = run(limpet_cmd, workspace, "list")
    shown = [line.split()[0] for line in out.splitlines()]
    assert all(6 <= len(s) <= 10 for s in shown) and len(set(shown)) == 12
    by_body = {line.split("  ")[-1]: line.split()[0] for line in out.splitlines()}
    target = made[5]
    short = by_body["thread 5"]
    assert target.id.endswith(short)
    for cmd in (["show", short], ["reply", short, "ok"], ["resolve", short], ["reopen", short],
                ["edit", short, "thread 5 edited"], ["move", short, "src/auth.py:17"]):
        code, out, err = run(limpet_cmd, workspace, *cmd, "--json")
        assert code == 0, (cmd, err)
        assert json.loads(out)["thread"]["id"] == target.id  # the wire keeps the full id
    code, out, err = run(limpet_cmd, workspace, "delete", short, "--yes", "--json")
    assert code == 0 and json.loads(out)["commentId"] == target.id


# -- 7: typos answered plainly ------------------------------------------------------------------
def test_typos_get_plain_answers(limpet_cmd, workspace):
    code, _, err = run(limpet_cmd, workspace, "add", "src/auth.py:14-10", "x")
    assert code == 2 and "reversed" in err and "14-10" in err and "10-14" in err
    code, _, err = run(limpet_cmd, workspace, "add", "src/auth.py:40-30", "x")  # past the end, and reversed
    assert code == 2 and "reversed" in err and "the file has 18 lines" in err
    code, _, err = run(limpet_cmd, workspace, "add", "src/auth.py:0-3", "x")
    assert code == 2 and "must be at least 1 (lines are numbered from 1)" in err and "Expected" not in err
    code, out, err = run(limpet_cmd, workspace, "add", "src/auth.py:10", "x", "--tag", "todo", "--json")
    assert code == 0, err
    assert json.loads(out)["thread"]["tag"] == "TODO"
    code, out, _ = run(limpet_cmd, workspace, "list", "--tag", "Todo")
    assert code == 0 and "TODO" in out
    code, _, err = run(limpet_cmd, workspace, "prompt", "review_code")
    assert code == 2 and "--arg filePath=" in err
    code, out, err = run(limpet_cmd, workspace, "list", "--file", "does/not/exist.py")
    assert code == 3 and "does/not/exist.py: no such file in the workspace" in err
    code, _, err = run(limpet_cmd, workspace, "list", "--file", "src/*.nothing")  # a glob is no typo
    assert code == 0


def test_the_library_credits_its_author_on_every_write(workspace):
    import limpet

    ws = limpet.Workspace(workspace, author="erin")
    t = ws.add("src/auth.py", 10, 14, "Check expiry")
    ws.edit(t.id, "Check expiry first")
    ws.move(t.id, "src/auth.py", 17)
    assert [(h.event, h.by) for h in ws.thread(t.id).history] == [("created", "erin"), ("edited", "erin"),
                                                                   ("moved", "erin")]
    ws.delete(t.id)
    path = workspace / ".limpet" / "threads" / f"{t.id}.jsonl"
    assert [(e["event"], e["by"]) for e in map(json.loads, path.read_text().splitlines())] == [("deleted", "erin")]


# -- 9: each tool says its family and what to prefer --------------------------------------------
def test_each_tools_description_names_its_family_and_what_a_new_integration_prefers(workspace):
    import anyio
    from support import stdio_session

    async def main():
        async with stdio_session(workspace) as s:
            return {t.name: t.description for t in (await s.list_tools()).tools}

    described = anyio.run(main)
    assert len(described) == 19
    for name, text in described.items():
        family = next(f for f in ("threads", "paired", "feedback", "review") if text.startswith(f"[{f} family"))
        if family != "threads":
            assert "prefer" in text or "No tool of the threads family does this" in text, name
    assert described["add_comment"].endswith("For a new integration prefer comment_add.")
    assert described["resolve_feedback"].endswith("For a new integration prefer comment_resolve.")
    assert "the ones to use in a new integration" in described["comment_add"]


# Any ids, and ids made in one second (they share 10 digits) or one millisecond (13).
_IDS = st.lists(st.one_of(st.integers(0, 10**19 - 1), st.integers(1795861241000000000, 1795861241999999999),
                          st.integers(1795861241698000000, 1795861241698000999)).map(lambda n: f"c_{n:019d}"),
                unique=True, max_size=60)


@given(_IDS)
def test_every_short_id_names_its_thread_and_no_other(ids):
    from limpet.server.core._ids import resolve_prefix

    short = short_ids(ids)
    for thread_id, s in short.items():
        assert s == thread_id or (6 <= len(s) <= 10 and thread_id.endswith(s))
        assert resolve_prefix(s, set(ids).__contains__, lambda: ids) == thread_id
