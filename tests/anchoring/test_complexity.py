"""Cyclomatic complexity from the tree-sitter tree, checked against hand counts.

Each fixture under fixtures/complexity/ annotates every function with a comment

    CC <qualified name> = <n>: <decision>, <decision>, ... (what does not count)

written by reading the code, not by running the engine. The list of decisions is the
hand count itself: it must have n - 1 entries ("no decisions" for 1).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from limpet.anchoring import cyclomatic_complexity
from limpet.anchoring._languages import language_for_path

FIXTURES = Path(__file__).parent / "fixtures" / "complexity"
MARKER = re.compile(r"CC (?P<name>[\w.]+) = (?P<n>\d+): (?P<why>[^\n]*)")
FILES = sorted(p.name for p in FIXTURES.iterdir())


def hand_counts(text: str) -> dict[str, tuple[int, str]]:
    return {m["name"]: (int(m["n"]), m["why"]) for m in MARKER.finditer(text)}


def listed_decisions(why: str) -> list[str]:
    listed = re.sub(r"\(.*?\)", "", why).strip()
    return [] if listed.startswith("no decisions") else [d for d in listed.split(",") if d.strip()]


def test_fixtures_cover_the_four_required_languages():
    assert {language_for_path(name) for name in FILES} >= {"python", "typescript", "go", "java"}


@pytest.mark.parametrize("name", FILES)
def test_hand_counts_are_self_consistent(name):
    counts = hand_counts((FIXTURES / name).read_text())
    assert counts, f"{name} has no CC markers"
    for function, (n, why) in counts.items():
        assert len(listed_decisions(why)) == n - 1, f"{name}: {function} lists {why!r} for {n}"


@pytest.mark.parametrize("name", FILES)
def test_complexity_matches_hand_counts(name):
    source = (FIXTURES / name).read_bytes()
    expected = {fn: n for fn, (n, _) in hand_counts(source.decode()).items()}
    computed = {sym.qualified_name: n for sym, n in cyclomatic_complexity(language_for_path(name), source)}
    assert computed == expected


def test_nested_functions_are_counted_separately():
    source = b"def outer(x):\n    def inner(y):\n        return y if y else 0\n    if x:\n        return inner(x)\n"
    computed = {sym.qualified_name: n for sym, n in cyclomatic_complexity("python", source)}
    assert computed == {"outer": 2, "outer.inner": 2}


def test_a_file_without_functions_has_no_figures():
    assert cyclomatic_complexity("python", b"X = 1 if True else 2\n") == []
