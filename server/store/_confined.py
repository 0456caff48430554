"""The confinement layer: the one way limpet reaches the files of `.limpet/` and of its
private folder (issue 33).

A clone is hostile: any component of `.limpet/` or of the private folder may be a committed
symlink (`.limpet/cache/derived.sqlite` pointing at a database elsewhere, `.limpet/exports`
at a folder of someone's files). So nothing here follows a name from a path string:

- `Confined(anchor, parts)` names a folder limpet owns: an anchor it trusts as it is (the
  workspace root, resolved when the workspace was opened; the repository's git dir, as git
  itself trusts it) and the names below it. `open()` walks the names with `openat`
  (`O_DIRECTORY | O_NOFOLLOW`, each relative to the descriptor of the one before), so a
  symlink in any component is refused (`Unconfined`, STORE_ERROR naming it); `open(create=
  True)` makes missing folders itself (`mkdirat`) and opens them again the same way.
- `SafeDir` is a folder proved real, held by its descriptor: every file in it is opened,
  created (`O_EXCL | O_NOFOLLOW`), listed, renamed and deleted relative to that descriptor.
  A name is one plain component (never `..`, never a `/`). Only regular files are read.
- Deleting is for names limpet makes: temp files `NAME.tmp-PID-N`, export names, the
  database's own files; each caller passes the exact pattern, and only regular files (or,
  for a partitioned export, a real folder removed by descriptor) are removed.
- SQLite cannot be given a descriptor: the database, its `-wal`, `-shm` and `-journal` must
  be regular files or absent, and the folder's path must still lead to the descriptor's
  folder, before `sqlite3.connect` gets the path; after it, the database file at the path
  must be the one the descriptor sees. (The stdlib's SQLite 3.40 has no `nofollow` URI
  parameter: SQLITE_OPEN_NOFOLLOW is a flag of sqlite3_open_v2, which the sqlite3 module
  does not pass.) What remains is a race with a local process swapping names between the
  check and SQLite's own opens; a committed symlink is always refused.

tests/test_architecture.py checks that no other module of the store or the core opens,
creates, renames, deletes or connects to a file itself.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import re
import shutil
import sqlite3
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import msgspec

from limpet.model import StoreError

__all__ = ["TEMP_MARK", "TEMP_NAME", "Confined", "SafeDir", "Unconfined"]

TEMP_MARK = ".tmp-"
# NAME.tmp-PID-N: the only temp files limpet makes (and so the only ones it deletes).
TEMP_NAME = re.compile(r"(?P<name>[^/]+)\.tmp-(?P<pid>[0-9]{1,10})-[0-9]{1,20}")
_counter = itertools.count()
_ATTEMPTS = 25  # a cleanup running in a loop may delete the temp file more than once
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO planted where a file should be never blocks a read
_DIR_FLAGS = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC
_READ_FLAGS = os.O_RDONLY | _NOFOLLOW | _CLOEXEC | _NONBLOCK
_SQLITE_SIDECARS = ("-wal", "-shm", "-journal")


class Unconfined(StoreError):
    """A component of limpet's own folders is a symlink or not what it must be: refused
    (STORE_ERROR, naming the path)."""


def _symlink(path: Path | str) -> Unconfined:
    return Unconfined(f"{path} is a symlink: limpet never reads or writes its files through one",
                      details={"path": str(path), "symlink": True},
                      suggestion="Replace the symlink with a plain folder or file of the workspace.")


def _plain(name: str) -> str:
    if not name or name in (".", "..") or "/" in name or "\x00" in name or (os.altsep and os.altsep in name):
        raise ValueError(f"not a plain name: {name!r}")
    return name


class Confined(msgspec.Struct, frozen=True):
    """A folder limpet owns: `anchor` (trusted as it is) and the plain names below it."""

    anchor: Path
    parts: tuple[str, ...] = ()

    @property
    def path(self) -> Path:
        return self.anchor.joinpath(*self.parts)

    def child(self, *names: str) -> Confined:
        return Confined(self.anchor, (*self.parts, *map(_plain, names)))

    def open(self, *, create: bool = False) -> SafeDir | None:
        """The folder held by its descriptor (close it, or use `with`); None when it does not
        exist and `create` is false. Unconfined when a component is a symlink or a file."""
        try:
            fd = os.open(self.anchor, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        except FileNotFoundError:  # the workspace (or git dir) deleted under us: never made again here
            if create:
                raise
            return None
        try:
            for depth, name in enumerate(self.parts):
                child = _open_dir(fd, name, create, self.anchor.joinpath(*self.parts[:depth + 1]))
                os.close(fd)
                fd = child
                if fd is None:
                    return None
        except BaseException:
            if fd is not None:
                os.close(fd)
            raise
        return SafeDir(fd, self.path)

    def problem(self) -> str | None:
        """Why the folder cannot be used (a symlink, not a folder, unreadable), or None
        (usable, or absent)."""
        try:
            held = self.open()
        except Unconfined as exc:
            return exc.message
        except OSError as exc:
            return f"{self.path}: {exc.strerror}"
        if held is not None:
            held.close()
        return None

    def exists(self) -> bool:
        """A real folder (every component real) is there now."""
        try:
            held = self.open()
        except (Unconfined, OSError):
            return False
        if held is None:
            return False
        held.close()
        return True


def _open_dir(fd: int, name: str, create: bool, shown: Path) -> int | None:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=fd)
    except FileNotFoundError:
        if not create:
            return None
    except OSError as exc:
        raise _refusal(fd, name, shown, exc) from None
    try:
        os.mkdir(name, 0o755, dir_fd=fd)
    except FileExistsError:
        pass  # made by another process meanwhile: opened (and checked) below like any other
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=fd)  # re-verified: what is there now is a real folder
    except OSError as exc:
        raise _refusal(fd, name, shown, exc) from None


def _refusal(fd: int, name: str, shown: Path, exc: OSError) -> Exception:
    try:
        st = os.lstat(name, dir_fd=fd)
    except OSError:
        return exc
    if stat.S_ISLNK(st.st_mode):
        return _symlink(shown)
    if not stat.S_ISDIR(st.st_mode):
        return Unconfined(f"{shown} is not a folder", details={"path": str(shown)})
    return exc


class SafeDir:
    """A folder proved real, held by its descriptor: everything in it by name relative to it."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd = fd
        self.path = path

    def __enter__(self) -> SafeDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    # -- looking -------------------------------------------------------------------------------
    def sub(self, name: str, *, create: bool = False) -> SafeDir | None:
        fd = _open_dir(self.fd, _plain(name), create, self.path / name)
        return SafeDir(fd, self.path / name) if fd is not None else None

    def lstat(self, name: str) -> os.stat_result | None:
        try:
            return os.lstat(_plain(name), dir_fd=self.fd)
        except FileNotFoundError:
            return None

    def regular_or_absent(self, name: str) -> os.stat_result | None:
        """The stat of a regular file `name`, None when there is none; Unconfined when the
        name is a symlink or something else (limpet's own files are plain files)."""
        st = self.lstat(name)
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise _symlink(self.path / name)
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise Unconfined(f"{self.path / name} is not a regular file", details={"path": str(self.path / name)})
        return st

    def names(self) -> list[str]:
        return os.listdir(self.fd)

    # -- reading -------------------------------------------------------------------------------
    def open_read(self, name: str) -> IO[bytes]:
        """A regular file of this folder, opened for reading (OSError ELOOP for a symlink,
        EINVAL for anything else that is not a regular file)."""
        return _open_regular(os.open(_plain(name), _READ_FLAGS, dir_fd=self.fd), self.path, name)

    def read(self, name: str) -> bytes:
        """The bytes of a regular file of this folder (builds no Path: a cold read of 20,000
        thread files makes 20,000 of these)."""
        with self.open_read(name) as fh:
            return fh.read()

    # -- writing -------------------------------------------------------------------------------
    def write_atomic(self, name: str, data: bytes | Callable[[], Iterable[bytes]], *, durable: bool = True,
                     scratch: SafeDir | None = None) -> None:
        """Write `name` so readers see the old bytes or the new ones, never a mix: a temp file
        (`O_EXCL | O_NOFOLLOW`, in `scratch` when on the same file system: a folder cleanups
        never reach) + fsync + rename into this folder + fsync of the folder. An OSError
        before the rename leaves nothing behind; after it, the write has happened. A temp
        file deleted under us (`git clean` in a loop) is written again."""
        for attempt in range(_ATTEMPTS):
            try:
                with self.atomic_file(name, durable=durable, scratch=scratch) as fh:
                    for chunk in (data,) if isinstance(data, bytes) else data():
                        fh.write(chunk)
                return
            except FileNotFoundError:
                if attempt == _ATTEMPTS - 1:
                    raise

    @contextlib.contextmanager
    def atomic_file(self, name: str, *, durable: bool = True, scratch: SafeDir | None = None) -> Iterator[IO[bytes]]:
        """A file object whose bytes become `name` when the block ends without an error; an
        error leaves nothing behind (FileNotFoundError: the temp file vanished, nothing
        happened)."""
        folder = scratch if scratch is not None and _same_device(scratch.fd, self.fd) else self
        tmp = f"{_plain(name)}{TEMP_MARK}{os.getpid()}-{next(_counter)}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o644, dir_fd=folder.fd)
        try:
            with os.fdopen(fd, "wb", closefd=True) as fh:
                yield fh
                if durable:
                    fh.flush()
                    os.fsync(fh.fileno())
            os.replace(tmp, name, src_dir_fd=folder.fd, dst_dir_fd=self.fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder.fd)
            raise
        if durable:
            with contextlib.suppress(OSError):
                os.fsync(self.fd)

    def create_new(self, name: str) -> IO[bytes]:
        """A new file of this folder (FileExistsError when the name is taken)."""
        fd = os.open(_plain(name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o644,
                     dir_fd=self.fd)
        return os.fdopen(fd, "wb", closefd=True)

    # -- deleting: only names limpet made ---------------------------------------------------------
    def remove(self, name: str, made: re.Pattern[str] | Iterable[str]) -> bool:
        """Delete `name` if it is one limpet makes (`made`: its exact pattern, or the exact
        names) and a regular file; never follows a link, never anything else."""
        if not _made(name, made):
            return False
        st = self.lstat(name)
        if st is None or not stat.S_ISREG(st.st_mode):
            return False
        try:
            os.unlink(name, dir_fd=self.fd)
        except FileNotFoundError:
            return False
        return True

    def remove_tree(self, name: str, made: re.Pattern[str]) -> bool:
        """Delete the folder `name` limpet made (a partitioned export) and what is in it, by
        descriptor (shutil's fd-based rmtree: links inside are removed, never followed)."""
        if not _made(name, made):
            return False
        st = self.lstat(name)
        if st is None or not stat.S_ISDIR(st.st_mode):
            return False
        shutil.rmtree(name, dir_fd=self.fd)
        return True

    def remove_stale_temps(self, *, only_dead_writers: bool = False) -> int:
        """Delete temp files left by killed writers (see TEMP_NAME: nothing else, regular files
        only). Call only while holding the store lock: no live writer has one open then. In a
        folder also written without the lock (caches), pass `only_dead_writers`: a temp file
        is removed only when the process named in it is gone."""
        removed = 0
        try:
            names = self.names()
        except OSError:
            return 0
        for name in names:
            found = TEMP_NAME.fullmatch(name)
            if found is None or (only_dead_writers and _writer_alive(int(found["pid"]))):
                continue
            with contextlib.suppress(OSError):
                removed += self.remove(name, TEMP_NAME)
        return removed

    # -- SQLite -----------------------------------------------------------------------------------
    def connect(self, name: str, **options: Any) -> sqlite3.Connection:
        """A connection to the database `name` of this folder (see the module's docstring)."""
        for file in (name, *(name + s for s in _SQLITE_SIDECARS)):
            self.regular_or_absent(file)
        self._still_named()
        path = str(self.path / name)
        conn = sqlite3.connect(path, **options)
        try:
            held, named = self.lstat(name), os.lstat(path)
            if held is None or (held.st_dev, held.st_ino) != (named.st_dev, named.st_ino):
                raise _symlink(self.path / name)
        except BaseException:
            conn.close()
            raise
        return conn

    def _still_named(self) -> None:
        """The folder's path leads to this very folder (no component swapped since it was opened)."""
        try:
            named = os.stat(self.path)
        except OSError:
            raise _symlink(self.path) from None
        held = os.fstat(self.fd)
        if (held.st_dev, held.st_ino) != (named.st_dev, named.st_ino):
            raise _symlink(self.path)

    def path_for_library(self, name: str) -> Path:
        """The path of `name` in this folder for a library that takes only paths (pyarrow's
        partitioned writer): `name` must not exist yet or be a real folder, and the folder's
        path must still lead here. The library writes below it by path from then on."""
        st = self.lstat(name)
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise _symlink(self.path / name)
        self._still_named()
        return self.path / _plain(name)


def _made(name: str, made: re.Pattern[str] | Iterable[str]) -> bool:
    if isinstance(made, re.Pattern):
        return made.fullmatch(name) is not None
    return name in set(made)


def _open_regular(fd: int, folder: Path, name: str) -> IO[bytes]:
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, f"not a regular file: {folder / name}")
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb", closefd=True)


def _same_device(a: int, b: int) -> bool:
    try:  # a rename is atomic only within one file system
        return os.fstat(a).st_dev == os.fstat(b).st_dev
    except OSError:
        return False


def _writer_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True
