"""Input checked with msgspec types (the tools' arguments, events, the editor's settings and
commands, a page's selection report), reported as limpet's INVALID_ARGUMENT naming the field."""

from __future__ import annotations

import re

from limpet.model import InvalidArgument

__all__ = ["invalid_argument_from_decoding"]

_AT = re.compile(r" - at `\$\.?([^`]*)`$")
# msgspec names a missing or unknown field in its message, at the object's own path.
_NAMED = re.compile(r"^Object (missing required|contains unknown) field `([^`]*)`$")
_NAMED_WORDS = {"missing required": ("required", "missing"),
                "contains unknown": ("unknown argument: not one this operation takes", "extra_forbidden")}


def invalid_argument_from_decoding(exc: Exception) -> InvalidArgument:
    """msgspec says "Expected `str` of length <= 200 - at `$.by`"; a check of our own raises
    ValueError("a created event needs anchor")."""
    text = str(exc)
    found = _AT.search(text)
    path = re.sub(r"\[\d+\]", "", found.group(1)) if found else ""
    message = text[: found.start()] if found else text
    kind = "value_error"
    named = _NAMED.match(message)
    if named:
        (message, kind), name = _NAMED_WORDS[named.group(1)], named.group(2)
        path = f"{path}.{name}" if path else name
    message = _plainly(message, path)
    field = path or None
    details = {"errors": [{"field": path, "message": message, "type": kind}]}
    return InvalidArgument(f"{field}: {message}" if field else message, field=field, details=details)


# msgspec's bounds in words a person reads ("Expected `int` >= 1" for line 0).
_BOUND = re.compile(r"^Expected `(int|float|str|array|object)`(?: of length)? (>=|<=|>|<) (-?[\d.]+)$")
_WORDS = {">=": "at least", "<=": "at most", ">": "more than", "<": "less than"}


def _plainly(message: str, path: str) -> str:
    found = _BOUND.match(message)
    if found is None:
        return message
    kind, op, bound = found.groups()
    if kind in ("int", "float"):
        text = f"must be {_WORDS[op]} {bound}"
        return text + " (lines are numbered from 1)" if "line" in path.lower() and bound in ("0", "1") else text
    unit = {"str": "characters", "array": "items", "object": "entries"}[kind]
    return "must not be empty" if (op, bound) == (">=", "1") else f"must have {_WORDS[op]} {bound} {unit}"
