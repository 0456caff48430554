"""The error tree. Every failure limpet reports is one of these, with a stable code.

                                     code               rpc     exit  HTTP
    LimpetError                      (base; never raised directly)
    ├── InvalidArgument              INVALID_ARGUMENT   -32602  2     400
    ├── InvalidPath                  INVALID_PATH       -32003  2     400
    ├── FileNotFound                 FILE_NOT_FOUND     -32001  3     404
    ├── ThreadNotFound               THREAD_NOT_FOUND   -32002  3     404
    ├── InvalidAnchor                INVALID_ANCHOR     -32005  2     400
    ├── ParseFailure                 PARSE_ERROR        -32006  2     400
    ├── LockTimeout                  LOCK_TIMEOUT       -32004  4     503
    ├── InternalError                INTERNAL           -32603  1     500  (a bug: logged, reported without a traceback)
    └── StoreError                   STORE_ERROR        -32007  5     500
        ├── StoreCorrupted           STORE_CORRUPTED    -32007  5     409  (a damaged thread file: reported, kept as it is)
        ├── StoreTooNew              STORE_TOO_NEW      -32007  5     409  (written by a newer limpet; refused, untouched)
        └── StorageFailed            STORAGE_FAILED     -32008  5     507  (disk full, read-only, no permission: nothing written)

`code` is the contract's string code; `rpc_code` is seed 004's number, carried in
`details.rpc_code` so clients written against either seed can branch on it; `exit_code` is
what the CLI exits with and `http_status` what the HTTP doors answer. Doors (MCP, HTTP, CLI,
LSP) only translate these objects; they never invent codes or tables of their own.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "FileNotFound",
    "InvalidAnchor",
    "InvalidArgument",
    "InternalError",
    "InvalidPath",
    "LimpetError",
    "LockTimeout",
    "ParseFailure",
    "StoreCorrupted",
    "StorageFailed",
    "StoreError",
    "StoreTooNew",
    "ThreadNotFound",
]


class LimpetError(Exception):
    code: ClassVar[str] = "INTERNAL"
    rpc_code: ClassVar[int] = -32603
    exit_code: ClassVar[int] = 1
    http_status: ClassVar[int] = 500
    default_suggestion: ClassVar[str | None] = None

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        details: dict[str, Any] | None = None,
        suggestion: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.details = dict(details or {})
        self.suggestion = suggestion or self.default_suggestion

    def to_dict(self) -> dict[str, Any]:
        """The wire shape of the contract: {"code","message","field","details","suggestion"}."""
        return {
            "code": self.code,
            "message": self.message,
            "field": self.field,
            "details": {**self.details, "rpc_code": self.rpc_code},
            "suggestion": self.suggestion,
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code}: {self.message!r}, field={self.field!r})"


class InvalidArgument(LimpetError):
    code = "INVALID_ARGUMENT"
    rpc_code = -32602
    exit_code = 2
    http_status = 400


class InvalidPath(LimpetError):
    code = "INVALID_PATH"
    rpc_code = -32003
    exit_code = 2
    http_status = 400
    default_suggestion = "Use a workspace-relative path (POSIX style) that stays inside the workspace."


class FileNotFound(LimpetError):
    code = "FILE_NOT_FOUND"
    rpc_code = -32001
    exit_code = 3
    http_status = 404
    default_suggestion = "Check that the file exists in the workspace."


class ThreadNotFound(LimpetError):
    code = "THREAD_NOT_FOUND"
    rpc_code = -32002
    exit_code = 3
    http_status = 404
    default_suggestion = "Use comment_list or get_file_comments to list valid thread ids."


class InvalidAnchor(LimpetError):
    code = "INVALID_ANCHOR"
    rpc_code = -32005
    exit_code = 2
    http_status = 400


class ParseFailure(LimpetError):
    code = "PARSE_ERROR"
    rpc_code = -32006
    exit_code = 2
    http_status = 400


class LockTimeout(LimpetError):
    code = "LOCK_TIMEOUT"
    rpc_code = -32004
    exit_code = 4
    http_status = 503
    default_suggestion = "Another limpet process holds the store lock; retry shortly."


class InternalError(LimpetError):
    code = "INTERNAL"
    rpc_code = -32603
    exit_code = 1
    http_status = 500
    default_suggestion = "This is a bug in limpet; the server log has the details."


class StoreError(LimpetError):
    code = "STORE_ERROR"
    rpc_code = -32007
    exit_code = 5
    http_status = 500


class StoreCorrupted(StoreError):
    code = "STORE_CORRUPTED"
    http_status = 409
    default_suggestion = "The file was restored from its backup; retry the call."


class StoreTooNew(StoreError):
    code = "STORE_TOO_NEW"
    http_status = 409
    default_suggestion = "Upgrade limpet: this store was written by a newer version."


class StorageFailed(StoreError):
    """The disk refused a write (no space, over quota, read-only, no permission). The write did
    not happen: nothing of it is on disk, so retrying after fixing the cause is safe."""

    code = "STORAGE_FAILED"
    rpc_code = -32008
    http_status = 507
    default_suggestion = "Free disk space or make the folder writable, then retry: nothing was written."
