"""Cyclomatic complexity from the ``@branch`` captures of each language's .scm.

complexity(function) = 1 + decision points inside it, not counting those
inside nested functions or classes (they get their own figure). Symbols of
a transparent kind (variables, constants, fields) do not shield: a ternary
in a local ``const`` counts for the function around it.
"""

from __future__ import annotations

from bisect import bisect_right

from limpet.anchoring._languages import get_query
from limpet.anchoring._symbols import FUNCTION_KINDS, Symbol, _tree, extract_symbols

TRANSPARENT_KINDS = frozenset({"variable", "constant", "field", "property"})


def _branch_nodes(language: str, root, start_byte: int | None = None, end_byte: int | None = None):
    """Distinct @branch nodes, optionally only those fully inside [start_byte, end_byte)."""
    import tree_sitter

    query = get_query(language, "branches")
    if query is None:
        return []
    cursor = tree_sitter.QueryCursor(query)
    if start_byte is not None and end_byte is not None:
        cursor.set_byte_range(start_byte, end_byte)
    seen: dict[tuple[int, int, int], object] = {}
    for _, caps in cursor.matches(root):
        for node in caps.get("branch", ()):
            if start_byte is not None and not (start_byte <= node.start_byte and node.end_byte <= end_byte):
                continue
            seen.setdefault((node.start_byte, node.end_byte, node.kind_id), node)
    return sorted(seen.values(), key=lambda n: n.start_byte)


def measures_complexity(language: str) -> bool:
    """True when the language's query says where it branches (@branch patterns)."""
    return bool(language) and get_query(language, "branches") is not None


def cyclomatic_complexity(language: str, tree_or_source) -> list[tuple[Symbol, int]]:
    """(symbol, complexity) for every function/method/constructor symbol, in symbol order."""
    tree = _tree(language, tree_or_source)
    symbols = extract_symbols(language, tree)
    counts = [1] * len(symbols)
    starts = [s.start_byte for s in symbols]
    for node in _branch_nodes(language, tree.root_node):
        owner = _owner(symbols, starts, node)
        if owner is not None:
            counts[owner] += 1
    return [(s, counts[i]) for i, s in enumerate(symbols) if s.kind in FUNCTION_KINDS]


def _owner(symbols: list[Symbol], starts: list[int], node) -> int | None:
    """Index of the innermost non-transparent symbol around node, or None."""
    i = bisect_right(starts, node.start_byte) - 1
    # Symbols nest properly, so the innermost container is the last symbol
    # starting at or before the node, or one of its ancestors.
    while i is not None and i >= 0:
        s = symbols[i]
        if s.start_byte <= node.start_byte and node.end_byte <= s.end_byte and s.kind not in TRANSPARENT_KINDS:
            return i
        i = s.parent
    return None
