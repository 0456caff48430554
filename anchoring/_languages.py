"""Language registry: path -> language name, plus lazily built parsers and queries.

Importing this module is cheap on purpose: grammars are loaded by the
functions that need them, one language at a time (see `grammar`). Parsers are cached per thread (a tree_sitter.Parser is not safe to
share between threads); compiled queries are shared, since running a query
only reads it.

Each ``queries/<language>.scm`` holds definition patterns (``@name`` +
``@definition.<kind>``, optional ``@scope``) and complexity patterns
(``@branch``). They are compiled twice into two disjoint queries so symbol
extraction never pays for the branch patterns and vice versa. A ``; inherits: a, b``
line prepends other query files: a language that extends another (tsx from typescript)
or patterns several grammars share (``queries/shared/ecmascript.scm`` for JavaScript and
TypeScript), so each pattern is written once.
"""

from __future__ import annotations

import os
import re
import threading
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter

QUERIES_DIR = Path(__file__).parent / "queries"

# Extension (lower-case, with dot) -> language name as the pack spells it.
EXTENSIONS: dict[str, str] = {
    # the big ones
    ".py": "python", ".pyi": "python", ".pyw": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hpp": "cpp", ".hh": "cpp",
    ".hxx": "cpp", ".h++": "cpp", ".ipp": "cpp", ".tpp": "cpp", ".inl": "cpp",
    ".cs": "csharp",
    ".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby", ".ru": "ruby",
    ".php": "php", ".phtml": "php",
    ".kt": "kotlin", ".kts": "kotlin",
    ".swift": "swift",
    ".scala": "scala", ".sc": "scala",
    ".sh": "bash", ".bash": "bash", ".zsh": "bash",
    ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown",
    # everything else the pack ships with a recognisable extension
    ".as": "actionscript", ".adb": "ada", ".ads": "ada", ".agda": "agda",
    ".cls": "apex", ".trigger": "apex", ".ino": "arduino",
    ".asm": "asm", ".s": "asm", ".astro": "astro", ".beancount": "beancount",
    ".bib": "bibtex", ".bicep": "bicep", ".bb": "bitbake", ".bbappend": "bitbake", ".bbclass": "bitbake",
    ".bsl": "bsl", ".cairo": "cairo", ".capnp": "capnp", ".chatito": "chatito", ".clar": "clarity",
    ".clj": "clojure", ".cljs": "clojure", ".cljc": "clojure", ".cljd": "clojure", ".edn": "clojure",
    ".cmake": "cmake", ".cob": "cobol", ".cbl": "cobol",
    ".lisp": "commonlisp", ".lsp": "commonlisp", ".cl": "commonlisp", ".asd": "commonlisp",
    ".cpon": "cpon", ".css": "css", ".csv": "csv", ".cu": "cuda", ".cuh": "cuda",
    ".d": "d", ".dart": "dart", ".dockerfile": "dockerfile", ".dtd": "dtd",
    ".el": "elisp", ".ex": "elixir", ".exs": "elixir", ".elm": "elm",
    ".erb": "embeddedtemplate", ".ejs": "embeddedtemplate",
    ".erl": "erlang", ".hrl": "erlang", ".fnl": "fennel", ".fir": "firrtl", ".fish": "fish",
    ".f": "fortran", ".f90": "fortran", ".f95": "fortran", ".f03": "fortran", ".f08": "fortran", ".for": "fortran",
    ".fs": "fsharp", ".fsx": "fsharp", ".fsi": "fsharp_signature", ".fc": "func",
    ".gd": "gdscript", ".gleam": "gleam",
    ".glsl": "glsl", ".vert": "glsl", ".frag": "glsl", ".geom": "glsl", ".comp": "glsl", ".tesc": "glsl", ".tese": "glsl",
    ".rgen": "glsl", ".rchit": "glsl", ".rmiss": "glsl", ".rahit": "glsl", ".rint": "glsl", ".rcall": "glsl",
    ".gn": "gn", ".gni": "gn", ".graphql": "graphql", ".gql": "graphql",
    ".groovy": "groovy", ".gradle": "groovy", ".gvy": "groovy",
    ".hack": "hack", ".hhi": "hack", ".ha": "hare", ".hs": "haskell", ".lhs": "haskell",
    ".hx": "haxe", ".hcl": "hcl", ".heex": "heex", ".hlsl": "hlsl", ".hlsli": "hlsl", ".fx": "hlsl",
    ".html": "html", ".htm": "html", ".ini": "ini", ".cfg": "ini", ".ispc": "ispc", ".isph": "ispc", ".janet": "janet",
    ".json": "json", ".jsonc": "json", ".json5": "json",
    ".jsonnet": "jsonnet", ".libsonnet": "jsonnet", ".jl": "julia", ".kdl": "kdl",
    ".tex": "latex", ".sty": "latex", ".ld": "linkerscript", ".ll": "llvm",
    ".lua": "lua", ".luau": "luau", ".mk": "make", ".mak": "make",
    ".m": "objc", ".mermaid": "mermaid", ".mmd": "mermaid",
    ".nim": "nim", ".nims": "nim", ".nimble": "nim", ".ninja": "ninja", ".nix": "nix", ".nqc": "nqc",
    ".mm": "objc", ".ml": "ocaml", ".mli": "ocaml_interface", ".odin": "odin", ".org": "org",
    ".pas": "pascal", ".lpr": "pascal", ".dpk": "pascal", ".pp": "puppet", ".dpr": "pascal", ".pem": "pem", ".crt": "pem",
    ".pl": "perl", ".pm": "perl", ".t": "perl", ".pgn": "pgn", ".po": "po", ".pot": "po",
    ".pony": "pony", ".ps1": "powershell", ".psm1": "powershell", ".psd1": "powershell",
    ".prisma": "prisma", ".properties": "properties", ".proto": "proto", ".psv": "psv",
    ".purs": "purescript", ".qml": "qmljs", ".scm": "scheme",
    ".r": "r", ".rkt": "racket", ".rktl": "racket", ".re": "re2c", ".rego": "rego", ".ron": "ron", ".rst": "rst",
    ".ss": "scheme", ".sld": "scheme", ".sls": "scheme", ".sps": "scheme", ".scss": "scss", ".smali": "smali", ".smithy": "smithy",
    ".sol": "solidity", ".rq": "sparql", ".sparql": "sparql", ".sql": "sql", ".nut": "squirrel",
    ".star": "starlark", ".bzl": "starlark", ".bazel": "starlark", ".svelte": "svelte", ".td": "tablegen",
    ".tcl": "tcl", ".tm": "tcl", ".tf": "terraform", ".tfvars": "terraform", ".thrift": "thrift",
    ".toml": "toml", ".tsv": "tsv", ".twig": "twig", ".typ": "typst",
    ".rules": "udev", ".ungram": "ungrammar", ".tal": "uxntal", ".v": "verilog", ".vv": "v",
    ".sv": "verilog", ".svh": "verilog", ".vh": "verilog", ".vhd": "vhdl", ".vhdl": "vhdl",
    ".vim": "vim", ".vue": "vue", ".wast": "wast", ".wat": "wat", ".wgsl": "wgsl",
    ".xml": "xml", ".xsd": "xml", ".xsl": "xml", ".svg": "xml", ".plist": "xml", ".csproj": "xml",
    ".yaml": "yaml", ".yml": "yaml", ".yuck": "yuck", ".zig": "zig", ".zon": "zig", ".magik": "magik",
}

# Whole file names (exact, then lower-cased) that carry no telling extension.
FILENAMES: dict[str, str] = {
    "Dockerfile": "dockerfile", "Containerfile": "dockerfile",
    "Makefile": "make", "makefile": "make", "GNUmakefile": "make",
    "CMakeLists.txt": "cmake", "go.mod": "gomod", "go.sum": "gosum",
    ".gitignore": "gitignore", ".dockerignore": "gitignore", ".gitattributes": "gitattributes",
    "COMMIT_EDITMSG": "gitcommit", "meson.build": "meson", "meson_options.txt": "meson",
    "BUILD": "starlark", "WORKSPACE": "starlark", "BUCK": "starlark", "Tiltfile": "starlark",
    "Gemfile": "ruby", "Rakefile": "ruby", "Podfile": "ruby", "Vagrantfile": "ruby", "Brewfile": "ruby",
    "Jenkinsfile": "groovy", "Kconfig": "kconfig", "requirements.txt": "requirements",
    "MANIFEST.in": "pymanifest", "qmldir": "qmldir", ".inputrc": "readline", "XCompose": "xcompose",
    ".emacs": "elisp", ".spacemacs": "elisp", ".sbclrc": "commonlisp", ".bashrc": "bash", ".bash_profile": "bash", ".profile": "bash", ".zshrc": "bash",
    "PKGBUILD": "bash", "APKBUILD": "bash", "justfile": "make",
}


@lru_cache(maxsize=8192)
def language_for_path(path: str) -> str | None:
    """Language name for a file path, or None (the caller falls back to text-only anchoring)."""
    name = os.path.basename(path.replace("\\", "/"))
    lang = FILENAMES.get(name) or FILENAMES.get(name.lower())
    if lang:
        return lang
    if name.startswith("Dockerfile.") or name.endswith(".Dockerfile"):
        return "dockerfile"
    if name.startswith("requirements") and name.endswith(".txt"):
        return "requirements"
    _, ext = os.path.splitext(name)
    return EXTENSIONS.get(ext.lower()) if ext else None


# Languages whose code moves into each other's files with its text intact (a C function into a C++
# file, JavaScript into TypeScript, a component's script into a module, Java next to Kotlin): code
# that left a file is looked for in files of its family only. Prose moves between markup formats
# and plain files, so those and every file of no known language are one family, TEXT.
TEXT = "text"
FAMILIES: dict[str, str] = {
    "cpp": "c", "objc": "c", "cuda": "c", "arduino": "c", "ispc": "c",
    "typescript": "javascript", "tsx": "javascript", "vue": "javascript", "svelte": "javascript",
    "astro": "javascript", "kotlin": "java", "scala": "java", "groovy": "java",
    "ocaml_interface": "ocaml", "fsharp_signature": "fsharp", "luau": "lua", "racket": "scheme",
    "markdown": TEXT, "rst": TEXT, "org": TEXT, "latex": TEXT,
}


# Type stubs declare what a module's code defines and hold none of it: code that left a module is
# not looked for among stubs (a checkout with typeshed's thousand .pyi files inside), nor a stub's
# declaration among modules.
STUB_FAMILIES: dict[str, str] = {".pyi": "python_stubs"}


@lru_cache(maxsize=8192)
def family_for_path(path: str) -> str:
    """The language family of a file path (TEXT for prose and for files of no known language)."""
    stubs = STUB_FAMILIES.get(os.path.splitext(path)[1].lower())
    if stubs is not None:
        return stubs
    language = language_for_path(path)
    return FAMILIES.get(language, language) if language else TEXT


# Extensions that several languages share: markers only one of them has decide, checked in order;
# the extension's own language when none is found. Content decides, never a file name: a `.h`
# holding classes, templates or namespaces is C++ (its classes and methods are then symbols),
# one holding `@interface` is Objective-C, any other stays C.
DIALECTS: dict[str, tuple[tuple[str, re.Pattern[bytes]], ...]] = {
    ".h": (
        ("objc", re.compile(rb"^[ \t]*@(?:interface|protocol|implementation)\b", re.MULTILINE)),
        ("cpp", re.compile(
            rb"^[ \t]*(?:template[ \t]*<|namespace(?:[ \t]+[\w:]+)?[ \t]*\{|(?:public|private|protected)[ \t]*:"
            rb"|using[ \t]+namespace\b|class[ \t]+\w+[^;()\n]*$)"
            rb"|\bstd::\w|\b(?:constexpr|nullptr|noexcept|static_cast|reinterpret_cast)\b", re.MULTILINE)),
    ),
    # A LaTeX document class (no symbols of ours: text anchoring), not an Apex class.
    ".cls": (("latex", re.compile(rb"^[ \t]*\\(?:ProvidesClass|NeedsTeXFormat|LoadClass|DeclareOption)\b", re.MULTILINE)),),
    # A compiler's dependency file (`foo.o: foo.c foo.h`), not D source.
    ".d": (("make", re.compile(rb"\A(?:[ \t]*(?:#[^\n]*)?\n)*[^\s:#]+\.(?:o|obj|lo|d)[ \t]*:")),),
    # An OpenCL kernel (C with qualifiers), not Common Lisp.
    ".cl": (("c", re.compile(rb"\b__kernel\b|\bkernel[ \t]+void\b|^[ \t]*#[ \t]*(?:include|define|pragma)\b", re.MULTILINE)),),
    # MATLAB: its first non-blank line a `%` comment or a function or class definition
    # (Objective-C opens with `#import`, `//`, `/*` or `@`).
    ".m": (("matlab", re.compile(rb"\A\s*(?:%|function\b|classdef\b)")),),
    # Free Pascal's units and programs, not Puppet manifests.
    ".pp": (("pascal", re.compile(rb"^[ \t]*(?:unit|program|library)[ \t]+[\w.]+[ \t]*;", re.MULTILINE | re.IGNORECASE)),),
    # Hack written in a .php file declares itself on its first line.
    ".php": (("hack", re.compile(rb"\A(?:#![^\n]*\n)?<\?hh\b")),),
}
DIALECT_BYTES = 65536  # markers are looked for in the file's head (a header declares early)


def language_for(path: str, source: bytes) -> str | None:
    """Language of a file by its path and, for an extension several languages share, its content."""
    language = language_for_path(path)
    dialects = DIALECTS.get(os.path.splitext(path)[1].lower()) if language else None
    if dialects:
        head = source[:DIALECT_BYTES]
        for dialect, marker in dialects:
            if marker.search(head):
                return dialect
    return language


def query_path(language: str) -> Path:
    return QUERIES_DIR / f"{language}.scm"


@cache
def has_symbols(language: str) -> bool:
    """True when a definitions query exists for the language."""
    return query_path(language).is_file()


_local = threading.local()


def get_parser(language: str) -> tree_sitter.Parser:
    parsers = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    parser = parsers.get(language)
    if parser is None:
        import tree_sitter

        parser = parsers[language] = tree_sitter.Parser(grammar(language))
    return parser


@cache
def grammar(language: str) -> tree_sitter.Language:
    """The language's tree-sitter grammar, from the language pack. The pack's own `get_language`
    first imports the pack, whose `__init__` loads the C#, YAML and embedded-template grammars
    (their own wheels) whatever was asked for: ~8 ms of every `limpet add`, a quarter of the work
    it does after Python's start. Most grammars are one extension module each in the pack's
    `bindings` folder; that module is loaded by itself when it is there, the pack's `get_language`
    otherwise (the three above, or a pack laid out differently)."""
    import tree_sitter

    binding = _pack_binding(language)
    if binding is None:
        from tree_sitter_language_pack import get_language

        return get_language(language)  # type: ignore[arg-type]
    return tree_sitter.Language(binding)


def _pack_binding(language: str) -> object | None:
    """The pack's binding for `language` (a capsule), loaded without importing the pack."""
    import importlib.machinery
    import importlib.util

    pack = importlib.util.find_spec("tree_sitter_language_pack")
    if pack is None or not pack.submodule_search_locations or not re.fullmatch(r"[a-z_]+", language):
        return None
    for folder in pack.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "bindings", language + suffix)
            if not os.path.isfile(path):
                continue
            spec = importlib.util.spec_from_file_location(f"tree_sitter_language_pack.bindings.{language}", path)
            if spec is None or spec.loader is None:
                return None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            language_fn = getattr(module, "language", None)
            return language_fn() if callable(language_fn) else None
    return None


def parse(language: str, source: bytes, old_tree: tree_sitter.Tree | None = None) -> tree_sitter.Tree:
    """Parse source; pass old_tree (already .edit()-ed) for an incremental parse."""
    parser = get_parser(language)
    return parser.parse(source, old_tree) if old_tree is not None else parser.parse(source)


_lock = threading.Lock()
_COMMENT = re.compile(r"^\s*;.*$", re.MULTILINE)


@cache
def _compile(language: str, part: str) -> tree_sitter.Query | None:
    """Compile the language's .scm keeping only the patterns of one part.

    part "definitions": patterns with a @definition.* capture;
    part "branches": patterns with a @branch capture.
    """
    if part not in ("definitions", "branches"):
        raise ValueError(f"unknown query part {part!r}")
    if not has_symbols(language):
        return None
    import tree_sitter

    text = _query_source(language)
    query = tree_sitter.Query(grammar(language), text)
    # Capture membership is read from each pattern's own source text:
    # Query.capture_quantifier raises for captures a pattern lacks (0.26).
    marker = re.compile(r"@definition\." if part == "definitions" else r"@branch\b")
    raw = text.encode("utf-8")
    kept = 0
    for index in range(query.pattern_count):
        chunk = raw[query.start_byte_for_pattern(index) : query.end_byte_for_pattern(index)]
        if marker.search(_COMMENT.sub("", chunk.decode("utf-8"))):
            kept += 1
        else:
            query.disable_pattern(index)
    return query if kept else None


_INHERITS = re.compile(r"^;\s*inherits:\s*(.+)$", re.MULTILINE)


def _query_source(language: str, seen: frozenset[str] = frozenset()) -> str:
    """The .scm text, prefixed by the files named in `; inherits: a, b` lines."""
    text = query_path(language).read_text("utf-8")
    parts = []
    for line in _INHERITS.finditer(text):
        for parent in (p.strip() for p in line.group(1).split(",")):
            if parent and parent not in seen:
                parts.append(_query_source(parent, seen | {language}))
    return "\n".join([*parts, text])


def get_query(language: str, part: str = "definitions") -> tree_sitter.Query | None:
    """The compiled definitions query (or, with part="branches", the @branch query); None if absent."""
    with _lock:  # functools.cache may otherwise compile the same query twice under threads
        return _compile(language, part)


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[()\[\]]|@[\w.\-]+|[^\s()\[\]"]+')


@cache
def range_safe(language: str) -> bool:
    """Can the definitions query run over a byte range and find every definition there?

    tree-sitter starts a match at its pattern's first non-wildcard node, and only
    when that node meets the range. So a range query finds every definition that
    meets it when each pattern captures @definition on its root, a named node. A
    pattern starting elsewhere (a parent or a preceding sibling, as in
    `(_ (signature) @definition.f . (function) @definition.f)`) may start outside.
    """
    query = get_query(language)
    if query is None:
        return False
    raw = _query_source(language).encode("utf-8")
    for index in range(query.pattern_count):
        chunk = _COMMENT.sub("", raw[query.start_byte_for_pattern(index) : query.end_byte_for_pattern(index)]
                             .decode("utf-8"))
        if "@definition." in chunk and not _root_captured(_TOKEN.findall(chunk)):
            return False
    return True


def _root_captured(tokens: list[str]) -> bool:
    while len(tokens) > 2 and tokens[0] == "(" and tokens[1] in ("(", "["):
        tokens = tokens[1 : _closing(tokens, 0)]  # ((node ...) @cap (#pred? ...)): look inside the group
    if len(tokens) < 2 or tokens[0] != "(" or tokens[1] in ("_", "(", "[") or tokens[1].startswith('"'):
        return False
    after = tokens[_closing(tokens, 0) + 1 :]
    captures = after[: next((i for i, t in enumerate(after) if not t.startswith("@")), len(after))]
    return any(c.startswith("@definition.") for c in captures)


def _closing(tokens: list[str], start: int) -> int:
    depth = 0
    for i in range(start, len(tokens)):
        if tokens[i] in ("(", "["):
            depth += 1
        elif tokens[i] in (")", "]"):
            depth -= 1
            if depth == 0:
                return i
    return len(tokens) - 1


def available_queries() -> list[str]:
    """Languages that have a .scm (used by tests to parametrize)."""
    return sorted(p.stem for p in QUERIES_DIR.glob("*.scm"))
