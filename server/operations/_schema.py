"""JSON schemas as tools publish them: self-contained, cheap to validate, with an error branch."""

from __future__ import annotations

from typing import Any

__all__ = ["input_schema", "output_schema"]


def input_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """An argument model's schema, cleaned for clients (see _clean_schema)."""
    return _clean_schema(schema)


def output_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A result model's schema, cleaned, admitting the {"error": {...}} of a failed call."""
    return _with_error_branch(_clean_schema(schema))


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
