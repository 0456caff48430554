"""Compound anchoring cases: several changes at once, truth by construction (one release pair).

On top of the held-out categories (`_heldout_truth.Pair`), a symbol of a changed file whose qualified
name is gone is followed to the one after-symbol that is clearly its successor:

    score(t) = similarity(old text with the old simple name -> t's name and the old enclosing
               type's name -> t's enclosing type's name, t's text)

over every after-symbol t (same kind family, a qualified name new in its file) of every changed file.
The best must reach COMPOUND_MIN and lead every other after-symbol by MARGIN; the case's category
then says what changed:

| category             | the successor is ...                                                       |
| -------------------- | -------------------------------------------------------------------------- |
| `renamed_edited`     | same file, same enclosing scope, new simple name, text edited too          |
| `container_renamed`  | same file and simple name, its enclosing type renamed (gone, a new one)    |
| `moved_class`        | same file, moved into another (existing) enclosing type, maybe edited      |
| `moved_edited`       | another changed file, same simple name, text edited                        |
| `moved_renamed`      | another changed file, new simple name (edited or not)                      |
| `file_renamed_edited`| the file itself is gone, a new file holds the successor, text edited       |

Two more, without a name change:

* `overload`: a name held by several symbols of the file before and after (overloads, labels); the
  anchor is one of them whose text or place changed. Its successor is the one after-symbol of that
  name with the same signature (`header`), unique on both sides.
* `line_gone`: a line (25+ chars) inside a function that survives (same qualified name, once before
  and after) and was edited; the line is in no changed file after, and no line of the function's
  new text is even 0.4 like it (an edited line is found as such). The thread belongs to the
  function still: expected is the function's new range (attached, drifted).

Every successor also needs the old text to survive verbatim nowhere else (that copy would be a
successor too), and at least IDENT_OVERLAP_MIN of its identifiers in common (a cheap pre-filter).
Pure cases (identical moves, pure renames) are left to the held-out categories.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from rapidfuzz.distance import Indel

from benchmarks._compound_symbols import header
from benchmarks._heldout_symbols import Symbol, rename_ident, similarity, sized, split_lines
from benchmarks._heldout_truth import LINE_MIN_CHARS, Cand, Pair, _innermost

COMPOUND_MIN = 0.75
MARGIN = 0.1
LINE_GONE_MAX = 0.4
FUNCS = {"function", "method"}
COMPOUND = ["renamed_edited", "container_renamed", "moved_class", "moved_edited", "moved_renamed",
            "file_renamed_edited", "overload", "line_gone"]


IDENT = re.compile(r"[A-Za-z_$][\w$]*")
IDENT_OVERLAP_MIN = 0.3  # cheaper than difflib: a successor shares most of its identifiers


@lru_cache(maxsize=65536)
def _idents(text: str) -> frozenset[str]:
    return frozenset(IDENT.findall(text))


def _ident_overlap(s: Symbol, t: Symbol) -> float:
    a = _idents(s.text) - {s.name, parent_qname(s).rsplit(".", 1)[-1]}
    b = _idents(t.text) - {t.name, parent_qname(t).rsplit(".", 1)[-1]}
    return len(a & b) / len(a | b) if a or b else 1.0


def parent_qname(s: Symbol) -> str:
    return s.qname[: -len(s.name) - 1] if s.qname.endswith("." + s.name) else ""


def _family(kind: str) -> str:
    return "function" if kind in FUNCS else kind


class CompoundPair(Pair):
    def __init__(self, before: dict[str, str], after: dict[str, str], symbols_of):
        super().__init__(before, after, symbols_of)
        self.before_q = {p: Counter(s.qname for s in syms) for p, syms in self.sb.items()}
        self.after_q = {p: Counter(s.qname for s in syms) for p, syms in self.sa.items()}

    def compound(self, files: list[str]) -> list[Cand]:
        out: list[Cand] = []
        for f in files:
            if f in self.sb:
                out += self.successors(f) + self.overloads(f) + self.lines_gone(f)
        return out

    # -- a gone name's successor ---------------------------------------------------------------------

    def _new_in_file(self, p: str, t: Symbol) -> bool:
        return not self.before_q.get(p, Counter())[t.qname] and self.after_q[p][t.qname] == 1

    def _score(self, s: Symbol, t: Symbol, floor: float) -> float:
        text = s.text
        if t.name != s.name:
            text = rename_ident(text, s.name, t.name)
        old_parent, new_parent = parent_qname(s).rsplit(".", 1)[-1], parent_qname(t).rsplit(".", 1)[-1]
        if old_parent and new_parent and old_parent != new_parent:
            text = rename_ident(text, old_parent, new_parent)
        return 1.0 if text == t.text else similarity(text, t.text, floor=floor)

    def successors(self, f: str) -> list[Cand]:
        out = []
        for s in sized(self.sb[f]):
            if self.before_q[f][s.qname] != 1 or (f in self.after and self.after_q[f][s.qname]):
                continue
            scored = []
            for p, t in self.after_sized:
                if (_family(t.kind) == _family(s.kind) and self._new_in_file(p, t)
                        and _ident_overlap(s, t) >= IDENT_OVERLAP_MIN):
                    floor = max(COMPOUND_MIN - MARGIN, scored[0][0] - MARGIN if scored else 0.0)
                    sim = self._score(s, t, floor)
                    if sim >= COMPOUND_MIN - MARGIN:
                        scored.append((sim, p, t))
                        scored.sort(key=lambda x: -x[0])
            if not scored or scored[0][0] < COMPOUND_MIN:
                continue
            sim, p, t = scored[0]
            copies = sum(text.count(s.text) for text in self.after_texts)
            if copies > (1 if t.text == s.text else 0):
                continue  # the old text survives verbatim elsewhere: that copy is a successor too
            if any(sim - o[0] < MARGIN for o in scored[1:] if not (o[1] == p and (o[2].encloses(t)
                                                                              or t.encloses(o[2])))):
                continue
            category = self._classify(f, s, p, t, sim)
            if category:
                out.append(Cand(category, f, s.start, s.end, {"file": p, "line_start": t.start, "line_end": t.end},
                                s.qname, s.kind, new_symbol=t.qname, sim=sim))
        return out

    def _classify(self, f: str, s: Symbol, p: str, t: Symbol, sim: float) -> str | None:
        identical = t.text == s.text
        if p == f:
            old_parent, new_parent = parent_qname(s), parent_qname(t)
            if old_parent == new_parent:
                return None if sim >= 1.0 else "renamed_edited"  # a pure rename is `renamed`
            if old_parent and not self.after_q[f][old_parent] and not self.before_q[f][new_parent]:
                return "container_renamed"
            return "moved_class"
        if identical:
            return None  # `moved_file`
        if f not in self.after and p not in self.before:
            return "file_renamed_edited"
        return "moved_edited" if t.name == s.name else "moved_renamed"

    # -- overloads ----------------------------------------------------------------------------------

    def overloads(self, f: str) -> list[Cand]:
        if f not in self.after:
            return []
        out = []
        for s in sized(self.sb[f]):
            if self.before_q[f][s.qname] < 2 or self.after_q[f][s.qname] < 2:
                continue
            sig = header(s)
            if sum(1 for o in self.sb[f] if o.qname == s.qname and header(o) == sig) != 1:
                continue
            same = [t for t in self.sa[f] if t.qname == s.qname and header(t) == sig]
            if len(same) != 1 or not 2 <= same[0].size <= 250:
                continue
            t = same[0]
            if t.text == s.text and t.start == s.start:
                continue  # untouched
            out.append(Cand("overload", f, s.start, s.end, {"file": f, "line_start": t.start, "line_end": t.end},
                            s.qname, s.kind, sim=similarity(s.text, t.text)))
        return out

    # -- a line gone from a function that stays -----------------------------------------------------

    def lines_gone(self, f: str) -> list[Cand]:
        if f not in self.after:
            return []
        old = split_lines(self.before[f])
        counts = Counter(ln.strip() for ln in old)
        funcs = [s for s in self.sb[f] if s.kind in FUNCS]
        after_by_q = {t.qname: t for t in self.sa[f]}
        after_rows = {ln.strip() for ln in split_lines(self.after[f])}
        out = []
        for i, ln in enumerate(old, start=1):
            st = ln.strip()
            if len(st) < LINE_MIN_CHARS or counts[st] != 1 or st in after_rows or self.changed_after_lines[st]:
                continue
            inner = _innermost(funcs, i)
            if inner is None or inner.start == i or inner.end == i or self.before_q[f][inner.qname] != 1:
                continue
            t = after_by_q.get(inner.qname)
            if t is None or self.after_q[f][inner.qname] != 1 or not 2 <= t.size <= 250 or t.text == inner.text \
                    or _family(t.kind) != _family(inner.kind):
                continue
            if any(Indel.normalized_similarity(st, row.strip()) >= LINE_GONE_MAX for row in t.text.split("\n")):
                continue
            out.append(Cand("line_gone", f, i, i, {"file": f, "line_start": t.start, "line_end": t.end},
                            inner.qname, inner.kind))
        return out
