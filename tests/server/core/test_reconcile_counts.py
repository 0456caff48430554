"""The counts a reconcile reports are the store's threads by health, however the files they
are on came and went since the last reconcile (the totals are kept and adjusted per file)."""

from __future__ import annotations

import gc
from collections import Counter

from limpet.server.core import Service, serving
from limpet.server.core._process import SERVING_YOUNG_OBJECTS


def _counts(service):
    got = Counter(t.health for t in service.threads())
    return {h: got.get(h, 0) for h in ("anchored", "drifted", "orphaned")}


def test_counts_follow_threads_added_moved_deleted_and_files_gone(tmp_path):
    (tmp_path / "a.py").write_text("def a():\n    return 1\n")
    (tmp_path / "b.py").write_text("def b():\n    return 2\n")
    service = Service(tmp_path)
    ta = service.add("a.py", 1, 2, "on a")
    tb = service.add("b.py", 1, 2, "on b")
    assert service.reconcile().counts == _counts(service) == {"anchored": 2, "drifted": 0, "orphaned": 0}
    (tmp_path / "c.py").write_text("x = 1\n")
    tc = service.add("c.py", 1, 1, "on c")
    (tmp_path / "a.py").write_text("# the code is gone\n")
    assert service.reconcile().counts == _counts(service) == {"anchored": 2, "drifted": 0, "orphaned": 1}
    service.move(tb.id, "c.py", 1, line_end=1)  # b.py has no thread any more
    service.delete(tc.id)
    assert service.reconcile().counts == _counts(service) == {"anchored": 1, "drifted": 0, "orphaned": 1}
    service.delete(ta.id)  # nor has a.py
    assert service.reconcile().counts == _counts(service) == {"anchored": 1, "drifted": 0, "orphaned": 0}


def test_a_serving_process_collects_young_objects_in_fewer_passes():
    before = gc.get_threshold()
    try:
        serving()
        assert gc.get_threshold() == (max(SERVING_YOUNG_OBJECTS, before[0]), before[1], before[2])
    finally:
        gc.set_threshold(*before)
