"""Which files a search for code that left its file reads: the language family, the anchor's
identifiers, and (for the whole workspace, where only exact copies count) every identifier an
exact copy must keep."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor
from limpet.anchoring._fileview import file_view
from limpet.anchoring._languages import family_for_path
from limpet.anchoring._steps_moved import copied_needles
from limpet.anchoring._text import replace_identifier

SYMBOLS = Path(__file__).parent / "fixtures" / "symbols"
SOURCES = sorted(p for p in SYMBOLS.iterdir() if not p.name.endswith(".json"))


def _index(files: dict[str, bytes]) -> WorkspaceIndex:
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in files.items()}, files.get)
    return index


def test_languages_that_share_code_are_one_family() -> None:
    assert len({family_for_path(p) for p in ("a.c", "a.h", "a.cpp", "a.hpp", "a.cc", "a.m")}) == 1
    assert len({family_for_path(p) for p in ("a.js", "a.mjs", "a.ts", "a.tsx", "a.vue")}) == 1
    assert family_for_path("A.java") == family_for_path("B.kt") != family_for_path("a.py")
    assert family_for_path("a.py") == "python" != family_for_path("a.pyi")  # stubs hold no code
    assert family_for_path("a.pyi") == family_for_path("pkg/B.PYI")
    assert family_for_path("README.md") == family_for_path("guide.rst") == family_for_path("notes.txt")
    assert family_for_path("notes.txt") != family_for_path("a.py")


def test_scope_reads_only_the_anchor_family() -> None:
    files = {name: b"def load_settings(path): pass\n"
             for name in ("a.py", "b.pyi", "c.js", "d.md", "e.txt", "f.go")}
    index = _index(files)
    assert index.scope(True, (b"load_settings",), family="python") == ["a.py"]
    assert index.scope(True, (b"load_settings",), family=family_for_path("b.pyi")) == ["b.pyi"]
    assert index.scope(True, (b"load_settings",), family=family_for_path("d.md")) == ["d.md", "e.txt"]
    assert index.scope(True, (b"load_settings",)) == sorted(files)  # no family: every file


def test_scope_with_all_of_wants_every_identifier() -> None:
    index = _index({"a.py": b"alpha = beta\n", "b.py": b"alpha = gamma\n", "c.py": b"beta = 1\n"})
    assert index.scope(True, (b"alpha", b"beta")) == ["a.py", "b.py", "c.py"]
    assert index.scope(True, (b"alpha", b"beta"), all_of=(b"alpha", b"beta")) == ["a.py"]


def test_scope_answers_follow_the_workspace() -> None:
    files = {"a.py": b"x = 1\n", "b.py": b"needle_here = 1\n"}
    index = _index(files)
    assert index.scope(True, (b"needle_here",)) == ["b.py"]
    files["a.py"] = b"needle_here = 2\n"
    index.update({p: content_hash(b) for p, b in files.items()}, files.get)
    assert index.scope(True, (b"needle_here",)) == ["a.py", "b.py"]
    assert index.scope(False, (b"needle_here",)) == ["a.py"]  # changed by the last sync


def _symbols(path: Path):
    source = path.read_bytes()
    return source, [sv for sv in file_view(path.name, source).symbols if sv.last > sv.first + 1]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SOURCES), st.data())
def test_every_exact_copy_holds_the_copied_needles(path: Path, data: st.DataObject) -> None:
    """A copy of the symbol elsewhere (renamed, indented otherwise) holds every copied needle,
    whether the anchor is the whole symbol or rows within it."""
    source, symbols = _symbols(path)
    if not symbols:
        return
    sv = data.draw(st.sampled_from(symbols))
    first = data.draw(st.integers(sv.first, sv.last))
    last = data.draw(st.integers(first, sv.last))
    anchor = create_anchor(path.name, source, first + 1, last + 1)
    if anchor.symbol != sv.qualified_name:
        return  # the rows belong to a nested symbol: that one's copy is another test case
    copy = replace_identifier(sv.text, sv.name, "renamed_by_the_copy")
    copy = "\n".join("\t  " + row.strip() for row in copy.split("\n")).encode()
    assert all(needle in copy for needle in copied_needles(anchor))


def test_rows_reaching_past_their_symbol_copy_no_needles() -> None:
    source = b"import os\n\n\ndef walk_tree(root):\n    for entry in os.scandir(root):\n" \
             b"        print(entry.name)\n    return None\n"
    inside = create_anchor("t.py", source, 4, 7)
    assert copied_needles(inside) == (b"scandir", b"entry", b"print", b"name", b"root")  # not walk_tree
    across = create_anchor("t.py", source, 1, 7)  # the import row is no row of walk_tree's copies
    assert across.symbol == "walk_tree"
    assert copied_needles(across) == ()


def test_the_symbol_name_is_no_copied_needle() -> None:
    """A name-blind copy renames the symbol everywhere in it, its recursive calls too."""
    source = b"def factorial(number):\n    smaller = factorial(number - 1) if number > 1 else 1\n" \
             b"    return number * smaller\n"
    anchor = create_anchor("m.py", source, 1, 3)
    copy = replace_identifier(source.decode(), "factorial", "fact").encode()
    assert copied_needles(anchor)
    assert all(needle in copy for needle in copied_needles(anchor))



LEDGER = b"""class Ledger:
    def __init__(self, entries):
        self.entries = list(entries)

    def balance(self, account):
        total = 0
        for entry in self.entries:
            if entry.account == account:
                total += entry.amount
        return total


def balance_of(entries, account):
    total = 0
    for entry in entries:
        if entry.account == account:
            total += entry.amount
    return total
"""


def test_a_similarity_query_sketches_only_the_kind_it_asks_about() -> None:
    """A method's search never sketches the classes around the methods it reads (a class's
    text is its methods' again); a query about no kind in particular sketches everything."""
    index = _index({"ledger.py": LEDGER})
    view = index.view("ledger.py")
    by_name = {sv.qualified_name: sv for sv in view.symbols}
    sketch = by_name["Ledger.balance"].sketch
    found = index.similar_symbols(sketch, ["ledger.py"], min_shared=1, kind="method")
    assert {sv.qualified_name for _, sv, _ in found} == {"Ledger.__init__", "Ledger.balance", "balance_of"}
    assert "sketch" not in by_name["Ledger"].evidence
    everything = index.similar_symbols(sketch, ["ledger.py"], min_shared=1)
    assert "Ledger" in {sv.qualified_name for _, sv, _ in everything}


def test_postings_of_every_kind_go_with_their_file() -> None:
    index = _index({"ledger.py": LEDGER})
    sketch = index.view("ledger.py").by_name["balance_of"][0].sketch
    index.similar_symbols(sketch, ["ledger.py"], min_shared=1, kind="function")
    index.similar_symbols(sketch, ["ledger.py"], min_shared=1, kind="class")
    index.update({}, {}.get)  # the file is gone
    assert index.similar_symbols(sketch, ["ledger.py"], min_shared=1) == []
    assert len(index._by_sketch) == 0 and not index._numbers
