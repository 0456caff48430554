"""A symbol replaced in place: the one symbol new between the two neighbours the old one stood
between, somewhat alike, is the old one renamed and reworded (leakcanary de00819e: `isBoring` ->
`objectIdMetadata`); two new ones there (a method split in two), or none, tell nothing: orphaned.
And a stub whose name now holds other code while its one statement went to new methods is no
longer anywhere (texar 3bf4e14b)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, reanchor
from limpet.anchoring._steps_local import name_likeness

_KEYWORDS = {"fun", "val", "var", "class", "object", "return", "override", "private", "in", "is", "as", "if",
             "do", "when", "else", "null", "true", "false", "this", "super", "reader", "index", "flag", "boring"}
NAMES = st.from_regex(r"[a-z][a-zA-Z]{5,11}", fullmatch=True).filter(lambda n: n not in _KEYWORDS)

NEIGHBOUR_BEFORE = "  fun hasObject(objectId: Long): Boolean {\n    return objectId in index\n  }\n"
NEIGHBOUR_AFTER = "  fun retrieveRecord(objectId: Long): Record {\n    return reader.read(index[objectId])\n  }\n"
OLD = "  fun {name}(objectId: Long): Boolean {{\n    val (_, boring) = index[objectId]\n    return boring\n  }}\n"
NEW = "  fun {name}(objectId: Long): Boolean {{\n    val (_, flag) = index[objectId]\n    return flag.isSet()\n  }}\n"


def _parser(*members: str) -> bytes:
    return ("package parser\n\nclass Parser(private val index: Index, private val reader: Reader) {\n"
            + "\n".join(members) + "}\n").encode()


def _replace(old: str, new_names: list[str], between: bool = True):
    before = _parser(NEIGHBOUR_BEFORE, OLD.format(name=old), NEIGHBOUR_AFTER)
    news = [NEW.format(name=n) for n in new_names]
    after = _parser(NEIGHBOUR_BEFORE, *news, NEIGHBOUR_AFTER) if between else \
        _parser(*news, NEIGHBOUR_BEFORE, NEIGHBOUR_AFTER)
    index = WorkspaceIndex()
    index.update({"Parser.kt": content_hash(before)}, {"Parser.kt": before}.get)
    anchor = create_anchor("Parser.kt", before, 8, 11)
    assert anchor.symbol == f"Parser.{old}"
    index.update({"Parser.kt": content_hash(after)}, {"Parser.kt": after}.get)
    return reanchor(anchor, after, index)


def test_the_one_new_method_between_the_same_neighbours_is_the_method_renamed():
    rel = _replace("isBoring", ["objectIdMetadata"])
    assert (rel.health, rel.method, rel.anchor.symbol, rel.anchor.line_start, rel.anchor.line_end) == \
        ("drifted", "renamed", "Parser.objectIdMetadata", 8, 11)


@settings(max_examples=40, deadline=None)
@given(NAMES, st.lists(NAMES, min_size=1, max_size=3, unique=True))
def test_the_slot_tells_only_when_one_new_symbol_stands_in_it(old, new_names):
    if any(old == n or old in n or n in old or name_likeness(old, n) >= 0.5 for n in new_names):
        return  # (a name much like the old one is evidence of its own: other steps weigh it)
    rel = _replace(old, new_names)
    if len(new_names) == 1:
        assert (rel.health, rel.anchor.symbol, rel.anchor.line_start) == ("drifted", f"Parser.{new_names[0]}", 8)
    else:  # alike copies side by side: which one is not told by the place
        assert rel.health == "orphaned"


def test_a_stub_whose_statement_went_to_new_methods_is_orphaned_not_kept_on_its_rewritten_name():
    before = b"class Net:\n    def __init__(self, hparams=None):\n        raise NotImplementedError\n"
    after = (b"class Net:\n    def __init__(self, layers=None, hparams=None):\n        self._layers = layers\n"
             b"        self._hparams = hparams\n        self._built = False\n\n"
             b"    def _build(self, inputs):\n        raise NotImplementedError\n")
    index = WorkspaceIndex()
    index.update({"net.py": content_hash(before)}, {"net.py": before}.get)
    anchor = create_anchor("net.py", before, 2, 3)
    index.update({"net.py": content_hash(after)}, {"net.py": after}.get)
    assert reanchor(anchor, after, index).health == "orphaned"
