"""blake2b, the one hash limpet uses (content hashes, ids, cache keys), without `hashlib`.

`hashlib` is a front for OpenSSL: importing it loads `_hashlib` and OpenSSL's algorithms
(~2 ms of every command's start), and blake2b does not come from there anyway: hashlib takes
it from CPython's own `_blake2` module, which is imported here directly.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # an interpreter without CPython's module
    from hashlib import blake2b

__all__ = ["blake2b"]
