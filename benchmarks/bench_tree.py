"""The web page's file tree on a big checkout: its first page, and what an open page costs
the agents writing meanwhile.

A 20,000-file git repository with 100 threads (bench_repo's). One `limpet serve --http`:
- the first GET /api/files page (1,000 rows), against `git ls-files` of the same checkout,
  and the whole tree (20 pages), against GET /api/info of the same server (a request that
  does no workspace work);
- the server's RSS before the first tree and after the whole tree;
- agent adds back to back (POST /api/ops/comment_add) with no page open, then with a page
  open: a client holding the event stream that redraws what the page redraws on a change
  (the rows of the files the changes name, as tree.js does; the orphans and the start page,
  as app.js does), when the page does (60 ms after a change, at most every 250 ms), then
  again on every event (the worst case, reported). The ratio: p50 with a page / p50 without,
  the no-page adds run before and after the page's (the machine's drift over the run).

    .venv/bin/python -m benchmarks --only tree
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import httpx
import orjson

from ._common import Row, median
from .bench_http import _free_port
from .bench_latency import _limpet_argv
from .bench_repo import build

FILES, ADDS = 20_000, 150


@contextlib.contextmanager
def _server(ws: Path):
    port = _free_port()
    proc = subprocess.Popen([*_limpet_argv(), "serve", "--http", "--port", str(port), "--workspace", str(ws)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/mcp/status", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        yield base, proc.pid
    finally:
        proc.terminate()
        proc.wait(10)


def _rss_mb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    return 0


def _ms(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def _whole_tree(client: httpx.Client) -> int:
    rows, cursor = 0, None
    while True:
        page = client.get("/api/files", params={"limit": 1000, **({"cursor": cursor} if cursor else {})}).json()
        rows += len(page["files"])
        cursor = page["nextCursor"]
        if cursor is None:
            return rows


class _Page(threading.Thread):
    """What an open page does on change events (app.js applyChanges): ask for the rows the
    changes name, the orphans and the start page, `wait` s after a burst starts and at most
    every `gap` s (the page: 0.06 and 0.25; 0 and 0: a redraw per event, the worst case)."""

    def __init__(self, base: str, wait: float, gap: float) -> None:
        super().__init__(daemon=True)
        self.base, self.wait, self.gap = base, wait, gap
        self.ready, self.stop, self.wake, self.lock = threading.Event(), threading.Event(), threading.Event(), threading.Lock()
        self.named: set[str] = set()
        self.store, self.patches = False, 0

    def run(self) -> None:
        threading.Thread(target=self._draw, daemon=True).start()
        with httpx.Client(base_url=self.base, timeout=None) as client, \
                client.stream("GET", "/api/events") as events:
            kind = None
            for line in events.iter_lines():
                if self.stop.is_set():
                    return
                if line.startswith("event:"):
                    kind = line[6:].strip()
                    self.ready.set()
                elif line.startswith("data:") and kind == "change":
                    change = orjson.loads(line[5:])
                    with self.lock:
                        self.named |= {*change["files"], *change["saved"]}
                        self.store = self.store or change["store"]
                    self.wake.set()

    def _draw(self) -> None:
        last = float("-inf")
        with _client(self.base, timeout=None) as client:
            while not self.stop.is_set():
                if not self.wake.wait(0.1):
                    continue
                time.sleep(max(self.wait, last + self.gap - time.monotonic()))
                with self.lock:
                    self.wake.clear()
                    named, store, self.named, self.store = sorted(self.named), self.store, set(), False
                last = time.monotonic()
                client.get("/api/files", params=[("path", p) for p in named])
                if store:
                    client.get("/api/files", params={"threaded": "1"})
                client.post("/api/ops/comment_list", json={"health": "orphaned", "limit": 100})
                client.get("/api/summary")
                self.patches += 1


def _with_page(base: str, client: httpx.Client, rel: str, wait: float, gap: float) -> tuple[list[float], int]:
    page = _Page(base, wait, gap)
    page.start()
    page.ready.wait(10)
    adds, _ = _adds(client, rel, ADDS)
    time.sleep(0.5)
    page.stop.set()
    return adds, page.patches


def _ls_files_ms(root: Path) -> float:
    """`git ls-files` of the same checkout: the cheapest way to list it (median of 5)."""
    return median([_ms(lambda: subprocess.run(["git", "-C", str(root), "ls-files", "-z"], check=True,
                                              stdout=subprocess.DEVNULL)) for _ in range(5)])


def _adds(client: httpx.Client, rel: str, n: int) -> tuple[list[float], list[float]]:
    add, info = [], []
    for i in range(n):
        info.append(_ms(lambda: client.get("/api/info")))
        add.append(_ms(lambda i=i: client.post("/api/ops/comment_add", json={
            "file": rel, "line_start": 5, "line_end": 6, "body": f"benchmark note {i}"})))
    return add, info


def _client(base: str, **kw: float | None) -> httpx.Client:
    """A client that calls as the page does: with the token the page reads from its own HTML."""
    token = re.search(r'name="limpet-token" content="([^"]+)"', httpx.get(f"{base}/").text)
    assert token is not None
    return httpx.Client(base_url=base, headers={"x-limpet-token": token.group(1)}, **kw)  # type: ignore[arg-type]


def main() -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        build(root, FILES)
        rel = "src/pkg1/mod_150.py"
        with _server(root) as (base, pid), _client(base, timeout=120) as client:
            info = [_ms(lambda: client.get("/api/info")) for _ in range(20)]
            ls_files = _ls_files_ms(root)
            rss_start = _rss_mb(pid)
            first = _ms(lambda: client.get("/api/files", params={"limit": 1000}))
            t0 = time.perf_counter()
            rows_seen = _whole_tree(client)
            whole = (time.perf_counter() - t0) * 1000
            rss = _rss_mb(pid)
            # Warm: the adds, and the one search for the orphans' code (the page's orphans panel
            # starts it; bench_repo reports it) so both runs measure the steady state.
            client.post("/api/ops/comment_list", json={"health": "orphaned", "limit": 100})
            rss_search = _rss_mb(pid)
            _adds(client, rel, 10)
            alone, _ = _adds(client, rel, ADDS)
            shipped, drawn = _with_page(base, client, rel, 0.06, 0.25)
            eager, drawn_eager = _with_page(base, client, rel, 0.0, 0.0)
            alone_again, _ = _adds(client, rel, ADDS)  # the machine's drift over the run
    ping = median(info)
    a = median(alone + alone_again)
    b, e = median(shipped), median(eager)
    return [
        Row(f"first GET /api/files page (1,000 rows) of a fresh server, {FILES:,}-file repository "
            "(10 orphans: the tree does not wait for their search)", f"{first:.0f} ms",
            f"`git ls-files` {ls_files:.0f} ms", first / ls_files, "report", None),
        Row(f"whole tree, {rows_seen:,} rows in pages of 1,000; server RSS after it",
            f"{whole:.0f} ms, RSS {rss} MB ({rss_start} MB before the tree; {rss_search} MB after the "
            "orphans' search the page's orphans panel starts)",
            f"GET /api/info p50 {ping:.1f} ms", whole / ping, "report", None),
        Row(f"agent adds back to back (POST /api/ops/comment_add) with a page open, redrawing as the page "
            f"does (60 ms after a change, at most every 250 ms: {drawn} redraws of tree rows, orphans, "
            "start page) vs no page", f"p50 {b:.1f} ms", f"no page p50 {a:.1f} ms", b / a, "≤ 1.2×", b / a <= 1.2),
        Row(f"the same with a client redrawing on every event ({drawn_eager} redraws, 3 requests each)",
            f"p50 {e:.1f} ms", f"no page p50 {a:.1f} ms", e / a, "report", None),
    ]


if __name__ == "__main__":
    for r in main():
        print(r.markdown())
