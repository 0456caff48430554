"""Input checked with pydantic models, reported as limpet's INVALID_ARGUMENT naming the field."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from limpet.model import InvalidArgument

__all__ = ["invalid_argument_from"]


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
