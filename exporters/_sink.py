"""Where exports go: a stream the caller owns, or a path written atomically.

A path is written to a temporary sibling and renamed into place, so a failed or
interrupted export never leaves a half-written file where the user expects a good one.
"""

from __future__ import annotations

import itertools
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from limpet.exporters._types import ExportItem, Progress
from limpet.model import InvalidArgument, StorageFailed

__all__ = [
    "CountingWriter",
    "ProgressTicker",
    "checked",
    "open_sink",
    "remove_tree",
    "storage_failed",
    "temp_sibling",
    "to_path",
]

PROGRESS_EVERY = 1000


class CountingWriter:
    """A write-only binary stream wrapper that counts bytes (pyarrow needs tell())."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self.count = 0
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> int:
        self._raw.write(data)
        n = memoryview(data).nbytes
        self.count += n
        return n

    def tell(self) -> int:
        return self.count

    def flush(self) -> None:
        self._raw.flush()

    def close(self) -> None:  # the caller owns the underlying stream; never close it
        self.flush()
        self.closed = True

    def writable(self) -> bool:
        return True


def to_path(out: BinaryIO | str | os.PathLike, *, allow_stdout: bool) -> Path | BinaryIO:
    """Resolve `out`: a stream stays a stream; "-" is stdout for text formats."""
    if isinstance(out, str | os.PathLike):
        if os.fspath(out) == "-":
            if not allow_stdout:
                raise InvalidArgument(
                    "This format cannot be written to stdout; give a file path", field="output"
                )
            return sys.stdout.buffer
        return Path(out)
    if not hasattr(out, "write"):
        raise InvalidArgument("output must be a path or a writable binary stream", field="output")
    return out


_temps = itertools.count()


def temp_sibling(path: Path) -> Path:
    """A temporary name beside `path` that no other export uses: the process id and a
    per-process counter tell two exports to one path apart (several processes, or threads of
    one), with no random source. The last export to finish replaces the file whole."""
    return path.with_name(f".{path.name}.{os.getpid()}-{next(_temps)}.limpet-tmp")


def storage_failed(exc: OSError, target: Path, action: str = "write") -> StorageFailed:
    """A typed error for an OSError writing an export (disk full, read-only, no permission)."""
    return StorageFailed(f"Cannot {action} {target}: {exc.strerror or exc}", field="output",
                         details={"path": str(target), "errno": exc.errno})


@contextmanager
def open_sink(
    out: BinaryIO | str | os.PathLike, *, allow_stdout: bool
) -> Iterator[tuple[CountingWriter, str | None]]:
    """Yield (writer, final path or None); a path appears only if the block succeeds."""
    target = to_path(out, allow_stdout=allow_stdout)
    if not isinstance(target, Path):
        writer = CountingWriter(target)
        yield writer, None
        writer.flush()
        return
    tmp = _prepare(target)
    try:
        fh = open(tmp, "wb")  # closed by the with below
    except OSError as exc:
        raise InvalidArgument(f"Cannot write {target}: {exc.strerror}", field="output") from exc
    try:
        with fh:
            writer = CountingWriter(fh)
            yield writer, str(target)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise storage_failed(exc, target) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _prepare(target: Path) -> Path:
    if target.is_dir():
        raise InvalidArgument(f"{target} is a directory; give a file path", field="output")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidArgument(f"Cannot create {target.parent}: {exc.strerror}", field="output") from exc
    return temp_sibling(target)


def remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


class ProgressTicker:
    """Calls progress(done_so_far) every PROGRESS_EVERY items and once at the end."""

    def __init__(self, progress: Progress | None, every: int = PROGRESS_EVERY) -> None:
        self._progress = progress
        self._every = every
        self.count = 0

    def tick(self, n: int = 1) -> None:
        before = self.count
        self.count += n
        if self._progress is not None and before // self._every != self.count // self._every:
            self._progress(self.count)

    def done(self) -> None:
        if self._progress is not None and self.count % self._every:
            self._progress(self.count)
        elif self._progress is not None and self.count == 0:
            self._progress(0)


def checked(item: object) -> ExportItem:
    if not isinstance(item, ExportItem):
        raise InvalidArgument(f"expected ExportItem, got {type(item).__name__}", field="items")
    return item
