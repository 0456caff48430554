"""The text a search scans: a selection of threads cut into chunks, each chunk's bodies joined
into one UTF-8 string (what RE2 reads; offsets are in bytes), with a small summary of which three-character pieces the chunk holds.

Chunks end where a thread's id says so (its hash, ~1 thread in `CHUNK`), not at fixed offsets:
a thread added, changed or removed changes only the chunk it is in, so after a write the next
search rebuilds one chunk, not the whole text. (The boundaries decide how the work is split,
never what matches.) Chunks are kept between selections while the latest selections use them.

The summary (`Chunk.trigram_map`) is a 65,536-bit map of the chunk's folded trigrams: a search
whose pattern must contain "handler 5.1" skips every chunk lacking " 5." or "5.1" (a missing
bit is certain; a set bit may be another trigram's, which only costs a scan). It is built the
first time a big selection is searched; a small one is scanned whole, which is as fast. Which
chunks hold a trigram is kept per corpus (`Corpus.holding`), as the bits of an int: patterns
share most of their pieces, so a search reads a few ints, not every chunk's map. Inside a
chunk that holds every piece, each block of `BLOCK` threads has a smaller map of its own
(`Chunk.runs_holding`): only the blocks holding every piece are scanned, an eighth of the
chunk when the pattern is about one file's threads.
"""

from __future__ import annotations

import bisect
import copy
import functools
import itertools
import threading
from collections.abc import Sequence

from limpet.server.core._search_literals import fold, trigrams

__all__ = ["Chunk", "Corpus", "corpus_of", "pieces_to_find", "SEP", "utf8"]

SEP = "\n\x00\n"  # between two bodies: non-word characters, like a string's edge
_SEP = SEP.encode()
CHUNK = 1024  # threads per chunk, on average (a power of two)
BLOCK = 128  # threads per block, the part of a chunk a filtered search scans or skips
FILTER_MIN = 8192  # selections from this size on are filtered by trigrams before being scanned
_MAP_BITS = 1 << 16
_BLOCK_BITS = 1 << 14  # a block holds an eighth of a chunk's text: a quarter of the bits keeps it as sparse
_BLOCK_BYTES = _BLOCK_BITS // 8
# _BIT_SET[k] maps a byte to 1 when its bit k is set, else 0 (for bytes.translate).
_BIT_SET = [bytes((byte >> k) & 1 for byte in range(256)) for k in range(8)]
_MAX_COLUMNS = 4096  # pieces whose chunks a corpus remembers (an int of one bit a chunk each)


def _text(t) -> str:
    comments = t.comments
    return comments[0].body if len(comments) == 1 else SEP.join(c.body for c in comments)


def utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate is matched as the bytes it is


class Chunk:
    """The joined text of consecutive threads, in UTF-8: `starts[i]` is where thread i's text
    begins (one more entry: where the next would)."""

    __slots__ = ("_blocks", "_map", "data", "starts", "threads")

    def __init__(self, threads: tuple) -> None:
        texts = [utf8(_text(t)) for t in threads]
        self.threads = threads
        self.starts = [0, *itertools.accumulate(len(x) + len(_SEP) for x in texts)]
        self.data = _SEP.join(texts)
        self._map: bytearray | None = None
        self._blocks = bytearray()  # the blocks' maps, end to end

    @property
    def key(self) -> tuple[str, str, int]:
        """How a later selection finds this chunk again: (first id, last id, length)."""
        return chunk_key(self.threads)

    def thread_at(self, offset: int) -> int:
        """The index (in the chunk) of the thread whose text holds `offset`."""
        return bisect.bisect_right(self.starts, offset) - 1

    def holding_too(self, threads: tuple) -> Chunk:
        """This chunk's text, for other threads with the same texts (the same threads, moved)."""
        self.trigram_map()  # built once, for both
        chunk = copy.copy(self)
        chunk.threads = threads
        return chunk

    def trigram_map(self) -> bytearray:
        if self._map is None:
            chunk_map, self._blocks = _trigram_maps(self.data, self._block_spans())
            self._map = chunk_map  # last: a search in another thread that sees it sees the blocks too
        return self._map

    def _block_spans(self) -> list[tuple[int, int]]:
        """Where each block's text begins and ends (its last body's end)."""
        n, starts = len(self.threads), self.starts
        return [(starts[lo], starts[min(lo + BLOCK, n)] - len(SEP)) for lo in range(0, n, BLOCK)]

    def runs_holding(self, pieces: Sequence[int], first: int) -> list[tuple[int, int]]:
        """The threads (index ranges [lo, hi) from `first` on, adjacent blocks merged) of the
        blocks whose maps have every piece: only those can hold a match."""
        if not pieces:
            return [(first, len(self.threads))] if first < len(self.threads) else []
        self.trigram_map()
        held = -1  # byte j (0 or 1): does block j hold every piece so far
        for b in pieces:
            b &= _BLOCK_BITS - 1
            # The byte holding the piece's bit in every block's map (they are laid end to end),
            # each made 1 or 0 by its bit: one int of a byte a block, for all blocks at once.
            held &= int.from_bytes(self._blocks[b >> 3::_BLOCK_BYTES].translate(_BIT_SET[b & 7]), "little")
            if not held:
                return []
        runs: list[tuple[int, int]] = []
        while held:
            low = held & -held
            held ^= low
            j = (low.bit_length() - 1) >> 3
            lo, hi = max(j * BLOCK, first), min((j + 1) * BLOCK, len(self.threads))
            if lo >= hi:
                continue
            if runs and runs[-1][1] == lo:
                runs[-1] = (runs[-1][0], hi)
            else:
                runs.append((lo, hi))
        return runs


def pieces_to_find(query: str, selection_size: int) -> tuple[int, ...]:
    """The trigrams every match of `query` contains, as the maps hold them (bit numbers in a
    chunk's map); none for a small selection, which is scanned whole."""
    return () if selection_size < FILTER_MIN else _pieces(query)


@functools.lru_cache(maxsize=256)  # as the compiled patterns are: a page after a page asks again
def _pieces(query: str) -> tuple[int, ...]:
    return tuple(sorted({hash(t) % _MAP_BITS for t in trigrams(query)}))


def _trigram_maps(data: bytes, blocks: list[tuple[int, int]]) -> tuple[bytearray, bytearray]:
    """The chunk's map and its blocks' maps, end to end (the chunk's is their union: a trigram
    across two bodies is never asked for, since no match of one body holds it)."""
    chunk = bytearray(_MAP_BITS // 8)
    maps = bytearray(_BLOCK_BYTES * len(blocks))
    for j, (lo, hi) in enumerate(blocks):  # a block ends at a body's end: whole characters
        part, base = fold(data[lo:hi].decode("utf-8", "surrogatepass")), j * _BLOCK_BYTES
        for piece in set(map("".join, zip(part, part[1:], part[2:], strict=False))):
            b = hash(piece) % _MAP_BITS
            chunk[b >> 3] |= 1 << (b & 7)
            b &= _BLOCK_BITS - 1
            maps[base + (b >> 3)] |= 1 << (b & 7)
    return chunk, maps


class Corpus:
    """A selection (a tuple of threads) as chunks: `spans[k]` is chunk k's first index in the
    selection (one more entry: the selection's length). Chunks are built as a search reaches them."""

    def __init__(self, threads: tuple, kept: dict[tuple, Chunk], like: Corpus | None = None) -> None:
        self.threads = threads
        self.aliases = [threads]  # selections known to be this one (the same tuple object)
        # where chunks end by the ids (a selection after a write: only what changed is hashed)
        self.ends = _boundaries(threads, 0, len(threads)) if like is None else self._ends_like(like)
        ends = list(self.ends)
        if threads and (not ends or ends[-1] != len(threads)):
            ends.append(len(threads))
        self.spans = [0, *ends]
        self._chunks: list[Chunk | None] = [None] * len(ends)
        self._kept = kept  # chunks of earlier selections, by their key
        self._columns: dict[int, int] = {}
        self._lock = threading.Lock()  # the HTTP door may search from several threads

    def _ends_like(self, old: Corpus) -> list[int]:
        """This selection's chunk ends, from `old`'s where the two share a start and an end."""
        a, b = old.threads, self.threads
        head = _common_head(a, b)
        tail = _common_head(a[::-1], b[::-1], min(len(a), len(b)) - head)
        shift = len(b) - len(a)
        return ([e for e in old.ends if e <= head] + _boundaries(b, head, len(b) - tail)
                + [e + shift for e in old.ends if e > len(a) - tail])

    def chunk_index(self, position: int) -> int:
        return bisect.bisect_right(self.spans, position) - 1

    def chunk(self, k: int) -> Chunk:
        with self._lock:
            built = self._chunks[k]
            if built is None:
                built = self._chunks[k] = self._reuse_or_build(self.threads[self.spans[k]:self.spans[k + 1]])
            return built

    def _reuse_or_build(self, threads: tuple) -> Chunk:
        key = chunk_key(threads)
        old = self._kept.get(key)
        if old is not None and old.threads == threads:  # identity first: cheap when unchanged
            return old
        if old is not None and [_text(t) for t in old.threads] == [_text(t) for t in threads]:
            chunk = old.holding_too(threads)  # moved, not rewritten: the text and its map still hold
        else:
            chunk = Chunk(threads)
        self._kept[key] = chunk
        return chunk

    def holding(self, pieces: Sequence[int], first: int) -> list[int]:
        """The indexes of chunks from `first` on whose maps have every piece (a missing bit is
        certain; a set one may be another trigram's, which only costs a scan). Known pieces are
        read first: when they leave no chunk, new ones are not looked up at all."""
        found, new = -1, []  # -1: every chunk, as the bits of an int
        for piece in pieces:
            column = self._columns.get(piece)
            if column is None:
                new.append(piece)
            else:
                found &= column
        for piece in new:
            if not found:
                break
            found &= self._column(piece)
        found = (found >> first) & ((1 << (len(self._chunks) - first)) - 1)
        out = []
        while found:
            low = found & -found
            out.append(first + low.bit_length() - 1)
            found ^= low
        return out

    def _column(self, piece: int) -> int:
        """Which chunks' maps hold `piece`, as the bits of an int (kept: patterns share pieces)."""
        column = self._columns.get(piece)
        if column is None:
            byte, mask = piece >> 3, 1 << (piece & 7)
            column = 0
            for k in range(len(self._chunks)):
                if (self._chunks[k] or self.chunk(k)).trigram_map()[byte] & mask:
                    column |= 1 << k
            if len(self._columns) >= _MAX_COLUMNS:
                self._columns.clear()
            self._columns[piece] = column
        return column

    def built(self) -> list[Chunk]:
        return [c for c in self._chunks if c is not None]


def chunk_key(threads: tuple) -> tuple[str, str, int]:
    return threads[0].id, threads[-1].id, len(threads)


def _boundaries(threads: tuple, lo: int, hi: int) -> list[int]:
    """Chunk ends among threads[lo:hi]: after each thread whose id hashes to 0 mod CHUNK."""
    mask = CHUNK - 1
    return [i + 1 for i in range(lo, hi) if hash(threads[i].id) & mask == 0]


def _common_head(a: tuple, b: tuple, limit: int | None = None) -> int:
    """How many leading threads `a` and `b` share (compared a block at a time, in C)."""
    n = min(len(a), len(b)) if limit is None else limit
    i = 0
    while i < n:
        j = min(i + 4096, n)
        if a[i:j] != b[i:j]:
            return next(k for k in range(i, j) if a[k] is not b[k] and a[k] != b[k])
        i = j
    return n


class _Recent:
    """The corpus of the last selections searched (a tuple while the store is unchanged: the same
    object), and the chunks they use."""

    def __init__(self, keep: int = 2) -> None:
        self.keep = keep
        self.corpora: list[Corpus] = []
        self.lock = threading.Lock()

    def corpus(self, threads: Sequence) -> Corpus:
        with self.lock:
            # Identity first: comparing two selections of 100,000 threads costs ~0.3 ms.
            same = next((c for c in self.corpora if any(threads is x for x in c.aliases)), None)
            if same is None:
                same = next((c for c in self.corpora
                             if len(c.threads) == len(threads) and c.threads == tuple(threads)), None)
                if same is not None and isinstance(threads, tuple):  # two filters selecting the same
                    same.aliases = [*same.aliases[-3:], threads]
            if same is not None:
                self.corpora.remove(same)
                self.corpora.insert(0, same)
                return same
            kept: dict[tuple, Chunk] = {}
            for c in reversed(self.corpora[:self.keep]):  # the latest last: its chunks win a tie
                kept.update((ch.key, ch) for ch in c.built())
            made = Corpus(tuple(threads), kept, self.corpora[0] if self.corpora else None)
            self.corpora = [made, *self.corpora[:self.keep - 1]]
            return made


_recent = _Recent()


def corpus_of(threads: Sequence) -> Corpus:
    """The corpus of a selection: the same one while the selection is the same."""
    return _recent.corpus(threads)
