"""The page's rendered views (/api/view, /api/summary, the review's HTML) and what its live
events say; markdown is rendered by markdown-it-py and code by Pygments, safely."""

from __future__ import annotations

import json
import threading
import time

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import api_post, http_server

from limpet.server.http._render import (
    highlight_css,
    highlight_lines,
    markdown_html,
    markdown_text,
    review_html,
)


@pytest.fixture
def base(workspace):
    with http_server(workspace) as url:
        yield url


def add(base, file="src/auth.py", start=10, end=14, body="check", **extra) -> dict:
    reply = api_post(base, "/api/ops/comment_add", {"file": file, "line_start": start, "line_end": end,
                                                   "body": body, **extra})
    assert reply.status_code == 200, reply.text
    return reply.json()["result"]["thread"]


def view(base, path="src/auth.py", **filters) -> dict:
    reply = httpx.get(f"{base}/api/view", params={"path": path, **filters})
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_a_file_view_has_its_lines_highlighted_and_its_threads_with_rendered_bodies(base):
    add(base, body="Check **expiry**:\n\n- `exp`\n- skew\n\n[RFC](https://example.org/rfc)")
    v = view(base)
    assert v["language"] == "Python" and len(v["lines"]) == len(v["html"]) == 18
    assert v["lines"][9] == "    def validate_token(self, token):"
    assert '<span class="k">def</span>' in v["html"][9] and '<span class="nf">validate_token</span>' in v["html"][9]
    (t,) = v["threads"]
    html = t["comments"][0]["html"]
    assert "<strong>expiry</strong>" in html and "<li><code>exp</code></li>" in html
    assert '<a href="https://example.org/rfc" rel="noopener noreferrer" target="_blank">RFC</a>' in html
    assert t["title"] == "Check expiry:" and "written_against" not in t  # anchored: nothing moved


def test_filters_apply_to_the_view(base):
    add(base, tag="FIXME")
    add(base, start=17, end=18)
    assert [t["tag"] for t in view(base, tag="FIXME")["threads"]] == ["FIXME"]
    bad = httpx.get(f"{base}/api/view", params={"path": "src/auth.py", "status": "nope"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "INVALID_ARGUMENT"


def test_drifted_and_orphaned_threads_carry_the_code_they_were_written_against(base, workspace):
    add(base, body="drifts")
    add(base, start=17, end=18, body="goes")
    auth = workspace / "src/auth.py"
    auth.write_text(auth.read_text().replace("if not token:", "if token is None:")
                    .replace("def helper(x):\n    return x * 2\n", ""))
    by_body = {t["comments"][0]["body"]: t for t in view(base)["threads"]}
    drifted, orphan = by_body["drifts"], by_body["goes"]
    assert drifted["health"] == "drifted" and orphan["health"] == "orphaned"
    assert "if not token:" in drifted["written_against"]["text"]
    assert drifted["written_against"]["line_start"] == 10
    assert orphan["written_against"]["text"] == "def helper(x):\n    return x * 2"
    assert '<span class="k">def</span>' in orphan["written_against"]["html"][0]


def test_a_deleted_file_still_shows_its_threads(base, workspace):
    add(base, file="PLAN.md", start=1, end=1, body="plan")
    (workspace / "PLAN.md").unlink()
    v = view(base, "PLAN.md")
    assert v["missing"] and v["lines"] == [] and [t["health"] for t in v["threads"]] == ["orphaned"]


def test_paths_are_checked_like_the_tools(base):
    for bad in ("../etc/passwd", ".limpet/store.json", ""):
        reply = httpx.get(f"{base}/api/view", params={"path": bad})
        assert reply.status_code == 400 and reply.json()["error"]["code"] == "INVALID_PATH", bad


def test_the_summary_counts_threads_and_lists_files_and_recent_activity(base):
    a = add(base, body="**first**")
    add(base, start=17, end=18)
    add(base, file="PLAN.md", start=1, end=1)
    api_post(base, "/api/ops/comment_resolve", {"thread_id": a["id"]})
    s = httpx.get(f"{base}/api/summary").json()
    assert s["total"] == 3 and s["status"] == {"open": 2, "resolved": 1}
    assert [f["path"] for f in s["files"]] == ["PLAN.md", "src/auth.py"] or s["files"][0]["open"] >= s["files"][1]["open"]
    assert s["recent"][0]["id"] == a["id"] and s["recent"][0]["title"] == "first"


def test_the_review_comes_rendered_with_references_linking_to_their_current_place(base, workspace):
    httpx.post(f"{base}/mcp/present_review", json={"content": "# R\n\n**Bold** [`src/auth.py:10`][] and "
                                                                "[`src/nope.py:3`][]", "baseUri": "."})
    auth = workspace / "src/auth.py"
    auth.write_text("# one\n# two\n" + auth.read_text())
    review = httpx.get(f"{base}/api/review").json()
    assert set(review) == {"content", "updated_at", "references"}  # the contract's shape, unchanged
    assert review["references"][0]["line"] == 12
    html = httpx.get(f"{base}/api/review/view").json()["html"]
    assert "<h1>R</h1>" in html and "<strong>Bold</strong>" in html
    assert 'href="#src%2Fauth.py:12"' in html and "→ src/auth.py:12" in html
    assert 'class="ref health-orphaned"' in html and ">src/nope.py:3<" in html
    assert '<span class="ref health-orphaned" title="Not found in the workspace">x.py:1</span>' in review_html(
        "[`x.py:1`][]", [])  # a reference the review does not know is shown, not linked


ALLOWED_TAGS = {"p", "em", "strong", "code", "pre", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6",
                "blockquote", "hr", "br", "a", "span", "table", "thead", "tbody", "tr", "th", "td", "s"}
ALLOWED_ATTRS = {"href", "rel", "target", "class", "title", "data-file", "data-line", "start", "style"}


def elements(markup: str) -> list[tuple[str, dict[str, str | None]]]:
    from html.parser import HTMLParser

    found: list[tuple[str, dict[str, str | None]]] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, dict(attrs)))

    Collect().feed(markup)
    return found


def assert_safe(markup: str) -> None:
    for tag, attrs in elements(markup):
        assert tag in ALLOWED_TAGS, (tag, markup)
        assert set(attrs) <= ALLOWED_ATTRS, (attrs, markup)
        href = (attrs.get("href") or "").lower()
        assert not href or href.startswith(("http:", "https:", "mailto:", "#")), markup
        assert attrs.get("style") in (None, "text-align:left", "text-align:right", "text-align:center"), markup


@pytest.mark.parametrize("evil", [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
    "[x](data:text/html,<script>alert(1)</script>)", "![x](https://example.org/track.png)",
    '<a href="https://e.org" onclick="alert(1)">x</a>', "[x](vbscript:msgbox)",
])
def test_markdown_never_lets_markup_or_unsafe_links_through(evil):
    assert_safe(markdown_html(evil))
    assert_safe(review_html(evil, []))


PIECES = list("<>&\"'`*_[]()!#-|\n abc:/=") + ["javascript:", "<script>", "onerror=", "](", "https://e.org",
                                                 "[`a.py:1`][]", "<img src=x ", "```\n", "    "]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_text_renders_to_safe_html(text):
    assert_safe(markdown_html(text))
    assert_safe(review_html(text, [{"text": "a.py:1", "file": "a.py", "line": 1, "health": "anchored"}]))


def test_markdown_text_is_plain():
    assert markdown_text("Check **expiry** `exp` [x](https://e.org)") == "Check expiry exp x"


def test_highlighting_keeps_one_entry_per_line_and_escapes(tmp_path):
    text = 'x = """a\n<b>\n"""\n\n# done\n'
    lines = highlight_lines("a.py", text)
    assert len(lines) == 5 and "&lt;b&gt;" in lines[1] and lines[3] == ""
    assert highlight_lines("notes.unknown-ext", "a <b>\n") == ["a &lt;b&gt;"]
    css = highlight_css()
    assert ".hl .k {" in css and ":root[data-theme=dark] .hl .k {" in css


def test_the_generated_colours_are_served_with_the_page(base):
    reply = httpx.get(f"{base}/static/highlight.css")
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/css")
    assert ":root[data-theme=dark] .hl" in reply.text


def _events(base, count, started):
    out: list[dict] = []

    def listen():
        with httpx.stream("GET", f"{base}/api/events", timeout=20) as stream:
            for line in stream.iter_lines():
                if line.startswith("event: ready"):
                    started.set()
                if line.startswith("data: {\"files\""):
                    out.append(json.loads(line[len("data: "):]))
                    if len(out) >= count:
                        return

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    return out, thread


def test_an_editor_save_is_an_event_that_names_the_saved_file(base, workspace):
    started = threading.Event()
    out, thread = _events(base, 1, started)
    assert started.wait(10)
    auth = workspace / "src/auth.py"
    auth.write_text(auth.read_text() + "\n# saved\n")
    thread.join(10)
    assert out and "src/auth.py" in out[0]["saved"] and "src/auth.py" in out[0]["files"]
    assert out[0]["store"] is False and out[0]["review"] is False


def test_another_process_writing_threads_is_a_store_event(base, workspace, limpet_cmd):
    import subprocess

    started = threading.Event()
    out, thread = _events(base, 1, started)
    assert started.wait(10)
    subprocess.run([*limpet_cmd, "--workspace", str(workspace), "add", "PLAN.md:1", "x"], check=True,
                   capture_output=True)
    done = time.monotonic()
    thread.join(10)
    assert out and out[0]["store"] is True
    assert time.monotonic() - done < 2.0


def test_info_tells_the_vocabulary_and_the_open_streams(base):
    info = httpx.get(f"{base}/api/info").json()
    assert info["tags"] == ["TODO", "FIXME", "NOTE", "STAR", "QUESTION"]
    assert info["statuses"] == ["open", "resolved", "wontfix"] and info["streams"] == 0
