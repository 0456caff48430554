"""Held-out anchoring cases: truth symbols straight from tree-sitter, and the similarity measures.

These node-type lists are the benchmark README's definitions, written independently of limpet's
own .scm queries on purpose (the held-out truth must not share the engine's blind spots).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache

from tree_sitter_language_pack import get_parser

MIN_LINES, MAX_LINES = 2, 250

PY_DEFS = {"function_definition": "function", "class_definition": "class"}
JS_DECLS = {
    "function_declaration": "function", "generator_function_declaration": "function",
    "class_declaration": "class", "abstract_class_declaration": "class",
    "interface_declaration": "class", "enum_declaration": "class",
    "method_definition": "method",
}
JS_FUNCS = {"arrow_function", "function_expression", "function", "generator_function"}
JS_FIELDS = {"field_definition", "public_field_definition"}
JS_VARS = {"lexical_declaration", "variable_declaration"}


@dataclass(frozen=True)
class Symbol:
    qname: str
    name: str
    kind: str  # function | method | class
    start: int  # 1-based, inclusive
    end: int
    text: str  # the full lines start..end joined by "\n"

    @property
    def size(self) -> int:
        return self.end - self.start + 1

    def encloses(self, other: Symbol) -> bool:
        return self.start <= other.start and other.end <= self.end and self != other


def split_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parser_language(path: str) -> str | None:
    if path.endswith(".py"):
        return "python"
    if path.endswith((".ts", ".mts", ".cts")):
        return "typescript"
    if path.endswith(".tsx"):
        return "tsx"
    if path.endswith((".js", ".mjs", ".cjs", ".jsx")):
        return "javascript"
    return None


def _text(node) -> str:
    return node.text.decode("utf-8", "replace")


def _end_row(node) -> int:
    row, col = node.end_point
    return row - 1 if col == 0 and row > node.start_point[0] else row


def _py_def(node):
    """(name, kind, range node) when node is a Python definition."""
    if node.type in PY_DEFS:
        name = node.child_by_field_name("name")
        outer = node.parent if node.parent is not None and node.parent.type == "decorated_definition" else node
        return (_text(name) if name else None), PY_DEFS[node.type], outer
    return None


def _js_def(node):
    """(name, kind, range node) when node is a JS/TS truth definition."""
    t = node.type
    if t in JS_DECLS:
        name = node.child_by_field_name("name")
        if name is None:
            return None
        outer = node.parent if node.parent is not None and node.parent.type == "export_statement" else node
        return _text(name), JS_DECLS[t], outer
    if t in JS_FIELDS:
        value = node.child_by_field_name("value")
        name = node.child_by_field_name("name") or node.child_by_field_name("property")
        if value is not None and value.type in JS_FUNCS and name is not None:
            return _text(name), "method", node
        return None
    if t in JS_VARS:
        decls = [c for c in node.named_children if c.type == "variable_declarator"]
        if len(decls) != 1:
            return None
        name, value = decls[0].child_by_field_name("name"), decls[0].child_by_field_name("value")
        if name is None or value is None or name.type != "identifier" or value.type not in JS_FUNCS:
            return None
        outer = node.parent if node.parent is not None and node.parent.type == "export_statement" else node
        return _text(name), "function", outer
    if t == "expression_statement":
        expr = node.named_children[0] if node.named_children else None
        if expr is None or expr.type != "assignment_expression":
            return None
        left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
        if left is None or right is None or left.type != "member_expression":
            return None
        if right.type not in ("function_expression", "function", "generator_function"):
            return None
        return _text(left), "function", node
    return None


@lru_cache(maxsize=4096)
def symbols(path: str, text: str) -> tuple[Symbol, ...]:
    """Every truth definition of the file (any size; callers filter on MIN_LINES..MAX_LINES)."""
    lang = parser_language(path)
    if lang is None:
        return ()
    tree = get_parser(lang).parse(text.encode("utf-8"))
    lines = split_lines(text)
    detect = _py_def if lang == "python" else _js_def
    out: list[Symbol] = []

    def walk(node, prefix: str) -> None:
        for child in node.named_children:
            found = detect(child)
            if found is not None and found[0]:
                name, kind, outer = found
                qname = f"{prefix}.{name}" if prefix else name
                s, e = outer.start_point[0], _end_row(outer)
                out.append(Symbol(qname, name, kind, s + 1, e + 1, "\n".join(lines[s:e + 1])))
                walk(child, qname)
            else:
                walk(child, prefix)

    walk(tree.root_node, "")
    # a definition is reached through its decorated/export wrapper and itself: keep one per (qname, range)
    seen, uniq = set(), []
    for sym in out:
        key = (sym.qname, sym.start, sym.end)
        if key not in seen:
            seen.add(key)
            uniq.append(sym)
    return tuple(sorted(uniq, key=lambda s: (s.start, -s.end, s.qname)))


def sized(syms) -> list[Symbol]:
    return [s for s in syms if MIN_LINES <= s.size <= MAX_LINES]


_TOKEN = re.compile(r"[A-Za-z0-9_$]+|[^\sA-Za-z0-9_$]")


@lru_cache(maxsize=65536)
def _units(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(text.split("\n")), tuple(_TOKEN.findall(text))


def similarity(a: str, b: str, floor: float = 0.0) -> float:
    """max(line-level, token-level) difflib ratio; values below `floor` may be reported as 0."""
    best = 0.0
    for x, y in zip(_units(a), _units(b), strict=True):
        sm = difflib.SequenceMatcher(None, x, y, autojunk=False)
        if sm.real_quick_ratio() < max(floor, best) or sm.quick_ratio() < max(floor, best):
            continue
        best = max(best, sm.ratio())
    return best


def rename_ident(text: str, old: str, new: str) -> str:
    """text with every whole-identifier occurrence of old replaced by new."""
    return re.sub(rf"(?<![A-Za-z0-9_$]){re.escape(old)}(?![A-Za-z0-9_$])", new, text)


def line_range_of(content: str, needle: str) -> tuple[int, int] | None:
    """The 1-based line range of needle's only occurrence in content, when it sits on full lines."""
    i = content.find(needle)
    if i < 0 or content.find(needle, i + 1) >= 0:
        return None
    if i > 0 and content[i - 1] != "\n":
        return None
    j = i + len(needle)
    if j < len(content) and content[j] != "\n":
        return None
    start = content.count("\n", 0, i) + 1
    return start, start + needle.count("\n")
