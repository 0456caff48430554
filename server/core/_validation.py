"""Input checked with pydantic models (the tools' arguments) or msgspec types (events), reported
as limpet's INVALID_ARGUMENT naming the field."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from limpet.model import InvalidArgument

if TYPE_CHECKING:  # pydantic is imported by the doors that validate arguments, not by a `limpet list`
    from pydantic import ValidationError

__all__ = ["invalid_argument_from", "invalid_argument_from_decoding"]

_AT = re.compile(r" - at `\$\.?([^`]*)`$")


def invalid_argument_from(exc: ValidationError) -> InvalidArgument:
    errors = exc.errors(include_url=False, include_input=False)
    first = errors[0]
    field = ".".join(str(p) for p in first["loc"]) or None
    message = _message_for(first)
    details = {
        "errors": [
            {"field": ".".join(str(p) for p in e["loc"]), "message": _message_for(e), "type": e["type"]}
            for e in errors[:20]
        ]
    }
    return InvalidArgument(message if not field else f"{field}: {message}", field=field, details=details)


def _message_for(error: dict[str, Any]) -> str:
    msg = str(error.get("msg", "invalid value"))
    # Our own validators raise ValueError("..."); pydantic prefixes "Value error, ".
    return msg.removeprefix("Value error, ")


def invalid_argument_from_decoding(exc: Exception) -> InvalidArgument:
    """msgspec says "Expected `str` of length <= 200 - at `$.by`"; a check of our own raises
    ValueError("a created event needs anchor")."""
    text = str(exc)
    found = _AT.search(text)
    if found is None:
        return InvalidArgument(text, details={"errors": [{"field": "", "message": text, "type": "value_error"}]})
    field = re.sub(r"\[\d+\]", "", found.group(1)) or None
    message = text[: found.start()]
    details = {"errors": [{"field": field or "", "message": message, "type": "value_error"}]}
    return InvalidArgument(f"{field}: {message}" if field else message, field=field, details=details)
