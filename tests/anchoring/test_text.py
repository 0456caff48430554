"""Text helpers the steps share: blinding a name replaces whole identifiers, never parts of one."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from limpet.anchoring._text import replace_identifier

WORD_RUN = re.compile(r"[\w$]+")  # a whole identifier: a maximal run of word characters


def by_word_runs(text: str, old: str, new: str) -> str:
    return WORD_RUN.sub(lambda m: new if m.group() == old else m.group(), text)


names = st.sampled_from(["x", "self", "a1", "_f", "$el", "ab", "aa"])
texts = st.lists(st.one_of(names, st.sampled_from([" ", ".", "(", "aa", "a", "1", "_", "$", "é", "٣", "\n", "\u2400"])),
                 max_size=30).map("".join)


@given(texts, names)
@example("aaa aa .aa aa1 $aa aa$ éaa", "aa")
@example("self.selfish(self_, self)", "self")
def test_only_whole_identifiers_are_replaced(text, old):
    assert replace_identifier(text, old, "\u2400") == by_word_runs(text, old, "\u2400")


def test_a_name_that_is_no_identifier_is_left_alone():
    assert replace_identifier("a-b a-b", "a-b", "x") == "a-b a-b"
    assert replace_identifier("f(x)", "", "y") == "f(x)"
