"""The operation registry: every operation declared once, every door generated from it.

An operation is a typed function `(service, args_model) -> dict` plus what a door needs to
expose it: name, group, description, input model (schema + validation), output model
(schema), annotations and how to render the text block. MCP tools, HTTP routes and CLI
commands all go through `invoke`, so validation and errors are identical everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import BaseModel, ValidationError

from limpet.model import InvalidArgument

if TYPE_CHECKING:
    from limpet.server._service import Service

__all__ = ["GROUPS", "Operation", "REGISTRY", "operation", "invoke", "validate_args", "operations_for"]

GROUPS = ("threads", "paired", "feedback", "review")


def _json_text(result: Any) -> str:
    return orjson.dumps(result).decode()


@dataclass(frozen=True)
class Operation:
    name: str
    group: str
    title: str
    description: str
    args: type[BaseModel]
    result: type[BaseModel] | None
    handler: Callable[[Service, Any], Any]
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    # The text block: the JSON the seed shows for this tool (default: the structured result).
    text: Callable[[Any], str] = _json_text
    # Some seed tools report failures in their own documented shape instead of raising.
    structured: Callable[[Any], dict[str, Any]] | None = None
    # Extra content blocks (wire-shaped dicts: resource links, embedded resources).
    extra_content: Callable[[Any], list[dict[str, Any]]] | None = None
    # The text block of a failed call, for seeds that document their own error text.
    error_text: Callable[[Any], str] | None = None

    def input_schema(self) -> dict[str, Any]:
        return _clean_schema(self.args.model_json_schema())

    def output_schema(self) -> dict[str, Any] | None:
        return _with_error_branch(_clean_schema(self.result.model_json_schema())) if self.result else None

    def structured_content(self, result: Any) -> dict[str, Any]:
        if self.structured is not None:
            return self.structured(result)
        return result if isinstance(result, dict) else {"result": result}


REGISTRY: dict[str, Operation] = {}


def operation(
    *,
    group: str,
    args: type[BaseModel],
    result: type[BaseModel] | None = None,
    title: str | None = None,
    read_only: bool = False,
    destructive: bool = False,
    idempotent: bool = False,
    text: Callable[[Any], str] | None = None,
    structured: Callable[[Any], dict[str, Any]] | None = None,
    extra_content: Callable[[Any], list[dict[str, Any]]] | None = None,
    error_text: Callable[[Any], str] | None = None,
) -> Callable[[Callable[[Service, Any], Any]], Callable[[Service, Any], Any]]:
    """Register `fn` as an operation; its docstring is the description agents read."""
    if group not in GROUPS:
        raise ValueError(f"unknown group {group}")

    def register(fn: Callable[[Service, Any], Any]) -> Callable[[Service, Any], Any]:
        name = fn.__name__
        doc = " ".join((fn.__doc__ or "").split())
        REGISTRY[name] = Operation(
            name=name,
            group=group,
            title=title or name.replace("_", " ").capitalize(),
            description=doc,
            args=args,
            result=result,
            handler=fn,
            read_only=read_only,
            destructive=destructive,
            idempotent=idempotent,
            text=text or _json_text,
            structured=structured,
            extra_content=extra_content,
            error_text=error_text,
        )
        return fn

    return register


def operations_for(groups: set[str] | None = None) -> list[Operation]:
    _load_all_operation_modules()
    return [op for op in REGISTRY.values() if groups is None or op.group in groups]


def _load_all_operation_modules() -> None:
    # Importing the modules registers their operations.
    from limpet.server import _ops_threads  # noqa: F401
    for optional in ("_ops_paired", "_ops_feedback", "_ops_review"):
        try:
            __import__(f"{__package__}.{optional}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.{optional}":
                raise


def validate_args(op: Operation, raw: Any) -> BaseModel:
    """Validate raw arguments with the operation's model; INVALID_ARGUMENT names the field."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InvalidArgument("Arguments must be a JSON object", field=None)
    try:
        return op.args.model_validate(raw)
    except ValidationError as exc:
        raise invalid_argument_from(exc) from None


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


def invoke(service: Service, name: str, raw: Any) -> tuple[Operation, Any]:
    """Validate and run one operation. Raises LimpetError subclasses only (or bugs)."""
    op = REGISTRY.get(name) or {o.name: o for o in operations_for()}.get(name)
    if op is None:
        raise InvalidArgument(f"Unknown operation: {name}", field="name")
    args = validate_args(op, raw)
    return op, op.handler(service, args)


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
