"""The anchor record and the engine's API edges: ranges, encodings, round-trips, index, cost."""

from __future__ import annotations

import json

import pytest

from limpet.anchoring import (
    WorkspaceIndex,
    _languages,
    content_hash,
    create_anchor,
    orphan_candidates,
    reanchor,
)
from limpet.model import Anchor, InvalidAnchor

PY = b"import os\n\n\ndef home():\n    return os.path.expanduser('~')\n\n\ndef cwd():\n    return os.getcwd()\n"


def test_whole_symbol_anchor_records_symbol_and_evidence():
    a = create_anchor("m.py", PY, 4, 5)
    assert (a.symbol, a.symbol_kind, a.position) == ("home", "function", "symbol")
    assert a.selected_text == "def home():\n    return os.path.expanduser('~')"
    assert PY[a.start_byte : a.end_byte].decode() == a.selected_text
    assert a.symbol_hash and a.blind_hash and a.structure_hash and a.fingerprint


def test_line_inside_symbol_is_a_lines_anchor():
    a = create_anchor("m.py", PY, 5, 5)
    assert (a.symbol, a.position) == ("home", "lines")


def test_file_level_anchor_has_no_symbol():
    a = create_anchor("m.py", PY, 1, 1)
    assert a.symbol is None and a.position == "file"


def test_round_trip_is_json_and_deterministic():
    a = create_anchor("m.py", PY, 4, 5)
    d = a.to_dict()
    assert json.loads(json.dumps(d, sort_keys=True)) == d
    assert Anchor.from_dict(json.loads(json.dumps(d))) == a
    assert create_anchor("m.py", PY, 4, 5).to_dict() == d


def test_from_dict_accepts_a_v0_record():
    old = {"file": "m.py", "line_start": 4, "line_end": 5, "start_character": 0, "end_character": 0,
           "selected_text": "def home():\n    return os.path.expanduser('~')", "content_hash": "x",
           "symbol": None, "symbol_kind": None}
    rel = reanchor(Anchor.from_dict(old), b"\n" + PY)
    assert (rel.anchor.line_start, rel.anchor.line_end, rel.method) == (5, 6, "exact")


@pytest.mark.parametrize(("start", "end", "field"), [(0, 1, "line_start"), (3, 2, "line_end"), (9, 10, "line_end"),
                                                      (10, 10, "line_start")])
def test_out_of_range_raises_invalid_anchor(start, end, field):
    with pytest.raises(InvalidAnchor) as exc:
        create_anchor("m.py", PY, start, end)
    assert exc.value.field == field
    assert exc.value.details["fileLineCount"] == 9
    assert exc.value.suggestion


def test_final_newline_does_not_start_a_line():
    create_anchor("a.txt", b"a\nb\n", 2, 2)
    with pytest.raises(InvalidAnchor):
        create_anchor("a.txt", b"a\nb\n", 3, 3)
    assert create_anchor("a.txt", b"a\nb", 2, 2).selected_text == "b"


def test_empty_file_has_one_empty_line():
    a = create_anchor("e.py", b"", 1, 1)
    assert a.selected_text == "" and (a.start_byte, a.end_byte) == (0, 0)


def test_crlf_bom_and_invalid_utf8():
    src = b"\xef\xbb\xbfdef f():\r\n    return '\xff'\r\n"
    a = create_anchor("m.py", src, 1, 2)
    assert a.selected_text == "def f():\n    return '\ufffd'"
    assert (a.start_byte, a.end_byte) == (0, len(src) - 2)  # raw offsets: BOM included, CRLF excluded


def test_unchanged_content_costs_no_parse(monkeypatch):
    a = create_anchor("m.py", PY, 4, 5)

    def boom(*args, **kwargs):
        raise AssertionError("parsed")

    monkeypatch.setattr(_languages, "parse", boom)
    rel = reanchor(a, PY)
    assert (rel.method, rel.health, rel.confidence, rel.anchor) == ("unchanged", "anchored", 1.0, a)


def test_orphan_keeps_its_last_anchor():
    a = create_anchor("m.py", PY, 4, 5)
    rel = reanchor(a, b"import os\n")
    assert (rel.health, rel.method, rel.confidence, rel.anchor) == ("orphaned", "orphaned", 0.0, a)
    assert reanchor(a, None).health == "orphaned"


def test_drift_is_measured_against_the_original_text():
    a = create_anchor("m.py", PY, 4, 5)
    edited = PY.replace(b"expanduser('~')", b"expanduser('~user')")
    first = reanchor(a, edited)
    assert (first.health, first.method) == ("drifted", "symbol")
    again = reanchor(first.anchor, b"# moved down\n" + edited)
    assert again.health == "drifted"  # still not the text the thread was written on
    back = reanchor(again.anchor, PY)
    assert back.health == "anchored"


def test_index_update_reads_only_new_content_and_reports_changes():
    reads = []
    files = {"a.py": PY, "b.py": b"x = 1\n"}

    def read(path):
        reads.append(path)
        return files.get(path)

    index = WorkspaceIndex()
    assert index.update({p: content_hash(b) for p, b in files.items()}, read) == {"a.py", "b.py"}
    reads.clear()
    assert index.update({p: content_hash(b) for p, b in files.items()}, read) == set()
    assert reads == []
    files["b.py"] = b"x = 2\n"
    files["c.py"] = PY  # a copy of known content: no read needed
    assert index.update({p: content_hash(b) for p, b in files.items()}, read) == {"b.py", "c.py"}
    assert reads == ["b.py"]
    del files["a.py"]
    index.update({p: content_hash(b) for p, b in files.items()}, read)
    assert index.paths == ["b.py", "c.py"]


def test_moved_and_orphan_candidates():
    a = create_anchor("m.py", PY, 8, 9)
    rest = b"import os\n\n\ndef home():\n    return os.path.expanduser('~')\n"
    other = b"import os\n\n\ndef cwd():\n    return os.getcwd()\n"
    index = WorkspaceIndex()
    index.update({"m.py": content_hash(PY)}, {"m.py": PY}.get)
    after = {"m.py": rest, "n.py": other}
    assert index.update({p: content_hash(b) for p, b in after.items()}, after.get) == {"m.py", "n.py"}
    rel = reanchor(a, rest, index)
    assert (rel.anchor.file, rel.anchor.line_start, rel.anchor.line_end) == ("n.py", 4, 5)
    assert (rel.method, rel.health) == ("moved", "anchored")
    cands = orphan_candidates(a, rest, index, k=3)
    assert cands[0].file == "n.py" and cands[0].line_start == 4 and cands[0].method == "moved"
    assert len(cands) <= 3


def test_ambiguous_short_quote_is_not_guessed():
    src = b"def a():\n    pass\n\n\ndef b():\n    pass\n"
    anchor = create_anchor("m.py", src, 2, 2)
    rel = reanchor(anchor, b"def c():\n    pass\n\n\ndef d():\n    pass\n")
    assert rel.health == "orphaned"


def test_whole_symbol_anchor_takes_the_symbols_new_extent():
    src = b"def total(xs):\n    s = sum(xs)\n    return s\n\n\ndef other():\n    pass\n"
    anchor = create_anchor("m.py", src, 1, 3)
    grown = src.replace(b"    return s\n", b"    return s\n    # unreachable, kept for the audit\n    print(s)\n")
    rel = reanchor(anchor, grown)
    assert (rel.anchor.line_start, rel.anchor.line_end, rel.health) == (1, 5, "drifted")


def test_shared_name_needs_content_evidence():
    rs = (b"impl Display for Foo {\n    fn fmt(&self, f: &mut Formatter) -> Result {\n"
          b"        let name = self.name.to_uppercase();\n        let count = self.items.len();\n"
          b"        write!(f, \"{} with {} items\", name, count)\n    }\n}\n\n"
          b"impl Debug for Foo {\n    fn fmt(&self, f: &mut Formatter) -> Result {\n"
          b"        f.debug_struct(\"Foo\")\n            .field(\"items\", &self.items)\n"
          b"            .finish_non_exhaustive()\n    }\n}\n")
    anchor = create_anchor("lib.rs", rs, 2, 6)
    assert (anchor.symbol, anchor.symbol_twins) == ("Foo[Display].fmt", 1)  # named apart by trait
    without_display = rs[rs.index(b"impl Debug"):]
    assert reanchor(anchor, without_display).health == "orphaned"
    edited_display = rs.replace(b"to_uppercase()", b"to_lowercase()")
    rel = reanchor(anchor, edited_display)
    assert (rel.anchor.line_start, rel.anchor.line_end, rel.health) == (2, 6, "drifted")


def test_overloads_share_a_name_and_content_picks_one():
    java = (b"class Box {\n"
            b"    int area(int side) {\n        int doubled = side * side;\n        return doubled;\n    }\n\n"
            b"    int area(int width, int height) {\n        int product = width * height;\n"
            b"        log(\"area\", product);\n        return product;\n    }\n}\n")
    anchor = create_anchor("Box.java", java, 7, 11)
    assert (anchor.symbol, anchor.symbol_twins) == ("Box.area", 2)
    edited = java.replace(b"log(\"area\", product);", b"log(\"area of\", product);")
    rel = reanchor(anchor, edited)
    assert (rel.anchor.line_start, rel.anchor.line_end, rel.method) == (7, 11, "symbol")
    without = java.replace(java[java.index(b"    int area(int width"):java.rindex(b"}")], b"")
    assert reanchor(anchor, without).health == "orphaned"
