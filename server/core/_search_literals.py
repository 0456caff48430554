"""What every match of a search pattern must contain, so that a search can skip text that lacks it.

`required_runs(query)` reads runs of literal text off the pattern: characters outside groups,
classes and alternations, not made optional by a quantifier. It is conservative: anything it
does not fully understand (inline flags, which may turn on verbose mode; escapes taking
arguments; nested classes; an alternation at the top) gives no runs, and a search without runs
scans everything, as it would anyway. A run says "every match contains this text, up to case".

Case: patterns are matched case-insensitively, and under Unicode rules four non-ASCII letters
match ASCII ones (İ and ı match i/I, ſ matches s, the Kelvin sign matches k). `fold(text)` maps
them onto their ASCII letters before lowering, so a match of an ASCII run is always found, as
the same ASCII text, in the folded text. Only the ASCII part of a run is used (`trigrams`).
"""

from __future__ import annotations

__all__ = ["fold", "required_runs", "trigrams"]

# The non-ASCII letters a case-insensitive pattern of ASCII letters matches (a test checks the
# table against every code point).
_ASCII_ALIKE = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_ARGUMENT_FREE_ESCAPES = frozenset("dDwWsSbBnrtfvamMAZzGK")  # one letter, nothing after it


def fold(text: str) -> str:
    """`text` as runs are compared with it: lowered, with the ASCII look-alikes made ASCII."""
    return text.translate(_ASCII_ALIKE).lower()


def _class_end(query: str, at: int) -> int:
    """The index of the `]` closing the class opened at `at`, or -1 (nested or unclosed)."""
    i = at + 1
    if query.startswith("^", i):
        i += 1
    if query.startswith("]", i):  # a leading ] is a literal member
        i += 1
    while i < len(query):
        ch = query[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":  # a nested set or a POSIX class ([:alpha:]): not worth understanding
            return -1
        if ch == "]":
            return i
        i += 1
    return -1


def required_runs(query: str) -> list[str]:
    """Literal runs that every match of `query` contains (case aside), or [] when unknown."""
    if "\\Q" in query or any(not query.startswith("(?:", i) for i in _all(query, "(?")):
        return []
    runs: list[str] = []
    run: list[str] = []

    def close() -> None:
        if run:
            runs.append("".join(run))
            run.clear()

    depth, i = 0, 0
    while i < len(query):
        ch = query[i]
        if ch == "\\":
            escaped = query[i + 1:i + 2]
            if escaped.isascii() and escaped and not escaped.isalnum():
                literal = escaped  # \. \( \\ \  ...
            elif escaped in _ARGUMENT_FREE_ESCAPES and escaped:
                close()
                i += 2
                continue
            else:  # \x41, \u..., \N{...}, \p{...}, back references: their arguments are not literals
                return []
            i += 2
        elif ch == "[":
            end = _class_end(query, i)
            if end < 0:
                return []
            close()
            i = end + 1
            continue
        elif ch in "()":
            depth += 1 if ch == "(" else -1
            close()
            i += 1
            continue
        elif ch == "|":
            if depth == 0:
                return []  # either side may match alone
            close()
            i += 1
            continue
        elif ch in ".^$":
            close()
            i += 1
            continue
        elif ch in "*+?{":
            if run:
                run.pop()  # the quantified character may be absent (or, fuzzy, different)
            close()
            if ch == "{":  # skip the counts ({2,3}) or fuzzy constraints ({e<=1}) as a whole
                end = query.find("}", i)
                if end < 0:
                    return []
                i = end
            i += 1
            continue
        else:
            literal = ch
            i += 1
        if depth == 0:
            run.append(literal)
        else:
            close()  # inside a group: the group may be optional or repeated
    close()
    return runs


def _all(text: str, needle: str):
    at = text.find(needle)
    while at >= 0:
        yield at
        at = text.find(needle, at + 1)


def trigrams(query: str) -> frozenset[str]:
    """The three-character ASCII pieces of the pattern's required runs, folded: a text can hold
    a match only if its folded form holds every one of them."""
    out: set[str] = set()
    for run in required_runs(query):
        folded = run.lower()  # a run's non-ASCII characters are dropped below: lower() suffices
        out.update(folded[i:i + 3] for i in range(len(folded) - 2) if folded[i:i + 3].isascii())
    return frozenset(out)
