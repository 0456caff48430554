#!/usr/bin/env python3
"""Do a language's grammar stay bounded on half-typed code? Run before adding a query.

limpet parses every file of a language that has a query (anchoring/queries/), on every save
and, in an editor, on every pause in typing: a grammar that loops or takes gigabytes on a
misplaced bracket would stall or kill the server. This parses each symbols fixture
(tests/anchoring/fixtures/symbols/) and a 40-fold copy of it, each with 40 seeded sets of
1-11 stray tokens (brackets, quotes, `end`, `begin`, comment openers), in a child process per
language under an address-space limit and a timeout, and reports per language the most bytes
read back by the parser (a loop reads on and on), the slowest parse per 100 KB, and peak RSS.

    .venv/bin/python benchmarks/grammar_stress.py                 # every language with a fixture
    .venv/bin/python benchmarks/grammar_stress.py tcl nim         # some of them

A language whose child runs out of memory or time has no place among the queries (D and
PureScript in the pack's grammars, 2026-11-26; F# loops on a stray `)` in a member line).
Deterministic: the mutations are seeded by file name; only the timings vary.
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))

FIXTURES = ROOT / "tests" / "anchoring" / "fixtures" / "symbols"
STRAY = [b")", b"(", b"{", b"}", b'"', b"'", b"\n", b"end", b"/*", b"#", b"[", b"]", b"begin"]
CHUNK = 1 << 16
MEMORY_LIMIT = 4 << 30  # bytes of address space for a child
TIMEOUT = 300.0  # seconds for a child


def mutants(source: bytes, seed: str, count: int = 40):
    rng = random.Random(seed)
    for _ in range(count):
        text = bytearray(source)
        for _ in range(rng.randrange(1, 12)):
            at = rng.randrange(len(text) + 1)
            text[at:at] = rng.choice(STRAY)
        yield bytes(text)


def stress(path: Path) -> str:
    """One language, in this process: a line of figures."""
    from limpet.anchoring._languages import get_parser, language_for

    source = path.read_bytes()
    language = language_for(path.name, source)
    parser = get_parser(language)
    reads, slowest = 0, 0.0
    for base in (source, source * 40):
        for text in mutants(base, f"{path.name}{len(base)}"):
            count = 0

            def read(offset: int, _point, text: bytes = text) -> bytes:
                nonlocal count
                count += 1
                return text[offset:offset + CHUNK]

            started = time.perf_counter()
            parser.parse(read)
            slowest = max(slowest, (time.perf_counter() - started) / (len(text) / 100_000))
            reads = max(reads, count)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return f"{language:12s} reads {reads:6d}  slowest {slowest:5.2f} s/100 KB  peak RSS {peak:5d} MB"


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        print(stress(Path(argv[1])))
        return 0
    wanted = set(argv)
    paths = sorted(p for p in FIXTURES.iterdir() if not p.name.endswith(".expected.json")
                   and (not wanted or p.name.split(".")[0] in wanted))
    failed = 0
    for path in paths:
        try:
            done = subprocess.run([sys.executable, __file__, "--child", str(path)], capture_output=True, text=True,
                                  timeout=TIMEOUT, preexec_fn=_limit, check=False)
            line = done.stdout.strip() or f"{path.name:12s} FAILED: " + (done.stderr.strip().splitlines() or ["?"])[-1]
            failed += done.returncode != 0
        except subprocess.TimeoutExpired:
            line, failed = f"{path.name:12s} FAILED: no answer in {TIMEOUT:.0f} s", failed + 1
        print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
