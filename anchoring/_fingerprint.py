"""Content evidence: normalized hashes, identifier-blind structure, sketches, similarity.

Everything here is deterministic across processes (no built-in `hash()`), so the
values can be stored in an anchor and compared by a later run.
"""

from __future__ import annotations

import contextlib
import functools
import zlib
from collections.abc import Callable, Sequence

from limpet.anchoring._text import normalized, replace_identifier, short_hash, tokens
from limpet.model import MAX_COMPARED_TEXT, blake2b

SKETCH_SIZE = 32
_GRAM = 3

# Keywords of the common languages: kept verbatim by the structural hash so
# `if` vs `for` still differ while every other identifier is blinded.
KEYWORDS = frozenset(
    """
    abstract and as assert async await break case catch class const continue def default defer del
    do elif else enum except export extends false final finally fn for from func function go goto
    if impl implements import in instanceof interface is lambda let loop match mod move mut new nil
    none not null or package pass private protected pub public raise range record return select
    self static struct super switch synchronized this throw throws trait true try type typeof union
    unsafe use var void where while with yield None True False chan map interface
    """.split()
)


def norm_hash(text: str) -> str:
    """Hash of the whitespace-blind text (re-indentation does not change it)."""
    return short_hash(normalized(text))


def blind_hash(text: str, name: str | None) -> str:
    """norm_hash with the symbol's own simple name blinded: equal across a pure rename."""
    if name:
        text = replace_identifier(text, name, "\u2400")
    return short_hash(normalized(text))


def _shape(token: str) -> str:
    first = token[0]
    if first.isalpha() or first in "_$":
        return token if token in KEYWORDS else "I"
    if first.isdigit():
        return "0"
    if first in "\"'":
        return "S"
    return token


def structure_hash(text: str) -> str:
    """Identifier-blind hash: equal when only names (and literals) differ."""
    return short_hash(" ".join(_shape(t) for t in tokens(text)))


def token_count(text: str) -> int:
    return len(tokens(text))


def sketch(text: str, size: int = SKETCH_SIZE) -> list[int]:
    """Bottom-k sketch of token trigrams: a compact, storable fingerprint."""
    toks = tokens(text)
    if len(toks) < _GRAM:
        grams = {" ".join(toks)} if toks else set()
    else:
        grams = {" ".join(toks[i : i + _GRAM]) for i in range(len(toks) - _GRAM + 1)}
    values = sorted({zlib.crc32(g.encode("utf-8", "surrogatepass")) for g in grams})
    return values[:size]


def sketch_similarity(a: Sequence[int], b: Sequence[int]) -> float:
    """Estimated Jaccard similarity of the two trigram sets."""
    if not a or not b:
        return 0.0
    size = min(len(a), len(b))
    union = sorted(set(a) | set(b))[:size]
    sa, sb = set(a), set(b)
    both = sum(1 for v in union if v in sa and v in sb)
    return both / len(union)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


def _words(text: str) -> list[str]:
    """Tokens that carry meaning: punctuation matches everywhere and would inflate LCS."""
    return [t for t in tokens(text) if t[0].isalnum() or t[0] in "_$\"'"]


def similarity(a: str, b: str) -> float:
    """Mean of line-level and word-level LCS similarity, in [0, 1].

    Both must agree for a high score: shared words in rewritten lines, or a
    few shared lines among new words, stay well below acceptance thresholds.
    Short texts (up to 3 lines) compare characters instead of whole lines.
    """
    if a == b:
        return 1.0
    la, wa = _prepared(a)
    lb, wb = _prepared(b)
    if la == lb:
        return 1.0
    similarity = _indel()
    if len(la) <= 3 or len(lb) <= 3:
        by_line = similarity("\n".join(la), "\n".join(lb))
    else:
        by_line = similarity(la, lb)
    return (by_line + similarity(wa, wb)) / 2


# An anchor's text is compared with every candidate of a step (hundreds in a large file): a
# long one is split into lines and words once, not once a candidate. Kept for the few texts
# in play at once (the anchor's, plain and name-blind), none longer than MAX_COMPARED_TEXT.
PREPARED_MIN_CHARS = 2048
PREPARED_KEPT = 4


def _prepared(text: str) -> tuple[list[str], list[str]]:
    if PREPARED_MIN_CHARS <= len(text) <= MAX_COMPARED_TEXT:  # (an anchor's text, never longer)
        return _prepared_long(text)
    return _lines(text), _words(text)


@functools.lru_cache(maxsize=PREPARED_KEPT)
def _prepared_long(text: str) -> tuple[list[str], list[str]]:
    return _lines(text), _words(text)


@functools.cache
def _indel() -> Callable[..., float]:
    # rapidfuzz loads with the first comparison: creating an anchor (`limpet add`) compares
    # nothing, and importing it is ~5 ms of that command.
    from rapidfuzz.distance import Indel

    return Indel.normalized_similarity


def blind_similarity(a: str, a_name: str | None, b: str, b_name: str | None) -> float:
    """similarity() with each side's own name blinded (a rename costs nothing)."""
    return similarity(_blind(a, a_name), _blind(b, b_name))


def _blind(text: str, name: str | None) -> str:
    if not name:
        return text
    if PREPARED_MIN_CHARS <= len(text) <= MAX_COMPARED_TEXT:
        return _blind_long(text, name)  # the same string each time: its preparation is kept too
    return replace_identifier(text, name, "\u2400")  # the same string each time: its preparation is kept too


@functools.lru_cache(maxsize=PREPARED_KEPT)
def _blind_long(text: str, name: str) -> str:
    return replace_identifier(text, name, "\u2400")


def name_filter(names: list[str]) -> str:
    """A small Bloom filter (hex) of names: 'was this name here before?' without storing them."""
    key = tuple(names)
    found = _filters.get(key)
    if found is None:
        found = _filters[key] = _name_filter(key)
        if len(_filters) > 256:  # a scope's names rarely change between two versions of a file
            with contextlib.suppress(KeyError, RuntimeError, StopIteration):  # racing threads
                del _filters[next(iter(_filters))]
    return found


_filters: dict[tuple[str, ...], str] = {}


_FILTER_V2 = "2:"  # filters written since the positions come from blake2b


def _name_filter(names: tuple[str, ...]) -> str:
    distinct = sorted(set(names))
    if not distinct:
        return ""
    # 32 bits a name, four positions: a name not in the filter passes for one that is about
    # once in 5,000 (16 bits: once in 400, and a rename onto such a name was never followed)
    nbits = max(128, 32 * len(distinct))
    nbits += -nbits % 8
    bits = bytearray(nbits // 8)
    for name in distinct:
        for pos in _bloom_positions(name, nbits):
            bits[pos >> 3] |= 1 << (pos & 7)
    return _FILTER_V2 + bits.hex()


def in_name_filter(bloom: str, name: str) -> bool:
    """True when `name` may be in the filter (false positives possible, no false negatives).
    A filter that does not parse (a damaged record) holds every name: its symbol's siblings
    then never pass for its successor, the safe side."""
    if not bloom:
        return False
    current = bloom.startswith(_FILTER_V2)
    try:
        bits = bytes.fromhex(bloom[len(_FILTER_V2):] if current else bloom)
    except ValueError:
        return True
    if not bits:
        return True
    nbits = len(bits) * 8
    positions = _bloom_positions(name, nbits) if current else _first_positions(name, nbits)
    return all(bits[pos >> 3] & (1 << (pos & 7)) for pos in positions)


def _bloom_positions(name: str, nbits: int) -> list[int]:
    # Four independent positions (double hashing mod a small power of two has only
    # nbits * nbits / 2 patterns: two names then share all four positions far too often).
    digest = blake2b(name.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    return [int.from_bytes(digest[i:i + 4], "little") % nbits for i in range(0, 16, 4)]


def _first_positions(name: str, nbits: int) -> list[int]:
    """Positions of the filters anchors stored first (crc32/adler32: weaker, ~14× the false
    positives of blake2b on short names), still read from older thread files."""
    digest = zlib.crc32(name.encode("utf-8", "surrogatepass"))
    second = zlib.adler32(name.encode("utf-8", "surrogatepass")) | 1
    return [(digest + i * second) % nbits for i in range(4)]


RENAMES_MIN_SHARE = 0.5  # of the tokens that must line up before renamed identifiers are read from the rest


def renamed_similarity(a: str, b: str) -> float:
    """Token similarity of `a` and `b` once the identifiers `b` consistently renamed are renamed
    in `a` too: an identifier of `a` standing, wherever the two line up, for one and the same
    identifier of `b` (FieldABC -> Field, Error -> _Error). A rename applied through a body
    costs nothing; an identifier read as two different ones is no rename and stays a difference."""
    from difflib import SequenceMatcher  # the successor step's last question: rarely asked

    old, new = tokens(a), tokens(b)
    if not old or not new:
        return 0.0
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    if matcher.ratio() < RENAMES_MIN_SHARE:
        return matcher.ratio()
    seen: dict[str, set[str]] = {}
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "replace" and i2 - i1 == j2 - j1:
            for x, y in zip(old[i1:i2], new[j1:j2], strict=True):
                if _shape(x) == "I" and _shape(y) == "I":
                    seen.setdefault(x, set()).add(y)
    renames = {x: ys.pop() for x, ys in seen.items() if len(ys) == 1}
    if not renames:
        return matcher.ratio()
    return SequenceMatcher(None, [renames.get(t, t) for t in old], new, autojunk=False).ratio()
