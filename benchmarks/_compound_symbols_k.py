"""Compound set k's truth symbols: Emacs Lisp, Common Lisp, Scheme (Guile), Racket, Tcl, Fish, Ada, Fortran, D
Pascal and Verilog, one rule each (`script_symbols_k`), in the conventions of `_compound_symbols` (its module docstring).

Like every truth rule there, these were written from the grammars' node types (tree-sitter-language-pack's parsers,
on snippets of each language), independently of limpet's `.scm` queries. Qualified names are the dotted chain of
enclosing definitions; a range is the definition's first to last line, and the comments in front of it are never
in it (they are sibling nodes in every grammar here). Nothing nested in a function counts (local functions, Scheme
internal defines, Fortran internal procedures, Pascal nested procedures, D nested functions). Namespaces, packages
and the file's own module never count: Tcl `namespace eval`, D `module`, an Ada library-level package, Guile's
`define-module`, Common Lisp's `defpackage`/`in-package`.

Emacs Lisp: `defun`/`defsubst` (`function_definition`), `defmacro` (`macro_definition`) and a form headed by
`cl-defun`, `cl-defmacro`, `cl-defsubst`, `cl-defgeneric`, `cl-defmethod`, `define-minor-mode`,
`define-derived-mode`, `define-globalized-minor-mode`, `define-inline` or `transient-define-prefix/suffix/infix/
argument` are functions (`cl-defmethod`s of one name: overloads); `cl-defstruct` and `defclass` are classes (their
slots are not symbols). Common Lisp: a `defun` node (its keyword `defun`, `defmacro`, `defgeneric`, `defmethod`;
`(defmethod (setf name) ...)` is named `(setf name)`), the whole form as its range; `defclass`, `defstruct` and
`define-condition` are classes. Scheme (Guile): `(define (f ...) ...)`, `define*`, `define-public`,
`define-inlinable`, `define-method` (GOOPS) with a call-shaped head, or `(define f (lambda ...))` (`lambda*`,
`case-lambda`) are functions, `define-syntax`, `define-syntax-rule` and `define-macro` macros (functions);
`define-record-type` and `define-class` are classes. Racket: as Scheme with `define/contract`, `struct` a class,
`(define c% (class ...))` a class whose `define/public`, `define/private`, `define/override`, `define/augment`
(...) are its methods, `module`/`module+`/`module*` submodules containers (`(module+ test (define (t) ..))` is
`test.t`). In every Lisp, a non-definition form (`eval-when`, `progn`, `when`, a top-level `let`) is walked
through; quoted data is not.

Tcl: a `proc` (`procedure`) is a function; `proc ::a::b` is `a.b` (Perl's `sub A::f` rule), a proc in a
`namespace eval` keeps its own name. `oo::class create C { ... }` is a class, its `method m` methods
(`constructor`/`destructor` by that name). Fish: a `function` (`function_definition`). Ada (`.adb` bodies only,
as OCaml's `.ml`): a `subprogram_body` and an expression function are functions (an operator `"+"` keeps its
quotes); a package body inside another unit and a `protected` body are containers. Fortran: a `module` or
`submodule` is a container of its procedures, a `function`/`subroutine` a function, a `program` a function (its
internal procedures are nested in it), a derived `type` a class (its type-bound bindings are not symbols);
procedures in an `interface` block are declarations, not symbols. Fortran, Ada and Pascal names are
case-insensitive: they are lower-cased (`H5Aget_f` and `h5aget_f` are one name, not a rename). A Fortran file
that does not parse whole has no symbols (a preprocessor `#ifdef` in a module breaks the module node, and its
procedures would lose their module).
D: a `function_declaration` with a body (not `void f();`), a constructor (`this`), a destructor (`~this`);
`class`, `struct`, `interface`, `union` and `template` are containers; `unittest` blocks, enums and
`version`/`static if` wrappers are no symbols (the latter are walked through). Pascal: a procedure or function
with a body (`defProc`) is a function, `TFoo.Bar` named `TFoo.Bar` (C++'s out-of-class rule); a type declared as
a class, object, record or interface (`declType` of a `declClass`/`declIntf`) is a class, and its nested types
its members; the signatures in a class (`declProc`) are not symbols. Verilog: a `module` (an `interface`,
`package` or `class`) is a container, its `function`s and `task`s methods (`always` blocks, instances, nets and
ports are no symbols).
"""

from __future__ import annotations

import re
from functools import lru_cache

from tree_sitter_language_pack import get_parser

from benchmarks._heldout_symbols import Symbol, _end_row, _text, split_lines

EXTENSIONS_K = {".el": "elisp", ".lisp": "commonlisp", ".lsp": "commonlisp", ".scm": "scheme", ".rkt": "racket",
                ".tcl": "tcl", ".fish": "fish", ".adb": "ada", ".f90": "fortran", ".F90": "fortran",
                ".d": "d", ".pas": "pascal", ".pp": "pascal", ".v": "verilog", ".sv": "verilog"}
SET_K = set(EXTENSIONS_K.values())

ELISP_FUNCS = {"cl-defun", "cl-defmacro", "cl-defsubst", "cl-defgeneric", "cl-defmethod", "define-minor-mode",
               "define-derived-mode", "define-globalized-minor-mode", "define-inline", "transient-define-prefix",
               "transient-define-suffix", "transient-define-infix", "transient-define-argument"}
ELISP_CLASSES = {"cl-defstruct", "defclass"}
CL_FUNCS = {"defun", "defmacro", "defgeneric", "defmethod"}
CL_CLASSES = {"defclass", "defstruct", "define-condition"}
SCHEME_FUNCS = {"define", "define*", "define-public", "define-inlinable", "define-method", "define/contract"}
SCHEME_MACROS = {"define-syntax", "define-syntax-rule", "define-macro"}
SCHEME_CLASSES = {"define-record-type", "define-class"}
SCHEME_LAMBDAS = {"lambda", "lambda*", "case-lambda", "λ", "match-lambda", "match-lambda*"}
RACKET_METHODS = {"define/public", "define/private", "define/override", "define/augment", "define/pubment",
                  "define/overment", "define/public-final", "define/override-final", "define/augride"}
RACKET_MODULES = {"module", "module+", "module*"}
RACKET_CLASSES = {"class", "class*", "mixin"}
LISTS = {"list", "list_lit"}  # every Lisp grammar's form node
ATOMS = {"symbol", "sym_lit"}
TCL_OO = {"method": "method", "constructor": "constructor", "destructor": "destructor"}
D_CLASSES = {"class_declaration", "struct_declaration", "interface_declaration", "union_declaration",
             "template_declaration"}
ADA_SPECS = {"procedure_specification", "function_specification"}
FORTRAN_FUNCS = {"function": "function_statement", "subroutine": "subroutine_statement",
                 "program": "program_statement"}
VERILOG_NAMES = {"simple_identifier", "function_identifier", "task_identifier", "interface_identifier",
                 "package_identifier", "class_identifier"}
FORTRAN_MODULES = {"module": "module_statement", "submodule": "submodule_statement"}

Def = tuple[str, str, object, object]  # (kind, name, range node, node whose children to walk as members, or None)


def _forms(node) -> list:
    return [c for c in node.named_children if c.type != "comment"]


def _head(node) -> str | None:
    """The symbol a Lisp form starts with (`(define ...)` -> `define`)."""
    parts = _forms(node)
    return _text(parts[0]) if node.type in LISTS and parts and parts[0].type in ATOMS else None


def _lisp_name(node) -> str | None:
    """A definition's name: the symbol itself, or a call-shaped head's (curried `((f a) b)`) first symbol."""
    while node is not None and node.type in LISTS:
        parts = _forms(node)
        node = parts[0] if parts else None
    return _text(node) if node is not None and node.type in ATOMS else None


def _lisp(node, lang: str, in_class: bool) -> list[Def]:
    if lang == "elisp" and node.type in ("function_definition", "macro_definition"):
        named = next((c for c in node.named_children if c.type == "symbol"), None)
        return [("function", _text(named), node, None)] if named is not None else []
    if lang == "commonlisp" and node.type == "list_lit":
        defun = next((c for c in node.named_children if c.type == "defun"), None)
        header = next((c for c in defun.named_children if c.type == "defun_header"), None) if defun else None
        if header is not None:
            key, named = header.child_by_field_name("keyword"), header.child_by_field_name("function_name")
            if key is None or named is None or _text(key).lower() not in CL_FUNCS:
                return []
            return [("function", re.sub(r"\s+", " ", _text(named)), node, None)]
    head = _head(node)
    if head is None:
        return []
    parts = _forms(node)
    target = parts[1] if len(parts) > 1 else None
    name = _lisp_name(target)
    if name is None:
        return []
    if lang == "elisp":
        kind = "function" if head in ELISP_FUNCS else "class" if head in ELISP_CLASSES else None
    elif lang == "commonlisp":
        kind = "class" if head.lower() in CL_CLASSES else None
    elif head in SCHEME_MACROS or (lang == "racket" and in_class and head in RACKET_METHODS):
        kind = "function"
    elif head in SCHEME_CLASSES or (lang == "racket" and head == "struct"):
        kind = "class"
    elif lang == "racket" and head in RACKET_MODULES:
        return [("class", name, node, node)]
    elif head in SCHEME_FUNCS:
        value = parts[2] if len(parts) > 2 else None
        if target.type in LISTS:
            kind = "function"
        elif lang == "racket" and value is not None and _head(value) in RACKET_CLASSES:
            return [("class", name, node, value)]
        else:
            kind = "function" if value is not None and _head(value) in SCHEME_LAMBDAS else None
    else:
        kind = None
    return [(kind, name, node, None)] if kind else []


def _tcl(node, in_class: bool) -> list[Def]:
    if node.type == "procedure":
        named = next((c for c in node.named_children if c.type == "simple_word"), None)
        name = _text(named).strip(":").replace("::", ".") if named is not None else ""
        return [("function", name, node, None)] if name else []
    if node.type != "command":
        return []
    words = [c for c in node.named_children if c.type != "comment"]
    first = _text(words[0]) if words else ""
    args = [c for c in words[1].named_children] if len(words) > 1 and words[1].type == "word_list" else []
    if first == "oo::class" and len(args) >= 3 and _text(args[0]) == "create" and args[-1].type == "braced_word":
        return [("class", _text(args[1]).strip(":").replace("::", "."), node, args[-1])]
    if in_class and first in TCL_OO and args and args[-1].type == "braced_word":
        name = first if first != "method" else _text(args[0])
        return [("function", name, node, None)] if first != "method" or len(args) >= 3 else []
    return []


def _ada(node) -> list[Def]:
    if node.type in ("subprogram_body", "expression_function_declaration"):
        spec = next((c for c in node.named_children if c.type in ADA_SPECS), None)
        named = spec.child_by_field_name("name") if spec is not None else None
        if named is None:
            return []
        return [("function", _text(named).rsplit(".", 1)[-1], node, None)]
    if node.type in ("package_body", "protected_body") and node.parent is not None \
            and node.parent.type != "compilation_unit":
        named = node.child_by_field_name("name") or next(
            (c for c in node.named_children if c.type in ("identifier", "selected_component")), None)
        return [("class", _text(named), node, node)] if named is not None else []
    return []


def _fortran(node) -> list[Def]:
    stmt_type = FORTRAN_FUNCS.get(node.type) or FORTRAN_MODULES.get(node.type)
    if stmt_type is None and node.type == "derived_type_definition":
        stmt = next((c for c in node.named_children if c.type == "derived_type_statement"), None)
        named = next((c for c in stmt.named_children if c.type == "type_name"), None) if stmt is not None else None
        return [("class", _text(named), node, None)] if named is not None else []
    stmt = next((c for c in node.named_children if c.type == stmt_type), None) if stmt_type else None
    named = next((c for c in stmt.named_children if c.type == "name"), None) if stmt is not None else None
    if named is None:
        return []
    if node.type in FORTRAN_MODULES:
        return [("class", _text(named), node, node)]
    return [("function", _text(named), node, None)]


def _d(node) -> list[Def]:
    if node.type in ("function_declaration", "constructor", "destructor"):
        body = next((c for c in node.named_children if c.type == "function_body"), None)
        if body is None or not body.named_children:
            return []  # a declaration without a body
        if node.type != "function_declaration":
            return [("function", "this" if node.type == "constructor" else "~this", node, None)]
        named = next((c for c in node.named_children if c.type == "identifier"), None)
        return [("function", _text(named), node, None)] if named is not None else []
    if node.type in D_CLASSES:
        named = next((c for c in node.named_children if c.type == "identifier"), None)
        return [("class", _text(named), node, node)] if named is not None else []
    return []


def _pascal(node) -> list[Def]:
    if node.type == "defProc":
        decl = next((c for c in node.named_children if c.type == "declProc"), None)
        named = next((c for c in decl.named_children if c.type in ("identifier", "genericDot", "operatorName")),
                     None) if decl is not None else None
        return [("function", re.sub(r"\s+", "", _text(named)), node, None)] if named is not None else []
    if node.type == "declType":
        body = next((c for c in node.named_children if c.type in ("declClass", "declIntf")), None)
        named = next((c for c in node.named_children if c.type in ("identifier", "genericTpl")), None)
        if body is not None and named is not None:
            return [("class", re.sub(r"<.*", "", _text(named)), node, body)]
    return []


def _verilog(node) -> list[Def]:
    if node.type in ("module_declaration", "interface_declaration", "package_declaration", "class_declaration"):
        header = next((c for c in node.named_children if c.type in ("module_header", "interface_ansi_header",
                                                                   "interface_nonansi_header")), node)
        named = next((c for c in header.named_children if c.type in VERILOG_NAMES), None)
        return [("class", _text(named), node, node)] if named is not None else []
    if node.type in ("function_declaration", "task_declaration"):
        body = next((c for c in node.named_children if c.type.endswith("_body_declaration")), None)
        named = next((c for c in body.named_children if c.type in VERILOG_NAMES), None) if body is not None else None
        return [("function", _text(named).split(".")[-1], node, None)] if named is not None else []
    return []


def _k_definition(node, lang: str, in_class: bool) -> list[Def]:
    if lang in ("elisp", "commonlisp", "scheme", "racket"):
        return _lisp(node, lang, in_class)
    if lang == "tcl":
        return _tcl(node, in_class)
    if lang == "fish" and node.type == "function_definition":
        named = node.child_by_field_name("name") or next((c for c in node.named_children if c.type == "word"), None)
        return [("function", _text(named), node, None)] if named is not None else []
    if lang == "ada":
        return _ada(node)
    if lang == "fortran":
        return _fortran(node)
    if lang == "d":
        return _d(node)
    if lang == "pascal":
        return _pascal(node)
    if lang == "verilog":
        return _verilog(node)
    return []


QUOTES = {"quote", "quasiquote", "quoting_lit", "syn_quoting_lit", "vec_lit", "vector", "str_lit", "string"}
SKIPPED = {"fortran": {"interface"}}  # not walked: interface bodies declare procedures defined elsewhere
WHOLE_PARSE = {"fortran"}  # a parse error (a preprocessor line in a module) breaks the module: no symbols
CASELESS = {"fortran", "ada", "pascal"}  # names compare lower-cased: `H5Aget_f` and `h5aget_f` are one name


@lru_cache(maxsize=4096)
def script_symbols_k(path: str, text: str, lang: str) -> tuple[Symbol, ...]:
    tree = get_parser(lang).parse(text.encode("utf-8"))
    if lang in WHOLE_PARSE and tree.root_node.has_error:
        return ()
    lines = split_lines(text)
    out: list[Symbol] = []

    def walk(node, prefix: str, in_class: bool) -> None:
        for child in node.named_children:
            defs = _k_definition(child, lang, in_class)
            if lang in CASELESS:
                defs = [(kind, name.lower(), outer, body) for kind, name, outer, body in defs]
            if not defs:
                if child.type not in QUOTES and child.type not in SKIPPED.get(lang, ()):
                    walk(child, prefix, in_class)
                continue
            for kind, name, outer, body in defs:
                qname = f"{prefix}.{name}" if prefix else name
                kind = "method" if kind == "function" and prefix else kind
                s, e = outer.start_point[0], _end_row(outer)
                out.append(Symbol(qname, name.rsplit(".", 1)[-1], kind, s + 1, e + 1, "\n".join(lines[s:e + 1])))
                if body is not None:
                    walk(body, qname, kind == "class" and not (lang == "racket" and _head(outer) in RACKET_MODULES))

    walk(tree.root_node, "", False)
    return tuple(sorted(set(out), key=lambda s: (s.start, -s.end, s.qname)))
