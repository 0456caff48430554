"""Text-only anchoring (no symbol query for the language): exact or orphaned, never a
range a few lines off. A fuzzily found range is kept only when both of its ends are
settled on evidence (see anchoring/_bounds.py)."""

from __future__ import annotations

import pytest

from limpet.anchoring import _languages, create_anchor, reanchor


@pytest.fixture(autouse=True)
def _no_symbols(monkeypatch):
    monkeypatch.setattr(_languages, "has_symbols", lambda language: False)


def _lines(text: str) -> bytes:
    return text.strip("\n").encode() + b"\n"


def _where(old: bytes, new: bytes, start: int, end: int) -> tuple[int, int] | None:
    rel = reanchor(create_anchor("m.py", old, start, end), new)
    return None if rel.health == "orphaned" else (rel.anchor.line_start, rel.anchor.line_end)


BRACES = _lines("""
function load(path) {
  const data = read(path);
  if (!data) {
    return null;
  }
  return parse(data);
}

function save(path, value) {
  write(path, serialize(value));
}
""")


def test_block_edited_in_place_keeps_its_own_ends():
    new = BRACES.replace(b"return parse(data);", b"return parse(data, {strict: true});")
    new = new.replace(b"const data = read(path);", b"const data = read(path, 'utf8');")
    assert _where(BRACES, new, 1, 7) == (1, 7)


def test_blank_lines_do_not_drift_into_the_range():
    new = b"\n\n" + BRACES.replace(b"return parse(data);", b"return parse(data, {strict: true});")
    new = new.replace(b"const data = read(path);", b"const data = read(path, 'utf8');")
    assert _where(BRACES, new, 1, 7) == (3, 9)


PYTHON = _lines("""
import zlib


class Client:
    def build(self, resp):
        self.response = Response()
        self.response.status = resp.code
        self.response.headers = resp.headers
        self.response.content = resp.read()

    @staticmethod
    def close():
        pass
""")


def test_code_added_at_the_end_of_a_block_is_followed():
    new = PYTHON.replace(b"        self.response.status = resp.code\n", b"        self.response.status = int(resp.code)\n")
    new = new.replace(b"resp.read()\n", b"resp.read()\n        if self.response.headers.get('gzip'):\n"
                                         b"            self.response.content = zlib.decompress(self.response.content)\n")
    assert _where(PYTHON, new, 5, 9) == (5, 11)


def test_a_new_neighbour_is_not_swallowed():
    new = PYTHON.replace(b"        self.response.status = resp.code\n", b"        self.response.status = int(resp.code)\n")
    new = new.replace(b"resp.read()\n", b"resp.read()\n\n    def reset(self):\n        self.response = None\n")
    assert _where(PYTHON, new, 5, 9) in ((5, 9), None)


def test_two_similar_blocks_are_not_one_range():
    old = _lines("""
#[test]
fn tabs_long() {
    bat()
        .arg("--tabs=4")
        .arg("--style=plain")
        .assert()
        .stdout("a   b");
}
""")
    twin = old.replace(b"tabs_long", b"tabs_width_8").replace(b"--tabs=4", b"--tabs=8")
    new = old.replace(b"tabs_long", b"tabs_long_renamed").replace(b"\"a   b\"", b"\"a       b\"")
    got = _where(old, twin + b"\n" + new, 2, 8)
    assert got in ((12, 18), None)
