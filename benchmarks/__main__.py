"""Run the benchmark suite and write its table into benchmarks/README.md.

    .venv/bin/python -m benchmarks [--only latency,reconcile,...] [--no-write]

Every figure is a ratio against a reference measured in the same run on the same machine.
The table is one run of the whole suite: a run of some suites (--only) prints its rows and
leaves the table alone, so the README never mixes runs.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import platform
import re
import sys
from pathlib import Path

SUITES = ["latency", "reconcile", "coldstart", "scale", "http", "parquet", "repo", "pull", "tree", "lsp"]
README = Path(__file__).with_name("README.md")
BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"


def run(only: list[str]) -> list[str]:
    lines = ["| workload | limpet | reference | ratio | target | met? |", "|---|---|---|---|---|---|"]
    for name in only:
        try:
            module = importlib.import_module(f"benchmarks.bench_{name}")
        except ModuleNotFoundError as exc:
            print(f"skip {name}: {exc}", file=sys.stderr)
            continue
        print(f"running {name} ...", file=sys.stderr, flush=True)
        for row in getattr(module, "suite_rows", module.main)():
            line = row.markdown()
            print(line, flush=True)
            lines.append(line)
    return lines


def write(lines: list[str]) -> None:
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    block = "\n".join([BEGIN, f"Run: {stamp} on {platform.node()} ({platform.machine()}, Python "
                       f"{platform.python_version()}); command: `.venv/bin/python -m benchmarks`", "", *lines, END])
    text = README.read_text() if README.exists() else ""
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S)
    else:
        text += "\n" + block + "\n"
    README.write_text(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(SUITES))
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    lines = run([s.strip() for s in args.only.split(",") if s.strip()])
    if not args.no_write and args.only == ap.get_default("only"):
        write(lines)


main()
