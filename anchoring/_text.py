"""Text primitives: line tables over raw bytes, normalization, tokens.

Positions inside the engine are byte offsets into the raw source (BOM and CR
included); lines (0-based rows here, 1-based only at the public edges) are
derived from a LineTable. Text fields are decoded with replacement so invalid
UTF-8 never raises, while offsets keep pointing into the original bytes.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator
from itertools import accumulate

from limpet.model import blake2b

BOM = b"\xef\xbb\xbf"
_plus_one = (1).__add__


def short_hash(text: str) -> str:
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def decode(raw: bytes) -> str:
    if raw.startswith(BOM):
        raw = raw[len(BOM):]
    return raw.decode("utf-8", "replace")


class LineTable:
    """Line starts of a byte string. A final newline does not start a new line."""

    __slots__ = ("source", "starts", "count")

    def __init__(self, source: bytes) -> None:
        self.source = source
        # Each line's length + 1, summed from 0 (C speed); the last sum is len(source) + 1.
        # 4 bytes a line where a list takes 36 (an orphan search holds every file's table)
        starts = array("I" if len(source) < 1 << 32 else "Q",
                       accumulate(map(_plus_one, map(len, source.split(b"\n"))), initial=0))
        starts.pop()
        if len(starts) > 1 and starts[-1] == len(source):
            starts.pop()  # trailing newline: no phantom last line
        self.starts = starts
        self.count = len(starts) if source else 0

    def line_span(self, row: int) -> tuple[int, int]:
        """Byte span of a row without its line break (CR stripped too)."""
        start = self.starts[row]
        end = self.starts[row + 1] - 1 if row + 1 < len(self.starts) else len(self.source)
        if row + 1 == len(self.starts) and end > start and self.source[end - 1 : end] == b"\n":
            end -= 1  # the final newline of the file
        if end > start and self.source[end - 1 : end] == b"\r":
            end -= 1
        return start, end

    def rows_span(self, first: int, last: int) -> tuple[int, int]:
        """Byte span from the start of `first` to the end of `last` (line break excluded)."""
        return self.starts[first], self.line_span(last)[1]

    def line_bytes(self, row: int) -> bytes:
        start, end = self.line_span(row)
        return self.source[start:end]

    def line_text(self, row: int) -> str:
        raw = self.line_bytes(row)
        if row == 0 and raw.startswith(BOM):
            raw = raw[len(BOM):]
        return raw.decode("utf-8", "replace")

    def rows_text(self, first: int, last: int) -> str:
        return "\n".join(self.line_text(r) for r in range(first, last + 1))


def strip_lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n")]


def normalized(text: str) -> str:
    """Whitespace-blind form: stripped non-blank lines, joined by newlines."""
    return "\n".join(line for line in strip_lines(text) if line)


def rstripped(text: str) -> str:
    """Form used for the `anchored` test: trailing spaces and CRs do not count."""
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


_TOKEN = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|\S")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*\Z")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def is_identifier(token: str) -> bool:
    return _IDENT.match(token) is not None


def replace_identifier(text: str, old: str, new: str) -> str:
    """Replace whole-identifier occurrences of `old` by `new`: those that are a maximal run of
    word characters (letters, digits, `_`, `$`), as a regex `[\\w$]+` delimits them."""
    if not old or old not in text or not is_identifier(old):
        return text
    # str.find and a look at each side, not re.sub with a callback per word of the text (every
    # symbol of a searched file is blinded: ~10x the cost)
    parts: list[str] = []
    start = 0
    for at in _whole_word_positions(text, old):
        parts += (text[start:at], new)
        start = at + len(old)
    if not parts:
        return text
    parts.append(text[start:])
    return "".join(parts)


def holds_word(text: str, word: str) -> bool:
    """Whether `word` occurs in `text` with no word character on either side (a name, or a
    module stem such as `find-files`)."""
    return bool(word) and next(_whole_word_positions(text, word), None) is not None


def _whole_word_positions(text: str, word: str) -> Iterator[int]:
    size, end = len(word), len(text)
    at = text.find(word)
    while at >= 0:
        after = at + size
        if (at == 0 or not _is_word_char(text[at - 1])) and (after == end or not _is_word_char(text[after])):
            yield at
            at = text.find(word, after)
        else:
            at = text.find(word, at + 1)


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char in "_$"  # what [\w$] matches (\w is str.isalnum() and "_")
