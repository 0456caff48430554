"""Prompt declarations: name, description and typed arguments, declared once.

prompts/list, prompts/get and `limpet prompt` all read these. Over MCP every argument
arrives as a string ("2", "true"); `PromptSpec.convert` turns it into the declared type or
raises INVALID_ARGUMENT naming the argument.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Literal

import msgspec

from limpet.model import InvalidArgument

__all__ = ["PromptArg", "PromptSpec"]

_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})


class PromptArg(msgspec.Struct, frozen=True):
    name: str  # as on the wire (seed 004 spelling)
    param: str  # the Python keyword of the prompt function
    description: str
    type: Literal["string", "integer", "boolean"] = "string"
    required: bool = False
    default: str | int | bool | None = None
    enum: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def full_description(self) -> str:
        """The description plus what prompts/list has no field for: allowed values, default."""
        parts = [self.description.rstrip(".") + "."]
        if self.enum:
            parts.append(f"One of: {', '.join(self.enum)}.")
        if self.minimum is not None or self.maximum is not None:
            parts.append(f"An integer from {self.minimum} to {self.maximum}.")
        if self.default is not None:
            parts.append(f"Default: {json.dumps(self.default)}.")
        return " ".join(parts)

    def schema(self) -> dict[str, Any]:
        """A JSON-schema-like description (published in the prompt's _meta)."""
        out: dict[str, Any] = {"type": self.type}
        for key, value in (("default", self.default), ("minimum", self.minimum), ("maximum", self.maximum)):
            if value is not None:
                out[key] = value
        if self.enum:
            out["enum"] = list(self.enum)
        return out

    def convert(self, raw: object) -> Any:
        if self.type == "boolean":
            value = self._boolean(raw)
        elif self.type == "integer":
            value = self._integer(raw)
        else:
            value = self._string(raw)
        if self.enum and value not in self.enum:
            raise self._invalid(f"must be one of {', '.join(self.enum)}", raw)
        return value

    def _boolean(self, raw: object) -> bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in _TRUE or text in _FALSE:
            return text in _TRUE
        raise self._invalid("must be true or false", raw)

    def _integer(self, raw: object) -> int:
        if isinstance(raw, int) and not isinstance(raw, bool):
            value = raw
        elif isinstance(raw, str) and raw.strip().lstrip("+-").isdigit():
            value = int(raw.strip())
        else:
            raise self._invalid("must be an integer", raw)
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise self._invalid(f"must be between {self.minimum} and {self.maximum}", raw)
        return value

    def _string(self, raw: object) -> str:
        if not isinstance(raw, str):
            raise self._invalid("must be a string", raw)
        return raw

    def _invalid(self, why: str, raw: object) -> InvalidArgument:
        details: dict[str, Any] = {"value": raw if isinstance(raw, str | int | bool) else repr(raw)}
        if self.enum:
            details["allowed"] = list(self.enum)
        return InvalidArgument(f"{self.name}: {why}, got {raw!r}", field=self.name, details=details)


class PromptSpec(msgspec.Struct, frozen=True):
    name: str
    title: str
    description: str
    args: tuple[PromptArg, ...]
    render: Callable[..., str]  # render(source, **converted arguments) -> prompt text

    def convert(self, arguments: Mapping[str, object] | None) -> dict[str, Any]:
        """Wire arguments -> keyword arguments; absent (or empty) optional ones get defaults."""
        given = dict(arguments or {})
        known = {a.name for a in self.args}
        unknown = sorted(set(given) - known)
        if unknown:
            raise InvalidArgument(
                f"Unknown argument {unknown[0]!r} for prompt {self.name}; expected {', '.join(sorted(known))}",
                field=unknown[0], details={"allowed": sorted(known)})
        out: dict[str, Any] = {}
        for arg in self.args:
            raw = given.get(arg.name)
            if raw is None or (raw == "" and not arg.required):
                if arg.required:
                    raise InvalidArgument(f"{arg.name} is required", field=arg.name)
                out[arg.param] = arg.default
            else:
                out[arg.param] = arg.convert(raw)
        return out
