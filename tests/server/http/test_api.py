"""The web page's JSON API (/api): files, source, operations, review, selection, live events."""

from __future__ import annotations

import json
import threading

import httpx
import pytest
from support import api_post, http_server, page_token


@pytest.fixture
def base(workspace):
    with http_server(workspace) as url:
        yield url


def op(base: str, name: str, args: dict) -> httpx.Response:
    return api_post(base, f"/api/ops/{name}", args)


def add(base: str, line_start=10, line_end=14, **extra) -> dict:
    reply = op(base, "comment_add", {"file": "src/auth.py", "line_start": line_start, "line_end": line_end,
                                     "body": "check", **extra})
    assert reply.status_code == 200, reply.text
    return reply.json()["result"]["thread"]


def test_operations_run_through_the_registry(base):
    thread = add(base, tag="FIXME")
    listed = op(base, "comment_list", {"tag": "FIXME"}).json()["result"]
    assert [t["id"] for t in listed["threads"]] == [thread["id"]]
    resolved = op(base, "comment_resolve", {"thread_id": thread["id"], "decision": "done"}).json()["result"]
    assert resolved["thread"]["decision"]["summary"] == "done"


def test_operation_errors_are_structured_with_an_http_status(base):
    missing = op(base, "comment_show", {"thread_id": "c_1"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "THREAD_NOT_FOUND"
    bad = op(base, "comment_add", {"file": "src/auth.py", "line_start": 0, "line_end": 1, "body": "x"})
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "line_start"
    unknown = op(base, "nope", {})
    assert unknown.status_code == 400 and unknown.json()["error"]["code"] == "INVALID_ARGUMENT"


def test_files_come_in_pages_in_path_order(base, workspace):
    for i in range(5):
        (workspace / "many" / f"f{i}.py").parent.mkdir(exist_ok=True)
        (workspace / "many" / f"f{i}.py").write_text(f"x = {i}\n")
    seen, cursor = [], None
    while True:
        page = httpx.get(f"{base}/api/files", params={"limit": 3, **({"cursor": cursor} if cursor else {})}).json()
        assert len(page["files"]) <= 3
        seen += [f["path"] for f in page["files"]]
        cursor = page["nextCursor"]
        if cursor is None:
            break
    whole = httpx.get(f"{base}/api/files").json()
    assert seen == sorted(seen) == [f["path"] for f in whole["files"]] and whole["total"] == len(seen)
    assert {f"many/f{i}.py" for i in range(5)} <= set(seen) and whole["nextCursor"] is None


def test_files_answers_for_named_paths_and_for_files_with_threads(base):
    add(base)
    named = httpx.get(f"{base}/api/files", params=[("path", "src/auth.py"), ("path", "gone.py")]).json()["files"]
    assert [(f["path"], f["exists"], f["threads"].get("total")) for f in named] == [
        ("gone.py", False, None), ("src/auth.py", True, 1)]
    threaded = httpx.get(f"{base}/api/files", params={"threaded": "1"}).json()["files"]
    assert [f["path"] for f in threaded] == ["src/auth.py"]


@pytest.mark.parametrize("params, field", [({"limit": "0"}, "limit"), ({"limit": "1001"}, "limit"),
                                           ({"limit": "²"}, "limit"), ({"cursor": "not-a-cursor"}, "cursor"),
                                           ({"path": "../etc/passwd"}, "path")])
def test_files_refuses_bad_paging_with_the_field_at_fault(base, params, field):
    reply = httpx.get(f"{base}/api/files", params=params)
    assert reply.status_code == 400 and reply.json()["error"]["field"] == field


def test_the_served_tree_follows_files_created_and_deleted_on_disk(base, workspace):
    def paths():
        return {f["path"] for f in httpx.get(f"{base}/api/files").json()["files"]}

    assert "new/made.py" not in paths()
    (workspace / "new").mkdir()
    (workspace / "new" / "made.py").write_text("y = 1\n")
    wait_for(lambda: "new/made.py" in paths())
    (workspace / "new" / "made.py").unlink()
    wait_for(lambda: "new/made.py" not in paths())


def wait_for(condition, timeout: float = 10.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the tree did not follow the disk"
        time.sleep(0.05)


@pytest.mark.parametrize("media", ["application/x-www-form-urlencoded", "text/plain; charset=json",
                                   "text/plain, application/json", "application/jsonx", ""])
def test_posts_must_be_exactly_json(base, media):
    reply = httpx.post(f"{base}/api/ops/comment_list", content=b"{}",
                       headers={"content-type": media, "x-limpet-token": page_token(base)})
    assert reply.status_code == 400 and reply.json()["error"]["field"] == "body"
    charset = httpx.post(f"{base}/api/ops/comment_list", content=b"{}", headers={
        "content-type": "Application/JSON; charset=utf-8", "x-limpet-token": page_token(base)})
    assert charset.status_code == 200


def test_files_lists_the_workspace_with_thread_counts_and_health(base):
    add(base)
    add(base, 17, 18)
    files = {f["path"]: f for f in httpx.get(f"{base}/api/files").json()["files"]}
    assert {"src/auth.py", "src/app.ts", "PLAN.md", "main.go"} <= set(files)
    assert not any(p.startswith(".limpet") for p in files)
    counts = files["src/auth.py"]["threads"]
    assert (counts["total"], counts["open"], counts["anchored"]) == (2, 2, 2)
    assert files["PLAN.md"]["threads"] == {}


def test_file_returns_the_source_text_with_the_tools_path_rules(base):
    data = httpx.get(f"{base}/api/file", params={"path": "src/auth.py"}).json()
    assert data["text"].startswith("import hashlib") and data["binary"] is False
    for bad in ("../../etc/passwd", "/etc/passwd", ".limpet/store.json", ".git/config"):
        reply = httpx.get(f"{base}/api/file", params={"path": bad})
        assert reply.status_code == 400 and reply.json()["error"]["code"] == "INVALID_PATH", bad
    assert httpx.get(f"{base}/api/file", params={"path": "nope.py"}).status_code == 404


def test_review_is_empty_until_presented(base):
    assert httpx.get(f"{base}/api/review").json() == {"content": "", "updated_at": None, "references": []}
    op(base, "present_review", {"content": "# R\n[`src/auth.py:17`][]", "baseUri": "."})
    review = httpx.get(f"{base}/api/review").json()
    assert review["updated_at"] and review["references"][0]["symbol"] == "helper"


def test_selection_reported_by_the_page_is_validated_and_read_by_get_selection(base):
    sel = {"file": "./src/auth.py", "line_start": 10, "line_end": 10, "text": "def validate_token"}
    assert api_post(base, "/api/selection", {"selection": sel}).status_code == 200
    result = op(base, "get_selection", {}).json()["result"]
    assert result == {"selection": {**sel, "file": "src/auth.py"}}
    for bad in ({"selection": {**sel, "file": "../x"}}, {"selection": {**sel, "line_end": 2}}, {"selection": 3}):
        assert api_post(base, "/api/selection", bad).status_code == 400
    api_post(base, "/api/selection", {"selection": None})
    assert op(base, "get_selection", {}).json()["result"] == {"selection": None}


def test_events_stream_changes_made_through_another_door(base):
    events: list[str] = []
    ready = threading.Event()
    got = threading.Event()

    def listen():
        with httpx.stream("GET", f"{base}/api/events", timeout=20) as stream:
            for line in stream.iter_lines():
                if line.startswith("event: ready"):
                    ready.set()
                if line.startswith("data: {\"files\""):
                    events.append(line)
                    got.set()
                    return

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    assert ready.wait(10)
    httpx.post(f"{base}/mcp/comment_add", json={"file": "PLAN.md", "line_start": 1, "line_end": 1, "body": "x"})
    assert got.wait(10)
    assert "PLAN.md" in json.loads(events[0][len("data: "):])["files"]


def test_the_page_is_served_from_the_package_with_a_strict_policy(base):
    page = httpx.get(f"{base}/")
    assert page.status_code == 200 and "<title>limpet</title>" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert httpx.get(f"{base}/static/app.js").headers["content-type"].startswith("text/javascript")
    for path in ("/static/", "/static", "/static/..%2F_http.py", "/static/nope.js", "/static/../_http.py"):
        assert httpx.get(f"{base}{path}").status_code == 404, path
