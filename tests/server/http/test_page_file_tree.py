"""The page's file tree on a checkout bigger than one /api/files page: it pages in, then
follows the disk and other processes from the event stream (files created and deleted, a
thread added by the CLI) without loading the whole tree again."""

from __future__ import annotations

import subprocess

import httpx
import pytest
from page_support import open_page
from playwright.sync_api import expect

BULK = 2_500  # two and a half pages of /api/files (1,000 rows each)


@pytest.fixture
def workspace(workspace):
    for i in range(BULK):
        folder = workspace / "bulk" / f"d{i // 100:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{i:04d}.py").write_text(f"value_{i} = {i}\n")
    return workspace


def _link(page, path):
    return page.locator(f'#tree a.file[data-path="{path}"]')


def test_the_tree_pages_in_and_follows_the_disk_and_other_processes(page, site, workspace, limpet_cmd):
    files_requests: list[str] = []
    page.on("request", lambda r: files_requests.append(r.url) if "/api/files" in r.url else None)
    open_page(page, site)
    total = httpx.get(f"{site}/api/files", params={"limit": 1}).json()["total"]
    assert total > 2 * 1000
    expect(page.locator("#tree-count")).to_contain_text(f"of {total} files", timeout=20_000)
    expect(_link(page, "bulk/d24/f2499.py")).to_have_count(1)  # the last page arrived
    pages = [u for u in files_requests if "path=" not in u and "threaded=" not in u]
    assert len(pages) >= 3 and any("cursor=" in u for u in pages), pages
    files_requests.clear()

    (workspace / "bulk" / "d00" / "made_on_disk.py").write_text("x = 1\n")  # an editor creates a file
    expect(_link(page, "bulk/d00/made_on_disk.py")).to_have_count(1, timeout=10_000)
    expect(page.locator("#tree-count")).to_contain_text(f"of {total + 1} files")

    (workspace / "bulk" / "d01" / "f0100.py").unlink()  # ... and deletes another
    expect(_link(page, "bulk/d01/f0100.py")).to_have_count(0, timeout=10_000)
    expect(page.locator("#tree-count")).to_contain_text(f"of {total} files")

    cli = subprocess.run([*limpet_cmd, "--workspace", str(workspace), "add", "bulk/d07/f0777.py:1",
                          "From another process"], capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0, cli.stderr
    expect(_link(page, "bulk/d07/f0777.py").locator(".count")).to_have_text("1", timeout=10_000)
    expect(page.locator("#tree-count")).to_contain_text("1 with threads")

    # Patched from the events: never the whole tree again (a first page without a cursor).
    assert not [u for u in files_requests if "path=" not in u and "threaded=" not in u], files_requests
