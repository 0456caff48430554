"""JSON schemas as tools publish them: self-contained, cheap to validate, with an error branch.

From msgspec's schema of a struct, spelled as clients have always read it: each property
titled after its name ("line_start" -> "Line Start"), enums typed and in their declared order
(msgspec sorts them: a client lists the choices as written), a field's Schema override
applied, no empty `required`, $defs inlined and `X | None` as `type: [X, "null"]`.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import msgspec

from limpet.server.operations._declare import field_rules

__all__ = ["input_schema", "output_schema"]


def input_schema(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """An argument struct's schema, cleaned for clients (see _clean_schema)."""
    return _clean_schema(_struct_schema(cls))


def output_schema(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """A result struct's schema, cleaned, admitting the {"error": {...}} of a failed call."""
    return _with_error_branch(_clean_schema(_struct_schema(cls)))


def _struct_schema(cls: type[msgspec.Struct]) -> dict[str, Any]:
    schema = msgspec.json.schema(cls)
    defs = schema.get("$defs", {})
    structs: set[type] = set()
    enums: dict[tuple[Any, ...], list[Any]] = {}
    _reachable(cls, structs, enums)
    for struct in structs:
        own = defs.get(struct.__name__)
        if own is not None:
            _spell_properties(struct, own)
    return _typed_enums(schema, enums)


def _reachable(tp: Any, structs: set[type], enums: dict[tuple[Any, ...], list[Any]]) -> None:
    """The structs `tp` may hold (through unions, lists, dicts) and its Literal choices, by
    their sorted values."""
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        if tp not in structs:
            structs.add(tp)
            for hint in typing.get_type_hints(tp).values():
                _reachable(hint, structs, enums)
    elif typing.get_origin(tp) is typing.Literal:
        values = list(typing.get_args(tp))
        enums[tuple(sorted(values, key=repr))] = values
    elif typing.get_origin(tp) is not None or isinstance(tp, types.UnionType):
        for arg in typing.get_args(tp):
            _reachable(arg, structs, enums)


def _spell_properties(cls: type[msgspec.Struct], schema: dict[str, Any]) -> None:
    rules = field_rules(cls)
    made = {f.name for f in msgspec.structs.fields(cls) if f.default_factory is not msgspec.NODEFAULT}
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
