#!/usr/bin/env python3
"""Print every non-correct anchor of an in-process limpet run, with the code it was about.

For each failure: the group (repo, parent..commit), category, kind/symbol, the anchor's before text,
the expected range (and its after text) and what limpet answered (range, method, confidence, and the
after text there), so each one can be classified by hand.

    .venv/bin/python benchmarks/heldout_failures.py [--cases FILE] [--context 2] [--max-lines 14]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.anchoring_inprocess import load_runner, run_group  # noqa: E402
from benchmarks.heldout import OUT  # noqa: E402


def excerpt(text: str | None, start: int, end: int, tag: str, context: int, max_lines: int) -> str:
    if text is None:
        return f"    {tag}| (file absent)"
    lines = text.split("\n")
    lo, hi = max(1, start - context), min(len(lines), end + context)
    out = []
    for n in range(lo, hi + 1):
        inside = start <= n <= end
        if inside and end - start + 1 > max_lines and start + max_lines // 2 <= n <= end - max_lines // 2:
            if n == start + max_lines // 2:
                out.append(f"    {tag}      ... ({end - start + 1 - 2 * (max_lines // 2)} lines)")
            continue
        out.append(f"    {tag}{n:5d}{'|' if inside else ':'} {lines[n - 1]}")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=str(OUT))
    ap.add_argument("--context", type=int, default=2)
    ap.add_argument("--max-lines", type=int, default=14)
    args = ap.parse_args(argv)
    run = load_runner()
    n = bad = 0
    for g in run.load_cases(args.cases):
        rows, _ = run_group(g)
        after = dict(g["files_before"])
        after.update(g["files_after"])
        for a, rel, got in rows:
            n += 1
            outcome, near = run.judge(a, got)
            if outcome == "correct":
                continue
            bad += 1
            exp = a["expected"]
            print(f"=== {outcome}{' (near)' if near else ''} | {a['category']} | {g['repo']} "
                  f"{g['parent']}..{g['commit']} | {a['id']} | {a.get('kind')} {a.get('symbol')}"
                  f"{' -> ' + a['new_symbol'] if a.get('new_symbol') else ''}")
            print(f"  before {a['file']}:{a['line_start']}-{a['line_end']}")
            print(excerpt(g["files_before"][a["file"]], a["line_start"], a["line_end"], "B", args.context,
                          args.max_lines))
            if "file" in exp:
                print(f"  expected {exp['file']}:{exp['line_start']}-{exp['line_end']}")
                print(excerpt(after.get(exp["file"]), exp["line_start"], exp["line_end"], "E", args.context,
                              args.max_lines))
            else:
                print("  expected orphan")
            print(f"  limpet {got['file']}:{got['line_start']}-{got['line_end']} orphan={got['orphan']} "
                  f"method={rel.method} confidence={rel.confidence}")
            if not got["orphan"] and got["line_start"]:
                print(excerpt(after.get(got["file"]), got["line_start"], got["line_end"], "L", args.context,
                              args.max_lines))
    print(f"{bad} of {n} anchors not correct")
    return 0


if __name__ == "__main__":
    sys.exit(main())
