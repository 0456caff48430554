"""Golden before/after cases: one per language and category (fixtures/reanchor/<lang>/<category>.txt).

Fixture format:
    anchor: FILE START-END
    expect: FILE START-END HEALTH METHOD      (or: expect: orphaned)
    --- before FILE / --- after FILE / --- deleted FILE   (sections; files not in
        an `after` section are unchanged)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, orphan_candidates, reanchor

FIXTURES = Path(__file__).parent / "fixtures" / "reanchor"
LANGUAGES = ["python", "javascript", "typescript", "go", "rust", "java"]
CATEGORIES = ["shifted", "edited", "renamed", "moved_file", "deleted", "line"]


def parse_fixture(path: Path) -> dict:
    lines = path.read_text("utf-8").split("\n")
    spec = {"before": {}, "after": {}, "deleted": set()}
    current = None
    for line in lines:
        if line.startswith("anchor: "):
            file, rng = line[len("anchor: "):].split()
            spec["anchor"] = (file, *map(int, rng.split("-")))
        elif line.startswith("expect: "):
            parts = line[len("expect: "):].split()
            spec["expect"] = None if parts == ["orphaned"] else (parts[0], *map(int, parts[1].split("-")), *parts[2:])
        elif line.startswith("--- "):
            side, file = line[4:].split()
            if side == "deleted":
                spec["deleted"].add(file)
                current = None
            else:
                current = spec[side].setdefault(file, [])
        elif current is not None:
            current.append(line)
    for side in ("before", "after"):
        spec[side] = {f: ("\n".join(body).rstrip("\n") + "\n").encode() for f, body in spec[side].items()}
    return spec


def workspace_after(spec: dict) -> dict[str, bytes]:
    files = {**spec["before"], **spec["after"]}
    for f in spec["deleted"]:
        files.pop(f, None)
    return files


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
