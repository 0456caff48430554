"""Golden before/after cases: one per language and category (fixtures/reanchor/<lang>/<category>.txt;
the format: tests/reanchor_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from reanchor_fixtures import parse_fixture, workspace_after

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, orphan_candidates, reanchor

FIXTURES = Path(__file__).parent / "fixtures" / "reanchor"
LANGUAGES = ["python", "javascript", "typescript", "go", "rust", "java"]
CATEGORIES = ["shifted", "edited", "renamed", "moved_file", "deleted", "line"]


def run_case(spec: dict):
    file, start, end = spec["anchor"]
    anchor = create_anchor(file, spec["before"][file], start, end)
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in spec["before"].items()}, spec["before"].get)
    after = workspace_after(spec)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get)
    return anchor, reanchor(anchor, after.get(file), index), after, index


@pytest.mark.parametrize("category", CATEGORIES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_golden(language: str, category: str) -> None:
    path = FIXTURES / language / f"{category}.txt"
    spec = parse_fixture(path)
    anchor, rel, _, _ = run_case(spec)
    expect = spec["expect"]
    if expect is None:
        assert rel.health == "orphaned", (rel.method, rel.anchor.file, rel.anchor.line_start, rel.anchor.line_end)
        assert rel.anchor == anchor  # an orphan keeps its last anchor
        return
    file, start, end, health, method = expect
    got = (rel.anchor.file, rel.anchor.line_start, rel.anchor.line_end, rel.health, rel.method)
    assert got == (file, start, end, health, method)
    assert 0.0 < rel.confidence <= 1.0


@pytest.mark.parametrize("language", LANGUAGES)
def test_golden_orphan_has_candidates_or_none(language: str) -> None:
    spec = parse_fixture(FIXTURES / language / "deleted.txt")
    anchor, rel, after, index = run_case(spec)
    cands = orphan_candidates(anchor, after.get(anchor.file), index)
    assert all(0.0 <= c.score <= 1.0 for c in cands)
    assert cands == sorted(cands, key=lambda c: -c.score)


COMPOUND = sorted((FIXTURES / "compound").glob("*.txt"))


@pytest.mark.parametrize("path", COMPOUND, ids=[p.stem for p in COMPOUND])
def test_compound_change(path: Path) -> None:
    """Several changes at once (fixtures/reanchor/compound/): rename + edit, a renamed enclosing
    type, a move to another class or file with edits, overloads told apart by their signature,
    lines gone from a symbol that stays, C++ in a `.h`; and a rewrite that must stay orphaned."""
    spec = parse_fixture(path)
    anchor, rel, _, _ = run_case(spec)
    if spec["expect"] is None:
        assert rel.health == "orphaned", (rel.method, rel.anchor.file, rel.anchor.line_start, rel.anchor.line_end)
        assert rel.anchor == anchor
        return
    got = (rel.anchor.file, rel.anchor.line_start, rel.anchor.line_end, rel.health, rel.method)
    assert got == spec["expect"]
