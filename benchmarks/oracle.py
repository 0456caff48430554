#!/usr/bin/env python3
"""Build an anchoring set from RefactoringMiner's public refactoring oracles.

The oracles (tsantalis/RefactoringMiner, src/test/resources/oracle/{python,javascript,kotlin}-dataset/
data.json) list commits of public repositories and the refactorings their authors validated (TP),
each named with its methods and classes: rename method, move method, move and rename, pull up /
push down, extract method, extract and move, inline, move and inline. (Java's data.json is over the
fetch tool's 4 MiB file limit; CodeTracker's and CodeShovel's oracles are kept for the outside
measurement and never used here.) The truth of which method became which is the oracle's; the
extents are the methods' own (limpet's parser, the same for the engine and the truth: the oracle
names symbols, not lines). One case group per commit, its files the commit's changed source files
before (first parent) and after (`git diff --no-renames`):

    rename, move, move_rename, pull_push  a thread on the whole old method -> the whole new one
    extract, extract_move                 a thread on the longest run of the old method's rows that
                                          left it for the extracted method -> those rows there
    inline, move_inline                   a thread on the inlined method -> the whole method that
                                          received its body (one receiver; several: orphaned)

A method still in its class with its very statements stayed (what the oracle calls moved is a
copy): the truth is where it stays. A method whose body was copied verbatim into several new
places has no one place (orphaned), as a method inlined into several callers.

A case is dropped when its method cannot be found uniquely (overloads the oracle's spelling does
not separate, a class spec no path matches). Repositories are read from bare git mirrors (the
search tool's `fetch`: MIRRORS/OWNER+NAME/repo, MIRRORS from --mirrors or $LIMPET_MIRRORS), the oracles
from RefactoringMiner's mirror.

    .venv/bin/python benchmarks/oracle.py --mirrors DIR -v   # -> ~/.cache/limpet-oracle/cases-oracle.jsonl.gz
    .venv/bin/python benchmarks/anchoring_inprocess.py --cases ~/.cache/limpet-oracle/cases-oracle.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from limpet.anchoring._fileview import FileView, file_view

MIRRORS = os.environ.get("LIMPET_MIRRORS")  # a folder of one machine: given, never written here
ORACLE_REPO = "tsantalis+RefactoringMiner"
OUT = Path.home() / ".cache" / "limpet-oracle" / "cases-oracle.jsonl.gz"
DATASETS = {"python": (".py",), "javascript": (".js",), "kotlin": (".kt",)}
CATEGORIES = ("rename", "move", "move_rename", "pull_push", "extract", "extract_move", "inline", "move_inline")
GROUP_BYTES = 400_000  # a commit's files past this: only the files its cases need
MAX_FILE_BYTES = 200_000
EXTRACT_MIN_ROWS, EXTRACT_MIN_CHARS = 2, 40
COPY_MIN_ROWS = 3

SIG = r"(?:(?:public|private|protected|package|internal)\s+)?(?P<{0}>[\w$.]+?)\((?P<{0}p>[^)]*)\)(?:\s*:\s*\S.*?)?"
PATTERNS = {
    "rename": re.compile(r"^Rename Method " + SIG.format("old") + r" renamed to " + SIG.format("new")
                         + r" in class (?P<cls>\S+)$"),
    "moved": re.compile(r"^(?P<type>Move And Rename Method|Move Method|Pull Up Method|Push Down Method) "
                        + SIG.format("old") + r" from class (?P<ocls>\S+) to " + SIG.format("new")
                        + r" from class (?P<ncls>\S+)$"),
    "extract": re.compile(r"^Extract Method " + SIG.format("new") + r" extracted from " + SIG.format("old")
                          + r" in class (?P<cls>\S+)$"),
    "extract_move": re.compile(r"^Extract And Move Method " + SIG.format("new") + r" extracted from "
                               + SIG.format("old") + r" in class (?P<ocls>\S+) & moved to class (?P<ncls>\S+)$"),
    "inline": re.compile(r"^Inline Method " + SIG.format("old") + r" inlined to " + SIG.format("new")
                         + r" in class (?P<cls>\S+)$"),
    "move_inline": re.compile(r"^Move And Inline Method " + SIG.format("old") + r" moved from class (?P<ocls>\S+)"
                              r" to class (?P<ncls>\S+) & inlined to " + SIG.format("new") + r"$"),
}
MOVED_TYPES = {"Move Method": "move", "Move And Rename Method": "move_rename",
               "Pull Up Method": "pull_push", "Push Down Method": "pull_push"}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], capture_output=True, text=True,
                          check=True).stdout


def parse(description: str) -> dict | None:
    """(category, old name, old class, new name, new class) of one refactoring's description."""
    for kind, pattern in PATTERNS.items():
        m = pattern.match(description.strip())
        if m is None:
            continue
        d = m.groupdict()
        cat = MOVED_TYPES[d["type"]] if kind == "moved" else kind
        ocls = d.get("ocls") or d.get("cls")
        ncls = d.get("ncls") or d.get("cls")
        if kind == "move_inline":  # the receiver is in the class it moved to
            ocls, ncls = d["ocls"], d["ncls"]
        return dict(category=cat, old=_simple(d["old"]), new=_simple(d["new"]), ocls=ocls, ncls=ncls)
    return None


def _simple(name: str) -> str:
    return name.rsplit(".", 1)[-1]  # `helpers.addResizeListener` (JS), `String.classpathFile` (Kotlin)


def find(views: dict[str, FileView], name: str, cls: str) -> tuple[str, object] | None:
    """The one method `name` of class spec `cls` (a dotted class or `module.__module__`): among the
    symbols of that name, those whose path and enclosing names end with most of the spec's parts."""
    parts = cls.split(".")
    module_level = parts[-1] == "__module__"
    if module_level or parts[-1] == "module":
        parts = parts[:-1]
    scored = []
    for path, view in views.items():
        stem = re.sub(r"\.[^.]+$", "", path)
        for sv in (s for s in view.symbols if s.name == name):
            if module_level and sv.parent_name:
                continue
            loc = re.split(r"[/.]", stem) + [p for p in sv.parent_name.split(".") if p]
            k = 0
            while k < min(len(parts), len(loc)) and parts[-1 - k] == loc[-1 - k]:
                k += 1
            if k == 0 and not module_level:  # a class spec: its class must be the enclosing one
                if not (sv.parent_name and sv.parent_name.split(".")[-1] == parts[-1]):
                    continue
                k = 1
            scored.append((k, path, sv))
    if not scored:
        return None
    best = max(k for k, _, _ in scored)
    top = [(p, sv) for k, p, sv in scored if k == best]
    return top[0] if len(top) == 1 else None


def extracted_run(old_rows: list[str], gone_to: list[str], stayed: list[str]) -> tuple[int, int] | None:
    """The longest run of the old method's rows (first, last, within it) that are in the
    extracted method and no longer in the old one; blank rows inside a run only."""
    into, kept = set(gone_to), Counter(stayed)
    ok = [bool(r) and r in into and not kept[r] for r in old_rows]
    best, i = None, 0
    while i < len(old_rows):
        if not ok[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(old_rows) and (ok[j + 1] or not old_rows[j + 1] and j + 2 < len(old_rows) and ok[j + 2]):
            j += 1
        rows = [r for r in old_rows[i:j + 1] if r]
        if len(rows) >= EXTRACT_MIN_ROWS and sum(map(len, rows)) >= EXTRACT_MIN_CHARS:
            if best is None or j - i > best[1] - best[0]:
                best = (i, j)
        i = j + 1
    return best


def _same_body(before: FileView, old, after: FileView, now) -> bool:
    """Are the rows after the declaration row of `old` (in `before`) and `now` (in `after`) the
    same statements, whitespace aside (and some there at all)?"""
    def body(view, sv):
        return [r.strip() for r in view.rows[sv.first + 1:sv.last + 1] if r.strip() not in ("", "}")]
    rows = body(before, old)
    return bool(rows) and rows == body(after, now)


def _copies(vb: dict[str, FileView], va: dict[str, FileView], op: str, osv) -> int:
    """How many symbols new in the commit hold the old method's body rows verbatim (whitespace
    aside; bodies of COPY_MIN_ROWS rows or more, shorter ones are alike by chance)."""
    def body(view, sv):
        return [r.strip() for r in view.rows[sv.first + 1:sv.last + 1] if r.strip() not in ("", "}")]
    rows = body(vb[op], osv)
    if len(rows) < COPY_MIN_ROWS:
        return 0
    return sum(1 for p, view in va.items() for sv in view.symbols
               if sv.qualified_name not in (vb[p].by_name if p in vb else {}) and body(view, sv) == rows)


def occurrence(rows: list[str], within: list[str]) -> int | None:
    n = len(rows)
    hits = [s for s in range(len(within) - n + 1) if within[s:s + n] == rows]
    return hits[0] if len(hits) == 1 else None


def build_commit(repo: Path, full: str, sha: str, exts: tuple[str, ...], refactorings: list[dict],
                 language: str, verbose: bool) -> dict | None:
    try:
        parent = git(repo, "rev-parse", sha + "^").strip()
        names = [p for p in git(repo, "diff", "--no-renames", "--name-only", parent, sha).splitlines()
                 if p.endswith(exts)]
    except subprocess.CalledProcessError:
        if verbose:
            print(f"  {full} {sha[:10]}: not in the mirror", file=sys.stderr)
        return None
    before, after = {}, {}
    for p in names:
        for rev, out in ((parent, before), (sha, after)):
            try:
                text = git(repo, "show", f"{rev}:{p}")
            except (subprocess.CalledProcessError, UnicodeDecodeError):
                continue
            if len(text.encode("utf-8")) <= MAX_FILE_BYTES:
                out[p] = text
    vb = {p: file_view(p, t.encode("utf-8")) for p, t in before.items()}
    va = {p: file_view(p, t.encode("utf-8")) for p, t in after.items()}
    inlined_into = Counter((r["old"], r["ocls"]) for r in refactorings if r["category"] in ("inline", "move_inline"))
    anchors, seen = [], set()
    for r in refactorings:
        cat = r["category"]
        old = find(vb, r["old"], r["ocls"])
        new = find(va, r["new"], r["ncls"])
        if old is None or new is None:
            continue
        (op, osv), (np_, nsv) = old, new
        a = None
        if cat in ("rename", "move", "move_rename", "pull_push", "inline", "move_inline"):
            still = [s for s in (va[op].symbols if op in va else ()) if s.qualified_name == osv.qualified_name]
            if len(still) == 1 and cat != "inline" and cat != "move_inline" and _same_body(vb[op], osv, va[op], still[0]):
                # the old method is still there with its very statements (the declaration aside): what
                # the oracle calls moved is a copy (a setter copied into a new Builder); the thread's
                # code did not go anywhere
                exp = dict(file=op, line_start=still[0].first + 1, line_end=still[0].last + 1)
            elif cat in ("pull_push", "inline", "move_inline") and still:
                continue  # the old method stayed (an override kept, a caller left): no single truth
            elif _copies(vb, va, op, osv) > 1:
                exp = {"orphan": True}  # its body copied verbatim into several new places: no one place
            else:
                exp = dict(file=np_, line_start=nsv.first + 1, line_end=nsv.last + 1)
            if cat in ("inline", "move_inline") and inlined_into[(r["old"], r["ocls"])] > 1:
                exp = {"orphan": True}  # inlined into several callers: no one place
            a = dict(category=cat, file=op, line_start=osv.first + 1, line_end=osv.last + 1, expected=exp,
                     kind=osv.kind, symbol=osv.qualified_name, new_symbol=nsv.qualified_name)
        else:  # extract: the rows that left the old method for the new one
            stayed_at = find(va, r["old"], r["ocls"])
            if stayed_at is None:
                continue
            brows, arows = vb[op].rows, va[np_].rows
            old_rows = brows[osv.first + 1:osv.last + 1]  # the body (its declaration row stays)
            new_rows = arows[nsv.first:nsv.last + 1]
            sp, ssv = stayed_at
            run = extracted_run(old_rows, new_rows, va[sp].rows[ssv.first:ssv.last + 1])
            if run is None:
                continue
            quote = old_rows[run[0]:run[1] + 1]
            at = occurrence(quote, new_rows)
            if at is None:
                continue
            first = osv.first + 1 + run[0]
            a = dict(category=cat, file=op, line_start=first + 1, line_end=first + 1 + run[1] - run[0],
                     expected=dict(file=np_, line_start=nsv.first + at + 1, line_end=nsv.first + at + len(quote)),
                     kind="lines", symbol=osv.qualified_name, new_symbol=nsv.qualified_name)
        key = (a["file"], a["line_start"], a["line_end"])
        if key in seen:
            continue
        seen.add(key)
        anchors.append(a)
    if not anchors:
        return None
    must = {a["file"] for a in anchors} | {a["expected"]["file"] for a in anchors if "file" in a["expected"]}
    files = sorted(set(before) | set(after))
    size = sum(len(before.get(p, "")) + len(after.get(p, "")) for p in files)
    if size > GROUP_BYTES:
        files = sorted(must)
    short = full.rsplit("/", 1)[-1]
    for i, a in enumerate(anchors):
        a["id"] = f"{short}-{sha[:8]}-{i}"
    return {"repo": full, "commit": sha, "parent": parent, "language": language,
            "files_before": {p: before[p] for p in files if p in before},
            "files_after": {p: after.get(p) for p in files},
            "files_omitted": len(names) - len(files), "anchors": anchors}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirrors", default=MIRRORS, required=MIRRORS is None,
                    help="where OWNER+NAME/repo bare mirrors are (default: $LIMPET_MIRRORS)")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    mirrors = Path(args.mirrors)
    oracle = mirrors / ORACLE_REPO / "repo"
    groups, dropped = [], Counter()
    for language, exts in DATASETS.items():
        data = json.loads(git(oracle, "show", f"HEAD:src/test/resources/oracle/{language}-dataset/data.json"))
        for entry in data:
            full = re.sub(r"^https://github.com/|\.git$", "", entry["repository"])
            repo = mirrors / full.replace("/", "+") / "repo"
            refs = []
            for r in entry["refactorings"]:
                if r["validation"] not in ("TP", "CTP"):
                    continue
                parsed = parse(r["description"])
                if parsed is not None:
                    refs.append(parsed)
            if not refs:
                continue
            if not repo.exists():
                dropped["repository not fetched"] += len(refs)
                continue
            g = build_commit(repo, full, entry["sha1"], exts, refs, language, args.verbose)
            if g is not None:
                groups.append(g)
                n = Counter(a["category"] for a in g["anchors"])
                if args.verbose:
                    print(f"  {full} {entry['sha1'][:10]}: {dict(n)} of {len(refs)}", file=sys.stderr)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        for g in groups:
            f.write((json.dumps(g, ensure_ascii=False) + "\n").encode("utf-8"))
    total = Counter(a["category"] for g in groups for a in g["anchors"])
    repos = Counter(g["repo"] for g in groups for _ in g["anchors"])
    print(f"wrote {out}: {len(groups)} groups, {sum(total.values())} anchors {dict(total)}; "
          f"by repository {dict(repos)}; dropped {dict(dropped)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
