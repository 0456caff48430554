"""A method that moved with its group: several methods leave one class together and arrive, new,
in one other class under their own names (BaseRecyclerViewAdapterHelper 2587c147: the drag
setters of QuickAdapterHelper.Builder became DefaultDragAndSwipe.Builder's, each delegating
body become an assignment). Each small one follows its company when at least three went together
and its own body still reads alike; alone, or rewritten, it is orphaned; a class that already
held the name is never where it went. (The Kotlin case: fixtures/reanchor/compound/
moved_with_its_group_kotlin.txt.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, reanchor

NAMES = ["set_width", "set_height", "set_color", "set_border", "set_margin"]


def _delegating(name: str) -> str:
    field = name.removeprefix("set_")
    return (f"    def {name}(self, {field}):\n        self._check()\n        self.impl.{name}({field})\n"
            f"        self.changed.emit(\"{field}\")\n        return self\n\n")


def _assigning(name: str) -> str:
    field = name.removeprefix("set_")
    return f"    def {name}(self, {field}):\n        self._{field} = {field}\n        return self\n\n"


def _rewritten(name: str) -> str:
    return (f"    def {name}(self, *values):\n        for v in values:\n            validate(v, strict=True)\n"
            f"        raise NotImplementedError(len(values))\n\n")


def _widget(moved: list[str]) -> bytes:
    body = "".join(_delegating(n) for n in NAMES if n not in moved)
    return f"class WidgetBuilder:\n    def _check(self):\n        pass\n\n{body}    def build(self):\n        return 1\n".encode()


def _style(moved: list[str], write=_assigning, already: tuple[str, ...] = ()) -> bytes:
    body = "".join(write(n) for n in moved)
    old = "".join(_assigning(n) for n in already)
    return f"class Other:\n{old or '    pass'}\n\nclass StyleBuilder:\n{body}    def make(self):\n        return 2\n".encode()


def _run(moved: list[str], write=_assigning, already: tuple[str, ...] = ()):
    before = {"widget.py": _widget([]), "style.py": _style([], already=already)}
    after = {"widget.py": _widget(moved), "style.py": _style(moved, write, already)}
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in before.items()}, before.get)
    text = before["widget.py"].decode().split("\n")
    first = next(i for i, r in enumerate(text, 1) if r.strip().startswith("def set_color("))
    anchor = create_anchor("widget.py", before["widget.py"], first, first + 4)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get)
    return reanchor(anchor, after["widget.py"], index)


def _at(rel, name: str) -> bool:
    rows = (rel.anchor.selected_text or "").split("\n")
    return rel.anchor.file == "style.py" and rows[0].strip().startswith(f"def {name}(")


@settings(max_examples=20, deadline=None)
@given(st.sets(st.sampled_from([n for n in NAMES if n != "set_color"]), max_size=4))
def test_a_small_method_follows_its_group_only_when_three_went_together(companions):
    moved = ["set_color", *sorted(companions)]
    rel = _run(moved)
    if len(moved) >= 3:
        assert rel.health == "drifted" and _at(rel, "set_color"), rel
    else:
        assert rel.health == "orphaned"


def test_a_method_of_the_group_whose_body_was_rewritten_is_orphaned():
    assert _run(NAMES, write=_rewritten).health == "orphaned"


def test_a_name_the_receiving_file_already_held_elsewhere_does_not_confuse_the_group():
    rel = _run(NAMES, already=("set_color",))  # Other.set_color was there: StyleBuilder's is new
    assert _at(rel, "set_color") and rel.health == "drifted"


CONTEXT_BEFORE = b'''class Deadline:
    def __init__(self, scope):
        self._scope = scope

    def __enter__(self):
        return self._scope.__enter__()

    def __exit__(self, *exc):
        return self._scope.__exit__(*exc)


def deadline(scope):
    return Deadline(scope)
'''
CONTEXT_AFTER = b'''def deadline(scope):
    return scope
'''
LOOP_BEFORE = b'''class Scope:
    def __init__(self):
        self.cancelled = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None
'''
LOOP_AFTER = LOOP_BEFORE + b'''

class Runner:
    def __init__(self, debug=None):
        self._debug = debug
        self._loop = None

    def __enter__(self):
        self._lazy_init()
        return self

    def __exit__(self, *exc):
        self.close()

    def run(self, coro):
        return self._loop.run_until_complete(coro)
'''


def test_names_every_class_of_a_protocol_holds_are_no_company():
    """anyio 4.0: a deleted context manager's __init__, __enter__ and __exit__ are not a group
    that went into a new Runner of another file: its classes held those names already."""
    before = {"ctx.py": CONTEXT_BEFORE, "loop.py": LOOP_BEFORE}
    after = {"ctx.py": CONTEXT_AFTER, "loop.py": LOOP_AFTER}
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in before.items()}, before.get)
    anchor = create_anchor("ctx.py", CONTEXT_BEFORE, 5, 6)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get)
    assert reanchor(anchor, CONTEXT_AFTER, index).health == "orphaned"


def test_protocol_methods_of_a_deleted_class_are_no_group_in_a_bigger_new_class():
    """anyio 4.0.0: `FailAfterContextManager` (`__init__`, `__enter__`, `__exit__`) deleted while a
    new `Runner` of eight methods holds those three names: its own, not the old class moved (the
    ones that arrived together must be most of what arrived)."""
    old = (b"class FailAfter:\n    def __init__(self, scope):\n        self._scope = scope\n\n"
           b"    def __enter__(self):\n        return self._scope.__enter__()\n\n"
           b"    def __exit__(self, *exc):\n        return self._scope.__exit__(*exc)\n")
    extra = "".join(f"    def step{i}(self):\n        return self._loop.step({i})\n\n" for i in range(5))
    new = ("class Runner:\n    def __init__(self, scope):\n        self._loop = None\n\n"
           "    def __enter__(self):\n        self._lazy_init()\n        return self\n\n"
           f"    def __exit__(self, *exc):\n        return self._loop.close()\n\n{extra}").encode()
    before = {"tasks.py": old, "backend.py": b"import os\n"}
    after = {"tasks.py": b"import os\n", "backend.py": b"import os\n\n" + new}
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in before.items()}, before.get)
    anchor = create_anchor("tasks.py", old, 5, 6)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get)
    assert reanchor(anchor, after["tasks.py"], index).health == "orphaned"
