"""Re-anchoring results are written behind (derived data), never over newer writes."""

from __future__ import annotations

import json
import subprocess
import time

import anyio
import pytest
from support import call, stdio_session

from limpet.server.core import Service


def _on_disk(workspace, tid):
    return json.loads((workspace / ".limpet" / "threads" / f"{tid}.json").read_text())


def _shift(workspace, rel="src/auth.py", lines=2):
    path = workspace / rel
    path.write_text("# added\n" * lines + path.read_text())


def test_reconcile_is_visible_at_once_and_written_on_flush(service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    report = service.reconcile()
    assert [c.id for c in report.changed] == [t.id]
    assert service.get(t.id).anchor.line_start == 12  # this process sees the new position now
    assert _on_disk(workspace, t.id)["anchor"]["line_start"] == 10  # ... the disk later
    assert service.flush() == 1
    assert _on_disk(workspace, t.id)["anchor"]["line_start"] == 12
    assert service.flush() == 0


def test_a_real_write_carries_the_staged_position(service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    service.reconcile()
    service.reply(t.id, "y")
    record = _on_disk(workspace, t.id)
    assert record["anchor"]["line_start"] == 12 and len(record["comments"]) == 2
    assert service.flush() == 0


def test_flush_never_overwrites_a_newer_move_by_another_process(service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    service.reconcile()
    other = Service(workspace)
    other.move(t.id, "PLAN.md", 1)
    other.reply(t.id, "moved by hand")
    assert service.flush() == 0  # its origin is no longer on disk: dropped
    record = _on_disk(workspace, t.id)
    assert record["anchor"]["file"] == "PLAN.md" and len(record["comments"]) == 2


def test_flush_keeps_replies_made_elsewhere_meanwhile(service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    service.reconcile()
    Service(workspace).reply(t.id, "from another process")  # that process re-anchors on its own
    service.flush()
    record = _on_disk(workspace, t.id)
    assert record["anchor"]["line_start"] == 12
    assert [c["body"] for c in record["comments"]] == ["x", "from another process"]


def test_cli_reconcile_writes_before_it_exits(limpet_cmd, service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    subprocess.run([*limpet_cmd, "reconcile"], cwd=workspace, check=True, capture_output=True)
    assert _on_disk(workspace, t.id)["anchor"]["line_start"] == 12


@pytest.mark.anyio
async def test_server_writes_staged_positions_when_idle(service, workspace):
    t = service.add("src/auth.py", 10, 14, "x")
    _shift(workspace)
    async with stdio_session(workspace) as s:
        _, data, _ = await call(s, "comment_reconcile", {})
        assert data["counts"]["anchored"] == 1
        deadline = time.monotonic() + 10
        while _on_disk(workspace, t.id)["anchor"]["line_start"] != 12 and time.monotonic() < deadline:
            await anyio.sleep(0.1)
    assert _on_disk(workspace, t.id)["anchor"]["line_start"] == 12


def test_staged_moves_keep_the_thread_order(service, workspace):
    # Staging re-sorts only the files it touched; the order must equal a full sort.
    helper = service.add("src/auth.py", 17, 18, "helper")
    validate = service.add("src/auth.py", 10, 14, "validate")
    plan = service.add("PLAN.md", 1, 1, "plan")
    path = workspace / "src/auth.py"
    source = path.read_text()
    block = "def helper(x):\n    return x * 2\n"
    path.write_text(block + "\n\n" + source.replace(block, ""))  # helper moves above the class
    service.reconcile()

    def key(t):
        return (t.anchor.file, t.anchor.line_start, t.id)

    threads = service.threads()
    assert [t.id for t in threads] == [t.id for t in sorted(threads, key=key)] == [plan.id, helper.id, validate.id]
    assert [t.id for t in service._store.by_file()["src/auth.py"]] == [helper.id, validate.id]
    service.flush()
    assert [t.id for t in Service(workspace).threads()] == [plan.id, helper.id, validate.id]
