"""Cascade step: a small method inlined where it was called (inline method, by its call site).

A method of one or two rows (an expression body, `fun completeTask(id) = dao.updateCompleted(id,
true)`) has too few statements for the statement mapping of `inlined_step`; its call site says
more. The method is gone; one function that was already there lost the rows that called it, and
the rows it gained hold the body's own tokens (names and literals, most of them). That function
received the body. A function that lost the call and gained less than half of those words only
dropped it (a test that no longer calls it). Two functions that lost a call of that name and
gained half its words or more (of it, or of a namesake: a name says no more): no one place
(orphaned). Words count by their length: a long name tells more than `class` or `java`, which
a namesake's call (`obtainViewModel(AddEditTaskViewModel::class.java)` where the body read
`obtainViewModel(TasksViewModel::class.java)`) shares without taking the body. A body of two
words is enough only when the one receiver has the method's very name, a delegate that forwarded
to it (`DefaultTasksRepository.clearCompletedTasks` called `tasksLocalDataSource.
clearCompletedTasks()` and now holds its `tasksDao.deleteCompletedTasks()`).
"""

from __future__ import annotations

import re
from collections import Counter

from limpet.anchoring._fileview import FileView
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._signature import signature
from limpet.anchoring._statements import INLINE_MIN_STATEMENTS, changed_functions, innermost, statements
from limpet.anchoring._steps_local import Hit
from limpet.anchoring._text import holds_word
from limpet.model import Anchor

__all__ = ["inlined_call_step"]

_WORD = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*|\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'")
_QUIET = frozenset("""if else for while do return val var fun def let const new this self in is not and
or null None nil true false True False override private public protected internal static final suspend
function async await""".split())
BODY_MIN_WORDS = 3  # a body naming fewer says nothing of where it went
DELEGATE_MIN_WORDS = 2  # ... but to a delegate of its name that called it
BODY_SHARE = 0.75  # ... most of them among the words of the rows the caller gained
TOOK_SHARE = 0.5  # a caller that gained this share of them took some of the body


def _words(text: str) -> Counter:
    return Counter(w for w in _WORD.findall(text) if w not in _QUIET)


def _weight(words: Counter) -> int:
    """Words counted by their length: a long name (`TasksViewModel`) tells more than `class`."""
    return sum(len(w) * n for w, n in words.items())


def inlined_call_step(anchor: Anchor, view: FileView | None, index: WorkspaceIndex | None) -> Hit | None:
    if index is None or anchor.position != "symbol" or not anchor.symbol or not anchor.symbol_name:
        return None
    text, name = anchor.selected_text, anchor.symbol_name
    if len(statements(text)) >= INLINE_MIN_STATEMENTS:
        return None  # (a body of statements: inlined_step maps them)
    head = signature(text, name)
    at = text.find(head, text.find(name) + len(name)) if head else -1
    if at < 0:
        return None
    body = _words(text[at + len(head):])
    body.pop(name, None)
    size = sum(body.values())
    if size < DELEGATE_MIN_WORDS:
        return None
    found = []
    for path, here, _before, sv, old in changed_functions(anchor, view, index):
        was, now = Counter(statements(old.text)), Counter(statements(sv.text))
        if any(holds_word(row, name) for row in (was - now)):  # it lost a call of the method
            found.append((path, here, sv, _words("\n".join((now - was).elements()))))
    found = innermost(found)
    weight = _weight(body)
    took = [f for f in found if _weight(body & f[3]) >= TOOK_SHARE * weight]
    if len(took) != 1:
        return None  # (no caller took it, or several did: no one place)
    path, here, sv, gained = took[0]
    if _weight(body & gained) < BODY_SHARE * weight or size < BODY_MIN_WORDS and sv.name != name:
        return None
    return Hit(path, here, sv.first, sv.last, "moved" if path != anchor.file else "renamed", 0.5)
