"""Helpers for the web page's browser tests (Playwright in Debian's Chromium).

Never skipped: `launch_chromium` installs Debian's chromium when it is missing (CI runs as root).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
from playwright.sync_api import expect

# Assertions wait until the page shows what they expect. Playwright's 5 s default is short for
# a CI machine under load (two cores, a browser and servers); the latency claims are measured
# apart, with their own limits (wait_visible), so a longer wait here hides no slowness.
expect.set_options(timeout=20_000)

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ROOT = Path(__file__).resolve().parents[1]
# Test artifacts (git-ignored); LIMPET_UPDATE_DOCS=1 also refreshes the README's copies in docs/.
ARTIFACTS = ROOT / "test-artifacts"
DOCS = ROOT / "docs"
# Figures the tests measure (latencies): written next to the screenshots for the record.
FIGURES = ARTIFACTS / "page-figures.json"


def _install_chromium() -> None:
    env = {"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
    apt = shutil.which("apt-get") or "apt-get"
    if subprocess.run([apt, "install", "-y", "chromium"], env=env, capture_output=True).returncode != 0:
        subprocess.run([apt, "update"], env=env, check=True, capture_output=True)
        subprocess.run([apt, "install", "-y", "chromium"], env=env, check=True, capture_output=True)


@contextlib.contextmanager
def launch_chromium() -> Iterator[Any]:
    """One Chromium, stopped when the block ends.

    Use it at module scope, not session: while Playwright's sync API is open it keeps its own
    asyncio loop marked as the main thread's running loop between calls, so any later async
    test in this process would fail with "Cannot run the event loop while another loop is
    running". Leaving the `with` block stops the dispatcher and clears it; the assertion makes
    a regression loud here rather than in another module."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        _install_chromium()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()
    assert asyncio._get_running_loop() is None, "Playwright left its event loop running in the main thread"


@contextlib.contextmanager
def watched_page(browser: Any, **context: Any) -> Iterator[Any]:
    """A page in a fresh context; fails the test on any script error or console error (a CSP
    violation, a failed request the page did not expect)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 860}, **context)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    page.errors = errors
    yield page
    ctx.close()
    assert not errors, errors


def open_page(page: Any, site: str, hash_: str = "") -> None:

    page.goto(f"{site}/{hash_}")
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#live")).to_have_text("● live")


def seed_call(site: str, tool: str, args: dict) -> dict:
    reply = httpx.post(f"{site}/mcp/{tool}", json=args).json()
    assert reply["error"] is None, reply
    return json.loads(reply["status"])


def mcp_call(site: str, tool: str, args: dict) -> dict:
    """One tool call with the official MCP client over Streamable HTTP (an agent, elsewhere)."""
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    out: dict = {}

    async def main():
        async with streamable_http_client(f"{site}/mcp") as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            out["result"] = await s.call_tool(tool, args)

    worker = threading.Thread(target=anyio.run, args=(main,))  # Playwright's sync API owns this thread
    worker.start()
    worker.join(30)
    result = out["result"]
    assert not result.is_error, result
    return result.structured_content


def thread_card(page: Any, text: str) -> Any:
    return page.locator("article.thread", has_text=text)


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    if os.environ.get("LIMPET_UPDATE_DOCS") == "1":
        shutil.copyfile(path, DOCS / name)
    return path


def record(name: str, value: float) -> None:
    """Keep a measured figure (seconds) in test-artifacts/page-figures.json."""
    ARTIFACTS.mkdir(exist_ok=True)
    figures = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    figures[name] = round(value, 3)
    FIGURES.write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n")


def wait_visible(locator: Any, timeout: float) -> float:
    """Seconds until `locator` is visible (fails after `timeout` seconds)."""

    start = time.monotonic()
    expect(locator).to_be_visible(timeout=timeout * 1000)
    return time.monotonic() - start
