"""Workspace-relative paths: the one place that decides what may be read.

Every path a caller gives is checked here before any file is touched. Refused (INVALID_PATH):
absolute paths, `~`, `..` segments, URL-encoded escapes, NUL and control characters,
anything under `.git/` or `.limpet/`, and symlinks that resolve outside the workspace.
Protected folders are compared as a case-insensitive file system sees names (macOS, Windows):
`.GIT/config`, `.Git/hooks/x`, `.LIMPET/...`, a full-width `．ｇｉｔ`, `.git` with a zero-width
joiner (ignored by HFS+) or a trailing dot or space (dropped by Windows) are all `.git/`.
"""

from __future__ import annotations

import os
import stat
import time
import unicodedata
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

from limpet.model import FileNotFound, InvalidPath

__all__ = ["Workspace", "FileState", "STORE_DIRNAME", "PROTECTED_DIRS", "IGNORED_DIRS", "file_state", "folded",
           "is_ignored", "is_protected"]

STORE_DIRNAME = ".limpet"
# Never commentable, never scanned.
PROTECTED_DIRS = frozenset({".git", STORE_DIRNAME})
# Skipped when scanning the workspace for moved code (still commentable when named directly).
IGNORED_DIRS = PROTECTED_DIRS | {
    "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache",
    ".ruff_cache", "dist", "build", ".hg", ".svn", ".idea", ".hypothesis",
}
MAX_PATH_LEN = 4096
# Code points HFS+ ignores in names (git's is_hfs_dotgit list): `.g\u200cit` is `.git` there.
_IGNORABLE = dict.fromkeys(map(ord, "\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                                   "\u206a\u206b\u206c\u206d\u206e\u206f\ufeff"))


def folded(name: str) -> str:
    """A folder name as a case-insensitive, normalising file system compares it: NFKC,
    casefolded, without the code points HFS+ ignores, trailing dots and spaces dropped
    (Windows), and an NTFS stream suffix (`.git::$INDEX_ALLOCATION`) cut."""
    name = unicodedata.normalize("NFKC", name.translate(_IGNORABLE)).casefold()
    return name.split(":", 1)[0].rstrip(". ") or name


def is_protected(name: str) -> bool:
    """Is this first component `.git` or `.limpet`, however spelled (see `folded`)?"""
    return name in PROTECTED_DIRS or folded(name) in PROTECTED_DIRS


def is_ignored(name: str) -> bool:
    return name in IGNORED_DIRS or folded(name) in IGNORED_DIRS
_CANONICAL_KEPT = 200_000

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _not_regular(rel: str, field: str) -> InvalidPath:
    return InvalidPath(f"Not a regular file: {rel}", field=field, details={"path": rel})


def _read_to_end(fd: int, size: int) -> bytes:
    """The bytes of an open regular file of `size` bytes (as its stat said): one read, unless
    it grew since (a read of one byte more tells), then to its end."""
    data = os.read(fd, size + 1)
    if len(data) <= size:  # a regular file reads short only at its end
        return data
    chunks = [data]
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


class FileState(NamedTuple):
    """What stat says about a file: enough to know whether its bytes may have changed.
    (A tuple: built and compared at C speed, once per file per read.)"""

    size: int
    mtime_ns: int
    ino: int
    ctime_ns: int  # changes on any write, even one that keeps the size and the mtime

    def settled(self) -> bool:
        """Was the file last written long enough ago that a later write must change its stat?
        A write within the file system's clock tick could leave it unchanged (git's "racily
        clean" files): what is derived from a file this fresh is not kept for other processes."""
        return time.time_ns() - max(self.mtime_ns, self.ctime_ns) >= RACY_NS


RACY_NS = 3_000_000_000  # see FileState.settled


def file_state(st: os.stat_result) -> FileState:
    return FileState(st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def is_canonical(rel: str) -> bool:
    """What `Workspace.normalize` returns: relative, POSIX, no empty, `.` or `..` segment,
    nothing under a protected folder. (Checked again where a path is opened: defence in depth
    against a path that never went through normalize.)"""
    if not rel or rel[0] == "/" or "\x00" in rel or "\\" in rel:
        return False
    parts = rel.split("/")
    return not is_protected(parts[0]) and all(p not in ("", ".", "..") for p in parts)


class Workspace:
    """A directory limpet serves. Normalizes and checks paths; reads sources."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        path = Path(root).expanduser()
        if not path.is_dir():
            raise FileNotFound(
                f"Workspace directory does not exist: {path}", field="workspace", details={"workspace": str(path)}
            )
        self.root = path.resolve()
        self._root_str = str(self.root)
        self.store_dir = self.root / STORE_DIRNAME
        self._canonical: dict[str, str] = {}  # relative path → its canonical form (string rules only)
        self._full: dict[str, str] = {}  # canonical relative path → absolute (see state)

    # -- paths ---------------------------------------------------------------------------
    def normalize(self, rel: object, field: str = "file") -> str:
        """Return the canonical workspace-relative POSIX path, or raise INVALID_PATH."""
        known = self._canonical.get(rel) if isinstance(rel, str) else None
        if known is not None:  # every thread read is vetted: 10 threads of a file, one check
            return known
        canonical = self._normalize(rel, field)
        if isinstance(rel, str) and not os.path.isabs(rel) and len(self._canonical) < _CANONICAL_KEPT:
            self._canonical[rel] = canonical  # a relative path's form depends on the string alone
        return canonical

    def _normalize(self, rel: object, field: str) -> str:
        if not isinstance(rel, str) or not rel.strip():
            raise InvalidPath("A non-empty workspace-relative path is required", field=field)
        if len(rel) > MAX_PATH_LEN or any(ord(c) < 32 for c in rel):
            raise InvalidPath("Path contains control characters or is too long", field=field)
        decoded = unquote(rel)
        for candidate in {rel, decoded}:
            self._refuse_shape(candidate, field, original=rel)
        raw = rel.replace("\\", "/")
        if os.path.isabs(raw):
            raw = self._relativize_absolute(raw, field, rel)
        parts = [p for p in raw.split("/") if p not in ("", ".")]
        if not parts:
            raise InvalidPath("Path names the workspace itself, not a file", field=field, details={"path": rel})
        if is_protected(parts[0]):
            raise InvalidPath(f"'{parts[0]}/' is not commentable", field=field, details={"path": rel})
        return "/".join(parts)

    def _refuse_shape(self, candidate: str, field: str, original: str) -> None:
        text = candidate.replace("\\", "/")
        if text.startswith("~"):
            raise InvalidPath("Home-relative paths (~) are not allowed", field=field, details={"path": original})
        if any(seg == ".." for seg in text.split("/")):
            raise InvalidPath("Path escapes the workspace ('..')", field=field, details={"path": original})
        if "\x00" in text:
            raise InvalidPath("Path contains a NUL byte", field=field, details={"path": original})
        if candidate is not original and candidate != original and os.path.isabs(text):
            raise InvalidPath("Encoded absolute paths are not allowed", field=field, details={"path": original})

    def _relativize_absolute(self, raw: str, field: str, original: str) -> str:
        # An absolute path inside the workspace is accepted and made relative (clients send them).
        try:
            return Path(raw).relative_to(self.root).as_posix()
        except ValueError:
            raise InvalidPath(
                "Absolute path outside the workspace", field=field, details={"path": original}
            ) from None

    def absolute(self, rel: str, field: str = "file") -> Path:
        """The real on-disk path of a normalized path; symlinks must stay inside the workspace."""
        return Path(self._real(rel, field)[0])

    def _real(self, rel: str, field: str) -> tuple[str, os.stat_result | None]:
        """(real path, its stat when it exists). Walks the components below the (already
        real) root with lstat; only a path holding a symlink pays for a full realpath."""
        if not is_canonical(rel):  # paths reach here normalized; anything else is refused, not joined
            raise InvalidPath("Not a canonical workspace path", field=field, details={"path": rel[:4096]})
        path, st = self._root_str, None
        for part in rel.split("/"):
            path = f"{path}{os.sep}{part}"
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                return os.path.join(self._root_str, rel), None  # as realpath(strict=False) would
            except OSError:
                break
            if stat.S_ISLNK(st.st_mode):
                break
        else:
            return self._checked(path, rel, field), st
        try:
            resolved = os.path.realpath(os.path.join(self._root_str, rel))
        except (OSError, RuntimeError, ValueError):  # symlink loop
            raise InvalidPath("Path is a symlink loop", field=field, details={"path": rel}) from None
        return self._checked(resolved, rel, field), None

    def _checked(self, resolved: str, rel: str, field: str) -> str:
        root = self._root_str
        if resolved == root:
            return resolved
        if not resolved.startswith(root) or resolved[len(root)] != os.sep:
            raise InvalidPath("Path resolves outside the workspace (symlink)", field=field, details={"path": rel})
        top = resolved[len(root) + 1 :].split(os.sep, 1)[0]
        if is_protected(top):
            raise InvalidPath(f"'{top}/' is not commentable", field=field, details={"path": rel})
        return resolved

    # -- reading -------------------------------------------------------------------------
    def read(self, rel: str, field: str = "file") -> bytes:
        """Bytes of a workspace file, or FILE_NOT_FOUND / INVALID_PATH."""
        path, st = self._real(rel, field)
        try:
            st = st or os.stat(path)
        except FileNotFoundError:
            raise FileNotFound(f"File not found: {rel}", field=field, details={"filePath": rel}) from None
        except OSError as exc:
            raise InvalidPath(f"Cannot access {rel}: {exc.strerror}", field=field, details={"path": rel}) from None
        if not stat.S_ISREG(st.st_mode):  # never opened: a device could act on an open
            raise _not_regular(rel, field)
        try:
            # The path checked above, opened without following a symlink put there since (ELOOP),
            # without waiting on a FIFO put there since (O_NONBLOCK; checked again on the open
            # file), in two system calls where a Python file object takes more.
            fd = os.open(path, _READ_FLAGS)
        except FileNotFoundError:
            raise FileNotFound(f"File not found: {rel}", field=field, details={"filePath": rel}) from None
        except OSError as exc:
            raise InvalidPath(f"Cannot read {rel}: {exc.strerror}", field=field, details={"path": rel}) from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise _not_regular(rel, field)
            return _read_to_end(fd, st.st_size)
        except OSError as exc:
            raise InvalidPath(f"Cannot read {rel}: {exc.strerror}", field=field, details={"path": rel}) from None
        finally:
            os.close(fd)

    def read_or_none(self, rel: str) -> bytes | None:
        """Bytes of a file that may be gone (reconcile): None instead of FILE_NOT_FOUND."""
        try:
            return self.read(rel)
        except (FileNotFound, InvalidPath):
            return None

    def state(self, rel: str) -> FileState | None:
        full = self._full.get(rel)  # a reconcile stats every file with threads: checked once each
        if full is None:
            if not is_canonical(rel):
                return None
            full = self._full[rel] = os.path.join(self._root_str, rel)
        try:
            st = os.stat(full)
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode):
            return None
        return file_state(st)

    def walk_sources(self, max_bytes: int = 2_000_000, under: str = "") -> dict[str, FileState]:
        """Every regular file inside the workspace worth indexing (for cross-file moves);
        `under`: only those below that workspace folder (a canonical relative path)."""
        found: dict[str, FileState] = {}
        root = str(self.root)
        top = os.path.join(root, under) if under else root
        if under and (not is_canonical(under) or any(is_ignored(part) for part in under.split("/"))
                      or os.path.realpath(top) != os.path.join(os.path.realpath(root), under)):
            return found  # not a folder the whole walk would enter (ignored, or through a symlink)
        for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if not is_ignored(d) and not folded(d).startswith(".limpet"))
            rel_dir = os.path.relpath(dirpath, root)
            for name in filenames:
                rel = name if rel_dir == "." else f"{rel_dir}/{name}".replace(os.sep, "/")
                try:
                    st = os.stat(os.path.join(dirpath, name), follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode) and st.st_size <= max_bytes:
                    found[rel] = file_state(st)
        return found
