"""How the model declares a record, and what is derived from the declaration.

A record is a msgspec struct deriving from `Record`. Its dict form (`to_dict`, `from_dict`)
is msgspec's encoding of the declaration, and the thread JSON clients read (the wire) is a
view of it, read off the field types: a field may carry, as `Annotated` metadata, what the
wire does with it.

    Extra[T]               on the wire, beyond the contract's thread JSON (the tools' result
                           schema, which publishes the contract, leaves it out)
    Hidden[T]              never on the wire (exports and the store carry it)
    flat(*names)           a record of which the wire spells the fields `names` at this level
    counted(name)          a list the wire precedes with its length as `name` (an extra)
    places(n)              a float written rounded to n places (in the record and on the wire)

Nothing else spells a record's fields: adding one to the struct adds it to the record, the
wire (unless hidden) and the tools' schema (unless an extra); docs/architecture.md.
"""

from __future__ import annotations

import functools
import operator
import typing
from typing import Annotated, Any, TypeVar

import msgspec

__all__ = [
    "Extra",
    "Hidden",
    "Record",
    "WireField",
    "WireView",
    "counted",
    "flat",
    "places",
    "rounded_fields",
    "sequence_fields",
    "wire_fields",
]

T = TypeVar("T")
Extra = Annotated[T, msgspec.Meta(extra={"wire": "extra"})]
Hidden = Annotated[T, msgspec.Meta(extra={"wire": "hidden"})]


def flat(*names: str) -> msgspec.Meta:
    return msgspec.Meta(extra={"flat": names})


def counted(name: str) -> msgspec.Meta:
    return msgspec.Meta(extra={"count": name})


def places(n: int) -> msgspec.Meta:
    return msgspec.Meta(extra={"places": n})


class Record(msgspec.Struct, frozen=True, gc=False):
    """A record of the model: plain values; its dict form is derived, never written by hand."""

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready builtins (nested records as dicts, tuples as lists)."""
        return msgspec.to_builtins(self)

    @classmethod
    def from_dict(cls, data: Any) -> Any:
        """The record a dict holds, checked against the types (msgspec.ValidationError, a
        ValueError, naming the field otherwise); fields it does not know are ignored."""
        return msgspec.convert(data, cls)


class WireField(msgspec.Struct, frozen=True):
    """One key of the thread JSON: where its value is read, its type, whether the contract
    names it (the tools' schema publishes it) and what the declaration says of it."""

    name: str
    path: str  # attribute path on the record, "anchor.file"
    type: Any  # without the wire's metadata
    contract: bool
    description: str | None = None
    places: int | None = None


def _unmarked(hint: Any) -> tuple[Any, dict[str, Any], str | None]:
    """The type under `Annotated`, the wire's metadata and the description it carries."""
    if typing.get_origin(hint) is not Annotated:
        return hint, {}, None
    extra: dict[str, Any] = {}
    description = None
    for meta in hint.__metadata__:
        if isinstance(meta, msgspec.Meta):
            extra.update(meta.extra or {})
            description = meta.description or description
    return hint.__origin__, extra, description


@functools.cache
def wire_fields(cls: type[Record]) -> tuple[WireField, ...]:
    """The keys of `cls`'s wire JSON, in order, read off its declaration."""
    hints = typing.get_type_hints(cls, include_extras=True)
    out: list[WireField] = []
    for name in cls.__struct_fields__:
        tp, extra, description = _unmarked(hints[name])
        role = extra.get("wire", "contract")
        if role == "hidden":
            continue
        if "flat" in extra:
            inner = _hints(tp, extra["flat"])
            out += [
                WireField(n, f"{name}.{n}", _unmarked(inner[n])[0], role == "contract") for n in extra["flat"]
            ]
            continue
        if "count" in extra:
            out.append(WireField(extra["count"], extra["count"], int, False))
        out.append(WireField(name, name, tp, role == "contract", description, extra.get("places")))
    return tuple(out)


def _hints(cls: type, names: tuple[str, ...]) -> dict[str, Any]:
    """The annotations `names` of `cls`, evaluated (only those: an anchor has thirty fields,
    its place eight, and reading them is paid by every command that loads the tools)."""
    own = {name: cls.__annotations__[name] for name in names}
    return typing.get_type_hints(type(cls.__name__, (), {"__annotations__": own, "__module__": cls.__module__}),
                                 include_extras=True)


class WireView:
    """Encodes records of one type as their wire JSON: scalars and free-form dicts as they
    are, nested records by msgspec (`to_builtins`), tuples as lists (JSON reads back lists)."""

    def __init__(self, cls: type[Record]) -> None:
        fields = wire_fields(cls)
        self.names = tuple(f.name for f in fields)
        self._values = operator.attrgetter(*(f.path for f in fields))
        self._records = tuple((f.name, typing.get_origin(f.type) is tuple) for f in fields if _holds_record(f.type))
        self._rounded = tuple((f.name, f.places) for f in fields if f.places is not None)

    def encode(self, record: Record) -> dict[str, Any]:
        out = dict(zip(self.names, self._values(record)))  # noqa: B905 (attrgetter gives each name a value)
        for name, sequence in self._records:
            value = out[name]
            if value is not None:
                out[name] = list(msgspec.to_builtins(value)) if sequence else msgspec.to_builtins(value)
        for name, n in self._rounded:
            out[name] = round(float(out[name]), n)
        return out


def _holds_record(tp: Any) -> bool:
    if isinstance(tp, type):
        return issubclass(tp, msgspec.Struct)
    return any(_holds_record(arg) for arg in typing.get_args(tp))


def sequence_fields(cls: type[Record]) -> tuple[str, ...]:
    """The fields of `cls` holding tuples (their dict form holds lists, as JSON reads back)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    return tuple(
        name for name in cls.__struct_fields__ if typing.get_origin(_unmarked(hints[name])[0]) is tuple
    )


def rounded_fields(cls: type[Record]) -> tuple[tuple[str, int], ...]:
    """The fields of `cls` written rounded, and to how many places."""
    hints = typing.get_type_hints(cls, include_extras=True)
    return tuple(
        (name, extra["places"])
        for name in cls.__struct_fields__
        if "places" in (extra := _unmarked(hints[name])[1])
    )
