"""JSON schemas as tools publish them: self-contained, cheap to validate, with an error branch.

From msgspec's schema of a struct, spelled as clients have always read it: each property
titled after its name ("line_start" -> "Line Start"), enums typed and in their declared order
(msgspec sorts them: a client lists the choices as written), a field's Schema override
applied, no empty `required`, $defs inlined and `X | None` as `type: [X, "null"]`.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Iterable
from typing import Any

import msgspec

from limpet.server.operations._declare import field_rules, struct_fields

__all__ = ["declare", "input_schema", "output_schema"]

# `limpet serve` publishes every tool's schemas before it can answer its first tools/list, so
# making them is cold-start time, and most of it is evaluating the structs' annotations: the
# structs the registry declares are made together, in one msgspec pass (each struct read once,
# not once for every tool whose schema holds it), and each published schema is kept.
_DECLARED: list[type[msgspec.Struct]] = []
_MADE: dict[type[msgspec.Struct], dict[str, Any]] = {}  # struct -> msgspec's schema, properties spelled


def declare(*classes: type[msgspec.Struct] | None) -> None:
    """Structs whose schemas will be asked for (an operation's arguments and result): the
    first one asked for makes them all."""
    _DECLARED.extend(cls for cls in classes if cls is not None)


@functools.cache
def input_schema(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """An argument struct's schema, cleaned for clients (see _clean_schema). The same dict
    for every caller: read it, never change it."""
    return _typed_enums(_clean_schema(_struct_schema(cls)), _enums(cls))


@functools.cache
def output_schema(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """A result struct's schema, cleaned, admitting the {"error": {...}} of a failed call.
    The same dict for every caller: read it, never change it."""
    return _with_error_branch(_typed_enums(_clean_schema(_struct_schema(cls)), _enums(cls)))


def _struct_schema(cls: type[msgspec.Struct]) -> dict[str, Any]:
    if cls not in _MADE:
        _make([cls, *(c for c in _DECLARED if c not in _MADE)])
    return _MADE[cls]


def _make(classes: Iterable[type[msgspec.Struct]]) -> None:
    roots = list(dict.fromkeys(classes))
    structs: set[type] = set()
    for root in roots:
        _reachable(root, structs, {})
    # Two structs of one name would be named apart by msgspec: then each root is made alone,
    # as msgspec.json.schema(root) makes it.
    alone = len({s.__name__ for s in structs}) < len(structs)
    for batch in ([root] for root in roots) if alone else [roots]:
        outs, defs = msgspec.json.schema_components(batch)
        reached: set[type] = set()
        for root in batch:
            _reachable(root, reached, {})
        for struct in reached:
            own = defs.get(struct.__name__)
            if own is not None:
                _spell_properties(struct, own)
        for root, out in zip(batch, outs, strict=True):
            _MADE[root] = {**out, "$defs": defs} if defs else out


def _enums(cls: type[msgspec.Struct]) -> dict[tuple[Any, ...], list[Any]]:
    """The Literal choices `cls` may hold, in their declared order, by their sorted values."""
    enums: dict[tuple[Any, ...], list[Any]] = {}
    _reachable(cls, set(), enums)
    return enums


def _reachable(tp: Any, structs: set[type], enums: dict[tuple[Any, ...], list[Any]]) -> None:
    """The structs `tp` may hold (through unions, lists, dicts) and its Literal choices, by
    their sorted values."""
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        if tp not in structs:
            structs.add(tp)
            for f in struct_fields(tp):
                _reachable(f.type, structs, enums)
    elif typing.get_origin(tp) is typing.Literal:
        values = list(typing.get_args(tp))
        enums[tuple(sorted(values, key=repr))] = values
    elif typing.get_origin(tp) is not None or isinstance(tp, types.UnionType):
        for arg in typing.get_args(tp):
            _reachable(arg, structs, enums)


def _spell_properties(cls: type[msgspec.Struct], schema: dict[str, Any]) -> None:
    rules = field_rules(cls)
    made = {f.name for f in struct_fields(cls) if f.default_factory is not msgspec.NODEFAULT}
    for name, prop in schema.get("properties", {}).items():
        if name in made:  # a default made per call is no value a client could read
            prop.pop("default", None)
        override = rules[name].schema
        if override is not None:
            kept = {k: v for k, v in prop.items() if k in ("description", "default")}
            prop.clear()
            prop.update({**override, **kept})
        refs = [prop, *prop.get("anyOf", ())]
        if not any("$ref" in r for r in refs):  # a nested struct keeps its own title
            prop["title"] = name.replace("_", " ").title()
    if not schema.get("required"):
        schema.pop("required", None)


def _typed_enums(node: Any, declared: dict[tuple[Any, ...], list[Any]]) -> Any:
    if isinstance(node, list):
        for item in node:
            _typed_enums(item, declared)
    elif isinstance(node, dict):
        values = node.get("enum")
        if isinstance(values, list):
            node["enum"] = declared.get(tuple(sorted(values, key=repr)), values)
            if "type" not in node and all(isinstance(v, str) for v in values):
                node["type"] = "string"
        for item in node.values():
            _typed_enums(item, declared)
    return node


ERROR_SCHEMA = {
    "type": "object",
    "description": "Only on failed calls (isError): {code, message, field, details, suggestion}",
    "required": ["code", "message"],
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
}


def _with_error_branch(schema: dict[str, Any]) -> dict[str, Any]:
    """Failed calls carry {"error": {...}} as structuredContent, and some clients (the
    TypeScript SDK) validate it against outputSchema even then: the schema admits it."""
    props = dict(schema.get("properties", {}))
    required = schema.pop("required", [])
    own = props.get("error")
    if own is None:
        props["error"] = ERROR_SCHEMA
    elif isinstance(own.get("type"), (str, list)):  # a seed's own `error` field (text)
        types_ = [own["type"]] if isinstance(own["type"], str) else list(own["type"])
        props["error"] = {**own, "type": [*types_, "object"]}
    return {**schema, "properties": props, "anyOf": [{"required": required}, {"required": ["error"]}]}


def _clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Self-contained and cheap to validate: $defs inlined, `X | None` as `type: [X, "null"]`
    (clients validate every result; anyOf doubles the work for each optional field)."""
    schema = dict(schema)
    defs = schema.pop("$defs", None)
    if not defs:
        return _simplify_nullable(schema)

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                target = dict(defs[ref.split("/")[-1]])
                extra = {k: v for k, v in node.items() if k != "$ref"}
                return resolve({**target, **extra})
            return {k: resolve(v) for k, v in node.items()}
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node

    return _simplify_nullable(resolve(schema))


def _simplify_nullable(node: Any) -> Any:
    if isinstance(node, list):
        return [_simplify_nullable(v) for v in node]
    if not isinstance(node, dict):
        return node
    node = {k: _simplify_nullable(v) for k, v in node.items()}
    options = node.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        other = next(o for o in options if o != {"type": "null"})
        if set(other) <= {"type"} and isinstance(other.get("type"), str):
            del node["anyOf"]
            node["type"] = [other["type"], "null"]
        elif set(other) <= {"type", "additionalProperties"} and other.get("type") == "object":
            del node["anyOf"]
            node["type"] = ["object", "null"]
    if node.get("additionalProperties") is True:
        del node["additionalProperties"]  # the default: saying it costs a validation step
    return node
