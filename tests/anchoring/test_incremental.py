"""Incremental work on a new version of a file must equal doing it from scratch.

- symbols: the definitions query re-runs only over the region an edit reached
  (`rematch`); the matches must be those of a full query on the same tree;
- anchors: a thread whose text is found unchanged copies its evidence instead of
  recomputing it (`relocated`); the record must be the one a rebuild gives;
- the rows with text: a new version reads only its edited rows (`nonblank_after`); the rest
  are the previous version's, shifted;
- the workspace index syncs lazily: not at all when no thread needs it.
"""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.anchoring import _fileview, _languages, _symbols
from limpet.anchoring._anchor import anchor_from_view, create_anchor, relocated
from limpet.anchoring._edits import edit_between
from limpet.anchoring._fileview import FileView, SymbolView, file_view
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._reanchor import reanchor
from limpet.model import Anchor, packed_sketch

FIXTURES = Path(__file__).parent / "fixtures" / "symbols"
SOURCES = sorted(p for p in FIXTURES.iterdir() if not p.name.endswith(".expected.json"))


def _mutate(rng: random.Random, src: bytes) -> bytes:
    """One edit of the kinds people make: lines inserted, deleted, copied, moved; bytes typed."""
    lines = src.split(b"\n")
    i = rng.randrange(len(lines))
    op = rng.randrange(6)
    if op == 0:
        lines.insert(i, b"# x")
    elif op == 1 and len(lines) > 2:
        del lines[i]
    elif op == 2:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif op == 3:
        j = rng.randrange(len(src) + 1)
        typed = bytes(rng.choice(b"abc{}()[];:\n \"'=") for _ in range(rng.randrange(6)))
        return src[:j] + typed + src[min(len(src), j + rng.randrange(12)):]
    elif op == 4:
        j = rng.randrange(len(lines))
        block = lines[j : j + rng.randrange(8)]
        del lines[j : j + len(block)]
        at = rng.randrange(len(lines) + 1)
        lines[at:at] = block
    else:
        lines[i] = lines[i].replace(b"e", b"ee", 1)
    return b"\n".join(lines)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_rematch_equals_a_full_query_on_the_same_tree(path):
    language = _languages.language_for(path.name, path.read_bytes())
    rng = random.Random(path.name)
    view = FileView(language, path.read_bytes())
    assert view.symbols is not None
    for _ in range(25):
        new = FileView(language, _mutate(rng, view.source), previous=view)
        raw = [sv.symbol for sv in new.symbols]
        full = _symbols.query_matches(language, new.tree)
        assert sorted(new.matches) == sorted(full)
        assert raw == _symbols.nest(_symbols.select(full))
        view = new


_EVIDENCE = ("text", "norm_hash", "blind_hash", "structure_hash", "sketch", "token_count")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_evidence_shared_from_the_previous_version_equals_a_fresh_computation(path):
    language = _languages.language_for(path.name, path.read_bytes())
    rng = random.Random("evidence" + path.name)
    view = FileView(language, path.read_bytes())
    shared = 0
    for _ in range(25):
        for sv in view.symbols:  # as threads into the old version would have
            for name in _EVIDENCE:
                getattr(sv, name)
        new = FileView(language, _mutate(rng, view.source), previous=view)
        for sv in new.symbols:
            shared += bool(sv.evidence)
            fresh = SymbolView(sv.symbol, new.source, sv.index)
            assert [getattr(sv, n) for n in _EVIDENCE] == [getattr(fresh, n) for n in _EVIDENCE]
        view = new
    assert shared or not view.symbols


# Pieces that make rows blank or not in ways bytes and text disagree on: CR, tabs, a BOM, a
# no-break space (str.strip's whitespace, not bytes.strip's), a broken UTF-8 sequence.
_PIECES = st.lists(st.sampled_from([b"a", b" ", b"\n", b"\r", b"\t", b"\xef\xbb\xbf", b"\xe2", b"\x82", b"\xc2\xa0",
                                    b"x\n", b"\n\n", b"def f():\n"]), max_size=30).map(b"".join)


@settings(max_examples=500, deadline=None)
@given(_PIECES, _PIECES, _PIECES, _PIECES)
def test_rows_with_text_after_an_edit_equal_a_full_read(before, removed, inserted, after):
    old, new = before + removed + after, before + inserted + after
    base, view = FileView("python", old), FileView("python", new)
    assert view.nonblank_after(base, edit_between(old, new)) == FileView("python", new).nonblank
    assert view.nonblank == FileView("python", new).nonblank  # kept: asked again, the same rows


def test_a_view_asked_again_for_the_same_bytes_is_the_same_view():
    src = b"def f():\n    return 1\n"
    view = file_view("m.py", src)
    assert file_view("m.py", src) is view
    assert file_view("m.py", bytes(bytearray(src))) is view  # equal content: the cached view
    assert file_view("m.txt", src).language != view.language  # the path still decides the language


def test_rematch_queries_only_the_edited_region(monkeypatch):
    src = b"".join(b"def f%d(x):\n    return x\n\n" % i for i in range(200))
    view = FileView("python", src)
    assert len(view.symbols) == 200
    seen = []
    original = _symbols.query_matches
    monkeypatch.setattr(_symbols, "query_matches", lambda lang, tree, rng=None: seen.append(rng) or original(
        lang, tree, rng))
    new = FileView("python", b"# edit\n" + src, previous=view)
    assert [(s.name, s.first) for s in new.symbols][:2] == [("f0", 1), ("f1", 4)]
    assert len(seen) == 1 and seen[0] is not None and seen[0][1] < 20


def test_only_cached_views_keep_their_tree_for_the_next_version(monkeypatch):
    # A workspace index holds a view per file; the trees are what would make that memory
    # grow with the workspace, and only a cached view is ever a next version's `previous`.
    monkeypatch.setattr(_fileview, "_cache", type(_fileview._cache)())
    monkeypatch.setattr(_fileview, "_cache_bytes", 0)
    monkeypatch.setattr(_fileview, "VIEW_CACHE_SIZE", 2)
    monkeypatch.setattr(_fileview, "VIEW_CACHE_BYTES", 0)
    views = [file_view(f"m{i}.py", b"def f%d():\n    return %d\n" % (i, i)) for i in range(4)]
    assert [len(v.symbols) for v in views] == [1, 1, 1, 1]  # symbols asked for after eviction
    assert [v.tree is not None for v in views] == [False, False, True, True]
    assert [v.matches is not None for v in views] == [False, False, True, True]
    parses = []
    original = _languages.parse
    monkeypatch.setattr(_languages, "parse", lambda lang, src, old=None: parses.append(old) or original(lang, src, old))
    edited = file_view("m3.py", b"# top\n" + views[3].source, previous=views[3].hash)
    assert [(s.name, s.first) for s in edited.symbols] == [("f3", 1)]
    assert len(parses) == 1 and parses[0] is not None  # parsed incrementally, from the kept tree


def test_range_safety_is_read_from_the_patterns(tmp_path, monkeypatch):
    (tmp_path / "python.scm").write_text(
        "(function_definition name: (identifier) @name) @definition.function\n")
    (tmp_path / "starlark.scm").write_text(
        "(_ (comment) . (function_definition name: (identifier) @name) @definition.function)\n")
    monkeypatch.setattr(_languages, "QUERIES_DIR", tmp_path)
    for cached in (_languages.has_symbols, _languages._compile, _languages.range_safe):
        cached.cache_clear()
    try:
        assert _languages.range_safe("python")
        assert not _languages.range_safe("starlark")  # starts at a sibling: may begin outside a range
    finally:
        monkeypatch.undo()
        for cached in (_languages.has_symbols, _languages._compile, _languages.range_safe):
            cached.cache_clear()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_relocated_record_equals_a_rebuilt_one(path):
    source = path.read_bytes()
    view = file_view(path.name, source)
    n = view.line_count
    edited = b"// inserted\n" + source[: len(source) // 2] + b"\n" + source[len(source) // 2 :]
    new = file_view(path.name, edited, previous=view.hash)
    rng = random.Random(path.name)
    ranges = [(sv.first + 1, sv.last + 1) for sv in view.symbols[:8]]
    ranges += [(a, min(n, a + rng.randrange(4))) for a in (rng.randrange(1, n + 1) for _ in range(8))]
    for start, end in ranges:
        anchor = create_anchor(path.name, source, start, end)
        rel = reanchor(anchor, edited)
        if rel.health == "orphaned":
            continue
        a = rel.anchor
        rebuilt = anchor_from_view(path.name, new, a.line_start - 1, a.line_end - 1, origin_hash=anchor.origin_hash)
        # lines split by the edit: the thread is on their symbol and keeps them to look for (lost_text)
        assert msgspec.structs.replace(a, lost_text="") == rebuilt
        assert relocated(anchor, path.name, new, a.line_start - 1, a.line_end - 1) == rebuilt


def test_to_dict_is_the_plain_field_dict():
    a = create_anchor("m.py", b"def f():\n    return 1\n", 1, 2)
    assert a.to_dict() == msgspec.structs.asdict(a)
    assert isinstance(a.fingerprint, str)  # packed: every field is immutable, nothing to copy


def test_the_fingerprint_is_packed_and_older_records_are_read():
    a = create_anchor("m.py", b"def f(x):\n    return x + 1\n", 1, 2)
    values = a.sketch
    assert values == tuple(sorted(values)) and all(0 <= v < 2**32 for v in values)
    assert a.fingerprint == packed_sketch(values) and len(a.fingerprint) == 8 * len(values)
    older = {**a.to_dict(), "fingerprint": list(values)}  # what records held before packing
    assert Anchor.from_dict(older) == a
    assert msgspec.json.decode(msgspec.json.encode(older), type=Anchor) == a
    assert msgspec.structs.replace(a, fingerprint="").sketch == ()
    with pytest.raises(ValueError, match="32-bit"):
        Anchor.from_dict({**older, "fingerprint": [2**32]})


def test_index_syncs_only_when_a_step_needs_it():
    files = {"a.py": b"def f():\n    return 1\n", "b.py": b"def g():\n    return 2\n"}
    index = WorkspaceIndex()
    index.update({p: str(hash(b)) for p, b in files.items()}, files.get)
    calls = []

    def listing():
        calls.append(1)
        return {"a.py": "changed", "b.py": str(hash(files["b.py"]))}

    files["a.py"] = b"# top\n" + files["a.py"]
    index.update_later(listing, files.get)
    anchor = create_anchor("a.py", b"def f():\n    return 1\n", 1, 2)
    assert reanchor(anchor, files["a.py"], index).method == "exact"
    assert calls == []  # found in its own file: the workspace was never listed
    assert index.changed == {"a.py"} and calls == [1]
