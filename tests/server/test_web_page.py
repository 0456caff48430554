"""The web page in a real Chromium (Playwright): load, navigate, add, reply, resolve, reopen, filters,
live updates from an MCP call, review references, selection → get_selection, drift and orphans.

Never skipped: the fixture installs Debian's chromium when it is missing (CI runs as root)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

import anyio
import httpx
import pytest
from playwright.sync_api import expect, sync_playwright
from support import http_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ROOT = Path(__file__).resolve().parents[2]
# The test artifact (git-ignored); LIMPET_UPDATE_DOCS=1 also refreshes the README's copy.
SCREENSHOT = ROOT / "test-artifacts" / "screenshot.png"
DOCS_SCREENSHOT = ROOT / "docs" / "screenshot.png"


def _install_chromium() -> None:
    env = {"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
    apt = shutil.which("apt-get") or "apt-get"
    if subprocess.run([apt, "install", "-y", "chromium"], env=env, capture_output=True).returncode != 0:
        subprocess.run([apt, "update"], env=env, check=True, capture_output=True)
        subprocess.run([apt, "install", "-y", "chromium"], env=env, check=True, capture_output=True)


@pytest.fixture(scope="module")
def browser():
    """One Chromium for this module, stopped when the module's tests are done.

    Module scope, not session: while Playwright's sync API is open it keeps its own asyncio
    loop marked as the main thread's running loop between calls (playwright/_impl/_greenlets.py,
    wait_for_future), so any later async test in this process (the anyio plugin runs them on an
    asyncio.Runner in the main thread) would fail with "Cannot run the event loop while another
    loop is running" / "Runner is closed". Leaving the `with` block stops the dispatcher and
    clears it; the assertion makes a regression loud here rather than in another module."""
    if not Path(CHROMIUM).exists():
        _install_chromium()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()
    assert asyncio._get_running_loop() is None, "Playwright left its event loop running in the main thread"


@pytest.fixture
def site(workspace):
    with http_server(workspace) as base:
        yield base


@pytest.fixture
def page(browser, site):
    context = browser.new_context(viewport={"width": 1400, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def open_page(page, site, hash_=""):
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


def thread_card(page, text):
    return page.locator("article.thread", has_text=text)


def test_load_shows_the_tree_with_thread_counts(page, site):
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14, "body": "Expiry?"})
    open_page(page, site)
    button = page.locator('button.file[data-path="src/auth.py"]')
    expect(button).to_be_visible()
    expect(button.locator(".count")).to_have_text("1")
    expect(page.locator('button.file[data-path="PLAN.md"]')).to_be_visible()


def test_navigate_to_a_file_shows_code_and_threads_beside_their_lines(page, site):
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14, "body": "Expiry?"})
    open_page(page, site)
    page.locator('button.file[data-path="src/auth.py"]').click()
    expect(page.locator("#file-title")).to_have_text("src/auth.py")
    expect(page.locator("#L10 .src")).to_have_text("    def validate_token(self, token):")
    expect(page.locator("#L10 .tok-keyword").first).to_have_text("def")
    expect(page.locator('.threads-at[data-after="14"] article.thread')).to_contain_text("Expiry?")
    assert "#src%2Fauth.py" in page.url


def test_add_a_thread_by_selecting_lines_then_reply_resolve_and_reopen(page, site):
    open_page(page, site, "#src%2Fauth.py")
    page.locator("#L10 .ln").click()
    page.locator("#L14 .ln").click(modifiers=["Shift"])
    expect(page.locator("#add-where")).to_have_text("src/auth.py, lines 10–14")
    page.locator("#add-tag").select_option("TODO")
    page.locator("#add-body").fill("Handle expired tokens")
    page.get_by_role("button", name="Add thread").click()
    card = thread_card(page, "Handle expired tokens")
    expect(card).to_be_visible()
    expect(card).to_contain_text("AuthService.validate_token")
    (thread,) = seed_call(site, "comment_list", {"file": "src/auth.py"})["threads"]
    assert (thread["line_start"], thread["line_end"], thread["tag"], thread["author_type"]) == (10, 14, "TODO", "human")

    card.get_by_label("Reply").fill("Agreed, will fix")
    card.get_by_role("button", name="Reply").click()
    expect(card.locator(".comments li")).to_have_count(2)

    card.get_by_label("Decision").fill("Check exp claim")
    card.get_by_role("button", name="Resolve").click()
    expect(page.locator("article.thread.status-resolved")).to_contain_text("Decision (resolved)")
    assert seed_call(site, "comment_show", {"thread_id": thread["id"]})["thread"]["decision"]["summary"] == "Check exp claim"

    page.locator("article.thread.status-resolved").get_by_role("button", name="Reopen").click()
    expect(page.locator("article.thread.status-open")).to_contain_text("Check exp claim")  # decision kept


def test_filters_by_tag_status_and_author(page, site):
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 7, "line_end": 8, "body": "a note", "tag": "NOTE"})
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 17, "line_end": 18, "body": "a fixme",
                                    "tag": "FIXME", "author": "bob"})
    open_page(page, site, "#src%2Fauth.py")
    expect(page.locator("article.thread")).to_have_count(2)
    page.locator("#filter-tag").select_option("FIXME")
    expect(page.locator("article.thread")).to_have_count(1)
    expect(page.locator("article.thread")).to_contain_text("a fixme")
    page.locator("#filter-tag").select_option("")
    page.locator("#filter-author").fill("bob")
    expect(page.locator("article.thread")).to_have_count(1)
    page.locator("#filter-author").fill("")
    page.locator("#filter-status").select_option("resolved")
    expect(page.locator("article.thread")).to_have_count(0)


def test_a_thread_added_by_an_agent_over_mcp_appears_without_reload(page, site):
    open_page(page, site, "#src%2Fauth.py")
    expect(page.locator("article.thread")).to_have_count(0)
    mcp_call(site, "comment_add", {"file": "src/auth.py", "line_start": 17, "line_end": 18, "body": "Agent says hi"})
    expect(thread_card(page, "Agent says hi")).to_be_visible(timeout=10_000)
    expect(page.locator('button.file[data-path="src/auth.py"] .count')).to_have_text("1")


def test_a_change_by_another_process_appears_without_reload(page, site, workspace, limpet_cmd):
    open_page(page, site, "#PLAN.md")
    subprocess.run([*limpet_cmd, "--workspace", str(workspace), "add", "PLAN.md:1", "From the CLI"], check=True,
                   capture_output=True)
    expect(thread_card(page, "From the CLI")).to_be_visible(timeout=10_000)


def test_review_references_navigate_to_the_current_code(page, site, workspace):
    mcp_call(site, "present_review", {"content": "# Review\n\nToken check in [`src/auth.py:10`][].", "baseUri": "."})
    auth = workspace / "src/auth.py"
    auth.write_text("# header\n# header\n" + auth.read_text())  # the reference now points at line 12
    open_page(page, site)
    ref = page.locator("#review button.ref")
    expect(ref).to_contain_text("src/auth.py:10")
    expect(ref).to_contain_text("→ src/auth.py:12")
    ref.click()
    expect(page.locator("#file-title")).to_have_text("src/auth.py")
    expect(page.locator("#L12")).to_be_focused()
    expect(page.locator("#L12 .src")).to_contain_text("def validate_token")


def test_review_updates_live_and_orphaned_references_are_marked(page, site):
    open_page(page, site)
    mcp_call(site, "present_review", {"content": "Gone: [`src/nope.py:3`][]", "baseUri": "."})
    expect(page.locator("#review button.ref.health-orphaned")).to_have_text("src/nope.py:3", timeout=10_000)


def test_selecting_text_in_the_page_is_what_get_selection_returns(page, site):
    open_page(page, site, "#src%2Fauth.py")
    assert mcp_call(site, "get_selection", {}) == {"selection": None}
    start = page.locator("#L10 .src").bounding_box()
    end = page.locator("#L11 .src").bounding_box()
    page.mouse.move(start["x"] + 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] - 2, end["y"] + end["height"] / 2, steps=5)
    page.mouse.up()
    expect(page.locator("#add-where")).to_have_text("src/auth.py, lines 10–11")
    expected = {"file": "src/auth.py", "line_start": 10, "line_end": 11}
    for _ in range(50):
        sel = mcp_call(site, "get_selection", {})["selection"]
        if sel and all(sel[k] == v for k, v in expected.items()):
            break
        page.wait_for_timeout(100)
    assert sel["text"].startswith("    def validate_token(self, token):\n") and "if not token:" in sel["text"]
    page.locator("#L1 .src").click()  # collapses the selection
    page.wait_for_function("() => window.getSelection().isCollapsed")
    for _ in range(50):
        if mcp_call(site, "get_selection", {})["selection"] is None:
            break
        page.wait_for_timeout(100)
    assert mcp_call(site, "get_selection", {})["selection"] is None


def test_drifted_and_orphaned_threads_look_different_and_orphans_are_listed(page, site, workspace):
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14, "body": "Drifts"})
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 17, "line_end": 18, "body": "Goes away"})
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 4, "line_end": 4, "body": "Stays"})
    seed_call(site, "present_review", {"content": "# Review of auth\n\n## Findings\n\n- Expiry is not checked in "
                                       "[`src/auth.py:10`][]\n- `helper` is unused: [`src/auth.py:17`][]\n",
                                       "baseUri": "."})
    auth = workspace / "src/auth.py"
    auth.write_text(auth.read_text().replace("if not token:", "if not token or token.expired:")
                    .replace("def helper(x):\n    return x * 2\n", ""))
    open_page(page, site, "#src%2Fauth.py")
    expect(page.locator("article.thread.health-drifted")).to_contain_text("Drifts")
    expect(page.locator("article.thread.health-drifted")).to_contain_text("drifted")
    expect(page.locator("#file-orphans article.thread.health-orphaned")).to_contain_text("Goes away")
    expect(page.locator("#orphans")).to_contain_text("src/auth.py:17")
    expect(page.locator("article.thread.health-anchored")).to_contain_text("Stays")
    expect(page.locator("#review button.ref.health-orphaned")).to_have_count(1)
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 10_000
    if os.environ.get("LIMPET_UPDATE_DOCS") == "1":
        shutil.copyfile(SCREENSHOT, DOCS_SCREENSHOT)


def test_the_page_is_keyboard_usable(page, site):
    open_page(page, site)
    page.locator('button.file[data-path="PLAN.md"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#file-title")).to_have_text("PLAN.md")
    page.locator("#new-thread").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#add-start")).to_be_focused()
    page.keyboard.type("3")
    page.keyboard.press("Tab")
    page.keyboard.type("3")
    page.locator("#add-body").focus()
    page.keyboard.type("Typed without a mouse")
    page.locator("#add-form button[type=submit]").focus()
    page.keyboard.press("Enter")
    card = thread_card(page, "Typed without a mouse")
    expect(card).to_be_visible()
    expect(card).to_contain_text("line 3")
    for control in ("#filter-status", "#filter-tag", "#filter-author", "#me"):
        assert page.locator(control).evaluate("e => !!e.labels && e.labels.length > 0"), control
