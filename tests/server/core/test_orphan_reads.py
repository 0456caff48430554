"""An orphan is searched for once per content of its file, not on every read.

Orphans keep the hash of the content they were lost from, so a naive freshness check finds
them stale forever and re-runs the cross-file search on each read. Reads leave an orphan
alone until its file changes again; an explicit reconcile always looks again."""

from __future__ import annotations

import pytest

from limpet.server.core import ThreadFilter, _reconcile


@pytest.fixture
def searches(monkeypatch):
    calls: list[str] = []
    real = _reconcile.reanchor

    def counting(anchor, source, index):
        calls.append(anchor.file)
        return real(anchor, source, index)

    monkeypatch.setattr(_reconcile, "reanchor", counting)  # the engine call re-anchoring makes
    return calls


def _orphan(service, workspace):
    t = service.add("src/auth.py", 10, 14, "about validate_token")
    (workspace / "src" / "auth.py").write_text("# the code is gone\n")
    assert service.get(t.id).health == "orphaned"
    return t


def test_reads_do_not_search_again_for_a_settled_orphan(service, workspace, searches):
    t = _orphan(service, workspace)
    searches.clear()
    for _ in range(3):
        assert service.get(t.id).health == "orphaned"
        assert [x.id for x in service.threads()] == [t.id]
    assert searches == []


def test_an_explicit_reconcile_and_a_new_content_look_again(service, workspace, searches):
    t = _orphan(service, workspace)
    searches.clear()
    service.reconcile()
    assert searches == ["src/auth.py"]
    (workspace / "src" / "auth.py").write_text("# still gone, other text\n")
    assert service.get(t.id).health == "orphaned"
    assert searches == ["src/auth.py", "src/auth.py"]


def test_code_that_comes_back_is_found_by_the_next_reconcile(service, workspace):
    original = (workspace / "src" / "auth.py").read_text()
    t = _orphan(service, workspace)
    (workspace / "src" / "auth_moved.py").write_text(original)
    service.reconcile()
    back = service.get(t.id)
    assert back.health != "orphaned" and back.anchor.file == "src/auth_moved.py"


def test_a_health_filter_sees_a_thread_orphaned_since_the_last_read(service, workspace):
    t = service.add("src/auth.py", 10, 14, "about validate_token")
    (workspace / "src" / "auth.py").write_text("# the code is gone\n")  # no read since
    orphaned = ThreadFilter(health="orphaned")
    assert [x.id for x in service.threads(orphaned)] == [t.id]
    assert [x.id for x in service.matching(orphaned, lambda ts: ts)] == [t.id]


def test_a_glob_filter_sees_a_thread_whose_code_moved_into_it(service, workspace):
    original = (workspace / "src" / "auth.py").read_text()
    t = service.add("src/auth.py", 10, 14, "about validate_token")
    (workspace / "lib").mkdir()
    (workspace / "lib" / "auth.py").write_text(original)
    (workspace / "src" / "auth.py").write_text("# moved to lib/\n")
    assert [x.id for x in service.threads(ThreadFilter(file="lib/*"))] == [t.id]
