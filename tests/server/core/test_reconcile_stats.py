"""A reconcile of the whole store looks only at the files that changed: the kernel says which
(FolderChanges); every other file with threads costs no stat. What it finds is what a
reconcile that stats every file finds."""

from __future__ import annotations

import pytest

from limpet.server.core import Service
from limpet.server.store import Workspace


def _module(i: int) -> str:
    return "".join(f"def f{i}_{k}(x):\n    return x + {k}\n\n" for k in range(3))


@pytest.fixture
def project(tmp_path):
    for i in range(12):
        (tmp_path / "src").mkdir(exist_ok=True)
        (tmp_path / "src" / f"m{i}.py").write_text(_module(i))
    return tmp_path


@pytest.fixture
def stats(monkeypatch):
    seen: list[str] = []
    real = Workspace.state

    def counting(self, rel):
        seen.append(rel)
        return real(self, rel)

    monkeypatch.setattr(Workspace, "state", counting)
    return seen


def _edit(project, *numbers):
    for i in numbers:
        path = project / "src" / f"m{i}.py"
        path.write_text("# moved down\n" + path.read_text())


def test_a_reconcile_stats_only_the_files_an_edit_touched(project, stats):
    service = Service(project)
    ids = [service.add(f"src/m{i}.py", 4, 5, f"thread {i}").id for i in range(12)]
    for _ in range(3):  # the folder is watched from a reconcile on: later ones need no stat
        service.reconcile()
    _edit(project, 2, 7)
    stats.clear()
    report = service.reconcile()
    assert sorted(set(stats)) == ["src/m2.py", "src/m7.py"]
    assert sorted(t.id for t in report.changed) == sorted([ids[2], ids[7]])
    assert [service.get(i).line_start for i in ids] == [5 if i in (2, 7) else 4 for i in range(12)]


def test_what_a_watched_reconcile_finds_is_what_a_full_look_finds(project, monkeypatch):
    watched = Service(project)
    for i in range(12):
        watched.add(f"src/m{i}.py", 4, 5, f"thread {i}")
    for rounds in ([1], [1, 2], [], [5, 6, 7, 8], [1]):
        watched.reconcile()
        _edit(project, *rounds)
        monkeypatch.setenv("LIMPET_NO_INOTIFY", "1")
        full = Service(project)
        monkeypatch.delenv("LIMPET_NO_INOTIFY")
        watched.reconcile()
        full.reconcile()
        assert [(t.id, t.line_start, t.health) for t in watched.threads()] == \
            [(t.id, t.line_start, t.health) for t in full.threads()]
