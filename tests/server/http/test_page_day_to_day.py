"""The web page as people use it day to day, in a real Chromium: many tabs on one stream, dark
mode, the keyboard, editor saves re-anchoring what is shown, orphans re-attached, edited and
deleted from the page, the file filter, the start page, the new-thread form's place."""

from __future__ import annotations

import re
import time

import httpx
from page_support import open_page, record, seed_call, thread_card, wait_visible, watched_page
from playwright.sync_api import expect


def add(site, file="src/auth.py", start=10, end=14, body="check", **extra) -> dict:
    return seed_call(site, "comment_add", {"file": file, "line_start": start, "line_end": end, "body": body,
                                           **extra})["thread"]


# -- tabs ----------------------------------------------------------------------------------------
def test_eight_tabs_all_load_and_stay_live_on_one_shared_stream(browser, site, workspace, limpet_cmd):
    import subprocess

    with watched_page(browser) as first:
        context = first.context
        tabs = [first] + [context.new_page() for _ in range(7)]
        for tab in tabs:
            open_page(tab, site, "#PLAN.md")  # the seventh and eighth load too
        roles = [tab.evaluate("() => document.body.dataset.stream") for tab in tabs]
        assert roles.count("leader") == 1 and roles.count("follower") == 7, roles
        assert httpx.get(f"{site}/api/info").json()["streams"] == 1  # one connection for eight tabs
        started = time.monotonic()
        subprocess.run([*limpet_cmd, "--workspace", str(workspace), "add", "PLAN.md:3", "Seen by every tab"],
                       check=True, capture_output=True)
        exited = time.monotonic()
        for tab in tabs:
            wait_visible(thread_card(tab, "Seen by every tab"), timeout=2.0)
        record("eight_tabs_cli_exit_to_all_visible_s", time.monotonic() - exited)
        record("eight_tabs_cli_start_to_all_visible_s", time.monotonic() - started)

        leader = tabs[roles.index("leader")]
        leader.close()  # the stream passes to another tab
        rest = [t for t in tabs if t is not leader]
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if [t.evaluate("() => document.body.dataset.stream") for t in rest].count("leader") == 1:
                break
            time.sleep(0.05)
        for tab in rest:
            expect(tab.locator("#live")).to_have_text("● live")
        add(site, file="PLAN.md", start=5, end=5, body="After the handover")
        for tab in rest:
            wait_visible(thread_card(tab, "After the handover"), timeout=2.0)
        assert httpx.get(f"{site}/api/info").json()["streams"] == 1


# -- dark mode -----------------------------------------------------------------------------------
def _background(page) -> str:
    return page.evaluate("() => getComputedStyle(document.body).backgroundColor")


def test_dark_mode_follows_the_system_and_the_toggle_and_is_remembered(browser, site):
    with watched_page(browser, color_scheme="dark") as page:
        open_page(page, site)
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        assert _background(page) == "rgb(13, 17, 23)"
        toggle = page.locator("#theme")
        expect(toggle).to_have_text("◐ Auto")
        toggle.click()
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
        expect(toggle).to_have_text("☀ Light")
        assert _background(page) == "rgb(251, 251, 250)"
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        expect(page.locator("html")).to_have_attribute("data-theme", "light")  # remembered
        toggle.click()
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        expect(toggle).to_have_text("☾ Dark")
    with watched_page(browser, color_scheme="light") as page:
        open_page(page, site, "#src%2Fauth.py")
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
        keyword = page.locator("#L10 .k").first
        light = keyword.evaluate("e => getComputedStyle(e).color")
        page.keyboard.press("t")  # auto → light
        page.keyboard.press("t")  # light → dark
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        assert keyword.evaluate("e => getComputedStyle(e).color") != light  # Pygments' dark style


# -- keyboard ------------------------------------------------------------------------------------
def test_keyboard_moves_between_threads_replies_resolves_and_escape_closes(page, site):
    first = add(site, start=4, end=4, body="First")
    add(site, start=10, end=14, body="Second")
    add(site, start=17, end=18, body="Third")
    open_page(page, site, "#src%2Fauth.py")
    page.locator("#source").focus()
    page.keyboard.press("j")
    expect(page.locator("article.thread.current")).to_contain_text("First")
    page.keyboard.press("j")
    page.keyboard.press("j")
    expect(page.locator("article.thread.current")).to_contain_text("Third")
    page.keyboard.press("k")
    expect(page.locator("article.thread.current")).to_contain_text("Second")
    page.keyboard.press("n")
    page.keyboard.press("p")
    current = page.locator("article.thread.current")
    expect(current).to_contain_text("Second")

    page.keyboard.press("r")
    reply = current.get_by_label("Reply")
    expect(reply).to_be_focused()
    page.keyboard.type("Typed j and k stay text")
    page.keyboard.press("Control+Enter")
    expect(current.locator(".comments li")).to_have_count(2)
    expect(current.locator(".comments li").nth(1)).to_contain_text("Typed j and k stay text")

    page.keyboard.press("Escape")  # leaves the field; the thread stays current
    page.keyboard.press("x")
    resolved = page.locator("article.thread.status-resolved")
    expect(resolved).to_contain_text("Second")
    assert seed_call(site, "comment_list", {"status": "resolved"})["threads"][0]["comments"][0]["body"] == "Second"

    page.locator("#L2 .ln").click()
    expect(page.locator("#add-form")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#add-form")).to_be_hidden()
    page.locator("#source").focus()
    page.keyboard.press("c")
    expect(page.locator("#add-body")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#add-form")).to_be_hidden()

    page.keyboard.press("?")
    expect(page.locator("#help")).to_be_visible()
    expect(page.locator("#help")).to_contain_text("next thread")
    page.keyboard.press("Escape")
    expect(page.locator("#help")).to_be_hidden()

    card = page.locator(f'article.thread[data-id="{first["id"]}"]')  # while edited, its text is in a field
    card.focus()
    page.keyboard.press("e")
    editor = card.get_by_role("textbox", name="Comment")
    expect(editor).to_be_focused()
    expect(editor).to_have_value("First")
    page.keyboard.press("Escape")  # out of the field
    page.keyboard.press("Escape")  # closes the edit form
    expect(card.get_by_role("textbox", name="Comment")).to_have_count(0)
    assert seed_call(site, "comment_show", {"thread_id": first["id"]})["thread"]["comments"][0]["body"] == "First"


def test_resolved_threads_start_collapsed_and_expand_on_o(page, site):
    t = add(site, body="Done already")
    seed_call(site, "comment_resolve", {"thread_id": t["id"], "decision": "Fixed"})
    open_page(page, site, "#src%2Fauth.py")
    card = thread_card(page, "Done already")
    expect(card).to_have_class(re.compile(r"\bcollapsed\b"))
    expect(card.get_by_role("button", name="Reopen")).to_have_count(0)
    page.locator("#source").focus()
    page.keyboard.press("j")
    page.keyboard.press("o")
    expect(card.get_by_role("button", name="Reopen")).to_be_visible()
    expect(card).to_contain_text("Decision (resolved) by")


# -- editor saves ----------------------------------------------------------------------------------
def test_an_editor_save_re_renders_the_open_file_with_re_anchored_threads(page, site, workspace):
    add(site, body="Follows its code")
    open_page(page, site, "#src%2Fauth.py")
    expect(page.locator('.threads-at[data-after="14"]')).to_contain_text("Follows its code")
    auth = workspace / "src/auth.py"
    auth.write_text("# one\n# two\n" + auth.read_text())  # saved by an editor, not through limpet
    took = wait_visible(page.locator('.threads-at[data-after="16"]', has_text="Follows its code"), timeout=2.0)
    record("editor_save_to_reanchored_card_s", took)
    expect(page.locator("#L1 .src")).to_have_text("# one")
    expect(page.locator("#L12 .src")).to_contain_text("def validate_token")
    expect(page.locator('.threads-at[data-after="14"]')).to_have_count(0)


# -- orphans ---------------------------------------------------------------------------------------
def _orphan(site, workspace) -> dict:
    t = add(site, start=17, end=18, body="Helper is unused")
    auth = workspace / "src/auth.py"
    auth.write_text(auth.read_text().replace("def helper(x):\n    return x * 2\n", ""))
    return t


def test_an_orphan_is_re_attached_from_the_page_to_the_selected_lines(page, site, workspace):
    t = _orphan(site, workspace)
    open_page(page, site, "#src%2Fauth.py")
    orphan = page.locator("#file-orphans article.thread")
    expect(orphan).to_contain_text("Helper is unused")
    form = orphan.locator("form.move")  # an orphan offers to be re-attached
    expect(form.get_by_label("lines")).to_have_value("")  # its last place (17-18) is past the file's end now
    page.locator("#L7 .ln").click()
    page.locator("#L8 .ln").click(modifiers=["Shift"])  # selecting lines fills the form
    page.keyboard.press("Escape")  # the new-thread form is not wanted
    orphan.get_by_role("button", name="Re-attach to code").click()
    expect(form.get_by_label("lines")).to_have_value("7")
    expect(form.get_by_label("to")).to_have_value("8")
    form.get_by_role("button", name="Re-attach").click()
    expect(page.locator('.threads-at[data-after="8"]')).to_contain_text("Helper is unused")
    expect(page.locator("#file-orphans")).to_be_hidden()
    moved = seed_call(site, "comment_show", {"thread_id": t["id"]})["thread"]
    assert (moved["line_start"], moved["line_end"], moved["health"]) == (7, 8, "anchored")
    assert moved["history"][-1]["event"] == "moved"
    expect(page.locator("#orphans-panel")).to_be_hidden()


def test_an_orphan_is_edited_and_deleted_from_the_page(page, site, workspace):
    t = _orphan(site, workspace)
    open_page(page, site, "#src%2Fauth.py")
    orphan = page.locator("#file-orphans article.thread")
    orphan.get_by_role("button", name="Edit the first comment").click()
    orphan.get_by_role("textbox", name="Comment").fill("Helper was **removed**")
    orphan.get_by_role("button", name="Save").click()
    expect(orphan.locator(".md strong")).to_have_text("removed")
    assert seed_call(site, "comment_show", {"thread_id": t["id"]})["thread"]["comments"][0]["body"] == \
        "Helper was **removed**"
    orphan.get_by_role("button", name="Delete thread").click()
    expect(orphan.get_by_role("alert")).to_contain_text("Delete this thread for good?")
    orphan.get_by_role("button", name="Keep").click()
    expect(orphan.get_by_role("alert")).to_have_count(0)
    orphan.get_by_role("button", name="Delete thread").click()
    orphan.get_by_role("alert").get_by_role("button", name="Delete").click()
    expect(page.locator("#file-orphans")).to_be_hidden()
    assert seed_call(site, "comment_list", {})["threads"] == []


def test_the_orphans_panel_sits_above_the_tree_and_opens_the_thread(page, site, workspace):
    t = _orphan(site, workspace)
    open_page(page, site)
    panel = page.locator("#orphans-panel")
    expect(panel).to_contain_text("Orphaned threads (1)")
    assert panel.bounding_box()["y"] < page.locator("#tree").bounding_box()["y"]
    panel.get_by_role("link").click()
    expect(page.locator(f'article.thread.current[data-id="{t["id"]}"]')).to_be_focused()


# -- the tree, the start page, the new-thread form -------------------------------------------------------
def test_the_file_filter_the_files_with_threads_view_and_the_open_file_revealed(page, site, workspace):
    (workspace / "pkg" / "deep").mkdir(parents=True)
    (workspace / "pkg" / "deep" / "mod.py").write_text("def f():\n    return 1\n")
    add(site, file="PLAN.md", start=1, end=1)
    open_page(page, site)
    deep = page.locator('details[data-dir="pkg/deep/"]')
    expect(deep).not_to_have_attribute("open", "")  # no threads inside: starts closed
    page.goto(f"{site}/#pkg%2Fdeep%2Fmod.py")
    link = page.locator('a.file[data-path="pkg/deep/mod.py"]')
    expect(link).to_have_attribute("aria-current", "page")
    expect(link).to_be_visible()  # its folders were opened
    page.locator("#source").focus()
    page.keyboard.press("/")
    expect(page.locator("#file-filter")).to_be_focused()
    page.keyboard.type("auth")
    expect(page.locator("#tree a.file")).to_have_count(1)
    expect(page.locator("#tree a.file")).to_have_attribute("data-path", "src/auth.py")
    page.keyboard.press("Enter")
    expect(page.locator("#file-title")).to_have_text("src/auth.py")
    page.locator("#file-filter").fill("")
    page.locator("#only-threads").check()
    expect(page.locator("#tree a.file")).to_have_count(1)
    expect(page.locator("#tree a.file")).to_have_attribute("data-path", "PLAN.md")
    expect(page.locator("#tree-count")).to_contain_text("1 with threads")


def test_the_start_page_summarises_and_links_to_threads(page, site):
    t = add(site, body="Check **expiry**", tag="TODO")
    add(site, file="PLAN.md", start=1, end=1, body="Plan is stale")
    open_page(page, site)
    home = page.locator("#home")
    expect(home.locator(".stat.open .value")).to_have_text("2")
    expect(home.locator(".top-files")).to_contain_text("src/auth.py")
    expect(home.locator(".recent-list")).to_contain_text("Check expiry")  # the title, as plain text
    home.locator("a.recent", has_text="Check expiry").click()
    expect(page.locator("#file-title")).to_have_text("src/auth.py")
    expect(page.locator(f'article.thread[data-id="{t["id"]}"]')).to_be_focused()
    page.keyboard.press("h")
    expect(page.locator("#home")).to_be_visible()


def test_the_new_thread_form_opens_under_the_selection_without_covering_threads(page, site):
    add(site, start=4, end=4, body="Class note")
    add(site, start=10, end=14, body="Method note")
    open_page(page, site, "#src%2Fauth.py")
    page.locator("#L7 .ln").click()
    page.locator("#L8 .ln").click(modifiers=["Shift"])
    form = page.locator("#add-form")
    expect(form).to_be_visible()
    assert form.evaluate("f => f.previousElementSibling.id") == "L8"
    assert form.evaluate("f => getComputedStyle(f).position") == "static"
    box = form.bounding_box()
    for card in page.locator("article.thread").all():
        other = card.bounding_box()
        assert other["y"] >= box["y"] + box["height"] or other["y"] + other["height"] <= box["y"]
    page.locator("#add-body").fill("Between the two")
    page.get_by_role("button", name="Add thread").click()
    expect(page.locator('.threads-at[data-after="8"]')).to_contain_text("Between the two")
    expect(form).to_be_hidden()
