"""A generator of hostile repositories (issue 33): each class of attack a crafted clone can
carry, as workspaces built from one honest workspace (a thread on tests/support's SAMPLE).
Deterministic: the only choices are drawn from one seeded generator.

A repository is a name, its class, a function making it from the honest copy, and the search
queries to run on it. The test (test_hostile_repos.py) reads every one under a memory and a
CPU limit; adding a class here is adding rows to `repositories()`.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
from gitrepo import git_init
from hostile_layout import Component, components, plant

from limpet.anchoring import create_anchor
from limpet.model import MAX_ANCHORED_TEXT, MAX_COMPARED_TEXT, THREAD_ID_PATTERN
from limpet.server.store._derived import _TABLES as TABLES

__all__ = ["Repo", "SEED", "main_event", "repositories"]

SEED = 20261128
MB = 1 << 20


@dataclass(frozen=True)
class Repo:
    cls: str
    name: str
    make: Callable[[Path, Path, dict], None]  # (workspace, outside folder, the honest created event)
    queries: tuple[str, ...] = field(default=("good",))


def _thread_file(ws: Path, tid: str) -> Path:
    return ws / ".limpet" / "threads" / f"{tid}.jsonl"


def _append(ws: Path, tid: str, lines: list[bytes]) -> None:
    # A file under another name is never read, and an event with another id never applied: a
    # hostile row must be one limpet reads (rows named c_deep, e_r1 once tested nothing).
    assert THREAD_ID_PATTERN.fullmatch(tid), tid
    path = _thread_file(ws, tid)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "ab") as out:
        for line in lines:
            out.write(line + b"\n")


def _event(created: dict, **changes: object) -> dict:
    return {**{k: v for k, v in created.items() if k != "_thread"}, **changes}


def _line(value: dict) -> bytes:
    assert re.fullmatch(r"e_\d+", str(value.get("id", "e_0"))), value.get("id")
    return json.dumps(value).encode()


def _reply(created: dict, n: int, **extra: object) -> dict:
    return {"at": created["at"], "body": f"reply {n}", "by": "x", "by_type": "human", "event": "replied",
            "id": f"e_10{n:06d}", "schema": created["schema"], "seq": n + 1, **extra}


def _symlinks() -> list[Repo]:
    rows = []
    for comp in components(False, "TID"):
        for dangling in (False, True):
            def make(ws: Path, outside: Path, created: dict, comp=comp, dangling=dangling) -> None:
                tid = created["_thread"]
                plant(ws, Component(comp.rel.replace("TID", tid), comp.kind, comp.private), outside, dangling=dangling)
            rows.append(Repo("symlinks", f"{comp.id}{'-dangling' if dangling else ''}", make))
    return rows


def _private_in_git() -> list[Repo]:
    """The private folder inside git (`.git/limpet/`, _layout.py): a link out of the workspace
    at each of its components, dangling or not; `.git` itself a link; the folder's names in other
    cases (one folder on macOS and Windows) as links; threads anchored on its files."""
    rows = []
    for comp in (c for c in components(True, "TID") if c.private):
        for dangling in (False, True):
            def make(ws: Path, outside: Path, created: dict, comp=comp, dangling=dangling) -> None:
                git_init(ws)
                plant(ws, Component(comp.rel.replace("TID", created["_thread"]), comp.kind, True), outside,
                      dangling=dangling)
            rows.append(Repo("private folder in git", f"{comp.id}{'-dangling' if dangling else ''}", make))
    variants = [(".git", "dir"), (".git/LIMPET", "dir"), (".git/Limpet", "dir"), (".git/limpet/DERIVED.SQLITE", "file"),
                (".git/limpet/Derived.sqlite", "file"), (".git/limpet/BACKUPS", "dir"), (".GIT", "dir"),
                (".git/limpet\u0307", "dir"), (".limpet/CACHE", "dir"), (".limpet/Cache/derived.sqlite", "file")]
    for rel, kind in variants:
        def make_variant(ws: Path, outside: Path, created: dict, rel=rel, kind=kind) -> None:
            if not rel.startswith(".limpet/"):
                git_init(ws)
            plant(ws, Component(rel, kind, True), outside)
        rows.append(Repo("private folder in git", f"{rel}({kind}) a link", make_variant))
    for n, name in enumerate((".git/limpet/derived.sqlite", ".GIT/LIMPET/derived.sqlite", ".git/limpet/review.json",
                              ".git/limpet/backups/threads/c_1.jsonl", ".limpet/CACHE/derived.sqlite")):
        def anchored(ws: Path, outside: Path, created: dict, name=name, n=n) -> None:
            git_init(ws)
            anchor = {**created["anchor"], "file": name}
            _append(ws, f"c_33003{n}", [_line(_event(created, id=f"e_33003{n}", anchor=anchor))])
        rows.append(Repo("private folder in git", f"a thread on {name}", anchored))
    return rows


def _case_variants() -> list[Repo]:
    names = [".GIT/config", ".Git/hooks/x", ".LIMPET/store.json", ".Limpet/threads/x.jsonl", "\uff0e\uff47\uff49\uff54/config",
             ".g\u200dit/config", ".git./config", ".Ǵit/config".replace("Ǵ", "G\u0301"), ".LIMPE\u0054/x"]
    rows = []
    for name in names:
        def make(ws: Path, outside: Path, created: dict, name=name) -> None:
            anchor = {**created["anchor"], "file": name}
            _append(ws, "c_3300002", [_line(_event(created, id="e_3300002", anchor=anchor))])
            target = ws / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("[core]\n\thooksPath = /tmp/evil\n")
        rows.append(Repo("case variants", name, make))
    return rows


def _nesting() -> list[Repo]:
    rows = []
    for depth in (1_000, 100_000, 1_000_000):
        def ai_meta(ws: Path, outside: Path, created: dict, depth=depth) -> None:
            line = _line(_event(created, id="e_3300003", ai_meta={}))
            nested = b'{"a":' * depth + b"1" + b"}" * depth
            _append(ws, "c_3300003", [line.replace(b'"ai_meta": {}', b'"ai_meta": ' + nested)])
        def brackets(ws: Path, outside: Path, created: dict, depth=depth) -> None:
            _append(ws, "c_3300004", [b"[" * depth + b"]" * depth])
        rows += [Repo("deep nesting", f"ai_meta {depth:,} deep", ai_meta),
                 Repo("deep nesting", f"a line of {depth:,} nested lists", brackets)]
    return rows


def _duplicate_keys() -> list[Repo]:
    def event_twice(ws: Path, outside: Path, created: dict) -> None:
        line = _line(_reply(created, 1, body="LGTM"))
        _append(ws, created["_thread"], [line[:-1] + b', "event": "deleted"}'])
    def body_twice(ws: Path, outside: Path, created: dict) -> None:
        line = _line(_reply(created, 2))
        _append(ws, created["_thread"], [line[:-1] + b', "body": "other"}'])
    def anchor_file_twice(ws: Path, outside: Path, created: dict) -> None:
        line = _line(_event(created, id="e_3300005"))
        _append(ws, "c_3300005", [line.replace(b'"anchor": {', b'"anchor": {"file": "../../etc/passwd", ', 1)])
    def many_repeats(ws: Path, outside: Path, created: dict) -> None:
        line = _line(_reply(created, 3))
        _append(ws, created["_thread"], [line[:-1] + b"".join(b', "body": "x%d"' % i for i in range(100_000)) + b"}"])
    return [Repo("duplicate keys", n, f) for n, f in (("event, last says deleted", event_twice),
                                                      ("body", body_twice), ("anchor.file", anchor_file_twice),
                                                      ("body 100,000 times", many_repeats))]


def _giant() -> list[Repo]:
    rows = [Repo("giant lines and contexts", "a 20 MB body", lambda ws, o, c: _append(
        ws, c["_thread"], [_line(_reply(c, 1, body="b" * (20 * MB)))])),
            Repo("giant lines and contexts", "a 64 MB line of garbage", lambda ws, o, c: _append(
                ws, "c_3300006", [b"x" * (64 * MB)]))]
    for n, key in enumerate(("prefix", "suffix", "selected_text", "lost_text")):
        def make(ws: Path, outside: Path, created: dict, key=key, n=n) -> None:
            anchor = {**created["anchor"], key: "def helper():\n" * (4 * MB // 14)}
            _append(ws, f"c_33001{n}", [_line(_event(created, id=f"e_33001{n}", anchor=anchor))])
        rows.append(Repo("giant lines and contexts", f"a 4 MB anchor {key}", make))
    return rows


def _function(i: int, name: str = "f") -> str:
    return f"def {name}{i:04d}(a, b):\n    x = a + {i}\n    y = b * x - {i % 7}\n    return helper(x, y, {i})\n\n\n"


def _evidence() -> list[Repo]:
    """A thread whose anchor carries a long `selected_text` (within MAX_ANCHORED_TEXT) on a
    function of a ~95 KB file of 1,200, then renamed or deleted: every other function is a
    candidate, each compared with that text (a 1 MB one cost ~42 s of CPU, 1,200 times its length)."""
    functions = [_function(i) for i in range(1_200)]
    before = "".join(functions)
    after = {"renamed": before.replace(functions[600], _function(600, "g")),
             "deleted": before.replace(functions[600], "")}
    fillers = {"statements": "    z = helper(a, b, c)\n", "short rows": "a b c d\n"}
    rows = []
    for change, source in after.items():
        for size in (MAX_COMPARED_TEXT - 100, MB, MAX_ANCHORED_TEXT - 100):
            for shape, filler in fillers.items():
                def make(ws: Path, outside: Path, created: dict, source=source, size=size, filler=filler) -> None:
                    anchor = create_anchor("src/many.py", before.encode(), 1 + 6 * 600, 4 + 6 * 600)
                    text = anchor.selected_text + filler * ((size - len(anchor.selected_text)) // len(filler))
                    anchor = msgspec.structs.replace(anchor, selected_text=text)
                    (ws / "src" / "many.py").write_text(source)
                    _append(ws, "c_3300001", [_line(_event(created, id="e_3300001",
                                                            anchor=msgspec.to_builtins(anchor)))])
                rows.append(Repo("anchor evidence", f"{size:,} characters of {shape}, function {change}", make))
    return rows


def _derived_db(ws: Path, in_git: bool) -> sqlite3.Connection:
    """The private folder's derived.sqlite replaced by a crafted one (at the schema version
    limpet expects)."""
    folder = ws / ".git" / "limpet" if in_git else ws / ".limpet" / "cache"
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("derived.sqlite", "derived.sqlite-wal", "derived.sqlite-shm"):
        (folder / name).unlink(missing_ok=True)
    db = sqlite3.connect(folder / "derived.sqlite")
    db.execute("PRAGMA user_version=1")
    return db


def _position(created: dict, **changes: object) -> dict:
    anchor = created["anchor"]
    return {"base": created["id"], "anchor": anchor, "health": "anchored", "method": "exact", "confidence": 1.0,
            "checked": anchor["content_hash"], "checked_ws": None, "history": [], "moved_at": None, **changes}


def _derived_rows() -> list[Repo]:
    """Crafted rows in the derived cache (derived.sqlite in the private folder, inside git and
    outside): nested deep, oversized, of the wrong types or values, and tables that are not the
    tables limpet made (an endless view, missing columns, a trigger refusing writes)."""
    def deep(depth: int) -> Callable[[dict], list[tuple]]:
        def rows(created: dict) -> list[tuple]:
            record = json.dumps(_position(created, history="HERE")).encode()
            nested = b'{"a":' * depth + b"1" + b"}" * depth
            history = b'[{"at": "2026-01-01T00:00:00.000Z", "event": "reanchored", "by": null, "details": ' + nested + b"}]"
            return [(created["_thread"], created["id"], record.replace(b'"HERE"', history))]
        return rows

    def one(**changes: object) -> Callable[[dict], list[tuple]]:
        return lambda c: [(c["_thread"], c["id"], json.dumps(_position(c, **changes)).encode())]

    def anchor(**changes: object) -> Callable[[dict], list[tuple]]:
        return lambda c: [(c["_thread"], c["id"], json.dumps(_position(c, anchor={**c["anchor"], **changes})).encode())]

    def typed(thread: object, base: object, record: object) -> Callable[[dict], list[tuple]]:
        return lambda c: [(c["_thread"] if thread is None else thread, c["id"] if base is None else base,
                           json.dumps(_position(c)) if record is None else record)]

    history = [{"at": "2026-01-01T00:00:00.000Z", "event": "reanchored", "by": None, "details": {"n": n}}
               for n in range(20_000)]
    derived = {
        "history details 1,000 deep": deep(1_000), "history details 100,000 deep": deep(100_000),
        "a 20 MB row": anchor(selected_text="x" * (20 * MB)), "a 4 MB selected_text": anchor(selected_text="x" * (4 * MB - 8)),
        "a 1 MB method": one(method="m" * MB), "confidence 1e308": one(confidence=1e308),
        "confidence -5": one(confidence=-5), "health bogus": one(health="bogus"),
        "anchor.file ../../etc/passwd": anchor(file="../../etc/passwd"), "anchor.file .git/config": anchor(file=".git/config"),
        "anchor lines 10-5": anchor(line_start=10, line_end=5), "20,000 history entries": one(history=history),
        "moved_at in 9999": one(moved_at="9999-12-31T23:59:59.999Z"), "checked an integer": one(checked=7),
        "a record as text": typed(None, None, None), "a record as an integer": typed(None, None, 7),
        "a record as a real": typed(None, None, 1.5), "a record as null": typed(None, None, b"null"),
        "a thread id as an integer": typed(7, None, json.dumps({}).encode()), "a thread id as a blob": typed(b"\xff", None, b"{}"),
        "a 1 MB thread id": typed("c_" + "1" * MB, None, None), "an empty base": typed(None, b"", None),
        "100,000 rows of garbage": lambda c: [(f"c_{n}", "e_1", b"{\"x\": 1}") for n in range(100_000)],
    }
    files = {
        "state of three numbers": [("src/auth.py", "1,2,3", "0" * 32)],
        "state of words": [("src/auth.py", "a,b,c,d", "0" * 32)],
        "hash an integer": [("src/auth.py", "1,2,3,4", 7)],
        "a 10 MB hash": [("src/auth.py", "1,2,3,4", "a" * (10 * MB))],
        "a 1 MB path": [("p" * MB, "1,2,3,4", "0" * 32)],
        "100,000 rows": [(f"f{n}.py", "1,2,3,4", "0" * 32) for n in range(100_000)],
        "a blob state": [("src/auth.py", b"\x00" * 100, "0" * 32)],
    }
    schemas = {
        "derived an endless view": "CREATE VIEW derived AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
                                   "FROM c) SELECT 'c_' || x AS thread, 'e_1' AS base, x AS record FROM c",
        "files an endless view": "CREATE VIEW files AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
                                 "FROM c) SELECT 'src/auth.py' AS path, '1,2,3,4' AS state, 'ab' AS hash FROM c",
        "derived without its columns": "CREATE TABLE derived (x)",
        "files without its columns": "CREATE TABLE files (x)",
        "a trigger refusing writes": f"{TABLES[0]}; CREATE TRIGGER no BEFORE INSERT ON derived BEGIN "
                                     "SELECT RAISE(ABORT, 'no'); END",
        "tables without types": "CREATE TABLE derived (thread, base, record); CREATE TABLE files (path, state, hash); "
                                "INSERT INTO derived VALUES ('c_1', NULL, NULL), (NULL, 1, 2.5)",
    }
    rows = []
    for in_git in (False, True):
        where = "in git" if in_git else "outside git"
        for name, make_rows in derived.items():
            def make(ws: Path, outside: Path, created: dict, make_rows=make_rows, in_git=in_git) -> None:
                if in_git:
                    git_init(ws)
                with _derived_db(ws, in_git) as db:
                    db.executescript(";".join(TABLES))
                    db.executemany("INSERT INTO derived VALUES (?, ?, ?)", make_rows(created))
            rows.append(Repo("derived cache rows", f"{name} ({where})", make))
        for name, file_rows in files.items():
            def make_files(ws: Path, outside: Path, created: dict, file_rows=file_rows, in_git=in_git) -> None:
                if in_git:
                    git_init(ws)
                with _derived_db(ws, in_git) as db:
                    db.executescript(";".join(TABLES))
                    db.executemany("INSERT INTO files VALUES (?, ?, ?)", file_rows)
            rows.append(Repo("derived cache rows", f"files: {name} ({where})", make_files))
        for name, sql in schemas.items():
            def make_schema(ws: Path, outside: Path, created: dict, sql=sql, in_git=in_git) -> None:
                if in_git:
                    git_init(ws)
                with _derived_db(ws, in_git) as db:
                    db.executescript(sql)
            rows.append(Repo("derived cache rows", f"{name} ({where})", make_schema))
    return rows


def _quadratic() -> list[Repo]:
    def replies(ws: Path, outside: Path, created: dict) -> None:
        _append(ws, created["_thread"], [_line(_reply(created, n)) for n in range(50_000)])
    def threads_in_one_file(ws: Path, outside: Path, created: dict) -> None:
        _append(ws, "c_3300007", [_line(_event(created, id=f"e_20{n:06d}", body=f"t{n}")) for n in range(5_000)])
    def thread_files(ws: Path, outside: Path, created: dict) -> None:
        for n in range(3_000):
            _append(ws, f"c_31{n:06d}", [_line(_event(created, id=f"e_30{n:06d}", body=f"good {n}"))])
    def edits(ws: Path, outside: Path, created: dict) -> None:
        _append(ws, created["_thread"], [_line({**_reply(created, n), "event": "edited", "target": created["id"]})
                                         for n in range(50_000)])
    return [Repo("quadratic shapes", n, f) for n, f in (("a thread with 50,000 replies", replies),
                                                        ("5,000 created events in one file", threads_in_one_file),
                                                        ("3,000 thread files", thread_files),
                                                        ("50,000 edits of one comment", edits))]


def _override(text: str) -> Callable[[Path, Path, dict], None]:
    def make(ws: Path, outside: Path, created: dict) -> None:
        folder = ws / ".limpet" / "prompts"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "review_code.md.j2").write_text(text)
    return make


def _overrides() -> list[Repo]:
    return [Repo("prompt overrides", n, _override(t)) for n, t in (
        ("8 MB override", "x" * (8 * MB)),
        ("200 nested if", "{% if true %}" * 200 + "x" + "{% endif %}" * 200),
        ("1,000 nested for", "{% for a in [1] %}" * 1000 + "x" + "{% endfor %}" * 1000),
        ("5,000 nested parentheses", "{{ " + "(" * 5000 + "1" + ")" * 5000 + " }}"),
        ("100,000 lines of tags", "{{ filePath }}\n" * 100_000),
    )]


def _patterns() -> list[Repo]:
    rng = random.Random(SEED)
    drawn = tuple("(?:" * d + f"a{{{rng.randint(2, 999)}}}" + f"){{{rng.randint(2, 999)}}}" * d
                  for d in (rng.randint(2, 5) for _ in range(3)))
    def body(ws: Path, outside: Path, created: dict) -> None:
        _append(ws, created["_thread"], [_line(_reply(created, n, body="a" * 3000 + " good")) for n in range(50)])
    return [Repo("search patterns", "counted, nested, back references", body, (
        "a{10000000}", "a{4294967294}", "(?:(?:(?:a{999}){999}){999})", r"(a)\1", "(?P<x>a)(?P=x)", "(x+x+)+y",
        "(a|aa)*" * 50 + "b", "a(?=b)", *drawn))]


def repositories() -> list[Repo]:
    return [*_symlinks(), *_private_in_git(), *_case_variants(), *_derived_rows(), *_nesting(), *_duplicate_keys(), *_giant(), *_evidence(), *_quadratic(),
            *_overrides(), *_patterns()]


def main_event(ws: Path) -> dict:
    """The honest thread's created event, with its thread id under `_thread`."""
    (path,) = sorted((ws / ".limpet" / "threads").glob("*.jsonl"))
    created = json.loads(path.read_bytes().splitlines()[0])
    return {**created, "_thread": path.stem}


