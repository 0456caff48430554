#!/usr/bin/env python3
"""Build a held-out anchoring case set from consecutive package releases (PyPI sdists, npm tarballs).

The public benchmark (shared/bench/anchoring/) replays git commits of six repositories; the hidden set
uses other repositories. This builder makes a set in exactly the public case format from packages
outside the public six, so we can see whether the engine generalizes. A pair of consecutive releases
plays the part of a (parent, commit) pair; the truth follows the README's construction rules
(benchmarks/_heldout_truth.py) on tree-sitter definitions (benchmarks/_heldout_symbols.py).

    .venv/bin/python benchmarks/heldout.py                  # download (cached) + build
    .venv/bin/python benchmarks/anchoring_inprocess.py --cases ~/.cache/limpet-heldout/cases-heldout.jsonl.gz
    .venv/bin/python ../shared/bench/anchoring/run.py --engine fuzzy --cases ~/.cache/limpet-heldout/cases-heldout.jsonl.gz

Third-party code and the built cases stay in ~/.cache/limpet-heldout/ (never committed).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._heldout_fetch import CACHE, PACKAGES, Package, fetch_all, source_tree  # noqa: E402
from benchmarks._heldout_truth import Cand, Pair  # noqa: E402

CATEGORIES = ["shifted", "edited", "renamed", "moved_file", "deleted", "line"]
RARITY = ["renamed", "moved_file", "deleted", "edited", "shifted", "line"]
PAIR_CAP = {"shifted": 2, "edited": 2, "line": 2, "deleted": 2, "renamed": 4, "moved_file": 4}
MAX_CHANGED_FILES = 40  # larger pairs are subsampled: anchors come from 40 of their changed files
MAX_PAIR_BYTES = 3_000_000
GROUP_BYTES = 60_000
DEFAULT_QUOTA = 100
OUT = CACHE / "cases-heldout.jsonl.gz"


def _rng(*key) -> random.Random:
    return random.Random("|".join(map(str, key)))


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
        files = sorted(_rng(pkg.repo, v0, v1, "files").sample(files, MAX_CHANGED_FILES))
    cands, seen = [], set()
    for c in sorted(pair.candidates(files), key=lambda c: RARITY.index(c.category)):
        if (c.file, c.start, c.end) not in seen:  # one anchor per range: the rarest category wins
            seen.add((c.file, c.start, c.end))
            cands.append(c)
    capped: list[Cand] = []
    for cat in CATEGORIES:
        these = [c for c in cands if c.category == cat]
        _rng(pkg.repo, v0, v1, cat).shuffle(these)
        capped += these[:PAIR_CAP[cat]]
    return pair, capped


def allocate(avail: dict[str, int], quota: int) -> dict[str, int]:
    """Split quota over the categories as evenly as their availability allows (water-filling)."""
    take = dict.fromkeys(avail, 0)
    left = quota
    while left > 0:
        open_ = [c for c in CATEGORIES if c in avail and take[c] < avail[c]]
        if not open_:
            break
        share = max(1, left // len(open_))
        for c in open_:
            add = min(share, avail[c] - take[c], left)
            take[c] += add
            left -= add
            if left == 0:
                break
    return take


def select(per_pair: list[tuple[str, str, Cand]], quota: int, repo: str) -> list[tuple[str, str, Cand]]:
    by_cat: dict[str, list] = defaultdict(list)
    for item in per_pair:
        by_cat[item[2].category].append(item)
    moved = by_cat.get("moved_file", [])
    if moved:  # pure file renames: at most half of this category
        pure = [m for m in moved if m[2].pure_rename]
        other = [m for m in moved if not m[2].pure_rename]
        _rng(repo, "pure").shuffle(pure)
        by_cat["moved_file"] = other + pure[:len(other)]
    take = allocate({c: len(v) for c, v in by_cat.items()}, quota)
    chosen = []
    for cat in CATEGORIES:
        items = sorted(by_cat.get(cat, []), key=lambda x: (x[0], x[1], x[2].file, x[2].start))
        _rng(repo, cat, "quota").shuffle(items)
        chosen += items[:take.get(cat, 0)]
    return chosen


def make_group(pkg: Package, v0: str, v1: str, pair: Pair, cands: list[Cand]) -> dict:
    cands = sorted(cands, key=lambda c: (CATEGORIES.index(c.category), c.file, c.start, c.end))
    must = sorted({c.file for c in cands} | {c.expected["file"] for c in cands if "file" in c.expected})
    rest = [p for p in pair.changed if p not in must]
    _rng(pkg.repo, v0, v1, "group").shuffle(rest)

    def weight(p: str) -> int:
        return len(pair.before.get(p) or "") + len(pair.after.get(p) or "")

    files, size = list(must), sum(map(weight, must))
    for p in rest:
        if size + weight(p) <= GROUP_BYTES:
            files.append(p)
            size += weight(p)
    files.sort()
    short = pkg.name.rsplit("/", 1)[-1]
    anchors = [dict(id=f"{short}-{v1}-{i}", **c.anchor()) for i, c in enumerate(cands)]
    return {"repo": pkg.repo, "commit": v1, "parent": v0, "language": pkg.language,
            "files_before": {p: pair.before[p] for p in files if p in pair.before},
            "files_after": {p: pair.after.get(p) for p in files},
            "files_omitted": len(pair.changed) - len(files), "anchors": anchors}


def build_package(pkg: Package, quota: int, verbose: bool) -> list[dict]:
    pairs, per_pair = {}, []
    for v0, v1 in pairwise(pkg.versions):
        try:
            got = pair_candidates(pkg, v0, v1)
        except Exception as e:  # noqa: BLE001 - a broken release must not stop the build
            print(f"  {pkg.repo} {v0}..{v1}: skipped ({type(e).__name__}: {e})", file=sys.stderr)
            continue
        if got is None:
            continue
        pairs[(v0, v1)] = got[0]
        per_pair += [(v0, v1, c) for c in got[1]]
        if verbose:
            n = Counter(c.category for c in got[1])
            print(f"  {pkg.repo} {v0}..{v1}: {len(got[0].changed)} changed, {dict(n)}", file=sys.stderr)
    chosen = select(per_pair, quota, pkg.repo)
    groups = defaultdict(list)
    for v0, v1, c in chosen:
        groups[(v0, v1)].append(c)
    order = {v: i for i, v in enumerate(pkg.versions)}
    return [make_group(pkg, v0, v1, pairs[(v0, v1)], cs)
            for (v0, v1), cs in sorted(groups.items(), key=lambda kv: order[kv[0][0]])]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--quota", type=int, default=DEFAULT_QUOTA, help="anchors per package")
    ap.add_argument("--packages", help="comma list of registry/name (default: all)")
    ap.add_argument("--no-fetch", action="store_true", help="use only what is cached")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    pkgs = [p for p in PACKAGES if not args.packages or p.repo in args.packages.split(",")]
    if not args.no_fetch:
        fetch_all(pkgs)
    groups = []
    for pkg in pkgs:
        gs = build_package(pkg, args.quota, args.verbose)
        groups += gs
        n = Counter(a["category"] for g in gs for a in g["anchors"])
        print(f"{pkg.repo}: {len(gs)} groups, {sum(n.values())} anchors {dict(n)}", file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        for g in groups:
            f.write((json.dumps(g, ensure_ascii=False) + "\n").encode("utf-8"))
    total = Counter(a["category"] for g in groups for a in g["anchors"])
    print(f"wrote {args.out}: {len(groups)} groups, {sum(total.values())} anchors {dict(total)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
