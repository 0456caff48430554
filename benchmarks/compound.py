#!/usr/bin/env python3
"""Build the compound-change anchoring set: several changes at once, in many languages.

The held-out set (heldout.py) follows the public benchmark's one-change categories. This set adds the
changes that real history mixes (benchmarks/_compound_truth.py): a rename with edits, a member whose
class was renamed, a method moved to another class or file with edits or a new name, a renamed and
edited file, overloads, a line gone from a function that stays. Packages are outside the public six
and the held-out list, and cover Python, JS, TS, Java, Kotlin, Swift, C and C++ (react-native and
expo libraries on npm ship their Android and iOS sources; PyPI sdists and wheels ship C/C++).

    .venv/bin/python benchmarks/compound.py -v              # download (cached) + build
    .venv/bin/python benchmarks/anchoring_inprocess.py --cases ~/.cache/limpet-compound/cases-compound.jsonl.gz
    .venv/bin/python $ANCHORING_BENCH/run.py --engine fuzzy --cases ~/.cache/limpet-compound/cases-compound.jsonl.gz

`--set b` builds the same recipe over a second, independent package list (PACKAGES_B: none of them in
set a, the held-out list or the public six) into ~/.cache/limpet-compound-b/cases-compound-b.jsonl.gz,
to check an engine change on packages it was not tuned on:

    .venv/bin/python benchmarks/compound.py --set b -v

`--set c` builds it over PACKAGES_C, languages the other two barely hold (Java, Ruby, PHP, C#, Lua, C,
C++), from the upstream tarballs Debian's suites keep (benchmarks/_debian_fetch.py: bullseye .. sid,
one upstream release each) into ~/.cache/limpet-compound-c/cases-compound-c.jsonl.gz:

    .venv/bin/python benchmarks/compound.py --set c -v

`--set d` builds it over PACKAGES_D, Java and Python only (the languages of the external method-history
benchmark): Java from Debian's upstream tarballs as set c, Python from PyPI as sets a and b, none of them
in another set, into ~/.cache/limpet-compound-d/cases-compound-d.jsonl.gz:

    .venv/bin/python benchmarks/compound.py --set d -v

`--set e` builds it over PACKAGES_E, Java and Python again, from projects in no other list (sets a-d, the
held-out list, the public six): Java from Debian's upstream tarballs, Python from PyPI, into
~/.cache/limpet-compound-e/cases-compound-e.jsonl.gz. It was built blind: no engine rule looked at it
before it was run (its first score is the engine's on projects it was never tuned on):

    .venv/bin/python benchmarks/compound.py --set e -v

`--set f` builds it over PACKAGES_F, the languages the other sets hold least (Ruby, PHP, C#, Lua, Swift,
Kotlin, C, C++), from projects in no other list: Debian's upstream tarballs, PyPI sdists (pythonnet's C#,
bitarray's C) and react-native libraries on npm (Swift, Kotlin, C++), into
~/.cache/limpet-compound-f/cases-compound-f.jsonl.gz. It was built blind, as set e was. It holds no Scala:
the mirror serves one release of each Scala project Debian has (scala, pilon, latexdraw):

    .venv/bin/python benchmarks/compound.py --set f -v

`--set g` builds it over PACKAGES_G, Go and Rust, from projects in no other list: Debian's upstream
tarballs only (golang-* sources, fzf, micro, restic, delve; rust-* crates, newsboat's, suricata's, gnome-podcasts'
and cryptography's Rust), where the mirror serves two or more releases, into
~/.cache/limpet-compound-g/cases-compound-g.jsonl.gz. It was built blind, as sets e and f were. PyPI's
maturin sdists (pydantic-core, jiter) ship their crates but do not download here: pip's sdist step builds
maturin from source:

    .venv/bin/python benchmarks/compound.py --set g -v

`--set h` builds it over PACKAGES_H, Java and Python again, from projects in no other list (sets a-g, the
held-out list, the public six): Java from Debian's upstream tarballs where the mirror serves two releases
(h2, hsqldb, zookeeper, jts, lombok, opsin, pdfbox, tomcat9, jmapviewer, bouncycastle, libphonenumber) and
react-native-svg's Android sources on npm, Python from PyPI, into
~/.cache/limpet-compound-h/cases-compound-h.jsonl.gz. It was built blind, as sets e-g were:

    .venv/bin/python benchmarks/compound.py --set h -v

`--set i` builds it over PACKAGES_I, the outside set's other languages (Kotlin, Swift, C#, Ruby, PHP, Lua, C, C++),
from projects in no other list (sets a-h, the held-out list, the public six): react-native libraries on npm
(keyboard-controller, iap, lottie: Kotlin and Swift; react-native-windows before its C++ rewrite: C#),
react-native's and expo-modules-autolinking's CocoaPods scripts (Ruby), bull's Redis scripts (Lua), Debian's
upstream tarballs where the mirror serves two releases (TeX Live's Lua scripts; laravel, phpseclib3, dompdf,
guzzle, ramsey/uuid, dokuwiki, zabbix's frontend: PHP; jq: C; ninja: C++), pycryptodome's C (PyPI sdists) and
nanobind's C++ (PyPI wheels), into ~/.cache/limpet-compound-i/cases-compound-i.jsonl.gz. It was built blind, as
sets e-h were. It holds no Scala: the mirror serves one release of scala (2.11.12) and of pilon (1.24):

    .venv/bin/python benchmarks/compound.py --set i -v

`--set j` builds it over PACKAGES_J, languages no other set holds (Perl, Haskell, OCaml, Erlang, Elixir, R), from
projects in no other list (sets a-i, the held-out list, the public six): Debian's upstream tarballs where the mirror
serves two releases or more (Path::Tiny, Plack, Mojolicious, DateTime, perltidy: Perl; megaparsec,
optparse-applicative, aeson, servant, conduit, hspec-core: Haskell; re, zarith, batteries, menhir, fmt: OCaml;
p1_tls, p1_pgsql: Erlang; earmark_parser, Elixir's own ex_unit/eex/logger/mix tasks: Elixir; stringr, tibble, purrr,
testthat, dplyr, cli, vctrs, rlang: R), into
~/.cache/limpet-compound-j/cases-compound-j.jsonl.gz. Their truth symbols are `_compound_symbols.script_symbols_j`'s.
It was built blind, as sets e-i were:

    .venv/bin/python benchmarks/compound.py --set j -v

`--set k` builds it over PACKAGES_K, more languages no other set holds (Emacs Lisp, Common Lisp, Scheme, Racket,
Tcl, Fish, Ada, Fortran, Pascal, Verilog), from projects in no other list (sets a-j, the held-out list, the public
six): Debian's upstream tarballs where the mirror serves two releases or more (Emacs's emacs-lisp files, helm,
AUCTeX, haskell-mode, notmuch's front end: Emacs Lisp; SBCL's PCL, ECL, Maxima: Common Lisp; Guile's modules,
GnuCash's reports, GIMP's Script-Fu: Scheme; Racket's racket/private; Tcl's and Tk's libraries, tcllib, git-gui:
Tcl; fish's functions; GHDL's runtime: Ada; LAPACK's free-form sources: Fortran; Lazarus's lazutils and TAChart:
Pascal; yosys's cell libraries: Verilog), into ~/.cache/limpet-compound-k/cases-compound-k.jsonl.gz. Their truth
symbols are `_compound_symbols_k`'s. It was built blind, as sets e-j were (the mirror serves one release of most
small projects in these languages, and of every Clojure, D, Nim, Haxe, Groovy and Starlark one:
benchmarks/_compound_packages_k.py):

    .venv/bin/python benchmarks/compound.py --set k -v

Third-party code and the built cases stay in ~/.cache/limpet-compound*/ (never committed). The output
is deterministic: sampling is seeded by package, pair and category; the gzip mtime is 0.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._caseset import Recipe, cap_per_pair, rng, run  # noqa: E402
from benchmarks._compound_packages import (  # noqa: E402
    PACKAGES,
    PACKAGES_B,
    PACKAGES_C,
    PACKAGES_D,
    PACKAGES_E,
    PACKAGES_F,
)
from benchmarks._compound_packages_g_to_j import PACKAGES_G, PACKAGES_H, PACKAGES_I, PACKAGES_J  # noqa: E402
from benchmarks._compound_packages_k import PACKAGES_K  # noqa: E402
from benchmarks._compound_symbols import symbols_for  # noqa: E402
from benchmarks._compound_truth import COMPOUND, CompoundPair  # noqa: E402
from benchmarks._heldout_fetch import Package, fetch_all, source_tree  # noqa: E402
from benchmarks._heldout_truth import Cand  # noqa: E402


def _paths(letter: str) -> tuple[Path, Path]:
    """Set `letter`'s cache folder and cases file (set a's carry no letter, as they always had)."""
    suffix = "" if letter == "a" else f"-{letter}"
    cache = Path.home() / ".cache" / f"limpet-compound{suffix}"
    return cache, cache / f"cases-compound{suffix}.jsonl.gz"


CACHE, OUT = _paths("a")
STANDARD = ["shifted", "edited", "renamed", "moved_file", "deleted", "line"]
CATEGORIES = COMPOUND + STANDARD
PAIR_CAP = dict.fromkeys(COMPOUND, 4) | dict.fromkeys(STANDARD, 1) | {"renamed": 2, "moved_file": 2, "line_gone": 2}
SHARED = ["overload", "line_gone", *STANDARD]  # common: these share what the rare ones leave of the quota
KEEP_ALL = [c for c in COMPOUND if c not in SHARED]  # rare: every candidate is kept
MAX_CHANGED_FILES = 40
MAX_PAIR_BYTES = 3_000_000
DEFAULT_QUOTA = 100

SETS = {letter: (packages, *_paths(letter)) for letter, packages in (
    ("a", PACKAGES), ("b", PACKAGES_B), ("c", PACKAGES_C), ("d", PACKAGES_D), ("e", PACKAGES_E), ("f", PACKAGES_F),
    ("g", PACKAGES_G), ("h", PACKAGES_H), ("i", PACKAGES_I), ("j", PACKAGES_J), ("k", PACKAGES_K))}


def _trees(pkg: Package, v0: str, v1: str, cache: Path) -> tuple[dict[str, str], dict[str, str]]:
    before, after = source_tree(pkg, v0, cache), source_tree(pkg, v1, cache)

    def root_of(p: str) -> str:
        return next((r for r in pkg.roots if p == r or p.startswith(r + "/")), "")

    keep = {root_of(p) for p in before} & {root_of(p) for p in after}
    return ({p: t for p, t in before.items() if root_of(p) in keep},
            {p: t for p, t in after.items() if root_of(p) in keep})


def pair_candidates(pkg: Package, v0: str, v1: str, cache: Path = CACHE) -> tuple[CompoundPair, list[Cand]] | None:
    before, after = _trees(pkg, v0, v1, cache)
    pair = CompoundPair(before, after, symbols_for(pkg.h_language))
    if not pair.changed or sum(len(before.get(p, "")) + len(after.get(p, "")) for p in pair.changed) > MAX_PAIR_BYTES:
        return None
    files = list(pair.changed)
    if len(files) > MAX_CHANGED_FILES:
        files = sorted(rng(pkg.repo, v0, v1, "files").sample(files, MAX_CHANGED_FILES))
    cands, seen = [], set()
    for c in pair.compound(files) + pair.candidates(files):  # compound first: one anchor per range
        if (c.file, c.start, c.end) not in seen:
            seen.add((c.file, c.start, c.end))
            cands.append(c)
    cands.sort(key=lambda c: (c.file, c.start, c.end))
    return pair, cap_per_pair(cands, PAIR_CAP, CATEGORIES, pkg.repo, v0, v1)


RECIPE = Recipe(CATEGORIES, pair_candidates, shared=SHARED, keep_all=KEEP_ALL)


def main(argv=None) -> int:
    pre = argparse.ArgumentParser(add_help=False)  # --set picks the list; run() parses the rest
    pre.add_argument("--set", choices=SETS, default="a")
    chosen, rest = pre.parse_known_args(argv)
    packages, cache, out = SETS[chosen.set]
    recipe = replace(RECIPE, pair_candidates=partial(pair_candidates, cache=cache))
    return run(__doc__, recipe, packages, out, DEFAULT_QUOTA, lambda pkgs, jobs: fetch_all(pkgs, jobs, cache), rest)


if __name__ == "__main__":
    sys.exit(main())
