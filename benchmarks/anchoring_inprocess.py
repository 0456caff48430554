#!/usr/bin/env python3
"""The anchoring benchmark, in-process: run.py's cases and scoring, our engine called directly.

For each group: anchors are created on files_before, a WorkspaceIndex is built on
the before state and updated to the after state, and every anchor is re-anchored
(the file's after bytes, or None when deleted). Far faster than the MCP runner,
which starts one server per group; the figures should match it.

    .venv/bin/python benchmarks/anchoring_inprocess.py [--limit N] [--categories a,b] [-v] [--no-symbols]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import time
from pathlib import Path

from limpet.anchoring import Baseline, WorkspaceIndex, content_hash, create_anchor, reanchor

# The public anchoring benchmark is not part of this repository: $ANCHORING_BENCH, else where the
# development checkout keeps it (beside this one).
BENCH = Path(os.environ.get("ANCHORING_BENCH") or Path(__file__).resolve().parents[2] / "shared" / "bench" / "anchoring")


def load_runner():
    spec = importlib.util.spec_from_file_location("anchor_bench_run", BENCH / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_group(g: dict, cold_index: bool = False, baseline: bool = False) -> tuple[list[dict], float]:
    before = {p: t.encode("utf-8") for p, t in g["files_before"].items()}
    after = dict(before)
    for p, t in g["files_after"].items():
        if t is None:
            after.pop(p, None)
        else:
            after[p] = t.encode("utf-8")
    anchors = {a["id"]: create_anchor(a["file"], before[a["file"]], a["line_start"], a["line_end"])
               for a in g["anchors"]}
    index = WorkspaceIndex()
    if not cold_index:  # cold: the index first sees the workspace at reconcile (a fresh server)
        index.update({p: content_hash(b) for p, b in before.items()}, before.get)
    t0 = time.perf_counter()
    told = None
    if cold_index and baseline:  # a fresh process told the earlier version (git's, in the server)
        told = Baseline(frozenset(p for p in {*before, *after} if before.get(p) != after.get(p)), before.get)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get, told)
    got = {}
    for a in g["anchors"]:
        rel = reanchor(anchors[a["id"]], after.get(a["file"]), index)
        got[a["id"]] = (rel, dict(file=rel.anchor.file, line_start=rel.anchor.line_start,
                                  line_end=rel.anchor.line_end, orphan=rel.health == "orphaned"))
    return [(a, *got[a["id"]]) for a in g["anchors"]], time.perf_counter() - t0


def main(argv=None) -> int:
    run = load_runner()
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cases", default=str(BENCH / "cases-public.jsonl.gz"))
    ap.add_argument("--limit", type=int)
    ap.add_argument("--categories")
    ap.add_argument("--repos")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every non-correct anchor")
    ap.add_argument("--cold-index", action="store_true", help="build the index only at reconcile")
    ap.add_argument("--baseline", action="store_true",
                    help="with --cold-index: tell the index the before version (as git tells a fresh process)")
    ap.add_argument("--methods", action="store_true", help="count re-anchor methods per category")
    ap.add_argument("--no-symbols", action="store_true",
                    help="text-only mode: no language has a symbol query (as for unsupported languages)")
    args = ap.parse_args(argv)
    if args.no_symbols:
        from limpet.anchoring import _languages

        _languages.has_symbols = lambda language: False
    groups = run.select_groups(run.load_cases(args.cases),
                               set(args.categories.split(",")) if args.categories else None,
                               set(args.repos.split(",")) if args.repos else None, args.limit, args.seed)
    rng = random.Random(args.seed)
    results, times, methods = [], [], {}
    t_start = time.perf_counter()
    for g in groups:
        rng.shuffle(g["anchors"])
        rows, elapsed = run_group(g, args.cold_index, args.baseline)
        times.append(elapsed)
        for a, rel, got in rows:
            outcome, near = run.judge(a, got)
            results.append(dict(id=a["id"], repo=g["repo"], category=a["category"], outcome=outcome,
                                near=near, got=got, expected=a["expected"]))
            key = (a["category"], rel.method)
            methods[key] = methods.get(key, 0) + 1
            if args.verbose and outcome != "correct":
                print(f"{outcome:24} {a['category']:10} {a['id']} {a.get('kind')} {a.get('symbol')} "
                      f"-> {a.get('new_symbol', '')} {a['file']}:{a['line_start']}-{a['line_end']} "
                      f"exp {a['expected']} got {got['file']}:{got['line_start']}-{got['line_end']} "
                      f"{rel.method} {rel.confidence}")
    timing = dict(groups=len(groups), total_s=time.perf_counter() - t_start, reconcile_total_s=sum(times),
                  reconcile_p50_ms=1000 * run.percentile(times, 0.5),
                  reconcile_p95_ms=1000 * run.percentile(times, 0.95), reconcile_max_ms=1000 * max(times))
    run.print_table(run.summarize(results), timing, "in-process")
    if args.methods:
        for (cat, method), n in sorted(methods.items()):
            print(f"  {cat:12} {method:10} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
