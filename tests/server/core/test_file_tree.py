"""The page's file tree: walked once, then kept current from disk events while watched."""

from __future__ import annotations

import time

from limpet.server.core import Service
from limpet.server.store import Workspace


def eventually(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the tree did not follow the disk"
        time.sleep(0.05)


def paths(svc: Service) -> set[str]:
    return {f["path"] for f in svc.file_tree()["files"]}


def counting_walks(monkeypatch) -> list[str]:
    walks: list[str] = []
    real = Workspace.walk_sources

    def walk(self, max_bytes=2_000_000, under=""):
        walks.append(under)
        return real(self, max_bytes, under)

    monkeypatch.setattr(Workspace, "walk_sources", walk)
    return walks


def test_a_watched_tree_is_walked_once_and_follows_the_disk(workspace, monkeypatch):
    walks = counting_walks(monkeypatch)
    svc = Service(workspace)
    with svc.watching():
        time.sleep(1)  # the disk watch is armed (until then each answer walks: events may be missed)
        assert "src/auth.py" in paths(svc)
        (workspace / "fresh.py").write_text("x = 1\n")
        eventually(lambda: "fresh.py" in paths(svc))
        (workspace / "pkg" / "deep").mkdir(parents=True)
        (workspace / "pkg" / "deep" / "a.py").write_text("y = 2\n")
        eventually(lambda: "pkg/deep/a.py" in paths(svc))
        (workspace / "src" / "auth.py").unlink()
        eventually(lambda: "src/auth.py" not in paths(svc))
    assert walks.count("") == 1  # the first tree; every later one came from events


def test_an_unwatched_tree_is_walked_for_each_answer(workspace, monkeypatch):
    walks = counting_walks(monkeypatch)
    svc = Service(workspace)
    paths(svc)
    (workspace / "fresh.py").write_text("x = 1\n")
    assert "fresh.py" in paths(svc)  # nothing told it: it looked again
    assert walks.count("") == 2


def test_threads_on_deleted_files_stay_in_the_tree_marked_gone(workspace):
    svc = Service(workspace)
    thread = svc.add("src/auth.py", 1, 2, "check")
    (workspace / "src" / "auth.py").unlink()
    row = {f["path"]: f for f in svc.file_tree()["files"]}[thread.anchor.file]
    assert row["exists"] is False and row["threads"]["total"] == 1


def test_a_folder_reached_through_a_symlink_is_not_walked(workspace, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.py").write_text("s = 1\n")
    (workspace / "link").symlink_to(outside, target_is_directory=True)
    assert Workspace(workspace).walk_sources(under="link") == {}
    assert Workspace(workspace).walk_sources(under="../x") == {}


CODE = "def settle_invoice_totals(invoice, ledger):\n    total = sum(line.amount for line in invoice.lines)\n    ledger.post(invoice.number, total)\n    return total\n"


def test_the_tree_counts_threads_as_last_anchored_and_a_reconcile_names_old_and_new_files(workspace, monkeypatch):
    (workspace / "billing.py").write_text("import os\n\n" + CODE)
    svc = Service(workspace)
    thread = svc.add("billing.py", 3, 6, "check the rounding")
    (workspace / "billing.py").unlink()  # the code moved to another file
    (workspace / "ledger.py").write_text("import sys\n\n\n" + CODE)

    def no_reconcile(*args, **kwargs):
        raise AssertionError("a listing must not wait for re-anchoring")

    with monkeypatch.context() as m:
        m.setattr(type(svc._reconciler), "run", no_reconcile)
        rows = {f["path"]: f for f in svc.file_tree()["files"]}
        assert rows["billing.py"]["threads"]["total"] == 1 and rows["billing.py"]["exists"] is False
        assert svc.file_tree(only=["billing.py"])["files"][0]["threads"]["anchored"] == 1

    changes = []
    svc.subscribe(changes.append)
    moved = svc.get(thread.id)  # re-anchored: found in ledger.py
    assert moved.anchor.file == "ledger.py"
    assert {"billing.py", "ledger.py"} <= set().union(*(c.files for c in changes))
    rows = {f["path"]: f for f in svc.file_tree(only=["billing.py", "ledger.py"])["files"]}
    assert rows["billing.py"]["threads"] == {} and rows["ledger.py"]["threads"]["total"] == 1


def test_listing_by_health_re_anchors_first_even_when_nothing_matched_before(workspace):
    # The page's orphans panel no longer follows a tree that re-anchored everything first.
    from limpet.server.core import ThreadFilter

    Service(workspace).add("src/auth.py", 1, 2, "check")
    (workspace / "src" / "auth.py").unlink()
    fresh = Service(workspace)
    assert [t.body for t in fresh.threads(ThreadFilter(health="orphaned"))] == ["check"]


def test_the_pages_of_one_unwatched_listing_are_one_walk(workspace, monkeypatch):
    walks = counting_walks(monkeypatch)
    svc = Service(workspace)
    first = svc.file_tree(limit=2)
    svc.file_tree(after=first["files"][-1]["path"], limit=2)
    assert walks.count("") == 1
    svc.file_tree(limit=2)  # a new listing looks again
    assert walks.count("") == 2


def test_events_keep_the_listing_without_scanning_it(workspace):
    from limpet.server.core._changes import Change
    from limpet.server.core._tree import FileListing

    listing = FileListing(Workspace(workspace), lambda: 1)
    before = listing.paths()
    (workspace / "src" / "auth.py").write_text("changed = True\n")  # an editor's save
    listing.on_change(Change(files=frozenset({"src/auth.py"}), saved=frozenset({"src/auth.py"})))
    assert listing.paths() is before  # the sorted list kept, not sorted again
    (workspace / "src" / "auth.py").unlink()
    (workspace / "src" / "auth.py").mkdir()  # a file replaced by a folder
    (workspace / "src" / "auth.py" / "inner.py").write_text("x = 1\n")
    (workspace / "pkg" / "deep").mkdir(parents=True)
    (workspace / "pkg" / "deep" / "a.py").write_text("y = 2\n")
    listing.on_change(Change(files=frozenset({"src/auth.py", "pkg"}), saved=frozenset({"src/auth.py", "pkg"})))
    after = listing.paths()
    assert "src/auth.py" not in after and {"src/auth.py/inner.py", "pkg/deep/a.py"} <= set(after)
    assert after == sorted(after)
