"""The prompts' fixture workspace: real files (fixture/ws), threads with fixed ids and times.

Everything a golden file shows is pinned here: thread positions and health are stored and
read without re-anchoring, tool schemas come from fixture/tools.json (seed 004's spelling),
and orphan candidates are listed by hand, so the goldens move only when a prompt does.
The real engine and registry paths are covered by test_service_source.py and the e2e test.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from msgspec.structs import replace

from limpet.anchoring import create_anchor
from limpet.model import Comment, Decision, HistoryEvent, Snapshot, Thread
from limpet.prompts import ToolSpec

FIXTURE = Path(__file__).parent / "fixture"
WS_NAME = "fixture-ws"
T0 = "2026-11-22T10:00:00Z"

# Code that is gone from the workspace: what the orphans were written on.
OLD_LEGACY = b"def parse_header(data):\n    return data[:4]\n\n\ndef checksum(payload):\n    value = zlib.crc32(payload)\n    if value < 0:\n        value += 1 << 32\n    return value\n"
GONE_PY = b"def unused():\n    return None\n"


@dataclass(frozen=True)
class PinnedCandidate:
    file: str
    line_start: int
    line_end: int
    score: float
    method: str


CANDIDATES = {
    "c_1763790000000070": [PinnedCandidate("src/checksum.py", 4, 8, 0.8231, "moved"),
                           PinnedCandidate("src/legacy.py", 1, 2, 0.3512, "fuzzy")],
}


def _thread(n: int, file: str, source: bytes, l1: int, l2: int, symbol=None, kind=None, **kw) -> Thread:
    anchor = replace(create_anchor(file, source, l1, l2), symbol=symbol, symbol_kind=kind)
    at = f"2026-11-22T10:0{n}:00Z"
    author, author_type = kw.get("author", "claude"), kw.get("author_type", "agent")
    comments = kw.pop("comments", None) or (Comment(f"c_17637900000000{n}0.0", kw.pop("body"), author, author_type, at),)
    fields = dict(id=f"c_17637900000000{n}0", anchor=anchor, health="anchored", status="open", tag="TODO",
                  author=author, author_type=author_type, created_at=at, updated_at=at, comments=comments,
                  history=(HistoryEvent(at, "created", author),),
                  snapshots={"created": Snapshot(at, file, anchor.line_start, anchor.line_end, anchor.selected_text)})
    fields.update(kw)
    return Thread(**fields)


def fixture_threads(root: Path) -> list[Thread]:
    auth = (root / "src/auth.py").read_bytes()
    rules = (root / "src/rules.py").read_bytes()
    app = (root / "web/app.ts").read_bytes()
    resolved = Decision("Kept: the ttl is configurable", "dana", "2026-11-23T09:00:00Z", "resolved")
    return [
        _thread(1, "src/auth.py", auth, 12, 16, "AuthService.validate_token", "method", tag="FIXME",
                ai_meta={"model": "claude-sonnet-4.5", "confidence": 0.9, "reasoning": "timing attack"},
                comments=(Comment("c_1763790000000010.0", "Compare digests with hmac.compare_digest.", "claude",
                                  "agent", "2026-11-22T10:01:00Z"),
                          Comment("c_1763790000000010.1", "Agreed.\nAlso log failures.", "dana", "human",
                                  "2026-11-22T10:05:00Z"))),
        _thread(2, "src/auth.py", auth, 8, 10, "AuthService.__init__", "constructor", tag="NOTE", status="resolved",
                author="dana", author_type="human", body="Why a one-hour ttl?",
                resolved_at="2026-11-23T09:00:00Z", decision=resolved),
        _thread(3, "src/rules.py", rules, 4, 4, "classify", "function", tag="QUESTION", body="Should VIP skip payment?"),
        _thread(4, "web/app.ts", app, 3, 5, "handler", "function", tag="TODO", health="drifted",
                body="Return JSON errors"),
        _thread(7, "src/legacy.py", OLD_LEGACY, 5, 9, "checksum", "function", tag="FIXME", health="orphaned",
                body="Mask to 32 bits before returning"),
        _thread(8, "src/gone.py", GONE_PY, 1, 2, "unused", "function", tag="TODO", health="orphaned",
                body="Delete this"),
        _thread(9, "src/legacy.py", OLD_LEGACY, 1, 2, "parse_header", "function", tag="NOTE", health="orphaned",
                status="resolved", resolved_at="2026-11-24T09:00:00Z", body="Resolved orphans are not listed"),
    ]


def pinned_tools() -> dict[str, ToolSpec]:
    raw = json.loads((FIXTURE / "tools.json").read_text())
    return {name: ToolSpec.from_schema(name, t["description"], t["inputSchema"]) for name, t in raw.items()}


@pytest.fixture
def fixture_ws(tmp_path: Path) -> Path:
    root = tmp_path / WS_NAME
    shutil.copytree(FIXTURE / "ws", root)
    return root


@pytest.fixture
def fixture_service(fixture_ws: Path):
    from limpet.server.core import Service
    from limpet.server.store import Event

    service = Service(fixture_ws, lock_timeout=5)
    with service._store.transaction():
        service._store.append_many([
            (t.id, Event(event="snapshot", id=f"e_{n + 1}", at=t.updated_at, seq=0, by=t.author,
                         by_type=t.author_type, thread=t, mode="replace"))
            for n, t in enumerate(fixture_threads(fixture_ws))])
    return service


@pytest.fixture
def source(fixture_service):
    """The server's PromptSource over the fixture, with the pinned parts described above."""
    from limpet.server.core._prompt_source import ServicePromptSource

    class PinnedSource(ServicePromptSource):
        def threads(self):
            return self.service.threads(fresh=False)

        def tool(self, name):
            return pinned_tools().get(name)

        def orphan_candidates(self, thread, k):
            return CANDIDATES.get(thread.id, [])[:k]

    return PinnedSource(fixture_service, {})
