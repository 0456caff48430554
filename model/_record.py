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
    plain_numbers()        a free-form value whose numbers msgspec and orjson spell alike
                           (integers within 64 bits, floats below 1e16: what limpet writes,
                           and what the store checks when it reads one)

Nothing else spells a record's fields: adding one to the struct adds it to the record, the
wire (unless hidden) and the tools' schema (unless an extra); docs/architecture.md.
"""

from __future__ import annotations

import functools
import operator
import types
import typing
from typing import Annotated, Any, Literal, TypeVar

import msgspec

__all__ = [
    "Extra",
    "Hidden",
    "PLAIN_FLOAT_LIMIT",
    "Record",
    "WireField",
    "WireView",
    "counted",
    "encode_json",
    "flat",
    "places",
    "plain_numbers",
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


def plain_numbers() -> msgspec.Meta:
    return msgspec.Meta(extra={"plain_numbers": True})


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
    are, nested records by msgspec (`to_builtins`), tuples as lists (JSON reads back lists).

    `encode` gives the dict; `struct` a struct that `encode_json` (msgspec) writes as the very
    bytes orjson writes of the dict, read off the record itself: a reconcile answering with
    hundreds of threads writes them in about half the time (300 threads: 1.1 -> 0.5 ms) and
    leaves the collector no dicts to track."""

    def __init__(self, cls: type[Record]) -> None:
        fields = wire_fields(cls)
        self.names = tuple(f.name for f in fields)
        self._values = operator.attrgetter(*(f.path for f in fields))
        self._records = tuple((f.name, typing.get_origin(f.type) is tuple) for f in fields if _holds_record(f.type))
        self._rounded = tuple((f.name, f.places) for f in fields if f.places is not None)
        # The wire JSON as a struct msgspec writes: the wire's keys in order, each value as the
        # record holds it, but for those whose JSON msgspec would spell otherwise than orjson
        # (see _as_orjson_writes) and the rounded ones.
        self._struct = msgspec.defstruct(f"{cls.__name__}Wire", [(name, Any) for name in self.names], gc=False)
        self._converts = tuple(
            (i, _rounded_raw(f.places) if f.places is not None else convert)
            for i, f in enumerate(fields)
            if (convert := _as_orjson_writes(f.type)) is not None or f.places is not None
        )

    def struct(self, record: Record) -> msgspec.Struct:
        """`record`'s wire JSON as a struct: msgspec writes it as orjson writes `encode(record)`."""
        values = list(self._values(record))
        for i, convert in self._converts:
            value = values[i]
            if value is not None:
                values[i] = convert(value)
        return self._struct(*values)

    def encode(self, record: Record) -> dict[str, Any]:
        out = dict(zip(self.names, self._values(record)))  # noqa: B905 (attrgetter gives each name a value)
        for name, sequence in self._records:
            value = out[name]
            if value is not None:
                out[name] = list(msgspec.to_builtins(value)) if sequence else msgspec.to_builtins(value)
        for name, n in self._rounded:
            out[name] = round(float(out[name]), n)
        return out


_ENCODER = msgspec.json.Encoder()


def encode_json(value: Any) -> bytes:
    """`value` (builtins and `WireView.struct`s) as JSON, written by msgspec."""
    return _ENCODER.encode(value)


# msgspec and orjson spell a finite float alike below 1e16 (above, msgspec writes `1e16` where
# orjson writes `1e+16`); tests/model/test_records.py checks it, and every 4-place confidence.
# The store refuses a larger number where a field is marked plain_numbers.
PLAIN_FLOAT_LIMIT = 1e16


def _rounded_raw(n: int) -> Any:
    """A rounded float as msgspec writes it as orjson does: itself in the range where the two
    agree (every confidence: no orjson call, no `Raw` per thread), else through orjson."""
    raw = _orjson_raw()

    def convert(value: Any) -> Any:
        rounded = round(float(value), n)
        return rounded if -PLAIN_FLOAT_LIMIT < rounded < PLAIN_FLOAT_LIMIT else raw(rounded)

    return convert


@functools.cache
def _orjson_raw() -> Any:
    import orjson  # not at import: reading a thread needs no JSON writer

    dumps, to_builtins, raw = orjson.dumps, msgspec.to_builtins, msgspec.Raw
    return lambda value: raw(dumps(value, default=to_builtins))


_NATIVE = (str, int, bool, type(None))


def _as_orjson_writes(tp: Any) -> Any:
    """How a value of type `tp` is made into what msgspec writes as orjson does (None: as it
    is). Strings, integers, booleans, literals and records of those are written alike by
    both; a float is not (msgspec writes 1e16 as `1e16`, orjson `1e+16`), nor may be what a
    free-form dict holds: orjson writes those (`Raw`). A record holding free-form values is
    rewritten as its own wire struct, so only those values go through orjson."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        if _unmarked(tp)[1].get("plain_numbers"):
            return None  # msgspec writes it as orjson does (see plain_numbers)
        return _as_orjson_writes(tp.__origin__)
    if origin is Literal:
        return None if all(isinstance(a, (str, int)) for a in typing.get_args(tp)) else _orjson_raw()
    if origin in (typing.Union, types.UnionType):
        converts = [_as_orjson_writes(a) for a in typing.get_args(tp) if a is not type(None)]
        if all(c is None for c in converts):
            return None
        return converts[0] if len(converts) == 1 else _orjson_raw()
    if origin is tuple:
        # A sequence whose items need converting (a history: free-form details) is written by
        # orjson whole, as `encode` hands it (its records `to_builtins`): one write, not a
        # struct and a write per item.
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis and _as_orjson_writes(args[0]) is None:
            return None
        return _orjson_raw()
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return _record_writes(tp)
    if tp in _NATIVE:
        return None
    return _orjson_raw()  # float, Any, dict, list: free-form


@functools.cache
def _record_writes(cls: type[msgspec.Struct]) -> Any:
    """The conversion for a nested record (written as `to_builtins` would: every field, in
    order), None when msgspec writes all its fields as orjson does."""
    hints = typing.get_type_hints(cls, include_extras=True)
    converts = [(i, c) for i, name in enumerate(cls.__struct_fields__)
                if (c := _as_orjson_writes(hints[name])) is not None]
    if not converts:
        return None
    if cls.__struct_config__.omit_defaults or cls.__struct_encode_fields__ != cls.__struct_fields__:
        return _orjson_raw()  # keeps what to_builtins leaves out or renames, as it does
    struct = msgspec.defstruct(f"{cls.__name__}Wire", [(name, Any) for name in cls.__struct_fields__], gc=False)
    values = operator.attrgetter(*cls.__struct_fields__)

    def convert(record: Any) -> Any:
        out = list(values(record)) if len(cls.__struct_fields__) > 1 else [values(record)]
        for i, c in converts:
            if out[i] is not None:
                out[i] = c(out[i])
        return struct(*out)

    return convert


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
