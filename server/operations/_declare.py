"""How operations declare their arguments and results: msgspec structs, annotated with the rules.

    Args / Out        bases of argument structs (unknown fields refused) and result structs
    Check(fn)         a rule msgspec cannot say (whitespace-only text, a thread id's format, a
                      date to normalize): fn(value) returns the value to keep or raises ValueError
    Schema({...})     the field's published JSON schema, when the type's own would mislead
    validate(cls, raw)  raw JSON-shaped arguments -> an instance; INVALID_ARGUMENT names the field
    dump(obj)         an instance as plain data, without the fields left at their defaults

msgspec rather than pydantic: a `limpet list` validates one small struct, and importing and
building pydantic models was half of that command's cost (issue 17). The schemas published
from these structs are those the pydantic models published (_schema.py keeps them so).
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable
from typing import Any

import msgspec

from limpet.model import InvalidArgument
from limpet.server.core import invalid_argument_from_decoding

__all__ = ["Args", "Check", "Out", "Schema", "dump", "field_rules", "invalid", "struct_fields", "validate"]


class Args(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Base for argument structs: unknown arguments are refused, not silently ignored.

    A subclass may define `prepare(cls, raw)` (a classmethod: look at the raw arguments before
    they are typed, e.g. to say "X is required" in a client's own words) and `check(self)`
    (rules between fields); both raise InvalidArgument."""

    @classmethod
    def prepare(cls, raw: dict[str, Any]) -> dict[str, Any]:
        return raw

    def check(self) -> None:
        return None


class Out(msgspec.Struct, kw_only=True):
    """Base for result structs (they describe results; results are built as plain dicts)."""


class Check:
    """A field rule run after the type and bounds are checked: `fn(value) -> value`."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn


class Schema:
    """The JSON schema published for a field instead of the one its type gives."""

    __slots__ = ("schema",)

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema


class _Rules(typing.NamedTuple):
    checks: tuple[Callable[[Any], Any], ...]
    schema: dict[str, Any] | None


def _annotations(tp: Any) -> list[Any]:
    """`tp` and what it is made of, through Annotated and unions (each Annotated kept)."""
    if hasattr(tp, "__metadata__"):
        return [tp, *_annotations(tp.__origin__)]
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return [tp, *(m for arg in typing.get_args(tp) for m in _annotations(arg))]
    return [tp]


@functools.cache
def struct_fields(cls: type[msgspec.Struct]) -> tuple[msgspec.structs.FieldInfo, ...]:
    """A struct's fields, their types with every Annotated kept: read once per struct (its
    annotations are text until evaluated, and evaluating them is most of what making the
    tools' schemas costs at start)."""
    return msgspec.structs.fields(cls)


@functools.cache
def field_rules(cls: type[msgspec.Struct]) -> dict[str, _Rules]:
    """Each field's Check functions and Schema override."""
    rules: dict[str, _Rules] = {}
    for f in struct_fields(cls):
        checks: list[Callable[[Any], Any]] = []
        schema = None
        for tp in _annotations(f.type):
            for extra in getattr(tp, "__metadata__", ()):
                if isinstance(extra, Check):
                    checks.append(extra.fn)
                elif isinstance(extra, Schema):
                    schema = extra.schema
        rules[f.name] = _Rules(tuple(checks), schema)
    return rules


def validate(cls: type[Args], raw: Any) -> Args:
    """Raw arguments (a JSON object) as `cls`; INVALID_ARGUMENT names the field at fault."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InvalidArgument("Arguments must be a JSON object", field=None)
    raw = cls.prepare(raw)
    try:
        value = msgspec.convert(raw, cls, strict=False)
    except msgspec.ValidationError as exc:
        raise _with_choices(invalid_argument_from_decoding(exc), cls) from None
    _check(value, "")
    return value


def _with_choices(error: InvalidArgument, cls: type[Args]) -> InvalidArgument:
    """msgspec says only "Invalid enum value 'bug'": a person calling the library or the
    command line (who has no schema in front of them) is told the values the field takes."""
    if not error.message.startswith(f"{error.field}: Invalid enum value") or not error.field:
        return error
    field = next((f for f in msgspec.structs.fields(cls) if error.field in (f.name, f.encode_name)), None)
    choices = _literals(field.type) if field is not None else ()
    if not choices:
        return error
    message = f"{error.message}; expected one of {', '.join(map(str, choices))}"
    errors = [{**e, "message": message.removeprefix(f"{error.field}: ")} for e in error.details["errors"]]
    return InvalidArgument(message, field=error.field, details={**error.details, "errors": errors})


def _literals(tp: Any) -> tuple[Any, ...]:
    """The values a field's type allows (Literal[...], possibly optional or an alias)."""
    if typing.get_origin(tp) is typing.Literal:
        return typing.get_args(tp)
    return tuple(v for arg in typing.get_args(tp) for v in _literals(arg))


def _check(value: Args, prefix: str) -> None:
    for name, rule in field_rules(type(value)).items():
        current = getattr(value, name)
        if current is None:
            continue
        for fn in rule.checks:
            try:
                current = fn(current)
            except ValueError as exc:
                raise invalid(prefix + name, str(exc)) from None
        if rule.checks:
            setattr(value, name, current)
        if isinstance(current, Args):  # nested arguments (filters, options) follow their own rules
            _check(current, f"{prefix}{name}.")
    value.check()


def invalid(field: str, message: str) -> InvalidArgument:
    """INVALID_ARGUMENT for one field, shaped as every door reports a refused argument."""
    return InvalidArgument(f"{field}: {message}", field=field,
                           details={"errors": [{"field": field, "message": message, "type": "value_error"}]})


def dump(value: msgspec.Struct) -> dict[str, Any]:
    """Plain data, without the fields left at their defaults (as the caller spelled them)."""
    return _without_empty(msgspec.to_builtins(value))


def _without_empty(data: dict[str, Any]) -> dict[str, Any]:
    # A nested struct left at its default (filters.dateRange) encodes as {}: not given.
    out = {}
    for key, item in data.items():
        if isinstance(item, dict):
            item = _without_empty(item)
            if not item:
                continue
        out[key] = item
    return out
