"""The web page in a real Chromium (Playwright): load, navigate, add, reply, resolve, reopen, filters,
live updates from an MCP call and another process, review references, selection → get_selection,
drift and orphans, rendered markdown, the light and dark screenshots for the README.

More (tabs, keyboard, dark mode, editor saves, orphans): test_page_day_to_day.py."""

from __future__ import annotations

import re
import subprocess
import time

from page_support import (
    mcp_call,
    open_page,
    record,
    screenshot,
    seed_call,
    thread_card,
    wait_visible,
    watched_page,
)
from playwright.sync_api import expect


def test_load_shows_the_tree_with_thread_counts(page, site):
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14, "body": "Expiry?"})
    open_page(page, site)
    button = page.locator('a.file[data-path="src/auth.py"]')
    expect(button).to_be_visible()
    expect(button.locator(".count")).to_have_text("1")
    expect(page.locator('a.file[data-path="PLAN.md"]')).to_be_visible()


def test_navigate_to_a_file_shows_code_and_threads_beside_their_lines(page, site):
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14, "body": "Expiry?"})
    open_page(page, site)
    page.locator('a.file[data-path="src/auth.py"]').click()
    expect(page.locator("#file-title")).to_have_text("src/auth.py")
    expect(page.locator("#L10 .src")).to_have_text("    def validate_token(self, token):")
    expect(page.locator("#L10 .k").first).to_have_text("def")  # Pygments, on the server
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
    resolved = page.locator("article.thread.status-resolved")
    expect(resolved).to_have_class(re.compile(r"\bcollapsed\b"))
    expect(resolved).to_contain_text("✓ Check exp claim")  # collapsed: the decision in one line
    expect(resolved.locator(".comments")).to_have_count(0)
    resolved.get_by_role("button", name="Expand thread").click()
    expect(resolved).to_contain_text("Decision (resolved)")
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
    expect(page.locator('a.file[data-path="src/auth.py"] .count')).to_have_text("1")


def test_a_change_by_another_process_appears_within_two_seconds(page, site, workspace, limpet_cmd):
    open_page(page, site, "#PLAN.md")
    threads = workspace / ".limpet" / "threads"
    before = set(threads.iterdir()) if threads.exists() else set()
    started = time.monotonic()  # a real second process
    cli = subprocess.Popen([*limpet_cmd, "--workspace", str(workspace), "add", "PLAN.md:1", "From the CLI"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not (threads.exists() and set(threads.iterdir()) - before):  # the moment its thread is on disk
        assert cli.poll() in (None, 0) and time.monotonic() - started < 60
        time.sleep(0.005)
    written = time.monotonic()
    wait_visible(thread_card(page, "From the CLI"), timeout=2.0)
    visible = time.monotonic()
    assert cli.wait(60) == 0
    record("cli_thread_written_to_card_visible_s", visible - written)
    record("cli_process_start_to_card_visible_s", visible - started)
    expect(page.locator('a.file[data-path="PLAN.md"] .count')).to_have_text("1")


def test_review_references_navigate_to_the_current_code(page, site, workspace):
    mcp_call(site, "present_review", {"content": "# Review\n\nToken check in [`src/auth.py:10`][].", "baseUri": "."})
    auth = workspace / "src/auth.py"
    auth.write_text("# header\n# header\n" + auth.read_text())  # the reference now points at line 12
    open_page(page, site)
    ref = page.locator("#review a.ref")
    expect(ref).to_contain_text("src/auth.py:10")
    expect(ref).to_contain_text("→ src/auth.py:12")
    ref.click()
    expect(page.locator("#file-title")).to_have_text("src/auth.py")
    expect(page.locator("#L12")).to_be_focused()
    expect(page.locator("#L12 .src")).to_contain_text("def validate_token")


def test_review_updates_live_and_orphaned_references_are_marked(page, site):
    open_page(page, site)
    mcp_call(site, "present_review", {"content": "Gone: [`src/nope.py:3`][]", "baseUri": "."})
    expect(page.locator("#review a.ref.health-orphaned")).to_have_text("src/nope.py:3", timeout=10_000)


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


def _drifted_and_orphaned(site, workspace):
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14, "tag": "TODO",
                                    "body": "Check **expiry** as well:\n\n- the `exp` claim\n- clock skew"})
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 17, "line_end": 18, "body": "Goes away",
                                    "tag": "QUESTION"})
    seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 4, "line_end": 4, "body": "Stays",
                                    "tag": "STAR"})
    done = seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 7, "line_end": 8, "tag": "FIXME",
                                           "body": "Keep only a hash of the secret"})
    seed_call(site, "comment_resolve", {"thread_id": done["thread"]["id"], "decision": "Hashed in the constructor"})
    seed_call(site, "present_review", {"content": "# Review of auth\n\n## Findings\n\n- Expiry is not checked in "
                                       "[`src/auth.py:10`][]\n- `helper` is unused: [`src/auth.py:17`][]\n",
                                       "baseUri": "."})
    auth = workspace / "src/auth.py"
    auth.write_text(auth.read_text().replace("if not token:", "if not token or token.expired:")
                    .replace("def helper(x):\n    return x * 2\n", ""))


def test_drifted_and_orphaned_threads_look_different_and_show_their_original_code(page, site, workspace):
    _drifted_and_orphaned(site, workspace)
    open_page(page, site, "#src%2Fauth.py")
    drifted = page.locator("article.thread.health-drifted")
    expect(drifted).to_contain_text("drifted")
    expect(drifted.locator(".md strong")).to_have_text("expiry")  # markdown, rendered
    expect(drifted.locator(".md li")).to_have_count(2)
    expect(drifted.locator(".written-against")).to_contain_text("Written against src/auth.py:10–14")
    expect(drifted.locator(".written-against .snip-row").nth(1)).to_contain_text("if not token:")
    orphan = page.locator("#file-orphans article.thread.health-orphaned")
    expect(orphan).to_contain_text("Goes away")
    expect(orphan.locator(".written-against")).to_contain_text("def helper(x):")
    expect(page.locator("#orphans")).to_contain_text("src/auth.py:17")
    expect(page.locator("article.thread.health-anchored.status-open")).to_contain_text("Stays")
    expect(page.locator("#review a.ref.health-orphaned")).to_have_count(1)
    screenshot(page, "screenshot.png")


def test_dark_screenshot(browser, site, workspace):
    _drifted_and_orphaned(site, workspace)
    with watched_page(browser, color_scheme="dark") as page:
        open_page(page, site, "#src%2Fauth.py")
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        expect(page.locator("article.thread.health-drifted")).to_be_visible()
        screenshot(page, "screenshot-dark.png")


def test_comment_bodies_render_markdown_and_never_markup(page, site):
    seed_call(site, "comment_add", {"file": "PLAN.md", "line_start": 1, "line_end": 1,
                                    "body": "**bold** *em* [docs](https://example.org) <script>window.pwned=1</script>"
                                            "\n\n1. one\n2. two\n\n```python\ndef f(): pass\n```"})
    open_page(page, site, "#PLAN.md")
    body = page.locator("article.thread .md").first
    expect(body.locator("strong")).to_have_text("bold")
    expect(body.locator("em")).to_have_text("em")
    expect(body.locator("ol li")).to_have_count(2)
    expect(body.locator("a")).to_have_attribute("rel", "noopener noreferrer")
    expect(body.locator("pre .k").first).to_have_text("def")
    expect(body).to_contain_text("<script>window.pwned=1</script>")  # shown as text
    assert page.evaluate("() => window.pwned") is None


def test_the_page_is_keyboard_usable(page, site):
    open_page(page, site)
    page.locator('a.file[data-path="PLAN.md"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#file-title")).to_have_text("PLAN.md")
    page.locator("#new-thread").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#add-body")).to_be_focused()
    page.locator("#add-start").fill("3")
    page.locator("#add-end").fill("3")
    page.locator("#add-body").focus()
    page.keyboard.type("Typed without a mouse")
    page.locator("#add-form button[type=submit]").focus()
    page.keyboard.press("Enter")
    card = thread_card(page, "Typed without a mouse")
    expect(card).to_be_visible()
    expect(card).to_contain_text("line 3")
    for control in ("#filter-status", "#filter-tag", "#filter-author", "#me"):
        assert page.locator(control).evaluate("e => !!e.labels && e.labels.length > 0"), control
