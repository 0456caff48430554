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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
from hostile_layout import components, plant

from limpet.anchoring import create_anchor
from limpet.model import MAX_ANCHORED_TEXT, MAX_COMPARED_TEXT

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
    path = _thread_file(ws, tid)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "ab") as out:
        for line in lines:
            out.write(line + b"\n")


def _event(created: dict, **changes: object) -> dict:
    return {**{k: v for k, v in created.items() if k != "_thread"}, **changes}


def _line(value: dict) -> bytes:
    return json.dumps(value).encode()


def _reply(created: dict, n: int, **extra: object) -> dict:
    return {"at": created["at"], "body": f"reply {n}", "by": "x", "by_type": "human", "event": "replied",
            "id": f"e_r{n}", "schema": created["schema"], "seq": n + 1, **extra}


def _symlinks() -> list[Repo]:
    rows = []
    for comp in components(False, "TID"):
        for dangling in (False, True):
            def make(ws: Path, outside: Path, created: dict, comp=comp, dangling=dangling) -> None:
                tid = created["_thread"]
                from hostile_layout import Component
                plant(ws, Component(comp.rel.replace("TID", tid), comp.kind, comp.private), outside, dangling=dangling)
            rows.append(Repo("symlinks", f"{comp.id}{'-dangling' if dangling else ''}", make))
    return rows


def _case_variants() -> list[Repo]:
    names = [".GIT/config", ".Git/hooks/x", ".LIMPET/store.json", ".Limpet/threads/x.jsonl", "\uff0e\uff47\uff49\uff54/config",
             ".g\u200dit/config", ".git./config", ".Ǵit/config".replace("Ǵ", "G\u0301"), ".LIMPE\u0054/x"]
    rows = []
    for name in names:
        def make(ws: Path, outside: Path, created: dict, name=name) -> None:
            anchor = {**created["anchor"], "file": name}
            _append(ws, "c_case", [_line(_event(created, id="e_case", anchor=anchor))])
            target = ws / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("[core]\n\thooksPath = /tmp/evil\n")
        rows.append(Repo("case variants", name, make))
    return rows


def _nesting() -> list[Repo]:
    rows = []
    for depth in (1_000, 100_000, 1_000_000):
        def ai_meta(ws: Path, outside: Path, created: dict, depth=depth) -> None:
            line = _line(_event(created, id="e_deep", ai_meta={}))
            nested = b'{"a":' * depth + b"1" + b"}" * depth
            _append(ws, "c_deep", [line.replace(b'"ai_meta": {}', b'"ai_meta": ' + nested)])
        def brackets(ws: Path, outside: Path, created: dict, depth=depth) -> None:
            _append(ws, "c_list", [b"[" * depth + b"]" * depth])
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
        line = _line(_event(created, id="e_dup"))
        _append(ws, "c_dup", [line.replace(b'"anchor": {', b'"anchor": {"file": "../../etc/passwd", ', 1)])
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
                ws, "c_garbage", [b"x" * (64 * MB)]))]
    for key in ("prefix", "suffix", "selected_text", "lost_text"):
        def make(ws: Path, outside: Path, created: dict, key=key) -> None:
            anchor = {**created["anchor"], key: "def helper():\n" * (4 * MB // 14)}
            _append(ws, f"c_{key}", [_line(_event(created, id=f"e_{key}", anchor=anchor))])
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


def _quadratic() -> list[Repo]:
    def replies(ws: Path, outside: Path, created: dict) -> None:
        _append(ws, created["_thread"], [_line(_reply(created, n)) for n in range(50_000)])
    def threads_in_one_file(ws: Path, outside: Path, created: dict) -> None:
        _append(ws, "c_many", [_line(_event(created, id=f"e_m{n}", body=f"t{n}")) for n in range(5_000)])
    def thread_files(ws: Path, outside: Path, created: dict) -> None:
        for n in range(3_000):
            _append(ws, f"c_f{n}", [_line(_event(created, id=f"e_f{n}", body=f"good {n}"))])
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
    return [*_symlinks(), *_case_variants(), *_nesting(), *_duplicate_keys(), *_giant(), *_evidence(), *_quadratic(),
            *_overrides(), *_patterns()]


def main_event(ws: Path) -> dict:
    """The honest thread's created event, with its thread id under `_thread`."""
    (path,) = sorted((ws / ".limpet" / "threads").glob("*.jsonl"))
    created = json.loads(path.read_bytes().splitlines()[0])
    return {**created, "_thread": path.stem}


