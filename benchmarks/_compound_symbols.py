"""Compound anchoring cases: truth symbols for Java, Kotlin, Swift, C, C++, Ruby, PHP, C#, Lua, Scala,
Go and Rust (Python/JS/TS as held-out).

Like `_heldout_symbols`, these node lists are written from the grammars, independently of limpet's
`.scm` queries, so the truth does not share the engine's blind spots. A `.h` file is parsed in the
language its package declares (`Package.h_language`), not by any guess of the engine's.

Qualified names are the dotted chain of enclosing definitions; a C++ out-of-class `A<T>::f` is `A.f`.
Namespaces and packages never count (Java packages, C++/C#/PHP namespaces): a C# `N.C.M` is `C.M`.
Ruby modules count as containers (`module Rack; module Utils; def self.escape` is
`Rack.Utils.escape`; `class Foo::Bar` is `Foo.Bar`; `class << self` adds nothing). A Lua
`function M.foo()` / `function M:foo()` is `M.foo`, and so is `M.foo = function() ... end`;
`local function foo()` and `local foo = function() ... end` are `foo`. C# properties, indexers,
operators, events and destructors are not callables here (Java's truth has none of them either).

Go: a `type T struct/interface {...}` is a class (other type specs are not; the range is the whole
`type ...` declaration unless it groups several specs in parentheses); a method `func (r *T[K]) m()`
is `T.m`, a method of its receiver's type (without `*` or type parameters), as a C++ out-of-class
method is; interface method specs are not callables. Rust: `struct`, `enum`, `trait` and `mod { }`
(inline modules count as containers, like Ruby's) are classes; an `impl` block is no symbol but
names its functions: `impl<T> Tr for &mut S<T> { fn f }` is `S.f` (the implementing type's last path
segment, without references, generics or the trait), `mod m { fn f }` is `m.f`, a trait's provided
method `Tr.f`; bodiless `fn` signatures, `mod m;` and macros are not symbols. Attributes (`#[...]`) are
sibling nodes: a range starts at the item, as it does after a Go doc comment.

Perl, Haskell, OCaml, Erlang, Elixir and R (set j) are read by `script_symbols_j`, one rule each:
Perl: a `sub` (`sub A::f` is `A.f`; `package` statements are namespaces and never count). Haskell: a top-level
function or binding (its equations, consecutive, are one symbol; the type signature is not in the range), a
`data`/`newtype` is a class, a `class` a container of its default methods; instance methods are not symbols
(every instance has the same names). OCaml (`.ml` only): a `let` binding of a function (`let f x`, `let f =
fun`, each binding of a `let rec ... and`), a `module M = struct` (also a functor's) and a `class` are
containers, a class's `method` a method. Erlang: a function (its consecutive clauses of one arity; `f/1` and
`f/2` are two `f`s, overloads). Elixir: `defmodule`/`defprotocol`/`defimpl` are containers (`defmodule A.B` is `A.B`), `def`,
`defp`, `defmacro(p)`, `defguard(p)` functions, consecutive clauses of one name one symbol. R: a name assigned a
function (`f <- function`, `f = function`, `` `%||%` <- function``, `obj$f <- function` is `obj.f`) outside
any function. Nothing nested in a function counts (Haskell `where`, R closures, OCaml local lets).
Set k's languages (the Lisps, Tcl, Fish, Ada, Fortran, D, Pascal, Verilog) are `_compound_symbols_k`'s.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tree_sitter_language_pack import get_parser

from benchmarks._compound_symbols_k import EXTENSIONS_K, SET_K, script_symbols_k
from benchmarks._heldout_symbols import Symbol, parser_language, split_lines
from benchmarks._heldout_symbols import symbols as script_symbols

# node type -> kind ("class" for containers, "function" for callables; nesting makes a method)
DEFINITIONS: dict[str, dict[str, str]] = {
    "java": {"class_declaration": "class", "interface_declaration": "class", "enum_declaration": "class",
             "record_declaration": "class", "annotation_type_declaration": "class",
             "method_declaration": "function", "constructor_declaration": "function"},
    "kotlin": {"class_declaration": "class", "object_declaration": "class", "function_declaration": "function"},
    "swift": {"class_declaration": "class", "protocol_declaration": "class", "function_declaration": "function",
              "init_declaration": "function"},
    "c": {"function_definition": "function", "struct_specifier": "class"},
    "cpp": {"function_definition": "function", "class_specifier": "class", "struct_specifier": "class"},
    "ruby": {"class": "class", "module": "class", "method": "function", "singleton_method": "function"},
    "php": {"class_declaration": "class", "interface_declaration": "class", "trait_declaration": "class",
            "enum_declaration": "class", "method_declaration": "function", "function_definition": "function"},
    "csharp": {"class_declaration": "class", "struct_declaration": "class", "interface_declaration": "class",
               "enum_declaration": "class", "record_declaration": "class", "method_declaration": "function",
               "constructor_declaration": "function", "local_function_statement": "function"},
    "lua": {"function_declaration": "function"},  # + a name assigned a function (`_lua_assigned`)
    "scala": {"class_definition": "class", "object_definition": "class", "trait_definition": "class",
              "enum_definition": "class", "function_definition": "function", "function_declaration": "function"},
    "go": {"type_spec": "class", "function_declaration": "function", "method_declaration": "method"},
    "rust": {"struct_item": "class", "enum_item": "class", "trait_item": "class", "mod_item": "class",
             "impl_item": "scope", "function_item": "function"},  # a scope names its members, is no symbol
}
GO_TYPES = {"struct_type", "interface_type"}  # the type specs that are classes
NO_FORWARD = {"go", "rust"}  # no forward declarations: a bodiless struct (`struct U;`) is a definition
WRAPPERS = {"cpp": {"template_declaration"}}  # the range includes the template<...> line
BODIES = {"field_declaration_list", "class_body", "enum_class_body", "protocol_body", "declaration_list"}
LANG_BODIES = {"ruby": {"body_statement"}, "php": {"enum_declaration_list"},  # besides BODIES
               "csharp": {"enum_member_declaration_list"}, "scala": {"template_body", "enum_body"}}
NAME_NODES = {"identifier", "simple_identifier", "type_identifier", "field_identifier", "qualified_identifier",
              "destructor_name", "operator_name", "user_type", "namespace_identifier"}
EXTENSIONS = {".java": "java", ".kt": "kotlin", ".kts": "kotlin", ".swift": "swift", ".c": "c",
              ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp",
              ".rb": "ruby", ".rake": "ruby", ".php": "php", ".cs": "csharp", ".lua": "lua", ".scala": "scala",
              ".sc": "scala", ".go": "go", ".rs": "rust", ".pm": "perl", ".pl": "perl", ".t": "perl",
              ".hs": "haskell", ".ml": "ocaml", ".erl": "erlang", ".hrl": "erlang", ".ex": "elixir",
              ".exs": "elixir", ".r": "r", ".R": "r"} | EXTENSIONS_K  # set k's: _compound_symbols_k
SET_J = {"perl", "haskell", "ocaml", "erlang", "elixir", "r"}  # read by `script_symbols_j`
ELIXIR_CONTAINERS = {"defmodule", "defprotocol", "defimpl"}
ELIXIR_FUNCTIONS = {"def", "defp", "defmacro", "defmacrop", "defguard", "defguardp"}
OCAML_FUNCTIONS = {"fun_expression", "function_expression"}
R_ASSIGN = {"<-", "<<-", "="}


def language_of(path: str, h_language: str = "c") -> str | None:
    if path.endswith(".h"):
        return h_language
    return EXTENSIONS.get("." + path.rsplit(".", 1)[-1]) if "." in path else None


def _text(node) -> str:
    return node.text.decode("utf-8", "replace")


def _end_row(node) -> int:
    row, col = node.end_point
    return row - 1 if col == 0 and row > node.start_point[0] else row


def _declared_name(node) -> str | None:
    """The declarator's name of a C/C++ function definition (`A<T>::f` -> `A.f`)."""
    decl = node.child_by_field_name("declarator")
    while decl is not None and decl.type not in NAME_NODES:
        decl = decl.child_by_field_name("declarator")
    if decl is None:
        return None
    return _plain(_text(decl))


def _plain(name: str) -> str:
    name = re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", name))  # drop (nested) template arguments
    return re.sub(r"\s+", "", name).replace("::", ".").strip(".")


def _lua_assigned(node) -> tuple[str, object] | None:
    """(name, range node) when a Lua statement assigns one function to one name: `M.f = function`,
    `local f = function`."""
    stmt = node.named_children[0] if node.type == "variable_declaration" and node.named_children else node
    if stmt.type != "assignment_statement" or (node is stmt and node.parent is not None
                                               and node.parent.type == "variable_declaration"):
        return None
    lists = {c.type: c for c in stmt.named_children}
    names, values = lists.get("variable_list"), lists.get("expression_list")
    if names is None or values is None or len(names.named_children) != 1 or len(values.named_children) != 1:
        return None
    if values.named_children[0].type != "function_definition":
        return None
    return _plain(_text(names.named_children[0]).replace(":", ".")), node


def _rust_type(node) -> str | None:
    """The type an `impl` block implements, as its last path segment (`&'a mut m::S<T>` -> `S`)."""
    while node is not None and node.type in ("reference_type", "generic_type", "pointer_type"):
        node = node.child_by_field_name("type")
    if node is not None and node.type == "scoped_type_identifier":
        node = node.child_by_field_name("name")
    return _plain(_text(node)) if node is not None else None


def _go_receiver(node) -> str | None:
    """The type name of a Go method's receiver (`(r *T[K])` -> `T`)."""
    recv = node.child_by_field_name("receiver")
    param = next((c for c in recv.named_children if c.type == "parameter_declaration"), None) if recv else None
    typ = param.child_by_field_name("type") if param is not None else None
    while typ is not None and typ.type in ("pointer_type", "generic_type", "parenthesized_type"):
        typ = typ.child_by_field_name("type") or (typ.named_children[0] if typ.named_children else None)
    return _plain(_text(typ)) if typ is not None else None


def _name(node, lang: str) -> str | None:
    if lang == "go" and node.type == "type_spec":
        typ = node.child_by_field_name("type")
        return _plain(_text(node.child_by_field_name("name"))) if typ is not None and typ.type in GO_TYPES else None
    if lang == "go" and node.type == "method_declaration":
        recv, named = _go_receiver(node), node.child_by_field_name("name")
        return f"{recv}.{_text(named)}" if recv and named is not None else None
    if node.type == "impl_item":
        return _rust_type(node.child_by_field_name("type"))
    if lang == "rust" and node.type in ("mod_item", "function_item") and node.child_by_field_name("body") is None:
        return None  # `mod m;` (the module is another file), a bodiless signature
    if lang in ("c", "cpp") and node.type == "function_definition":
        return _declared_name(node)
    if lang == "lua":
        named = node.child_by_field_name("name")
        return _plain(_text(named).replace(":", ".")) if named is not None else None
    if node.type == "init_declaration":
        return "init"
    named = node.child_by_field_name("name")
    if named is None:
        named = next((c for c in node.named_children if c.type in NAME_NODES), None)
    return _plain(_text(named)) if named is not None else None


def _single_spec(node) -> bool:
    """A Go `type` declaration of one spec (`type T struct {...}`, not `type ( A ...; B ... )`)."""
    return node is not None and node.type == "type_declaration" and sum(
        c.type == "type_spec" for c in node.named_children) == 1


@lru_cache(maxsize=4096)
def native_symbols(path: str, text: str, lang: str) -> tuple[Symbol, ...]:
    defs, wrappers, bodies = DEFINITIONS[lang], WRAPPERS.get(lang, set()), BODIES | LANG_BODIES.get(lang, set())
    tree = get_parser(lang).parse(text.encode("utf-8"))
    lines = split_lines(text)
    out: list[Symbol] = []

    def walk(node, prefix: str) -> None:
        for child in node.named_children:
            kind = defs.get(child.type)
            if kind == "class" and lang not in NO_FORWARD and not any(c.type in bodies for c in child.named_children):
                kind = None  # a forward declaration or a use of the type, not its definition
            name = _name(child, lang) if kind else None
            assigned = _lua_assigned(child) if lang == "lua" and not kind else None
            if assigned:
                kind, name = "function", assigned[0]
            if kind == "scope" and name:
                walk(child, f"{prefix}.{name}" if prefix else name)
            elif name:
                outer = child.parent if child.parent is not None and child.parent.type in wrappers else child
                if lang == "go" and child.type == "type_spec" and _single_spec(child.parent):
                    outer = child.parent
                qname = f"{prefix}.{name}" if prefix else name
                kind = "method" if kind == "function" and prefix else kind
                s, e = outer.start_point[0], _end_row(outer)
                out.append(Symbol(qname, name.rsplit(".", 1)[-1], kind, s + 1, e + 1, "\n".join(lines[s:e + 1])))
                walk(child, qname)
            else:
                walk(child, prefix)

    walk(tree.root_node, "")
    return tuple(sorted(set(out), key=lambda s: (s.start, -s.end, s.qname)))


def _j_children(node, types: set[str]):
    return [c for c in node.named_children if c.type in types]


def _elixir_def(node) -> tuple[str, str] | None:
    """(kind, name) of an Elixir `defmodule A.B do` / `def f(x) when ...` call."""
    target = node.child_by_field_name("target")
    args = next((c for c in node.named_children if c.type == "arguments"), None)
    if target is None or args is None or not args.named_children:
        return None
    head, word = args.named_children[0], _text(target)
    if word in ELIXIR_CONTAINERS:
        return "class", _text(head)
    if word not in ELIXIR_FUNCTIONS:
        return None
    if head.type == "binary_operator":  # a guard: `f(x) when ...`
        head = head.child_by_field_name("left")
    if head is not None and head.type == "call":
        head = head.child_by_field_name("target")
    return ("function", _text(head)) if head is not None and head.type == "identifier" else None


def _ocaml_function(binding) -> str | None:
    pattern = binding.child_by_field_name("pattern")
    body = binding.child_by_field_name("body")
    if pattern is None or pattern.type != "value_name":
        return None
    if any(c.type == "parameter" for c in binding.named_children) or (body is not None and body.type in OCAML_FUNCTIONS):
        return _text(pattern)
    return None


def _ocaml_structure(node):
    """The `struct ... end` a module binding defines (through a functor's parameters), if any."""
    body = node.child_by_field_name("body")
    while body is not None and body.type in ("functor", "parenthesized_module_expression", "module_application"):
        body = body.child_by_field_name("body") or (body.named_children[-1] if body.named_children else None)
    return body if body is not None and body.type == "structure" else None


def _r_name(lhs) -> str | None:
    if lhs.type == "string":
        content = next((c for c in lhs.named_children if c.type == "string_content"), None)
        return _text(content) if content is not None else None
    if lhs.type in ("identifier", "extract_operator", "namespace_operator"):
        return re.sub(r"[$@]|::", ".", _text(lhs)).replace("`", "")
    return None


def _j_definition(node, lang: str) -> list[tuple[str, str, object, object]]:
    """(kind, name, range node, body to walk or None) of each definition `node` makes (a `let rec ... and` makes
    several)."""
    t = node.type
    if lang == "perl" and t in ("subroutine_declaration_statement", "method_declaration_statement"):
        named = node.child_by_field_name("name")
        return [("function", _text(named).replace("::", "."), node, None)] if named is not None else []
    if lang == "haskell" and t in ("function", "bind"):
        named = node.child_by_field_name("name")
        return [("function", _text(named), node, None)] if named is not None and named.type == "variable" else []
    if lang == "haskell" and t in ("data_type", "newtype", "class"):
        named = node.child_by_field_name("name")
        body = node.child_by_field_name("declarations") if t == "class" else None
        return [("class", _text(named), node, body)] if named is not None else []
    if lang == "ocaml" and t == "value_definition":
        bindings = _j_children(node, {"let_binding"})
        out = [("function", name, node if len(bindings) == 1 else b, None)
               for b in bindings if (name := _ocaml_function(b))]
        return out
    if lang == "ocaml" and t == "module_definition":
        out = []
        for b in _j_children(node, {"module_binding"}):
            named, struct = next((c for c in b.named_children if c.type == "module_name"), None), _ocaml_structure(b)
            if named is not None and struct is not None:
                out.append(("class", _text(named), node, struct))
        return out
    if lang == "ocaml" and t == "class_definition":
        out = []
        for b in _j_children(node, {"class_binding"}):
            named = next((c for c in b.named_children if c.type == "class_name"), None)
            if named is not None:
                out.append(("class", _text(named), node, b))
        return out
    if lang == "ocaml" and t == "method_definition":
        named = next((c for c in node.named_children if c.type == "method_name"), None)
        return [("function", _text(named), node, None)] if named is not None else []
    if lang == "erlang" and t == "fun_decl":
        clause = next((c for c in node.named_children if c.type == "function_clause"), None)
        named = clause.child_by_field_name("name") if clause is not None else None
        return [("function", _text(named), node, None)] if named is not None else []
    if lang == "elixir" and t == "call":
        found = _elixir_def(node)
        if found is None:
            return []
        body = next((c for c in node.named_children if c.type == "do_block"), None)
        return [(found[0], found[1], node, body if found[0] == "class" else None)]
    if lang == "r" and t == "binary_operator":
        op, lhs, rhs = (node.child_by_field_name(f) for f in ("operator", "lhs", "rhs"))
        if op is not None and _text(op) in R_ASSIGN and rhs is not None and rhs.type == "function_definition":
            name = _r_name(lhs) if lhs is not None else None
            return [("function", name, node, None)] if name else []
    return []


MERGED = {"haskell", "elixir", "erlang"}  # consecutive clauses of one name (an Erlang one's arity) are one definition


def _erlang_arity(node) -> int:
    clause = next((c for c in node.named_children if c.type == "function_clause"), None)
    args = clause.child_by_field_name("args") if clause is not None else None
    return len(args.named_children) if args is not None else 0


@lru_cache(maxsize=4096)
def script_symbols_j(path: str, text: str, lang: str) -> tuple[Symbol, ...]:
    tree = get_parser(lang).parse(text.encode("utf-8"))
    lines = split_lines(text)
    out: list[Symbol] = []

    def add(qname: str, name: str, kind: str, s: int, e: int) -> None:
        out.append(Symbol(qname, name, kind, s + 1, e + 1, "\n".join(lines[s:e + 1])))

    def walk(node, prefix: str) -> None:
        last = None  # ((qname, kind, arity), start row, index in out) of the previous definition, for merging clauses
        for child in node.named_children:
            defs = _j_definition(child, lang)
            if not defs:
                if child.type != "comment":
                    last = None
                if not (lang == "haskell" and child.type in ("instance", "signature")):
                    walk(child, prefix)
                continue
            for kind, name, outer, body in defs:
                qname = f"{prefix}.{name}" if prefix else name
                kind = "method" if kind == "function" and prefix else kind
                key = (qname, kind, _erlang_arity(outer) if lang == "erlang" else 0)
                s, e = outer.start_point[0], _end_row(outer)
                if lang in MERGED and kind != "class" and last is not None and last[0] == key:
                    out.pop(last[2])
                    s = last[1]
                add(qname, name if lang == "r" else name.rsplit(".", 1)[-1], kind, s, e)  # R names hold dots
                last = (key, s, len(out) - 1)
                if body is not None:
                    walk(body, qname)

    walk(tree.root_node, "")
    return tuple(sorted(set(out), key=lambda s: (s.start, -s.end, s.qname)))


def symbols_for(h_language: str):
    """The truth symbol function of a package (its `.h` files parsed as `h_language`)."""

    def symbols(path: str, text: str) -> tuple[Symbol, ...]:
        if parser_language(path) is not None:
            return script_symbols(path, text)
        lang = language_of(path, h_language)
        if lang in SET_J:
            return script_symbols_j(path, text, lang)
        if lang in SET_K:
            return script_symbols_k(path, text, lang)
        return native_symbols(path, text, lang) if lang in DEFINITIONS else ()

    return symbols


def header(sym: Symbol) -> str:
    """The declaration part of a symbol (its signature), whitespace-blind: up to the body's opening."""
    out = []
    for line in sym.text.split("\n")[:6]:
        stripped = line.strip()
        cut = stripped.find("{")
        out.append(stripped[:cut] if cut >= 0 else stripped)
        if cut >= 0 or stripped.endswith(":") or stripped.endswith("="):
            break
    return re.sub(r"\s+", " ", " ".join(out)).strip()
