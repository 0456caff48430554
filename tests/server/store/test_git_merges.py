"""limpet and git, with real git: merges, rebases, cherry-picks and stashes lose nothing and
raise no conflict in the common cases; reads write nothing; orphans come back with their
code; the older layout is read (conflict markers too) and converted by the first write."""

from __future__ import annotations

import os
import shutil

from gitrepo import comments, commit_all, git, git_init, legacy_reply, status, to_legacy_layout

from limpet.server.core import Service


def _thread_on_main(workspace, body="T"):
    git_init(workspace)
    t = Service(workspace).add("src/auth.py", 10, 14, body)
    commit_all(workspace, "thread T")
    return t.id


def _two_branches(workspace, on_a, on_b):
    """Branch a and b off main; run on_a on a, on_b on b, commit each; end on b."""
    git(workspace, "checkout", "-qb", "a")
    on_a(Service(workspace))
    commit_all(workspace, "on a")
    git(workspace, "checkout", "-q", "main")
    git(workspace, "checkout", "-qb", "b")
    on_b(Service(workspace))
    commit_all(workspace, "on b")


def test_two_branches_adding_threads_to_one_file_merge_cleanly(workspace):
    git_init(workspace)
    base = Service(workspace).add("src/auth.py", 10, 14, "on main before branching")
    commit_all(workspace, "base thread")
    _two_branches(workspace, lambda s: s.add("src/auth.py", 10, 14, "from a"),
                  lambda s: s.add("src/auth.py", 17, 18, "from b"))
    git(workspace, "merge", "-q", "--no-edit", "a")  # raises on conflict
    assert status(workspace) == ""
    bodies = sorted(t.body for t in Service(workspace).threads())
    assert bodies == ["from a", "from b", "on main before branching"] and base.id
    tracked = git(workspace, "ls-files", ".limpet").stdout.split()
    assert all(not p.startswith((".limpet/cache", ".limpet/backups")) and p != ".limpet/lock" for p in tracked)


def test_replies_on_two_branches_merge_without_a_conflict_and_both_are_kept(workspace, tmp_path):
    tid = _thread_on_main(workspace)
    _two_branches(workspace, lambda s: s.reply(tid, "from A"), lambda s: s.reply(tid, "from B"))
    clone = tmp_path / "clone"  # as a new user would: a fresh clone, no private folder, no backups
    git(tmp_path, "clone", "-q", str(workspace), str(clone))
    git(clone, "checkout", "-q", "b")
    git(clone, "merge", "-q", "--no-edit", "origin/a")
    assert sorted(comments(clone, tid)) == ["T", "from A", "from B"]
    assert status(clone) == ""


def test_resolve_on_one_side_and_reply_on_the_other_merge_cleanly(workspace):
    tid = _thread_on_main(workspace)
    _two_branches(workspace, lambda s: s.resolve(tid, decision="fixed in a"), lambda s: s.reply(tid, "from B"))
    git(workspace, "merge", "-q", "--no-edit", "a")
    t = Service(workspace).get(tid)
    assert (t.status, t.decision.summary) == ("resolved", "fixed in a")
    assert [c.body for c in t.comments] == ["T", "from B"]


def test_edits_of_different_threads_merge_cleanly(workspace):
    git_init(workspace)
    svc = Service(workspace)
    one, two = svc.add("src/auth.py", 10, 14, "one"), svc.add("PLAN.md", 1, 1, "two")
    commit_all(workspace, "two threads")
    _two_branches(workspace, lambda s: s.edit(one.id, "one, edited on a"),
                  lambda s: s.resolve(two.id, wontfix=True))
    git(workspace, "merge", "-q", "--no-edit", "a")
    fresh = Service(workspace)
    assert fresh.get(one.id).body == "one, edited on a" and fresh.get(two.id).status == "wontfix"


def test_a_rebase_of_replies_onto_replies_keeps_every_reply_in_order(workspace):
    tid = _thread_on_main(workspace)
    _two_branches(workspace, lambda s: [s.reply(tid, "a1"), s.reply(tid, "a2")],
                  lambda s: s.reply(tid, "b1"))
    git(workspace, "rebase", "-q", "a")
    assert comments(workspace, tid) == ["T", "a1", "a2", "b1"]
    assert status(workspace) == ""


def test_a_rebase_where_both_sides_only_edited_code_never_touches_thread_files(workspace):
    tid = _thread_on_main(workspace)
    src = workspace / "src" / "auth.py"

    def edit_code(prefix):
        def run(svc):
            src.write_text(src.read_text() + f"\n\ndef {prefix}():\n    return 1\n")
            svc.get(tid)  # reads re-anchor ...
            svc.reconcile()
            svc.flush()   # ... and keep positions, never in the committed file
        return run

    _two_branches(workspace, edit_code("added_on_a"), lambda s: s.threads())
    git(workspace, "rebase", "-q", "a")
    assert git(workspace, "diff", "--stat", "main", "HEAD", "--", ".limpet").stdout == ""


def test_cherry_picking_a_reply_onto_another_branch_keeps_it(workspace):
    tid = _thread_on_main(workspace)
    _two_branches(workspace, lambda s: s.reply(tid, "from A"), lambda s: s.reply(tid, "from B"))
    picked = git(workspace, "rev-parse", "a").stdout.strip()
    git(workspace, "cherry-pick", picked)
    assert sorted(comments(workspace, tid)) == ["T", "from A", "from B"]


def test_a_stashed_reply_comes_back_with_stash_pop(workspace):
    tid = _thread_on_main(workspace)
    Service(workspace).reply(tid, "work in progress")
    git(workspace, "stash", "-q")
    assert comments(workspace, tid) == ["T"]
    git(workspace, "stash", "pop", "-q")
    assert comments(workspace, tid) == ["T", "work in progress"]


def test_a_stash_popped_onto_a_branch_with_other_replies_keeps_both(workspace):
    tid = _thread_on_main(workspace)
    Service(workspace).reply(tid, "stashed")
    git(workspace, "stash", "-q")
    Service(workspace).reply(tid, "committed meanwhile")
    commit_all(workspace, "reply")
    git(workspace, "stash", "pop", "-q")
    assert sorted(comments(workspace, tid)) == ["T", "committed meanwhile", "stashed"]


def test_reads_reconciles_and_flushes_leave_git_status_clean(workspace):
    tid = _thread_on_main(workspace)
    src = workspace / "src" / "auth.py"
    src.write_text("# shifted\n" + src.read_text())
    commit_all(workspace, "code moved")
    svc = Service(workspace)
    assert svc.get(tid).anchor.line_start == 11
    svc.threads()
    svc.reconcile()
    svc.current_review()
    svc.file_tree()
    svc.flush()
    assert status(workspace) == ""


def test_switching_to_a_branch_without_limpet_and_back(workspace):
    tid = _thread_on_main(workspace)
    git(workspace, "checkout", "-q", "--orphan", "bare")
    git(workspace, "rm", "-rqf", ".")
    (workspace / "README").write_text("another history\n")
    commit_all(workspace, "a branch without .limpet/")
    svc = Service(workspace)
    assert svc.threads() == []
    svc.flush()
    assert status(workspace) == "" and not (workspace / ".limpet").exists()
    git(workspace, "checkout", "-q", "main")  # nothing untracked is in the way
    assert svc.get(tid).health == "anchored" and comments(workspace, tid) == ["T"]


def test_an_orphan_comes_back_when_checkout_restores_its_file(workspace):
    tid = _thread_on_main(workspace)
    git(workspace, "checkout", "-qb", "without")
    git(workspace, "rm", "-q", "src/auth.py")
    commit_all(workspace, "file removed")
    svc = Service(workspace)
    assert svc.get(tid).health == "orphaned"
    svc.reconcile()
    svc.flush()
    git(workspace, "checkout", "-q", "main")
    assert svc.get(tid).health == "anchored"  # the same process
    assert Service(workspace).get(tid).health == "anchored"  # and a new one, after its cache
    assert status(workspace) == ""


def test_an_orphan_comes_back_when_a_revert_restores_its_code(workspace):
    tid = _thread_on_main(workspace)
    src = workspace / "src" / "auth.py"
    original = src.read_text()
    src.write_text(original.split("    def validate_token")[0])  # the method is gone
    commit_all(workspace, "remove validate_token")
    svc = Service(workspace)
    assert svc.get(tid).health == "orphaned"
    assert svc.reconcile().counts["orphaned"] == 1
    svc.flush()
    git(workspace, "revert", "--no-edit", "HEAD")
    assert Service(workspace).reconcile().counts["orphaned"] == 0
    assert Service(workspace).get(tid).health == "anchored"


def test_an_orphan_comes_back_when_stash_pop_restores_its_code(workspace):
    tid = _thread_on_main(workspace)
    src = workspace / "src" / "auth.py"
    src.write_text("# nothing here any more\n")
    git(workspace, "stash", "-q")  # stashes the removal: the code is back
    svc = Service(workspace)
    assert svc.get(tid).health == "anchored"
    git(workspace, "stash", "pop", "-q")
    assert svc.get(tid).health == "orphaned"
    git(workspace, "checkout", "--", "src/auth.py")
    assert svc.get(tid).health == "anchored"


def test_git_clean_under_a_running_service_removes_nothing_it_needs(workspace):
    tid = _thread_on_main(workspace)
    svc = Service(workspace)
    svc.reply(tid, "committed reply")
    commit_all(workspace, "reply")
    svc.reply(tid, "uncommitted reply to a committed thread")
    git(workspace, "clean", "-fdxq")
    assert comments(workspace, tid)[-1] == "uncommitted reply to a committed thread"
    svc.reply(tid, "after the clean")
    assert len(svc.get(tid).comments) == 4
    assert status(workspace).split() == ["M", f".limpet/threads/{tid}.jsonl"]


def test_a_legacy_thread_merged_with_conflict_markers_is_read_as_both_sides(workspace, tmp_path):
    tid = _thread_on_main(workspace)
    to_legacy_layout(workspace)
    commit_all(workspace, "the store as the older limpet wrote it")
    git(workspace, "checkout", "-qb", "a")
    legacy_reply(workspace, tid, "from A", "2030-01-01T00:00:01.000Z")
    commit_all(workspace, "reply on a")
    git(workspace, "checkout", "-q", "main")
    git(workspace, "checkout", "-qb", "b")
    legacy_reply(workspace, tid, "from B", "2030-01-01T00:00:02.000Z")
    commit_all(workspace, "reply on b")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(workspace), str(clone))
    git(clone, "checkout", "-q", "b")
    merge = git(clone, "merge", "--no-edit", "origin/a", check=False)
    assert merge.returncode != 0 and "CONFLICT" in merge.stdout  # what the older layout did
    conflicted = (clone / ".limpet" / "threads" / f"{tid}.json").read_bytes()
    assert comments(clone, tid) == ["T", "from A", "from B"]  # both sides, nothing moved aside
    assert (clone / ".limpet" / "threads" / f"{tid}.json").read_bytes() == conflicted  # a read wrote nothing
    assert not (clone / ".limpet" / "corrupt").exists()
    Service(clone).reply(tid, "resolved by the next write")
    git(clone, "add", "-A")
    git(clone, "commit", "-qm", "merge")
    assert comments(clone, tid) == ["T", "from A", "from B", "resolved by the next write"]
    assert git(clone, "ls-files", ".limpet/threads").stdout.split() == [f".limpet/threads/{tid}.jsonl"]


def test_the_older_layout_is_read_and_converted_by_the_first_write(workspace):
    tid = _thread_on_main(workspace)
    other = Service(workspace).add("PLAN.md", 1, 1, "second")
    Service(workspace).resolve(other.id, decision="done")
    to_legacy_layout(workspace)
    commit_all(workspace, "older layout")
    before = {t.id: t.to_record() for t in Service(workspace).threads(fresh=False)}
    assert status(workspace) == ""  # reading converts nothing
    Service(workspace).reply(tid, "first write")
    after = {t.id: t.to_record() for t in Service(workspace).threads(fresh=False)}
    assert after[other.id] == before[other.id]  # lossless: comments, decision, history, snapshots
    assert [c["body"] for c in after[tid]["comments"]] == ["T", "first write"]
    changed = sorted(status(workspace).splitlines())
    assert changed == sorted([f" D .limpet/threads/{tid}.json", f" D .limpet/threads/{other.id}.json",
                              " M .limpet/.gitignore", " M .limpet/store.json", "?? .limpet/.gitattributes",
                              f"?? .limpet/threads/{tid}.jsonl", f"?? .limpet/threads/{other.id}.jsonl"])


def test_a_branch_still_on_the_older_layout_merges_into_a_converted_one_without_loss(workspace):
    tid = _thread_on_main(workspace)
    to_legacy_layout(workspace)
    commit_all(workspace, "older layout")
    git(workspace, "checkout", "-qb", "old")
    legacy_reply(workspace, tid, "from an old limpet", "2030-01-01T00:00:01.000Z")
    commit_all(workspace, "old reply")
    git(workspace, "checkout", "-q", "main")
    Service(workspace).reply(tid, "from the new limpet")  # converts the store
    commit_all(workspace, "new reply")
    git(workspace, "merge", "--no-edit", "old", check=False)  # modify/delete: git keeps theirs
    assert sorted(comments(workspace, tid)) == ["T", "from an old limpet", "from the new limpet"]
    Service(workspace).reply(tid, "after the merge")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-qm", "merged")
    assert sorted(comments(workspace, tid)) == ["T", "after the merge", "from an old limpet", "from the new limpet"]
    assert not (workspace / ".limpet" / "threads" / f"{tid}.json").exists()


def test_private_state_lives_in_the_git_dir_and_survives_clean(workspace):
    tid = _thread_on_main(workspace)
    src = workspace / "src" / "auth.py"
    src.write_text("# shifted\n" + src.read_text())
    svc = Service(workspace)
    svc.reconcile()
    svc.flush()
    assert (workspace / ".git" / "limpet" / "derived.sqlite").is_file()
    assert not (workspace / ".limpet" / "cache").exists()
    shutil.rmtree(workspace / ".limpet" / "threads")  # whatever happens to the working tree ...
    git(workspace, "checkout", "--", ".limpet")
    assert Service(workspace).get(tid, fresh=False).anchor.line_start == 11  # ... positions were kept


def test_a_server_and_the_web_page_leave_git_status_clean(workspace):
    import time

    import httpx
    from support import api_post, http_server
    from torture.harness import RpcServer

    tid = _thread_on_main(workspace)
    src = workspace / "src" / "auth.py"
    src.write_text("# shifted\n" + src.read_text())
    commit_all(workspace, "code moved")
    with RpcServer(workspace, timeout=30) as server:  # `limpet serve` over stdio, idle flush included
        assert server.ok("comment_show", {"thread_id": tid})["thread"]["line_start"] == 11
        server.ok("comment_list", {})
        server.ok("comment_reconcile", {})
        time.sleep(1.5)  # past the idle flush
        assert status(workspace) == ""
    with http_server(workspace) as base:  # the page's reads
        for path in ("/api/files", "/api/review", "/api/file?path=src/auth.py", "/api/info"):
            assert httpx.get(base + path).status_code == 200
        assert api_post(base, "/api/ops/comment_list", {}).status_code == 200
        time.sleep(1.5)
        assert status(workspace) == ""
    assert (workspace / ".git" / "limpet" / "derived.sqlite").is_file()


def test_git_clean_fdx_while_a_server_runs(workspace):
    from torture.harness import RpcServer

    tid = _thread_on_main(workspace)
    with RpcServer(workspace, timeout=30) as server:
        server.ok("comment_reply", {"thread_id": tid, "body": "uncommitted reply"})
        src = workspace / "src" / "auth.py"
        src.write_text("# shifted\n" + src.read_text())
        assert server.ok("comment_show", {"thread_id": tid})["thread"]["line_start"] == 11
        git(workspace, "clean", "-fdxq")
        shown = server.ok("comment_show", {"thread_id": tid})["thread"]
        assert [c["body"] for c in shown["comments"]] == ["T", "uncommitted reply"]
        assert server.ok("comment_reply", {"thread_id": tid, "body": "after the clean"})["thread"]["line_start"] == 11
        new = server.ok("comment_add", {"file": "PLAN.md", "line_start": 1, "line_end": 1, "body": "new"})["thread"]
        git(workspace, "clean", "-fdxq")  # a new, uncommitted thread is an untracked file like any other
        assert server.error("comment_show", {"thread_id": new["id"]})["code"] == "THREAD_NOT_FOUND"
        assert len(server.ok("comment_list", {})["threads"]) == 1


def test_thread_files_are_written_out_of_git_cleans_reach(workspace, monkeypatch):
    """`git clean -fdx` deletes untracked files: a temp file beside its thread file could vanish
    before its rename, again and again under a cleanup loop. Inside git it is written in the
    private folder (in .git/), then renamed into place."""
    from limpet.server.store import _confined

    git_init(workspace)
    renames: list[tuple[str, str]] = []
    real = os.replace

    def recording(src, dst, *, src_dir_fd=None, dst_dir_fd=None):  # names relative to folders held open
        renames.append((os.path.join(os.readlink(f"/proc/self/fd/{src_dir_fd}"), src),
                        os.path.join(os.readlink(f"/proc/self/fd/{dst_dir_fd}"), dst)))
        return real(src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)

    monkeypatch.setattr(_confined.os, "replace", recording)
    t = Service(workspace).add("src/auth.py", 10, 14, "about validate_token")
    src, dst = next((s, d) for s, d in renames if d.endswith(f"{t.id}.jsonl"))
    assert src.startswith(str(workspace / ".git" / "limpet" / "tmp"))
    assert dst == str(workspace / ".limpet" / "threads" / f"{t.id}.jsonl")
