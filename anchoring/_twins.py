"""Near-verbatim twins among a symbol's successors: which one continues the old code.

A change may add two or more copies of one body at once: a test split into one per screen
(`tasksScreen_clickOnHomeIcon` and `statsScreen_clickOnHomeIcon`, launching `TasksActivity`
and `StatisticsActivity`), a getter doubled into a source and a target one. Each copy is as
like the old symbol as the others, so no score leads by a margin. What tells them apart is
only where they differ from each other, and there the words each copy has that the others
lack say which one kept to the old code: words of the old symbol itself, else words the file
already held (the screen the file already tested), against words the change brought in
(the screen it newly imports). A copy that kept to the old words continues the old symbol; a
copy that brought new ones is the variant added beside it.

This only tells twins apart: when the copies differ in words of the same standing (both
kept to the file's words, `_src_decoder` against `_tgt_decoder`, or both brought new ones),
no copy is the old symbol's more than another and the thread stays orphaned. Neither the
names the copies were given nor their places decide: a family of new names laid out where
the old one stood is no more the old code than its twin family further down.
"""

from __future__ import annotations

from collections.abc import Sequence

from limpet.anchoring._fileview import SymbolView
from limpet.anchoring._fingerprint import similarity
from limpet.anchoring._text import is_identifier, replace_identifier, tokens

__all__ = ["kept_to_old_words", "words"]

TWIN_ALIKE = 0.75  # copies this alike (each one's name blinded; a short text by its characters) ...
TWIN_WORDS, TWIN_SHARE = 2, 0.25  # ... differing in a word each, or in a quarter of their words at most
BLIND = "\u2400"
OWN, FILE, NEW = 2, 1, 0  # the standing of the words a twin has that the others lack


def words(text: str) -> frozenset[str]:
    """The identifiers (and words of comments) of a text."""
    return frozenset(t for t in tokens(text) if is_identifier(t))


def kept_to_old_words(group: Sequence[SymbolView], old_words: frozenset[str],
                      file_words: frozenset[str]) -> int | None:
    """The position in `group` (new symbols, each about as like the old one) of the one twin
    whose own words are the old symbol's (`old_words`) or its file's before the change
    (`file_words`) while every other twin's include words of a lower standing; None when
    they are not all near-verbatim copies of one another, or when none stands above the rest."""
    if len(group) < 2:
        return None
    blinded = [replace_identifier(sv.text, sv.name, BLIND) for sv in group]
    own = [words(text) for text in blinded]
    if not all(_copies(blinded[i], own[i], blinded[j], own[j])
               for i in range(len(group)) for j in range(i + 1, len(group))):
        return None  # not copies of one another: the usual margin decides
    standing = []
    for i, mine in enumerate(own):
        others = frozenset().union(*(w for j, w in enumerate(own) if j != i))
        only_mine = mine - others
        # (a copy with no words of its own kept nothing of the old symbol's the others lack)
        standing.append(OWN if only_mine and only_mine <= old_words else FILE if only_mine <= file_words else NEW)
    top = max(standing)
    if standing.count(top) != 1:
        return None  # two copies kept to words of one standing: none is more the old code's
    return standing.index(top)


def _copies(a: str, a_words: frozenset[str], b: str, b_words: frozenset[str]) -> bool:
    """Are two texts copies of one body, a few words swapped?"""
    differ = len(a_words ^ b_words)
    return (differ <= max(TWIN_WORDS, TWIN_SHARE * len(a_words | b_words))
            and similarity(a, b) >= TWIN_ALIKE)
