"""Markdown digest: golden files (UPDATE_GOLDEN=1 rewrites them after a deliberate change)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from limpet.exporters import ExportOptions, get_exporter

GOLDEN = Path(__file__).parent / "golden"


def _render(items, **opts) -> str:
    buf = io.BytesIO()
    result = get_exporter("markdown").write(iter(items), buf, ExportOptions(**opts))
    assert result.count == len(items) and result.bytes_written == len(buf.getvalue())
    return buf.getvalue().decode("utf-8")


def _check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; UPDATE_GOLDEN=1 if intended"


def test_digest_two_workspaces(items):
    _check("digest.md", _render(items, exported_at="2026-11-25T08:00:00Z"))


def test_digest_one_workspace(items):
    _check("digest_single.md", _render([i for i in items if i.workspace == "alpha"]))


def test_digest_empty():
    _check("digest_empty.md", _render([]))


def test_order_of_input_does_not_matter(items):
    assert _render(items) == _render(list(reversed(items)))


def test_structure(items):
    text = _render(items)
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections == ["## `src/auth.py` (alpha)", "## `web/app.ts` (alpha)", "## `src/auth.py` (beta)",
                        "## Orphaned threads"]  # fmt: skip
    auth = text.split("## `src/auth.py` (alpha)")[1].split("\n## ")[0]
    lines = [line for line in auth.splitlines() if line.startswith("### ")]
    assert [line.split("`")[1] for line in lines] == [
        "src/auth.py:4",
        "src/auth.py:8-12",
        "src/auth.py:15-16",
    ]
    assert "```python\n" in text and "```typescript\n" in text
    assert "**Decision** — wontfix by erin on 2026-11-24T09:00:00Z: Validated upstream" in text
    assert "**Earlier decision (reopened since)**" in text
    orphans = text.split("## Orphaned threads")[1]
    assert "src/legacy.py:1-2" in orphans and "Last known code" in orphans


@pytest.mark.parametrize(
    ("path", "lang"),
    [("a.py", "python"), ("b.tsx", "tsx"), ("c.rs", "rust"), ("Makefile", "make"), ("d.unknown", "text"),
     ("e.fsi", "fsharp"), ("x/y.GO", "go")],
)  # fmt: skip
def test_fence_language(path, lang):
    from limpet.exporters._excerpt import fence_language

    assert fence_language(path) == lang
