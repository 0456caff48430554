"""Language-agnostic symbol extraction driven by ``queries/<language>.scm``.

Capture vocabulary shared by every .scm file:

``@definition.<kind>``
    The definition node; its byte/line range is the symbol's range and the
    text after the dot is the kind (function, method, class, struct, ...).
    It may capture several sibling nodes in one match (Dart's
    ``method_signature`` + ``function_body``): the range then runs from the
    first to the last of them.
``@name``
    The node whose text is the symbol's simple name.
``@scope`` (optional)
    An explicit qualifier that is *not* an enclosing definition: the Go
    receiver type, the C++ ``Foo`` of an out-of-class ``Foo::bar``, the
    ``a`` of a JS ``a.b = function``. Its text is prepended to the name
    (``::`` becomes ``.``; ``<...>``/``[...]`` generic arguments are dropped).
    Several @scope nodes in one match (C++ ``ns::Foo::bar`` nests its
    qualifiers) are joined with dots in document order.
    Containers that *are* nodes (e.g. a Rust ``impl`` block) are emitted
    as symbols instead (kind ``impl``, named by their type), so their
    children qualify through the normal parent chain.
``@branch``
    Decision points for cyclomatic complexity (see ``_complexity``); those
    patterns are compiled into a separate query and never seen here.

Generic rules (no per-language code, ever):

* Two matches sharing a @name node: the larger definition wins (Python
  ``decorated_definition`` over its inner ``function_definition``). Two
  matches with the same definition range: the earlier pattern in the file
  wins, so put specific patterns before general ones.
* A ``function`` whose parent symbol is a class-like container becomes a
  ``method``.
* qualified_name = parent's qualified_name + "." + [scope + "."] + name.
* Ranges are the definition node's; ``end_line`` is the row of the node's
  last byte that is not a line break (some grammars swallow the newline).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from limpet.anchoring._languages import get_query, language_for_path, parse

if TYPE_CHECKING:
    import tree_sitter

# Parents that turn a nested `function` into a `method`.
CLASS_LIKE = frozenset(
    {"class", "struct", "interface", "impl", "trait", "enum", "object", "record",
     "protocol", "extension", "mixin", "union", "annotation"}
)


@dataclass(frozen=True, slots=True)
class Symbol:
    name: str
    qualified_name: str
    kind: str
    start_byte: int
    end_byte: int
    start_line: int
    end_line: int
    name_start_byte: int
    name_end_byte: int
    parent: int | None


@dataclass(slots=True)
class _Candidate:
    first: tree_sitter.Node  # first and last @definition node (usually the same)
    last: tree_sitter.Node
    name_node: tree_sitter.Node
    scope: str
    kind: str
    pattern: int

    @property
    def start_byte(self) -> int:
        return self.first.start_byte

    @property
    def end_byte(self) -> int:
        return self.last.end_byte


def _tree(language: str, tree_or_source) -> tree_sitter.Tree:
    if isinstance(tree_or_source, (bytes, bytearray, memoryview)):
        return parse(language, bytes(tree_or_source))
    if isinstance(tree_or_source, str):
        return parse(language, tree_or_source.encode("utf-8"))
    return tree_or_source


def _collect(query, root) -> list[_Candidate]:
    import tree_sitter

    by_name: dict[tuple[int, int], _Candidate] = {}
    for pattern, caps in tree_sitter.QueryCursor(query).matches(root):
        kind = next((k for k in caps if k.startswith("definition.")), None)
        if kind is None or "name" not in caps:
            continue
        defs = sorted(caps[kind], key=lambda n: n.start_byte)
        name_node = caps["name"][0]
        scope_nodes = sorted(caps.get("scope", ()), key=lambda n: n.start_byte)
        scope = ".".join(t for t in map(_scope_text, scope_nodes) if t)
        cand = _Candidate(defs[0], defs[-1], name_node, scope, kind[len("definition."):], pattern)
        key = (name_node.start_byte, name_node.end_byte)
        old = by_name.get(key)
        if old is None or _better(cand, old):
            by_name[key] = cand
    by_def: dict[tuple[int, int], _Candidate] = {}
    for cand in by_name.values():
        key = (cand.start_byte, cand.end_byte)
        old = by_def.get(key)
        if old is None or cand.pattern < old.pattern:
            by_def[key] = cand
    return sorted(by_def.values(), key=lambda c: (c.start_byte, -c.end_byte))


def _better(new: _Candidate, old: _Candidate) -> bool:
    new_size = new.end_byte - new.start_byte
    old_size = old.end_byte - old.start_byte
    if new_size != old_size:
        return new_size > old_size
    return new.pattern < old.pattern


_WS = re.compile(r"\s+")


def _name_text(node) -> str:
    text = _WS.sub(" ", (node.text or b"").decode("utf-8", "replace")).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        text = text[1:-1]  # string-keyed members: 'foo'() / "foo": function
    return text.replace("::", ".").replace("\\", ".")


def _scope_text(node) -> str:
    text = _WS.sub("", (node.text or b"").decode("utf-8", "replace"))
    out, depth = [], 0
    for ch in text:  # drop generic arguments: Foo<T>::bar, Recv[T]
        if ch in "<[":
            depth += 1
        elif ch in ">]" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out).replace("::", ".").replace("\\", ".").strip(".")


def _end_line(node) -> int:
    end_row, end_col = node.end_point
    if end_col or node.end_byte == node.start_byte:
        return end_row
    text = node.text
    if text is None:  # no source kept: the node ends right after one line break
        return max(node.start_point[0], end_row - 1)
    return node.start_point[0] + text.rstrip(b"\r\n").count(b"\n")


def extract_symbols(language: str, tree_or_source) -> list[Symbol]:
    """Symbols of a Tree (or bytes/str source), sorted by (start_byte, -end_byte)."""
    query = get_query(language)
    if query is None:
        return []
    tree = _tree(language, tree_or_source)
    symbols: list[Symbol] = []
    stack: list[int] = []  # indices of the open enclosing symbols
    for cand in _collect(query, tree.root_node):
        while stack and not _contains(symbols[stack[-1]], cand):
            stack.pop()
        parent = stack[-1] if stack else None
        kind = cand.kind
        if kind == "function" and parent is not None and symbols[parent].kind in CLASS_LIKE:
            kind = "method"
        name = _name_text(cand.name_node)
        local = f"{cand.scope}.{name}" if cand.scope else name
        qualified = f"{symbols[parent].qualified_name}.{local}" if parent is not None else local
        symbols.append(Symbol(
            name=name, qualified_name=qualified, kind=kind,
            start_byte=cand.start_byte, end_byte=cand.end_byte,
            start_line=cand.first.start_point[0], end_line=_end_line(cand.last),
            name_start_byte=cand.name_node.start_byte, name_end_byte=cand.name_node.end_byte,
            parent=parent,
        ))
        stack.append(len(symbols) - 1)
    return symbols


def _contains(outer: Symbol, cand: _Candidate) -> bool:
    # Same range is not nesting: two symbols on one node are siblings.
    if (outer.start_byte, outer.end_byte) == (cand.start_byte, cand.end_byte):
        return False
    return outer.start_byte <= cand.start_byte and cand.end_byte <= outer.end_byte


def symbols_for_path(path: str, source: bytes) -> list[Symbol]:
    """Symbols of a file by its path's language; [] when the language is unknown."""
    language = language_for_path(path)
    return extract_symbols(language, source) if language else []
