#!/usr/bin/env python3
"""Build a held-out anchoring case set from consecutive package releases (PyPI sdists, npm tarballs).

The public benchmark (the anchoring benchmark) replays git commits of six repositories; the hidden set
uses other repositories. This builder makes a set in exactly the public case format from packages
outside the public six, so we can see whether the engine generalizes. A pair of consecutive releases
plays the part of a (parent, commit) pair; the truth follows the README's construction rules
(benchmarks/_heldout_truth.py) on tree-sitter definitions (benchmarks/_heldout_symbols.py).

    .venv/bin/python benchmarks/heldout.py                  # download (cached) + build
    .venv/bin/python benchmarks/anchoring_inprocess.py --cases ~/.cache/limpet-heldout/cases-heldout.jsonl.gz
    .venv/bin/python $ANCHORING_BENCH/run.py --engine fuzzy --cases ~/.cache/limpet-heldout/cases-heldout.jsonl.gz

Third-party code and the built cases stay in ~/.cache/limpet-heldout/ (never committed).
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._caseset import Recipe, cap_per_pair, rng, run  # noqa: E402
from benchmarks._heldout_fetch import CACHE, PACKAGES, Package, fetch_all, source_tree  # noqa: E402
from benchmarks._heldout_truth import Cand, Pair  # noqa: E402

CATEGORIES = ["shifted", "edited", "renamed", "moved_file", "deleted", "line"]
RARITY = ["renamed", "moved_file", "deleted", "edited", "shifted", "line"]
PAIR_CAP = {"shifted": 2, "edited": 2, "line": 2, "deleted": 2, "renamed": 4, "moved_file": 4}
MAX_CHANGED_FILES = 40  # larger pairs are subsampled: anchors come from 40 of their changed files
MAX_PAIR_BYTES = 3_000_000
DEFAULT_QUOTA = 100
OUT = CACHE / "cases-heldout.jsonl.gz"


def comparable_trees(pkg: Package, v0: str, v1: str) -> tuple[dict[str, str], dict[str, str]]:
    """Both releases' sources, minus any root that only one of them ships (a packaging change, not a
    deletion: e.g. tests dropped from an sdist)."""
    before, after = source_tree(pkg, v0), source_tree(pkg, v1)

    def root_of(p: str) -> str:
        return next((r for r in pkg.roots if p == r or p.startswith(r + "/")), "")

    have_b, have_a = {root_of(p) for p in before}, {root_of(p) for p in after}
    keep = have_b & have_a
    return ({p: t for p, t in before.items() if root_of(p) in keep},
            {p: t for p, t in after.items() if root_of(p) in keep})


def pair_candidates(pkg: Package, v0: str, v1: str) -> tuple[Pair, list[Cand]] | None:
    before, after = comparable_trees(pkg, v0, v1)
    pair = Pair(before, after)
    if not pair.changed:
        return None
    size = sum(len(before.get(p, "")) + len(after.get(p, "")) for p in pair.changed)
    if size > MAX_PAIR_BYTES:
        return None
    files = list(pair.changed)
    if len(files) > MAX_CHANGED_FILES:
        files = sorted(rng(pkg.repo, v0, v1, "files").sample(files, MAX_CHANGED_FILES))
    cands, seen = [], set()
    for c in sorted(pair.candidates(files), key=lambda c: RARITY.index(c.category)):
        if (c.file, c.start, c.end) not in seen:  # one anchor per range: the rarest category wins
            seen.add((c.file, c.start, c.end))
            cands.append(c)
    return pair, cap_per_pair(cands, PAIR_CAP, CATEGORIES, pkg.repo, v0, v1)


RECIPE = Recipe(CATEGORIES, pair_candidates, half_pure_renames=True)


def main(argv=None) -> int:
    return run(__doc__, RECIPE, PACKAGES, OUT, DEFAULT_QUOTA, lambda pkgs, jobs: fetch_all(pkgs, jobs), argv)


if __name__ == "__main__":
    sys.exit(main())
