"""What the case-set builders share (heldout.py, compound.py): seeded sampling, the quota split,
grouping anchors by release pair into the public case format, and writing the set.

A builder says how to find a pair's candidates and its categories (a `Recipe`); the rest is here,
so both sets are built, sampled and written by the same rules.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from benchmarks._heldout_fetch import Package
from benchmarks._heldout_truth import Cand

__all__ = ["GROUP_BYTES", "Recipe", "build_package", "cap_per_pair", "rng", "run"]

GROUP_BYTES = 60_000

Chosen = tuple[str, str, Cand]  # (release before, release after, candidate)


def rng(*key: object) -> random.Random:
    """A random source seeded by what it samples: the same set on every machine."""
    return random.Random("|".join(map(str, key)))


@dataclass(frozen=True)
class Recipe:
    categories: Sequence[str]
    pair_candidates: Callable[[Package, str, str], tuple[Any, list[Cand]] | None]
    shared: Sequence[str] = ()  # categories that split the quota evenly (default: all)
    keep_all: Sequence[str] = field(default=())  # categories whose candidates are all kept
    half_pure_renames: bool = False  # moved_file: pure file renames at most half of it

    def allocate(self, avail: dict[str, int], quota: int) -> dict[str, int]:
        """Every keep-all candidate, then the rest of the quota split as evenly as the shared
        categories' availability allows (water-filling)."""
        take = {c: (n if c in self.keep_all else 0) for c, n in avail.items()}
        left = max(quota - sum(take.values()), 0)
        shared = self.shared or self.categories
        while left > 0:
            open_ = [c for c in shared if c in avail and take[c] < avail[c]]
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

    def select(self, per_pair: list[Chosen], quota: int, repo: str) -> list[Chosen]:
        by_cat: dict[str, list[Chosen]] = defaultdict(list)
        for item in per_pair:
            by_cat[item[2].category].append(item)
        moved = by_cat.get("moved_file", [])
        if moved and self.half_pure_renames:
            pure = [m for m in moved if m[2].pure_rename]
            other = [m for m in moved if not m[2].pure_rename]
            rng(repo, "pure").shuffle(pure)
            by_cat["moved_file"] = other + pure[:len(other)]
        take = self.allocate({c: len(v) for c, v in by_cat.items()}, quota)
        chosen = []
        for cat in self.categories:
            items = sorted(by_cat.get(cat, []), key=lambda x: (x[0], x[1], x[2].file, x[2].start))
            rng(repo, cat, "quota").shuffle(items)
            chosen += items[:take.get(cat, 0)]
        return chosen


def cap_per_pair(cands: list[Cand], caps: dict[str, int], categories: Sequence[str], *key: object) -> list[Cand]:
    """At most caps[category] candidates of each category from one release pair (seeded)."""
    capped: list[Cand] = []
    for cat in categories:
        these = sorted((c for c in cands if c.category == cat), key=lambda c: (c.file, c.start, c.end))
        rng(*key, cat).shuffle(these)
        capped += these[:caps[cat]]
    return capped


def make_group(pkg: Package, v0: str, v1: str, pair: Any, cands: list[Cand], categories: Sequence[str]) -> dict:
    """One case group: the anchors' files and move targets, then other changed files while the
    group stays under GROUP_BYTES."""
    cands = sorted(cands, key=lambda c: (list(categories).index(c.category), c.file, c.start, c.end))
    must = sorted({c.file for c in cands} | {c.expected["file"] for c in cands if "file" in c.expected})
    rest = [p for p in pair.changed if p not in must]
    rng(pkg.repo, v0, v1, "group").shuffle(rest)

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


def build_package(recipe: Recipe, pkg: Package, quota: int, verbose: bool) -> list[dict]:
    pairs, per_pair = {}, []
    for v0, v1 in pairwise(pkg.versions):
        try:
            got = recipe.pair_candidates(pkg, v0, v1)
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
    groups = defaultdict(list)
    for v0, v1, c in recipe.select(per_pair, quota, pkg.repo):
        groups[(v0, v1)].append(c)
    order = {v: i for i, v in enumerate(pkg.versions)}
    return [make_group(pkg, v0, v1, pairs[(v0, v1)], cs, recipe.categories)
            for (v0, v1), cs in sorted(groups.items(), key=lambda kv: order[kv[0][0]])]


def run(description: str, recipe: Recipe, packages: Sequence[Package], out: Path, quota: int,
        fetch: Callable[[list[Package], int], None], argv: list[str] | None = None) -> int:
    """The builders' command line: fetch (cached), build every package, write the gzip set."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(out))
    ap.add_argument("--quota", type=int, default=quota, help="anchors per package")
    ap.add_argument("--packages", help="comma list of registry/name (default: all)")
    ap.add_argument("--no-fetch", action="store_true", help="use only what is cached")
    ap.add_argument("--jobs", type=int, default=4, help="parallel downloads")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    pkgs = [p for p in packages if not args.packages or p.repo in args.packages.split(",")]
    if not args.no_fetch:
        fetch(pkgs, args.jobs)
    groups = []
    for pkg in pkgs:
        gs = build_package(recipe, pkg, args.quota, args.verbose)
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
