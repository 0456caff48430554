"""Symbol extraction: golden fixtures per language, query hygiene, generic rules.

Fixtures live in fixtures/symbols/<language>.<ext> with the expected output in
<language>.<ext>.expected.json. Regenerate after an intended change with
    LIMPET_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/anchoring/test_symbols.py
and review the diff. Adding a language = one .scm + one fixture (+ its golden);
the parametrization below picks both up with no Python change.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from limpet.anchoring import _languages
from limpet.anchoring._complexity import cyclomatic_complexity
from limpet.anchoring._languages import (
    available_queries,
    get_query,
    has_symbols,
    language_for,
    language_for_path,
    parse,
)
from limpet.anchoring._symbols import Symbol, extract_symbols

FIXTURES = Path(__file__).parent / "fixtures" / "symbols"
UPDATE = os.environ.get("LIMPET_UPDATE_GOLDEN") == "1"
GOLDEN = ".expected.json"


def _fixture_for(language: str) -> Path | None:
    found = [p for p in FIXTURES.glob(f"{language}.*") if not p.name.endswith(GOLDEN)]
    return found[0] if found else None


def _golden(language: str, path: Path) -> list[dict]:
    source = path.read_bytes()
    complexity = {(s.start_byte, s.end_byte): c for s, c in cyclomatic_complexity(language, source)}
    rows = []
    for s in extract_symbols(language, source):
        row = {"qualified_name": s.qualified_name, "kind": s.kind, "lines": [s.start_line, s.end_line],
               "name": s.name, "parent": s.parent}
        if (s.start_byte, s.end_byte) in complexity:
            row["complexity"] = complexity[s.start_byte, s.end_byte]
        rows.append(row)
    return rows


def _dump(rows: list[dict]) -> str:
    # One symbol per line keeps golden diffs readable.
    return "[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n]\n"


@pytest.mark.parametrize("language", available_queries())
def test_query_compiles_and_has_definitions(language):
    assert has_symbols(language)
    assert get_query(language) is not None, f"{language}.scm has no @definition.* pattern"


@pytest.mark.parametrize("language", available_queries())
def test_golden_symbols(language):
    path = _fixture_for(language)
    assert path is not None, f"add tests/anchoring/fixtures/symbols/{language}.<ext> for {language}.scm"
    assert language_for(path.name, path.read_bytes()) == language, f"{path.name} does not map to {language}"
    golden = path.with_name(path.name + GOLDEN)
    rows = _golden(language, path)
    if UPDATE or not golden.exists():
        created = not golden.exists()
        golden.write_text(_dump(rows), "utf-8")
        if created and not UPDATE:
            pytest.fail(f"created {golden.name}: review it, then rerun")
    assert rows, f"no symbols found in {path.name}"
    assert rows == json.loads(golden.read_text("utf-8"))


@pytest.mark.parametrize("language", available_queries())
def test_symbol_invariants(language):
    path = _fixture_for(language)
    if path is None:
        pytest.skip("no fixture")
    source = path.read_bytes()
    symbols = extract_symbols(language, source)
    assert symbols == sorted(symbols, key=lambda s: (s.start_byte, -s.end_byte))
    for i, s in enumerate(symbols):
        assert s.name and s.qualified_name.endswith(s.name)
        assert s.start_byte <= s.name_start_byte <= s.name_end_byte <= s.end_byte
        assert s.start_line <= s.end_line
        assert source[: s.start_byte].count(b"\n") == s.start_line
        assert source[: s.end_byte].rstrip(b"\r\n").count(b"\n") == s.end_line
        if s.parent is not None:
            p = symbols[s.parent]
            assert s.parent < i and p.start_byte <= s.start_byte and s.end_byte <= p.end_byte
            assert s.qualified_name.startswith(p.qualified_name + ".")


@pytest.mark.parametrize("language", available_queries())
def test_query_avoids_ignored_predicates(language):
    # py-tree-sitter 0.26 silently ignores #not-any-of? (the pattern then
    # matches everything); use #not-match? with an anchored regex instead.
    assert "#not-any-of?" not in _languages.query_path(language).read_text("utf-8")


def test_every_fixture_has_a_query():
    for path in FIXTURES.iterdir():
        if not path.name.endswith(GOLDEN):
            assert path.with_name(path.name + GOLDEN).exists() or UPDATE, path.name
            assert path.name.split(".")[0] in available_queries(), f"fixture {path.name} has no query"


def test_new_language_needs_only_a_query_file(tmp_path, monkeypatch):
    # Drop a .scm into a (temporary) queries folder: symbols and complexity
    # work for that language with no Python change.
    (tmp_path / "starlark.scm").write_text(
        "(function_definition name: (identifier) @name) @definition.function\n(if_statement) @branch\n")
    monkeypatch.setattr(_languages, "QUERIES_DIR", tmp_path)
    _languages.has_symbols.cache_clear()
    _languages._compile.cache_clear()
    try:
        src = b"def rule(ctx):\n    if ctx:\n        pass\n"
        syms = extract_symbols(language_for_path("BUILD"), src)
        assert [(s.name, s.kind, s.start_line, s.end_line) for s in syms] == [("rule", "function", 0, 2)]
        assert [c for _, c in cyclomatic_complexity("starlark", src)] == [2]
        assert available_queries() == ["starlark"]
    finally:
        monkeypatch.undo()
        _languages.has_symbols.cache_clear()
        _languages._compile.cache_clear()


def test_language_for_path():
    cases = {
        "a/b.py": "python", "x.pyi": "python", "m.mjs": "javascript", "c.cjs": "javascript",
        "v.jsx": "javascript", "t.ts": "typescript", "t.mts": "typescript", "X.TSX": "tsx",
        "main.go": "go", "lib.rs": "rust", "A.java": "java", "x.h": "c", "x.hpp": "cpp",
        "p.cs": "csharp", "r.rb": "ruby", "i.php": "php", "k.kts": "kotlin", "s.swift": "swift",
        "s.scala": "scala", "run.sh": "bash", "README.md": "markdown", "src\\win.py": "python",
        "Dockerfile": "dockerfile", "Makefile": "make", "Gemfile": "ruby", "go.mod": "gomod",
    }
    for path, lang in cases.items():
        assert language_for_path(path) == lang, path
    for path in ("LICENSE", "notes", "archive.tar.gz", "weird.zzz", ""):
        assert language_for_path(path) is None


def test_registry_names_are_real_pack_languages():
    import typing

    import tree_sitter_language_pack as pack

    supported = set(typing.get_args(pack.SupportedLanguage))
    used = set(_languages.EXTENSIONS.values()) | set(_languages.FILENAMES.values())
    assert used <= supported, used - supported
    assert set(available_queries()) <= supported


def test_import_is_lazy():
    # Cold start: importing the registry must not load the grammar pack.
    code = "import sys, limpet.anchoring._symbols, limpet.anchoring._complexity; " \
           "print('tree_sitter_language_pack' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_grammar_is_the_packs_own():
    from tree_sitter_language_pack import get_language

    for language in sorted(set(_languages.EXTENSIONS.values()) | set(_languages.FILENAMES.values())):
        assert _languages.grammar(language) == get_language(language), language


def test_a_parse_does_not_import_the_pack():
    # The pack's __init__ loads three grammars whatever one asks for; one parse needs one.
    code = ("import sys; from limpet.anchoring import _symbols; "
            "print(len(_symbols.extract_symbols('python', b'def f():\\n    pass\\n')), "
            "'tree_sitter_language_pack' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "False"]


def test_decorated_definition_wins_and_methods():
    src = b"class A:\n    @d\n    def f(self):\n        pass\n\ndef g():\n    pass\n"
    syms = extract_symbols("python", src)
    assert [(s.qualified_name, s.kind, s.start_line, s.end_line) for s in syms] == [
        ("A", "class", 0, 3), ("A.f", "method", 1, 3), ("g", "function", 5, 6)]
    assert syms[1].parent == 0 and src[syms[1].name_start_byte:syms[1].name_end_byte] == b"f"


def test_tree_and_bytes_agree_and_incremental_parse():
    src = b"def f(x):\n    return x\n"
    tree = parse("python", src)
    assert extract_symbols("python", tree) == extract_symbols("python", src)
    new = b"# c\n" + src
    tree.edit(start_byte=0, old_end_byte=0, new_end_byte=4, start_point=(0, 0),
              old_end_point=(0, 0), new_end_point=(1, 0))
    syms = extract_symbols("python", parse("python", new, tree))
    assert [(s.name, s.start_line, s.end_line) for s in syms] == [("f", 1, 2)]


def test_go_receivers_and_single_spec_types():
    src = b"package p\ntype A struct{}\nfunc (a *A) M() {}\nfunc (A) N() {}\nfunc (b B[T]) O() {}\n"
    names = [(s.qualified_name, s.kind) for s in extract_symbols("go", src)]
    assert names == [("A", "struct"), ("A.M", "method"), ("A.N", "method"), ("B.O", "method")]


def test_rust_impl_functions_qualify_by_type():
    src = b"struct S;\nimpl<T> S<T> {\n    fn new() {}\n}\n"
    names = [(s.qualified_name, s.kind) for s in extract_symbols("rust", src)]
    assert names == [("S", "struct"), ("S", "impl"), ("S.new", "method")]


def test_rust_trait_impls_are_named_by_their_trait():
    # Two `fmt`s on one type are two symbols: the @facet capture names each impl Type[Trait].
    src = (b"impl<T> fmt::Display for S<T> {\n    fn fmt(&self) {}\n}\n"
           b"impl fmt::Debug for S<u8> {\n    fn fmt(&self) {}\n}\n"
           b"impl<T> From<T> for Wrap<T> {\n    fn from(t: T) -> Self {}\n}\n")
    names = [(s.qualified_name, s.kind) for s in extract_symbols("rust", src)]
    assert names == [("S[Display]", "impl"), ("S[Display].fmt", "method"), ("S[Debug]", "impl"),
                     ("S[Debug].fmt", "method"), ("Wrap[From]", "impl"), ("Wrap[From].from", "method")]


def test_crlf_end_line():
    src = b"def f():\r\n    pass\r\n"
    (s,) = extract_symbols("python", src)
    assert (s.start_line, s.end_line) == (0, 1)


def test_nested_functions_count_their_own_branches():
    src = b"def f(a):\n    if a and b:\n        pass\n    def g():\n        while x: pass\n"
    tree = parse("python", src)
    got = {s.qualified_name: c for s, c in cyclomatic_complexity("python", tree)}
    assert got == {"f": 3, "f.g": 2}


def test_unknown_language_is_empty():
    assert extract_symbols("no_such_language", b"x") == []
    assert get_query("no_such_language") is None
    assert isinstance(Symbol, type)


def test_a_fully_qualified_name_drops_its_leading_separator():
    # Tcl's `proc ::ns::f` is ns.f, as `proc ns::f` is (no name starts with a dot).
    syms = extract_symbols("tcl", b"proc ::ns::f {a} {\n  return $a\n}\nproc ns::g {} {}\n")
    assert [s.qualified_name for s in syms] == ["ns.f", "ns.g"]
