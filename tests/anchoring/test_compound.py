"""Compound changes: headers read by content, signatures, the successor step's safety, orphans
that come back. (Before/after golden cases of each failure class: fixtures/reanchor/compound/.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, language_for, reanchor
from limpet.anchoring._fileview import file_view
from limpet.anchoring._fingerprint import in_name_filter, name_filter, renamed_similarity, similarity
from limpet.anchoring._signature import signature
from limpet.anchoring._steps_local import NAME_ALIKE_MIN, name_likeness, named_lead

CPP_HEADER = b"""#pragma once
#include <vector>

namespace geo {

class Polygon {
public:
    explicit Polygon(std::vector<Point> points) : points_(std::move(points)) {}

    double area() const {
        double sum = 0;
        for (std::size_t i = 0; i < points_.size(); ++i)
            sum += cross(points_[i], points_[(i + 1) % points_.size()]);
        return sum / 2;
    }

private:
    std::vector<Point> points_;
};

}  // namespace geo
"""
C_HEADER = b"""#ifndef BUF_H
#define BUF_H
#include <stddef.h>

struct buf {
    char *data;
    size_t len;
};

static inline void buf_clear(struct buf *b) {
    b->len = 0;
}

#endif
"""
OBJC_HEADER = b"#import <Foundation/Foundation.h>\n\n@interface Camera : NSObject\n- (void)focus;\n@end\n"


def workspace_index(*states: dict[str, bytes]) -> WorkspaceIndex:
    index = WorkspaceIndex()
    for files in states:
        index.update({p: content_hash(b) for p, b in files.items()}, files.get)
    return index


# -- `.h`: C, C++ or Objective-C, by content -------------------------------------------------------


def test_a_header_with_classes_or_templates_is_cpp_and_its_members_are_symbols():
    assert language_for("include/polygon.h", CPP_HEADER) == "cpp"
    names = {(s.qualified_name, s.kind) for s in file_view("include/polygon.h", CPP_HEADER).symbols}
    assert {("geo.Polygon", "class"), ("geo.Polygon.area", "method")} <= names


def test_a_plain_c_header_stays_c_and_an_interface_header_is_objective_c():
    assert language_for("src/buf.h", C_HEADER) == "c"
    assert {s.qualified_name for s in file_view("src/buf.h", C_HEADER).symbols} >= {"buf", "buf_clear"}
    assert language_for("ios/Camera.h", OBJC_HEADER) == "objc"
    assert language_for("src/buf.c", b"std::vector<int> v;") == "c"  # only shared extensions are read


def test_other_shared_extensions_are_told_apart_by_content():
    # .cls: an Apex class, or a LaTeX document class; .d: D source, or a compiler's dependency
    # file; .php: PHP, or Hack declaring itself on its first line.
    assert language_for("force-app/Invoice.cls", b"public with sharing class Invoice {\n}\n") == "apex"
    assert language_for("tex/report.cls", b"\\NeedsTeXFormat{LaTeX2e}\n\\ProvidesClass{report}\n") == "latex"
    assert language_for("src/app.d", b"module app;\nvoid main() {}\n") == "d"
    assert language_for("build/app.d", b"build/app.o: src/app.c include/app.h\n") == "make"
    assert language_for("www/index.php", b"<?php\necho 1;\n") == "php"
    assert language_for("www/page.php", b"<?hh\nfunction f(): void {}\n") == "hack"
    assert language_for("hhi/lib.hhi", b"<?hh\nfunction f(): void;\n") == "hack"
    # .m: Objective-C, or MATLAB; .pp: Puppet, or a Free Pascal unit.
    assert language_for("ios/Camera.m", b'#import "Camera.h"\n@implementation Camera\n@end\n') == "objc"
    assert language_for("dsp/filter.m", b"function y = filter(x)\n  y = x;\nend\n") == "matlab"
    assert language_for("dsp/RingBuffer.m", b"% A ring buffer.\nclassdef RingBuffer < handle\nend\n") == "matlab"
    assert language_for("manifests/init.pp", b"class nginx {\n  package { 'nginx': }\n}\n") == "puppet"
    assert language_for("src/strutils.pp", b"{ helpers }\nunit StrUtils;\ninterface\n") == "pascal"
    # .cl: Common Lisp, or an OpenCL kernel.
    assert language_for("src/util.cl", b"(defun square (x) (* x x))\n") == "commonlisp"
    assert language_for("kernels/add.cl", b"__kernel void add(__global float *a) {\n}\n") == "c"


# -- signatures -------------------------------------------------------------------------------------


def test_signature_is_what_follows_the_name_up_to_the_body():
    assert signature("func focus(at point: CGPoint, animated: Bool) -> Bool {\n}", "focus") == (
        "(at point: CGPoint, animated: Bool) -> Bool")
    assert signature("func focus(_ point: CGPoint) {", "focus") == "(_ point: CGPoint)"
    assert signature("CodeWriter emit(String format,\n    Object... args) {", "emit") == "(String format, Object... args)"
    assert signature("exports.trigger = function (name, data) {", "trigger") == "(name, data)"
    assert signature("  trigger: async function (name, data) {", "trigger") == "(name, data)"
    assert signature("def parse(self, text: str) -> Node:\n    pass", "parse") == "(self, text: str) -> Node:"
    assert signature("no name here", "parse") == ""


# -- the successor step never trades a safe orphan for a guess --------------------------------------

BODIES = st.sampled_from([
    "    total = 0\n    for item in items:\n        total += item.price * item.quantity\n    return total\n",
    "    seen = set()\n    out = []\n    for item in items:\n        if item.key not in seen:\n"
    "            seen.add(item.key)\n            out.append(item)\n    return out\n",
    "    if not items:\n        raise ValueError('empty')\n    return max(items, key=lambda item: item.score)\n",
])
NAMES = st.from_regex(r"[a-z]{3,8}_[a-z]{3,8}", fullmatch=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BODIES, NAMES, NAMES, st.sampled_from(["# checked by the caller", "items = list(items)"]))
# A new name the first sibling filters (crc32/adler32 positions) took for an old sibling's.
@example("    total = 0\n    for item in items:\n        total += item.price * item.quantity\n    return total\n",
         "aaa_aaa", "asa_sxlud", "# checked by the caller")
def test_a_function_renamed_and_edited_in_place_is_followed(body, old, new, added):
    if old == new:
        return
    keep = "def unrelated(config):\n    return config.get('mode', 'fast')\n"
    before = f"{keep}\n\ndef {old}(items):\n{body}".encode()
    after = f"{keep}\n\ndef {new}(items):\n    {added}\n{body}".encode()
    start = before.decode().split("\n").index(f"def {old}(items):") + 1
    anchor = create_anchor("m.py", before, start, start + body.count("\n"))
    rel = reanchor(anchor, after, workspace_index({"m.py": before}, {"m.py": after}))
    assert (rel.health, rel.anchor.symbol, rel.anchor.line_start) == ("drifted", new, start)


GO_BEFORE = b"""package web

type Server struct{ addr string }
type Client struct{ base string }

func (s *Server) Start(handler Handler) error {
	listener, err := net.Listen("tcp", s.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.addr, err)
	}
	return http.Serve(listener, handler)
}

func (c *Client) Run(path string) (*http.Response, error) {
	return http.Get(c.base + path)
}
"""


def test_a_method_s_siblings_are_its_type_s_members_not_the_file_s():
    """A Go method (or a C++ method defined outside its class) renamed to a name another type's
    method has: that name was never its sibling, so the rename is followed, with or without the
    file's previous version to check."""
    after = GO_BEFORE.replace(b"func (s *Server) Start(handler Handler)", b"func (s *Server) Run(handler Handler)")
    anchor = create_anchor("web/server.go", GO_BEFORE, 6, 12)
    assert anchor.symbol == "Server.Start"
    for index in (None, workspace_index({"web/server.go": GO_BEFORE}, {"web/server.go": after})):
        rel = reanchor(anchor, after, index)
        assert (rel.anchor.symbol, rel.anchor.line_start, rel.method) == ("Server.Run", 6, "renamed"), index


def test_the_previous_version_says_which_names_were_there_before_the_anchor_s_filter():
    """The filter of names kept in the anchor takes a new name for an old sibling's about once
    in 5,000 (`oybgdmle_oybgdmle` for one of `unrelated`, `svcvyy_zsdd`): when the file's previous
    version is known, it decides exactly."""
    keep = "def unrelated(config):\n    return config.get('mode', 'fast')\n"
    body = "    total = 0\n    for item in items:\n        total += item.price * item.quantity\n    return total\n"
    before = f"{keep}\n\ndef svcvyy_zsdd(items):\n{body}".encode()
    after = f"{keep}\n\ndef oybgdmle_oybgdmle(items):\n    # checked by the caller\n{body}".encode()
    anchor = create_anchor("m.py", before, 5, 9)
    assert in_name_filter(anchor.sibling_names, "oybgdmle_oybgdmle")  # the filter's false "yes"
    assert reanchor(anchor, after).health == "orphaned"  # only the filter to go by: the safe side
    rel = reanchor(anchor, after, workspace_index({"m.py": before}, {"m.py": after}))
    assert (rel.health, rel.anchor.symbol) == ("drifted", "oybgdmle_oybgdmle")


@pytest.mark.parametrize(("old", "new"), [
    ("save", "backup"),
    ("save_settings", "save_settings_backup"),  # a name much like the old one does not vouch alone
])
def test_a_deleted_function_is_not_matched_to_a_new_one_that_merely_looks_alike(old, new):
    keep = b"def load(path):\n    with open(path) as f:\n        return json.load(f)\n\n\n"
    before = keep + f"def {old}(path, data):\n    with open(path, 'w') as f:\n        json.dump(data, f, indent=2)\n".encode()
    after = keep + f"def {new}(path):\n    shutil.copy(path, path + '.bak')\n    return path + '.bak'\n".encode()
    anchor = create_anchor("io.py", before, 6, 8)
    rel = reanchor(anchor, after, workspace_index({"io.py": before}, {"io.py": after}))
    assert rel.health == "orphaned"


def test_a_word_added_to_a_name_or_a_word_changed_in_it_leaves_it_much_alike():
    """A rename with a rewritten body (fixtures renamed_rewritten_*): the new name may stand in
    for part of the likeness, never for all of it (above)."""
    assert name_likeness("getAuthenticationSQL", "getAuthenticationSQLArray") >= NAME_ALIKE_MIN
    assert name_likeness("test_html_stripper", "test_html_stripping") >= NAME_ALIKE_MIN
    assert name_likeness("save", "backup") < NAME_ALIKE_MIN


@pytest.mark.parametrize(("others", "ahead"), [
    ([(0.2, 0.4)], True),
    ([(0.6, 0.3)], False),  # another body more alike: no name outweighs it
    ([(0.5, 0.9)], False),  # a name as alike and a body nearly so: too close to call
    ([(0.55, 1.0)], False),  # the old name itself, kept by a body a little less alike
    ([], True),
])
def test_a_new_name_leads_only_by_body_and_name_together_and_never_against_a_likelier_body(others, ahead):
    assert named_lead(0.58, 0.85, others) is ahead


# -- an orphan comes back when its code does ----------------------------------------------------------

ORIGINAL = b"""def checksum(data):
    value = 0
    for byte in data:
        value = (value * 31 + byte) & 0xFFFFFFFF
    return value


def describe(data):
    return f"{len(data)} bytes, checksum {checksum(data):08x}"
"""
WITHOUT = b'''def describe(data):
    return f"{len(data)} bytes"
'''


def test_an_orphan_is_found_again_from_its_original_evidence_when_the_code_is_restored():
    anchor = create_anchor("sum.py", ORIGINAL, 1, 5)
    gone = reanchor(anchor, WITHOUT, workspace_index({"sum.py": ORIGINAL}, {"sum.py": WITHOUT}))
    assert gone.health == "orphaned" and gone.anchor == anchor  # the orphan keeps what it knew
    restored = b"# restored by a revert\n" + ORIGINAL
    back = reanchor(gone.anchor, restored, workspace_index({"sum.py": WITHOUT}, {"sum.py": restored}))
    assert (back.health, back.anchor.line_start, back.anchor.line_end) == ("anchored", 2, 6)
    assert reanchor(gone.anchor, ORIGINAL).method == "unchanged"  # checked out as it was: nothing to search


def test_an_orphan_is_found_again_when_its_code_reappears_in_another_file():
    anchor = create_anchor("sum.py", ORIGINAL, 1, 5)
    gone = reanchor(anchor, WITHOUT, workspace_index({"sum.py": ORIGINAL}, {"sum.py": WITHOUT}))
    assert gone.health == "orphaned"
    moved = b"import zlib\n\n\n" + ORIGINAL[: ORIGINAL.index(b"\n\n\ndef describe")] + b"\n"
    index = workspace_index({"sum.py": WITHOUT}, {"sum.py": WITHOUT, "hashing.py": moved})
    back = reanchor(gone.anchor, WITHOUT, index)
    assert (back.health, back.anchor.file, back.anchor.line_start, back.method) == ("anchored", "hashing.py", 4, "moved")


def test_a_line_gone_from_a_function_that_stays_keeps_the_thread_on_the_function():
    anchor = create_anchor("sum.py", ORIGINAL, 4, 4)
    edited = ORIGINAL.replace(b"        value = (value * 31 + byte) & 0xFFFFFFFF\n", b"        value ^= byte\n")
    rel = reanchor(anchor, edited)
    assert (rel.health, rel.anchor.line_start, rel.anchor.line_end, rel.anchor.symbol) == ("drifted", 1, 5, "checksum")


def test_a_thread_on_lines_gone_from_their_function_returns_to_them_when_they_come_back():
    anchor = create_anchor("sum.py", ORIGINAL, 4, 4)
    edited = ORIGINAL.replace(b"        value = (value * 31 + byte) & 0xFFFFFFFF\n", b"        value ^= byte\n")
    on_symbol = reanchor(anchor, edited)
    assert on_symbol.anchor.lost_text == anchor.selected_text  # kept while the thread is on the function
    elsewhere = b"# a note\n" + edited  # the file changes again, the lines are still gone
    still = reanchor(on_symbol.anchor, elsewhere)
    assert (still.health, still.anchor.line_start, still.anchor.lost_text) == ("drifted", 2, anchor.selected_text)
    back = reanchor(still.anchor, b"# a note\n" + ORIGINAL)
    assert (back.health, back.anchor.line_start, back.anchor.line_end, back.anchor.lost_text) == ("anchored", 5, 5, "")


# -- sibling-name filters -------------------------------------------------------------------------


def test_a_sibling_filter_answers_for_its_names_and_rarely_for_others():
    names = [f"name_{i}" for i in range(3)]
    bloom = name_filter(names)
    assert all(in_name_filter(bloom, n) for n in names)
    strangers = [f"other_{i}_{j}" for i in range(100) for j in range(20)]
    assert sum(in_name_filter(bloom, n) for n in strangers) <= 4  # ~0.05% expected of 2,000


def test_filters_stored_by_earlier_anchors_are_still_read():
    first_format = "0020082944001000"  # written for ("aaa_aaa", "unrelated") before blake2b positions
    assert in_name_filter(first_format, "aaa_aaa") and in_name_filter(first_format, "unrelated")


def test_a_damaged_filter_holds_every_name_so_no_sibling_passes_for_a_successor():
    assert in_name_filter("2:zz", "anything") and in_name_filter("2:", "anything")
    assert not in_name_filter("", "anything")  # no filter stored: nothing was there


def test_identifiers_renamed_throughout_cost_nothing_but_an_inconsistent_one_does():
    old = "def load(x):\n    if not isinstance(x, FieldABC):\n        raise ResolutionError\n    return FieldABC(x)\n"
    renamed = old.replace("FieldABC", "Field").replace("ResolutionError", "_ResolutionError")
    assert renamed_similarity(old, renamed) == 1.0
    assert similarity(old, renamed) < 0.9  # what the rows say without reading the renames
    # FieldABC read as Field in one place and as Other in another: no rename, a difference
    mixed = old.replace("FieldABC)", "Field)", 1).replace("FieldABC(x)", "Other(x)")
    assert renamed_similarity(old, mixed) < 1.0
    rewritten = "def load(x):\n    return registry.get(x) or default_field()\n"
    assert renamed_similarity(old, rewritten) < 0.6


CONTAINERS = Path(__file__).parent / "fixtures" / "containers"  # one small billing type per language
RENAMES = {"rb": ("Invoice", "Bill"), "lua": ("Invoice", "Bill")}
TYPE_KINDS = {"class", "module", "namespace", "struct", "interface", "object", "enum", "trait"}


@pytest.mark.parametrize("path", sorted(CONTAINERS.iterdir()), ids=lambda p: p.suffix[1:])
def test_a_renamed_type_keeps_its_members_threads_through_edits(path: Path) -> None:
    """The enclosing type renamed and the bodies edited: every member's thread follows it,
    anchored when its text is unchanged, drifted when edited; none is lost or moved elsewhere."""
    old, new = RENAMES.get(path.suffix[1:], ("InvoiceService", "BillingService"))
    before = path.read_bytes()
    for after, edited in ((before.replace(old.encode(), new.encode()), False),
                          (before.replace(old.encode(), new.encode()).replace(b"30", b"45"), True)):
        index = WorkspaceIndex()
        index.update({path.name: content_hash(before)}, {path.name: before}.get)
        index.update({path.name: content_hash(after)}, {path.name: after}.get)
        members = [sv for sv in file_view(path.name, before).symbols if sv.kind not in TYPE_KINDS]
        assert members
        for sv in members:
            rel = reanchor(create_anchor(path.name, before, sv.first + 1, sv.last + 1), after, index)
            assert rel.health != "orphaned", sv.qualified_name
            assert rel.anchor.symbol == sv.qualified_name.replace(old, new)
            assert rel.anchor.line_start == sv.first + 1
            if not edited and old.encode() not in before[sv.symbol.start_byte:sv.symbol.end_byte]:
                assert rel.health == "anchored"
