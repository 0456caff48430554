"""Thread ids: unique even when a bulk add makes many in one millisecond."""

from __future__ import annotations

import time

from limpet.server.core import Service


def test_a_bulk_add_within_one_millisecond_gives_every_thread_its_own_id(workspace, monkeypatch):
    frozen = time.time_ns()
    monkeypatch.setattr(time, "time_ns", lambda: frozen)  # every id from the same millisecond
    specs = [{"file": "src/auth.py", "line_start": 1, "line_end": 2, "body": f"note {i}"} for i in range(3000)]
    threads = Service(workspace).add_many(specs)
    assert len({t.id for t in threads}) == 3000  # 6 digits per millisecond: ~4 clashes expected unchecked
