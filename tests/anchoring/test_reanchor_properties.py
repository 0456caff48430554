"""Properties of re-anchoring (hypothesis): edits elsewhere never disturb an anchor."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limpet.anchoring import create_anchor, reanchor

FUNCTIONS = [
    "def parse_header(line):\n    key, _, value = line.partition(':')\n    return key.strip().lower(), value.strip()\n",
    "def retry_delay(attempt, base=0.3):\n    delay = base * (2 ** (attempt - 1))\n    return min(delay, 30.0)\n",
    "class TokenCache:\n    def __init__(self):\n        self._tokens = {}\n\n    def get(self, key):\n"
    "        return self._tokens.get(key)\n",
    "def slugify(title):\n    words = [w for w in title.lower().split() if w.isalnum()]\n    return '-'.join(words)\n",
]
FILLER_LINES = st.sampled_from([
    "", "# a comment", "import os", "VALUE = 42", "x = compute(y)", "def helper():", "    return None",
    "class Other:", "    pass", "    '''docstring'''", "if __name__ == '__main__':", "    main()",
])


def build(funcs: list[str]) -> tuple[bytes, list[tuple[int, int]]]:
    """Source joining the functions by blank lines, with each one's 1-based line range."""
    out, ranges, line = [], [], 1
    for body in funcs:
        n = body.count("\n")
        ranges.append((line, line + n - 1))
        out.append(body)
        line += n + 1
    return "\n".join(out).encode(), ranges


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.permutations(FUNCTIONS),
    st.integers(min_value=0, max_value=3),
    st.lists(st.tuples(st.integers(min_value=0, max_value=200), st.lists(FILLER_LINES, max_size=4),
                       st.integers(min_value=0, max_value=3)), min_size=1, max_size=4),
)
def test_edit_outside_symbol_keeps_health(funcs, which, edits):
    source, ranges = build(list(funcs))
    start, end = ranges[which]
    anchor = create_anchor("m.py", source, start, end)
    before = reanchor(anchor, source)
    lines = source.decode().split("\n")
    anchored_text = lines[start - 1 : end]
    # Apply edits (replace `delete` lines at `at` by `insert`) outside the anchored range.
    lo, hi = start - 1, end - 1
    for at, insert, delete in edits:
        at = at % (len(lines) + 1)
        if lo <= at <= hi + 1:
            at = 0 if at - lo < hi + 1 - at else hi + 1
        delete = min(delete, max(0, (lo - at) if at <= lo else len(lines) - at))
        lines[at : at + delete] = insert
        if at <= lo:
            lo, hi = lo + len(insert) - delete, hi + len(insert) - delete
    assert lines[lo : hi + 1] == anchored_text
    # Python blocks end by dedent: keep the edit syntactically outside the function.
    following = next((line for line in lines[hi + 1 :] if line.strip() and not line.startswith("#")), "")
    if following.startswith((" ", "\t")):
        lines.insert(hi + 1, "END = 0")
    after = "\n".join(lines).encode()
    rel = reanchor(anchor, after)
    assert rel.health == before.health == "anchored"
    assert rel.anchor.selected_text == anchor.selected_text


@settings(max_examples=40, deadline=None)
@given(st.permutations(FUNCTIONS), st.integers(min_value=0, max_value=3), st.integers(min_value=1, max_value=30),
       st.booleans())
def test_blank_lines_above_keep_anchored(funcs, which, blanks, crlf):
    source, ranges = build(list(funcs))
    if crlf:
        source = source.replace(b"\n", b"\r\n")
    start, end = ranges[which]
    anchor = create_anchor("m.py", source, start, end)
    newline = b"\r\n" if crlf else b"\n"
    rel = reanchor(anchor, newline * blanks + source)
    assert rel.health == "anchored"
    assert (rel.anchor.line_start, rel.anchor.line_end) == (start + blanks, end + blanks)


@settings(max_examples=40, deadline=None)
@given(st.permutations(FUNCTIONS), st.integers(min_value=0, max_value=3), st.integers(min_value=0, max_value=2))
def test_line_inside_symbol_follows_blank_lines(funcs, which, offset):
    source, ranges = build(list(funcs))
    start, end = ranges[which]
    line = start + min(offset + 1, end - start)
    anchor = create_anchor("m.py", source, line, line)
    rel = reanchor(anchor, b"\n\n\n" + source)
    assert rel.health == "anchored"
    assert rel.anchor.line_start == line + 3
