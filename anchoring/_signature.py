"""A declaration's signature, read from its text: what follows the symbol's name up to its body.

Overloads share a name and differ here (parameter types, Swift argument labels, arity), so this,
not the name, tells them apart. Language-agnostic: from the first whole-identifier occurrence of
the name, characters are taken up to the first `{`, `;`, `=` or line break outside brackets
(Python's trailing `:` and a Kotlin return type are kept), whitespace collapsed.
"""

from __future__ import annotations

import re

MAX_CHARS = 400
_OPEN, _CLOSE = "([", ")]"
_STOP = "{;=\n"
# `name = function (...)`, `name: async function* (...)`, `name = (...) =>`: the parameters follow
_ASSIGNED = re.compile(r"\s*[:=]\s*(?:async\s+)?(?:function\b\s*\*?\s*[\w$]*\s*)?(?=[(<])")


def signature(text: str, name: str | None) -> str:
    """The signature of the declaration `text` of symbol `name` ("" when the name is not in it)."""
    if not name:
        return ""
    simple = name.rsplit(".", 1)[-1]
    found = re.search(rf"(?<![\w$]){re.escape(simple)}(?![\w$])", text)
    if found is None:
        return ""
    start = found.end()
    assigned = _ASSIGNED.match(text, start)
    if assigned is not None:
        start = assigned.end()
    out, depth = [], 0
    for ch in text[start: start + MAX_CHARS]:
        if depth == 0 and ch in _STOP:
            break
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE and depth:
            depth -= 1
        out.append(ch)
    return " ".join("".join(out).split())
