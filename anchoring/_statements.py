"""Statement-level mapping (RefactoringMiner's idea, in small): which statements of an old body
are in a new one, tolerating replaced identifiers and literals.

A statement is a non-blank row of the body, its declaration row and rows of punctuation alone
(`{`, `}`, `)`) left out. Two statements map when equal, or when they read alike with names
and literals abstracted (`position += BYTE_SIZE` / `bytesRead += BYTE_SIZE`) and at most half of
their tokens differ. A name and a literal are the same kind of token there, a value (a constant
written out, `Task(TITLE1, DESCRIPTION)` / `Task("TITLE1", "DESCRIPTION1")`: RefactoringMiner
replaces a variable by a literal alike); keywords and punctuation are kept as they are. Each new statement maps at most once; equal ones first.

The step below uses it where whole-body likeness says too little: a small method moved to
another class or file under its own simple name, with a field or parameter renamed in it (two
or three statements; a name-blind body likeness of two-line bodies is high everywhere, a mapping
of every statement is not).
"""

from __future__ import annotations

import re
from collections import Counter

from limpet.anchoring._claimed import claimed_by_its_file
from limpet.anchoring._fileview import FileView
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._mapping import kinds_compatible, map_into_symbol, symbol_similarity
from limpet.anchoring._signature import signature
from limpet.anchoring._steps_local import Hit, hit_in_symbol, parent_of, was_sibling
from limpet.anchoring._steps_moved import needles
from limpet.anchoring._symbols import FUNCTION_KINDS
from limpet.anchoring._text import holds_word
from limpet.model import Anchor

__all__ = ["body_statements", "extracted_step", "inlined_step", "mapped_shares", "named_move_step",
           "renamed_mapped_step", "renamed_remainder_step"]

_TOKEN = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*|\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|\S")
_KEYWORDS = frozenset("""if else elif for while do return val var fun def let const new this self in is not and or
try catch finally throw throws raise with as yield await async null None nil true false True False
break continue when switch case default override private public protected internal static final
import from pass lambda function class object super""".split())
_PUNCTUATION = re.compile(r"^[\s{}()\[\];,]*$")
NAMED_MOVE_OLD = 0.75  # share of the old statements mapped into the moved method
NAMED_MOVE_NEW = 0.5  # ... and of the moved method's statements that are old ones
EXTRACT_MIN_STATEMENTS = 2  # lines taken into a new function: at least this many statements
EXTRACTED_SHARE = 0.75  # ... most of them mapped there
INLINE_MIN_STATEMENTS = 2  # a method inlined into its caller: at least this many statements
INLINE_SHARE = 0.75  # ... most of them mapped onto statements the caller did not have before
INLINE_TOOK_SHARE = 0.5  # another caller that gained this share of them took part of the body
INLINE_SPECIFIC_VALUES = 2  # a statement naming this many names or literals says where it went
REMAINDER_MIN_STATEMENTS = 3  # a method renamed while most of its body left: it keeps this many
REMAINDER_SHARE = 0.6  # ... of which at least this share are old statements
MAPPED_MIN_STATEMENTS = 8  # a method renamed and edited in place: this many statements at least,
MAPPED_OLD, MAPPED_NEW = 0.6, 0.5  # ... this share of them in one new method of its scope, which
MAPPED_LEAD = 0.3  # ... they are this much less in any other new one
MAPPED_BODY_MIN = 0.4  # ... and its text (name-blind) is this alike


def statements(text: str) -> list[str]:
    rows = [r.strip() for r in text.split("\n")[1:]]
    return [r for r in rows if r and not _PUNCTUATION.match(r)]


def body_statements(text: str) -> list[str]:
    """The statements after the whole declaration: a parameter list spread over rows left out too
    (`fun updatePaddings(` / `paddingStart: Int,` / `) {`). Where a body's own statements are
    what is counted, a parameter is none: a new method whose body is a comment, with the old
    one's parameters, read as one whose statements are mostly old ones (react-native-screens 4.6:
    updatePaddingsFabric, a call, taken for renamed to a new updatePaddings that does nothing)."""
    lines = text.split("\n")
    depth, declaration = 0, 1
    for i, line in enumerate(lines):
        depth += line.count("(") - line.count(")")
        if depth <= 0 or "{" in line:  # the list closed, or a block opened in it: the body starts
            declaration = i + 1
            break
    rows = [r.strip() for r in lines[declaration:]]
    return [r for r in rows if r and not _PUNCTUATION.match(r)]


def _keeps_a_value(a: list[str], b: list[str]) -> bool:
    """Does a row of the same shape keep one of the names or literals? Among the many rows a
    long function gained, one with every value replaced is any row of its shape: `warn(`, `"a
    message",` and `Deprecated,` mapped onto rows main() gained, black 24.2's deleted
    Mode.__post_init__ taken for inlined into it."""
    return any(x == y and x not in _KEYWORDS and (x[0].isalnum() or x[0] in "_$\"'") for x, y in zip(a, b, strict=True))


def _shape(tokens: list[str]) -> tuple[str, ...]:
    """The statement with every name and literal read as one value token `V`."""
    return tuple(t if t in _KEYWORDS or not (t[0].isalnum() or t[0] in "_$\"'") else "V" for t in tokens)


def mapped_shares(old: str, new: str) -> tuple[float, float]:
    """(share of old's statements mapped into new, share of new's that are mapped)."""
    a, b = statements(old), statements(new)
    if not a or not b:
        return 0.0, 0.0
    mapped = _mapped(a, b)
    return mapped / len(a), mapped / len(b)


def _rows(text: str) -> list[str]:
    rows = [r.strip() for r in text.split("\n")]
    return [r for r in rows if r and not _PUNCTUATION.match(r)]


def _mapped(a: list[str], b: list[str], keep_value: bool = False) -> int:
    """How many of statements `a` map onto distinct statements of `b` (`keep_value`: a row mapped
    by its shape keeps one of its names or literals)."""
    free = Counter(b)
    mapped, rest = 0, []
    for row in a:
        if free[row] > 0:
            free[row] -= 1
            mapped += 1
        else:
            rest.append(row)
    if not rest:
        return mapped
    shapes: dict[tuple[str, ...], list[list[str]]] = {}
    for row, n in free.items():
        for _ in range(n):
            toks = _TOKEN.findall(row)
            shapes.setdefault(_shape(toks), []).append(toks)
    for row in rest:
        toks = _TOKEN.findall(row)
        pool = shapes.get(_shape(toks))
        if not pool:
            continue
        for i, other in enumerate(pool):
            if sum(x != y for x, y in zip(toks, other, strict=True)) <= max(1, len(toks) // 2) \
                    and (not keep_value or _keeps_a_value(toks, other)):
                del pool[i]
                mapped += 1
                break
    return mapped


def named_move_step(anchor: Anchor, index: WorkspaceIndex | None) -> Hit | None:
    """A method gone from its file that reappears, new, under its own simple name in one other
    changed file, most of its statements mapped there (a field or parameter renamed in it). One
    such symbol only (overloads, or the name new in two places: no one place), never one that was
    already there."""
    if index is None or anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name:
        return None
    name, own = anchor.symbol_name, (anchor.file, anchor.symbol)
    paths = [p for p in index.scope(False, (name.encode(),), family=family_for_path(anchor.file)) if p != anchor.file]
    found = [(p, sv) for p in paths for sv in index.view(p).symbols
             if sv.name == name and kinds_compatible(anchor.symbol_kind, sv.kind)]
    found = [(p, sv) for p, sv in found if not index.existed_before(p, sv.qualified_name, own)]
    if len(found) != 1:
        return None
    path, sv = found[0]
    old_share, new_share = mapped_shares(anchor.selected_text, sv.text)
    if old_share < NAMED_MOVE_OLD or new_share < NAMED_MOVE_NEW or claimed_by_its_file(anchor, path, sv, index):
        return None
    if _forwards_to_a_new_body(anchor, path, sv, old_share, index):
        return None
    view = index.view(path)
    rows = map_into_symbol(anchor, view, sv)
    if rows is None:
        return None
    return Hit(path, view, rows[0], rows[1], "moved", round(0.4 + 0.5 * old_share, 4))


def _forwards_to_a_new_body(anchor: Anchor, path: str, sv, old_share: float, index: WorkspaceIndex) -> bool:
    """Does the namesake call a symbol new beside it (its scope, its file) that holds the old
    statements as well as it does? The name was kept on a forwarder and the body went on under
    another name (anyio 3.0: the abstract TaskGroup.spawn moved to _tasks.py as a deprecated
    spawn calling the new start_soon, which holds its docstring): the name is no one place."""
    own = (anchor.file, anchor.symbol)
    return any(other is not sv and other.parent_name == sv.parent_name and kinds_compatible(anchor.symbol_kind, other.kind)
               and holds_word(sv.text, other.name) and not index.existed_before(path, other.qualified_name, own)
               and mapped_shares(anchor.selected_text, other.text)[0] >= old_share for other in index.view(path).symbols)


def extracted_step(anchor: Anchor, view: FileView, index: WorkspaceIndex | None) -> Hit | None:
    """Lines gone from a symbol that stayed, taken into a function new in this change (extract
    method, into this file or a changed one, with names replaced: argumentization): most of
    their statements map into one new function, and a window of it as long as the lines maps
    best, clearly. Functions that were already there are never where the lines went."""
    if index is None or anchor.position != "lines":
        return None
    quote = _rows(anchor.selected_text)
    if len(quote) < EXTRACT_MIN_STATEMENTS:
        return None
    paths = [anchor.file] + [p for p in index.scope(False, needles(anchor), family=family_for_path(anchor.file))
                             if p != anchor.file]
    found = []
    for path in paths:
        here = view if path == anchor.file else index.view(path)
        for sv in here.symbols:
            if sv.kind not in FUNCTION_KINDS or sv.qualified_name == anchor.symbol:
                continue
            body = _rows(here.text(min(sv.first + 1, sv.last), sv.last))
            if _mapped(quote, body) < EXTRACTED_SHARE * len(quote):
                continue
            if index.existed_before(path, sv.qualified_name):
                continue
            found.append((path, here, sv))
    found = innermost(found)  # a new class around a new method holds its rows too
    if len(found) != 1:
        return None
    path, here, sv = found[0]
    span = anchor.line_end - anchor.line_start + 1
    scored = sorted(((_mapped(quote, _rows(here.text(start, start + span - 1))), start)
                     for start in range(sv.first, sv.last - span + 2)), key=lambda t: (-t[0], t[1]))
    if not scored or scored[0][0] < EXTRACTED_SHARE * len(quote):
        return None
    best, start = scored[0]
    if any(n == best and abs(other - start) >= span for n, other in scored[1:]):
        return None  # two windows as good, apart: no one place
    return Hit(path, here, start, start + span - 1, "moved" if path != anchor.file else "fuzzy",
               round(0.4 + 0.5 * best / len(quote), 4))


def inlined_step(anchor: Anchor, view: FileView | None, index: WorkspaceIndex | None) -> Hit | None:
    """A method gone whose body went into the one function that received it (inline method, in
    this file or a changed one): that function called it before and no longer does, and most of
    the method's statements map onto statements it did not have before, some of them specific
    ones. Its new rows are not code that was already there; a function receiving them in two
    places, two functions, or another former caller taking half of them is no one place
    (orphaned). Rows alike (`cloned := *h`, `return &cloned`, `if err != nil {`) are in many
    functions: gained by one that never called the method, they were written there, not moved
    (fzf 0.60: MakeTransparentBorder deleted while MakeBorderStyle gained border rows of its
    own; zap 1.27: withFields gone from two callers, WithAttrs and WithGroup, each taking part)."""
    if index is None or anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name:
        return None
    body = statements(anchor.selected_text)
    if len(body) < INLINE_MIN_STATEMENTS:
        return None
    named = {row for row in set(body) if _specific(row)}  # each distinct row read once: a hostile body repeats one
    specific = [row for row in body if row in named]
    if len(specific) < INLINE_MIN_STATEMENTS:
        return None  # (rows as common as `return err`: nothing says where they went)
    found, callers = [], []
    for path, here, before, sv, old in changed_functions(anchor, view, index):
        was, now = Counter(statements(old.text)), Counter(statements(sv.text))
        added = list((now - was).elements())
        if len(added) < INLINE_TOOK_SHARE * len(body):
            continue
        mapped = _mapped(body, added, keep_value=True)
        called = any(holds_word(row, anchor.symbol_name) for row in (was - now)) \
            and not any(holds_word(row, anchor.symbol_name) for row in now)
        if called and mapped >= INLINE_TOOK_SHARE * len(body):
            callers.append((path, here, sv))
        if mapped >= INLINE_SHARE * len(body) and not _holds_new_copy(here, before, sv, body):
            found.append((path, here, sv, called, _mapped(specific, added, keep_value=True)))
    found, callers = innermost(found), innermost(callers)
    if len(found) != 1 or len(callers) != 1:
        return None
    path, here, sv, called, mapped_specific = found[0]
    if not called or callers[0][2] is not sv or mapped_specific < INLINE_MIN_STATEMENTS:
        return None  # (it never called the method, or another caller took part of it too)
    return Hit(path, here, sv.first, sv.last, "moved" if path != anchor.file else "renamed", 0.5)


def _specific(row: str) -> bool:
    """Does a statement name two things or more (`cloned.core = h.core.With(fields)`), not one
    or none (`return err`, `if err != nil {`, `return nil`: rows found in any function)?"""
    return len({t for t in _TOKEN.findall(row) if _shape([t]) == ("V",)}) >= INLINE_SPECIFIC_VALUES


def changed_functions(anchor: Anchor, view: FileView | None, index: WorkspaceIndex):
    """Each function of this change's files that could have received the anchor's code: in the
    anchor's file (when it is still there) and the files naming its words, a function other
    than the anchor's own symbol that had exactly one namesake before the change. Yields
    (path, view now, view before, the function now, the function before)."""
    paths = [p for p in index.scope(False, needles(anchor), family=family_for_path(anchor.file)) if p != anchor.file]
    if view is not None:
        paths.insert(0, anchor.file)
    for path in paths:
        here = view if path == anchor.file and view is not None else index.view(path)
        before = index.previous_view(path)
        if before is None or here is None:
            continue
        for sv in here.symbols:
            if sv.kind not in FUNCTION_KINDS or sv.qualified_name == anchor.symbol:
                continue
            old = before.by_name.get(sv.qualified_name, ())
            if len(old) == 1:
                yield path, here, before, sv, old[0]


def innermost(found: list[tuple]) -> list[tuple]:
    """Of places (path, view, symbol, ...) found, those holding no other found place of their
    file: a symbol around another found symbol (a new class around a new method) is not it."""
    return [f for f in found if not any(g is not f and g[0] == f[0] and f[2].first <= g[2].first
                                        and g[2].last <= f[2].last for g in found)]


def _holds_new_copy(view: FileView, before: FileView, sv, body: list[str]) -> bool:
    """Does `sv` hold a function new in this change into which the body maps (a copy of the
    method as a function of its own, nested: that is no inlining)?"""
    return any(inner.kind in FUNCTION_KINDS and inner is not sv and sv.first <= inner.first and inner.last <= sv.last
               and inner.qualified_name not in before.by_name
               and _mapped(body, statements(inner.text)) >= INLINE_SHARE * len(body) for inner in view.symbols)


def renamed_remainder_step(anchor: Anchor, view: FileView, before: FileView | None) -> Hit | None:
    """A method renamed in place while most of its body was taken out (into a helper, another
    file): one symbol new in its scope declares the very same parameters and most of its
    statements are old ones (`specialized_doctest(self, decorator, input_lines, found,
    submitted)` -> `custom_doctest(...)`, now a dispatcher to the code that left). That is the
    method; the body that left is a part of it (extract method), not where the method went."""
    if before is None or anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name:
        return None
    parent = parent_of(anchor.symbol, anchor.symbol_name)
    new_here = [sv for sv in view.symbols if sv.kind in FUNCTION_KINDS and sv.parent_name == parent
                and kinds_compatible(anchor.symbol_kind, sv.kind) and not was_sibling(anchor, sv, before)]
    if not new_here:
        return None
    old_signature = signature(anchor.selected_text, anchor.symbol_name)
    if "(" not in old_signature:
        return None
    old = body_statements(anchor.selected_text)
    found = []
    for sv in new_here:
        if signature(sv.text, sv.name) != old_signature:
            continue
        new = body_statements(sv.text)
        if len(new) >= REMAINDER_MIN_STATEMENTS and _mapped(new, old) >= REMAINDER_SHARE * len(new):
            found.append(sv)
    if len(found) != 1:
        return None
    return hit_in_symbol(anchor, anchor.file, view, found[0], 0.6)


def renamed_mapped_step(anchor: Anchor, view: FileView, before: FileView | None) -> Hit | None:
    """A method of some size renamed in place with its body edited past the likeness the other
    steps need (names of its parameters and types replaced throughout): most of its statements
    map into one method new in its scope, well more than into any other new one, and most of
    that one's statements are old ones (leakcanary 01210bbb: computeExpectedReachability ->
    computeLeakStatuses, `reachability` read `leakStatus` in every row)."""
    if before is None or anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name:
        return None
    old = statements(anchor.selected_text)
    if len(old) < MAPPED_MIN_STATEMENTS:
        return None
    parent = parent_of(anchor.symbol, anchor.symbol_name)
    scored = []
    for sv in view.symbols:
        if sv.kind not in FUNCTION_KINDS or sv.parent_name != parent or not kinds_compatible(anchor.symbol_kind, sv.kind):
            continue
        if was_sibling(anchor, sv, before):
            continue
        new = statements(sv.text)
        mapped = _mapped(old, new) if new else 0
        scored.append((mapped / len(old), mapped / max(len(new), 1), sv))
    if not scored:
        return None
    scored.sort(key=lambda t: (-t[0], t[2].first))
    share, own_share, best = scored[0]
    if share < MAPPED_OLD or own_share < MAPPED_NEW or len(scored) > 1 and share - scored[1][0] < MAPPED_LEAD:
        return None
    if symbol_similarity(anchor, best, blind=True) < MAPPED_BODY_MIN:
        return None
    return hit_in_symbol(anchor, anchor.file, view, best, round(0.4 + 0.5 * share, 4))
