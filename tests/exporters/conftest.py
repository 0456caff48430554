"""A small, fixed workspace of threads covering every status, health, and two workspaces."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from limpet.anchoring import create_anchor
from limpet.exporters import ExportItem
from limpet.model import Comment, Decision, HistoryEvent, Snapshot, Thread

AUTH_PY = b"""import time


class AuthService:
    def __init__(self, secret):
        self.secret = secret

    def validate_token(self, token):
        payload = decode(token, self.secret)
        if payload is None:
            return False
        return payload["exp"] > time.time()


def decode(token, secret):
    return None  # ```not a fence```
"""

APP_TS = b"""export function handler(req: Request): Response {
  const body = req.body;
  return new Response(body);
}
"""

LEGACY_PY = b"""def old():
    return 1
"""

T0 = "2026-11-22T10:00:00Z"


def _thread(n: int, file: str, source: bytes, l1: int, l2: int, symbol=None, kind=None, **kw) -> Thread:
    # Symbols and the kept text are pinned so golden files do not move with the engine.
    anchor = create_anchor(file, source, l1, l2)
    text = kw.pop("selected_text", anchor.selected_text)
    anchor = replace(anchor, symbol=symbol, symbol_kind=kind, selected_text=text)
    comments = kw.pop("comments", None) or (
        Comment(f"c_17637900000000{n}1", kw.pop("body", "A comment"), kw.get("author", "claude"),
                kw.get("author_type", "agent"), f"2026-11-22T10:0{n}:00Z"),
    )  # fmt: skip
    fields = dict(
        id=f"c_17637900000000{n}0", anchor=anchor, health="anchored", status="open", tag="TODO",
        author="claude", author_type="agent", created_at=f"2026-11-22T10:0{n}:00Z",
        updated_at=f"2026-11-22T11:0{n}:00Z", comments=comments,
    )  # fmt: skip
    fields.update(kw)
    return Thread(**fields)


def sample_items() -> list[ExportItem]:
    t1 = _thread(
        1, "src/auth.py", AUTH_PY, 8, 12, "AuthService.validate_token", "method", tag="TODO",
        ai_meta={"model": "claude-sonnet-4.5", "confidence": 0.95, "reasoning": "Security"},
        comments=(
            Comment("c_1763790000000011", "Handle expired tokens", "claude", "agent", "2026-11-22T10:01:00Z"),
            Comment("c_1763790000000012", "Agreed.\nAlso log it.", "dana", "human", "2026-11-22T10:05:00Z",
                    edited_at="2026-11-22T10:06:00Z"),
        ),
    )  # fmt: skip
    decision = Decision("Raise instead of returning None", "dana", "2026-11-23T09:00:00Z", "resolved")
    t2 = _thread(
        2, "src/auth.py", AUTH_PY, 15, 16, "decode", "function", tag="FIXME", status="resolved", author="dana",
        author_type="human", body="FIXME: decode never decodes", resolved_at="2026-11-23T09:00:00Z",
        decision=decision,
        history=(HistoryEvent(T0, "created", "dana"), HistoryEvent("2026-11-23T09:00:00Z", "resolved", "dana")),
        snapshots={
            "created": Snapshot(T0, "src/auth.py", 15, 16, "def decode(token, secret):\n    pass"),
            "resolved": Snapshot("2026-11-23T09:00:00Z", "src/auth.py", 15, 16,
                                 "def decode(token, secret):\n    return None  # ```not a fence```"),
        },
    )  # fmt: skip
    t3 = _thread(
        3, "web/app.ts", APP_TS, 2, 2, "handler", "function", tag="QUESTION", status="wontfix", health="drifted",
        body="Is the body validated?", resolved_at="2026-11-24T09:00:00Z",
        decision=Decision("Validated upstream", "erin", "2026-11-24T09:00:00Z", "wontfix"),
    )  # fmt: skip
    t4 = _thread(
        4, "src/legacy.py", LEGACY_PY, 1, 2, "old", "function", tag="NOTE", health="orphaned",
        body="Old helper", selected_text="def old():\n    return 1",
    )  # fmt: skip
    t5 = _thread(
        5, "src/auth.py", AUTH_PY, 4, 4, "AuthService", "class", tag="STAR", body="Nice class", author="erin", author_type="human",
        decision=Decision("Looked fine", "erin", "2026-11-23T09:00:00Z", "resolved"),
    )  # fmt: skip
    t6 = _thread(6, "src/auth.py", AUTH_PY, 1, 1, tag="NOTE", body="Other repo's note")
    return [
        ExportItem(t1, "alpha", AUTH_PY),
        ExportItem(t2, "alpha", AUTH_PY),
        ExportItem(t3, "alpha", APP_TS),
        ExportItem(t4, "alpha", None),
        ExportItem(t5, "alpha", AUTH_PY),
        ExportItem(t6, "beta", AUTH_PY),
    ]


@pytest.fixture
def items() -> list[ExportItem]:
    return sample_items()


@pytest.fixture
def make_thread():
    """_thread(n, file, source, line_start, line_end, symbol=None, kind=None, **fields): a Thread."""
    return _thread


@pytest.fixture
def auth_py() -> bytes:
    return AUTH_PY
