"""The web page in a real Chromium, second round for people (issue 38): the Review panel folds
while there is no review, long code lines wrap between identifiers, the code a thread was
written against is shown whole, an orphan's re-attach form never offers lines past its file's
end, identifiers like `__init__` stay as written, short ids on the cards, and edits, moves and
deletes credited to the person at the page."""

from __future__ import annotations

import json

from page_support import mcp_call, open_page, screenshot, seed_call, thread_card
from playwright.sync_api import expect


def _review_width(page) -> float:
    return page.evaluate("() => document.querySelector('aside.review').getBoundingClientRect().width")


def test_the_review_panel_folds_while_there_is_no_review(page, site):
    open_page(page, site, "#src%2Fauth.py")
    expect(page.locator(".layout.no-review")).to_have_count(1)
    assert _review_width(page) < 50
    expect(page.locator("#review-title")).to_be_visible()
    mcp_call(site, "present_review", {"content": "# Review\n\nToken check in [`src/auth.py:10`][].", "baseUri": "."})
    expect(page.locator(".layout.no-review")).to_have_count(0, timeout=10_000)
    expect(page.locator("#review")).to_contain_text("Token check")
    assert _review_width(page) > 200


def test_long_code_lines_wrap_between_identifiers_never_inside_one(page, site, workspace):
    words = " + ".join(f"some_long_identifier_{i:02d}" for i in range(30))
    (workspace / "src" / "long.py").write_text(f"total = {words}\n")
    open_page(page, site, "#src%2Flong.py")
    row = page.locator(".row").first
    expect(row).to_contain_text("some_long_identifier_29")
    cut = page.evaluate("""() => {
        const src = document.querySelector('.row .src');
        const text = src.textContent;
        const node = document.createTreeWalker(src, NodeFilter.SHOW_TEXT);
        let broken = [], lines = new Set();
        for (let n = node.nextNode(); n; n = node.nextNode()) {
          for (const m of n.textContent.matchAll(/some_long_identifier_\\d\\d/g)) {
            const r = document.createRange();
            r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
            const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
            tops.forEach((t) => lines.add(t));
            if (tops.size > 1) broken.push(m[0]);
          }
        }
        return {broken, lines: lines.size, width: src.scrollWidth - src.clientWidth};
    }""")
    assert cut["broken"] == [] and cut["lines"] > 1 and cut["width"] <= 0, cut  # wrapped, nothing cut


def test_the_written_against_snippet_is_shown_whole(page, site, workspace):
    body = "".join(f"    value_{i} = compute_something_rather_long(argument_{i}, other_argument_{i})\n"
                   for i in range(30))
    (workspace / "src" / "big.py").write_text(f"def big():\n{body}    return 0\n")
    seed_call(site, "comment_add", {"file": "src/big.py", "line_start": 1, "line_end": 32, "body": "Too big"})
    (workspace / "src" / "big.py").write_text(f"def big():\n{body.replace('value_7 ', 'renamed_7 ')}    return 0\n")
    open_page(page, site, "#src%2Fbig.py")
    snippet = thread_card(page, "Too big").locator("pre.snippet")
    expect(snippet.locator(".snip-row")).to_have_count(32)
    clipped = snippet.evaluate("(p) => ({v: p.scrollHeight - p.clientHeight, h: p.scrollWidth - p.clientWidth})")
    assert clipped == {"v": 0, "h": 0}, clipped


def test_an_orphans_reattach_form_never_offers_lines_past_its_files_end(page, site, workspace):
    t = seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 17, "line_end": 18, "body": "Orphan"})
    (workspace / "src" / "auth.py").write_text("import hashlib\n")
    open_page(page, site, "#src%2Fauth.py")
    card = page.locator(f"article.thread[data-id='{t['thread']['id']}']")
    expect(card).to_have_class(__import__("re").compile("health-orphaned"))
    form = card.locator("form.move")
    for key in ("move-start", "move-end"):
        expect(form.locator(f"[data-key$=':{key}']")).to_have_value("")
    page.locator(".row").first.locator(".ln").click()  # a selection fills them in
    expect(form.locator("[data-key$=':move-start']")).to_have_value("1")


def test_dunders_and_identifiers_render_as_written_and_cards_show_short_ids(page, site):
    made = seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 7, "line_end": 8,
                                           "body": "FileField.__init__ calls _setup_ and __all__ is *stale*"})
    open_page(page, site, "#src%2Fauth.py")
    card = thread_card(page, "FileField.__init__")
    expect(card.locator(".md p").first).to_have_text("FileField.__init__ calls _setup_ and __all__ is stale")
    expect(card.locator(".md strong")).to_have_count(0)
    expect(card.locator(".md em")).to_have_text("stale")
    short = card.locator("code.short-id")
    expect(short).to_have_text(made["thread"]["id"][-6:])


def test_edits_moves_and_deletes_from_the_page_are_credited_to_the_person(page, site, workspace):
    made = seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14, "body": "Mine",
                                           "author": "someone", "author_type": "human"})
    tid = made["thread"]["id"]
    open_page(page, site, "#src%2Fauth.py")
    page.locator("#me").fill("carol")
    page.locator("#me").dispatch_event("change")
    card = page.locator(f"article.thread[data-id='{tid}']")
    card.get_by_role("button", name="Edit").click()
    card.locator("form.edit textarea").fill("Mine, edited")
    card.locator("form.edit").get_by_role("button", name="Save").click()
    expect(card).to_contain_text("Mine, edited")
    history = seed_call(site, "comment_show", {"thread_id": tid})["thread"]["history"]
    assert (history[-1]["event"], history[-1]["by"]) == ("edited", "carol")
    card.get_by_role("button", name="Delete").click()
    card.locator(".confirm").get_by_role("button", name="Delete").click()
    expect(card).to_have_count(0)
    path = workspace / ".limpet" / "threads" / f"{tid}.jsonl"
    assert [(e["event"], e["by"]) for e in map(json.loads, path.read_text().splitlines())] == [("deleted", "carol")]
    screenshot(page, "people-after-delete.png")


def test_the_page_takes_a_short_id_in_its_address(page, site):
    made = [seed_call(site, "comment_add", {"file": "src/auth.py", "line_start": 17 - i, "line_end": 17 - i,
                                            "body": f"thread {i}"})["thread"] for i in range(3)]
    short = seed_call(site, "comment_list", {})  # the ids as the wire has them: full
    assert {t["id"] for t in short["threads"]} == {t["id"] for t in made}
    target = made[1]
    open_page(page, site, f"#{target['id'][-6:]}")
    expect(page).to_have_url(__import__("re").compile(r"#src%2Fauth\.py:16$"))
    card = page.locator(f"article.thread[data-id='{target['id']}']")
    expect(card).to_be_visible()
    expect(card.locator("code.short-id")).to_have_text(target["id"][-6:])
