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
``@facet`` (optional)
    What the definition is *as*, when one name has several: the trait of a
    Rust ``impl Display for Foo``. Appended to the name in brackets
    (``Foo[Display]``, generic arguments dropped), so the ``fmt`` of that impl
    is ``Foo[Display].fmt`` and not the ``fmt`` of ``impl Debug for Foo``.
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
* qualified_name = parent's qualified_name + "." + [scope + "."] + name [+ "[" facet "]"].
* Ranges are the definition node's; ``end_line`` is the row of the node's
  last byte that is not a line break (some grammars swallow the newline).
"""

from __future__ import annotations

import re
from operator import attrgetter
from typing import TYPE_CHECKING

import msgspec

from limpet.anchoring._edits import Edit
from limpet.anchoring._languages import get_query, parse, range_safe

if TYPE_CHECKING:
    import tree_sitter

FUNCTION_KINDS = frozenset({"function", "method", "constructor"})
# Parents that turn a nested `function` into a `method`.
CLASS_LIKE = frozenset(
    {"class", "struct", "interface", "impl", "trait", "enum", "object", "record",
     "protocol", "extension", "mixin", "union", "annotation"}
)


class Symbol(msgspec.Struct, frozen=True, order=True, gc=False):
    """One definition, nested: built by the hundred thousand (a workspace index holds every
    file's), so a struct the cyclic collector never tracks (a tuple subclass stays tracked for
    life) and that builds in a quarter of a NamedTuple's time."""

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


class Match(msgspec.Struct, frozen=True, order=True, gc=False):
    """One @definition match as plain values (no nodes): before deduplication and nesting.

    Kept per file content so that the next version of the file re-runs the query only
    over the region an edit touched (see `rematch`).
    """

    start_byte: int
    end_byte: int
    start_line: int
    end_line: int
    name: str
    name_start_byte: int
    name_end_byte: int
    scope: str
    kind: str  # as captured (a `function` nested in a class becomes a `method` later)
    pattern: int


def _tree(language: str, tree_or_source) -> tree_sitter.Tree:
    if isinstance(tree_or_source, (bytes, bytearray, memoryview)):
        return parse(language, bytes(tree_or_source))
    if isinstance(tree_or_source, str):
        return parse(language, tree_or_source.encode("utf-8"))
    return tree_or_source


def query_matches(language: str, tree, byte_range: tuple[int, int] | None = None) -> list[Match]:
    """Every definition match of the language's query (those touching byte_range only)."""
    import tree_sitter

    query = get_query(language)
    if query is None:
        return []
    cursor = tree_sitter.QueryCursor(query)
    if byte_range is not None:
        cursor.set_byte_range(*byte_range)
    out: list[Match] = []
    append, clean = out.append, _clean_name
    kinds: dict[int, str | None] = {}  # pattern -> its @definition.<kind> capture (hot loop)
    for pattern, caps in cursor.matches(tree.root_node):
        kind = kinds.get(pattern, "")
        if kind == "" or kind not in caps:
            kind = kinds[pattern] = _definition_capture(caps)
        names = caps.get("name")
        if kind is None or not names:
            continue
        defs = caps[kind]
        first, last = (defs[0], defs[0]) if len(defs) == 1 else _ends(defs)
        name_node = names[0]
        name = (name_node.text or b"").decode("utf-8", "replace")
        if not name.isidentifier():  # the common case needs no cleaning
            name = clean(name)
        facets = caps.get("facet")
        if facets:
            name = f"{name}[{'.'.join(_scope_text(f) for f in facets)}]"
        scopes = caps.get("scope")
        scope = ".".join(t for t in map(_scope_text, sorted(scopes, key=_start)) if t) if scopes else ""
        end_row, end_col = last.end_point
        append(Match(first.start_byte, last.end_byte, first.start_point[0], end_row if end_col else _end_line(last),
                     name, name_node.start_byte, name_node.end_byte, scope, kind[11:], pattern))
    return out


def _definition_capture(caps) -> str | None:
    for key in caps:
        if key.startswith("definition."):
            return key
    return None


def _start(node) -> int:
    return node.start_byte


def _ends(nodes):
    ordered = sorted(nodes, key=_start)
    return ordered[0], ordered[-1]


def select(matches: list[Match]) -> list[Match]:
    """The generic rules, independent of match order: per @name node the larger definition
    wins (then the earlier pattern); per definition range the earlier pattern wins."""
    by_name: dict[tuple[int, int], Match] = {}
    for m in matches:
        key = (m.name_start_byte, m.name_end_byte)
        old = by_name.get(key)
        if old is None or _name_rank(m) < _name_rank(old):  # ranks only on a clash (rare)
            by_name[key] = m
    by_def: dict[tuple[int, int], Match] = {}
    for m in by_name.values():
        key = (m.start_byte, m.end_byte)
        old = by_def.get(key)
        if old is None or (m.pattern, m.name_start_byte) < (old.pattern, old.name_start_byte):
            by_def[key] = m
    out = list(by_def.values())
    out.sort(key=attrgetter("end_byte"), reverse=True)  # two stable C-keyed sorts: (start_byte, -end_byte)
    out.sort(key=attrgetter("start_byte"))
    return out


def _name_rank(m: Match) -> tuple:
    return (m.start_byte - m.end_byte, m.pattern, m.start_byte, m.kind, m.scope)


_WS = re.compile(r"\s+")


def _clean_name(text: str) -> str:
    text = _WS.sub(" ", text).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        text = text[1:-1]  # string-keyed members: 'foo'() / "foo": function
    if text.startswith(("::", "\\")) and len(text) > 2:
        text = text.lstrip(":\\")  # a fully qualified `::ns::f` (Tcl, C++) or `\Ns\f` (PHP) names `ns.f`
    return text.replace("::", ".").replace("\\", ".")


def _scope_text(node) -> str:
    text = (node.text or b"").decode("utf-8", "replace")
    if text.isidentifier():
        return text  # the common case: nothing to drop or rewrite
    text = _WS.sub("", text)
    if "<" not in text and "[" not in text:
        return text.replace("::", ".").replace("\\", ".").strip(".")
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
    if get_query(language) is None:
        return []
    return nest(select(query_matches(language, _tree(language, tree_or_source))))


def nest(selected: list[Match]) -> list[Symbol]:
    """Parents, qualified names and methods for matches sorted by (start_byte, -end_byte)."""
    symbols: list[Symbol] = []
    stack: list[int] = []  # indices of the open enclosing symbols
    for m in selected:
        start, end = m.start_byte, m.end_byte
        while stack:  # same range is not nesting: two symbols on one node are siblings
            top = symbols[stack[-1]]
            if top.start_byte <= start and end <= top.end_byte and (top.start_byte, top.end_byte) != (start, end):
                break
            stack.pop()
        parent = stack[-1] if stack else None
        kind = m.kind
        if kind == "function" and parent is not None and symbols[parent].kind in CLASS_LIKE:
            kind = "method"
        local = f"{m.scope}.{m.name}" if m.scope else m.name
        qualified = f"{symbols[parent].qualified_name}.{local}" if parent is not None else local
        symbols.append(Symbol(m.name, qualified, kind, start, end, m.start_line, m.end_line,
                              m.name_start_byte, m.name_end_byte, parent))
        stack.append(len(symbols) - 1)
    return symbols


def rematch(language: str, tree, old: list[Match], edit: Edit,
            changed: list[tuple[int, int]]) -> tuple[list[Match], bool]:
    """The matches of `tree` (a new version parsed incrementally) from those of the old one,
    and whether they are all the old ones (moved: no definition touched the edit).

    Outside the edit and tree-sitter's changed ranges both trees are the same, so
    a definition lying wholly outside their hull is the old match (shifted when
    after the edit); only definitions touching the hull, their ancestors included,
    are matched again. Equal to a full query, at the cost of the region only
    (a full query for languages whose patterns a range query may miss).
    """
    if not range_safe(language):
        return query_matches(language, tree), False
    lo = max(0, min([edit.start, *(a for a, _ in changed)]) - 1)
    hi = max([edit.new_end, *(b for _, b in changed)]) + 1
    delta, rows = edit.new_end - edit.old_end, edit.new_end_row - edit.old_end_row
    hi_old = hi - delta
    kept = [m for m in old if m.end_byte < lo]
    kept += [Match(m.start_byte + delta, m.end_byte + delta, m.start_line + rows, m.end_line + rows, m.name,
                   m.name_start_byte + delta, m.name_end_byte + delta, m.scope, m.kind, m.pattern)
             for m in old if m.start_byte > hi_old]
    # tree-sitter's ranges are half-open; ours are closed (a definition ending at `lo` counts)
    fresh = [m for m in query_matches(language, tree, (max(0, lo - 1), hi + 1))
             if m.start_byte <= hi and m.end_byte >= lo]
    return kept + fresh, not fresh and len(kept) == len(old)


def moved(symbols: list[Symbol], edit: Edit) -> list[Symbol]:
    """The symbols of a version whose every definition an edit left whole (each wholly before
    or after it: `rematch` says so): those after it moved by its bytes and rows. What nesting
    the new version's matches gives, without redoing it (an edit above every definition, a
    line inserted at the top of a file, is the commonest)."""
    start, delta, rows = edit.start, edit.new_end - edit.old_end, edit.new_end_row - edit.old_end_row
    return [s if s.end_byte < start else
            Symbol(s.name, s.qualified_name, s.kind, s.start_byte + delta, s.end_byte + delta, s.start_line + rows,
                   s.end_line + rows, s.name_start_byte + delta, s.name_end_byte + delta, s.parent)
            for s in symbols]

