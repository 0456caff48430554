"""The operation registry: every operation declared once, every door generated from it.

An operation is a typed function `(service, args) -> dict` plus what a door needs to
expose it: name, group, description, argument struct (schema + validation, _declare.py),
result struct (schema), annotations, how to render the text block, and how its arguments are spelled
where the service's words differ (`renames`: the service raises errors naming `file` or
`thread_id`; the tool's caller reads `filePath` or `commentId`). MCP tools, HTTP routes, CLI
commands and editor actions all go through `invoke`, so validation and errors are identical
everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec
import orjson

from limpet.model import InvalidArgument, LimpetError
from limpet.server.core import Service
from limpet.server.operations._declare import Args, Out, validate
from limpet.server.operations._schema import declare, input_schema, output_schema

__all__ = ["FAMILIES", "GROUPS", "LEAN", "Operation", "REGISTRY", "SELECTIONS", "invoke", "operation", "operations_for",
           "selected_names", "validate_args"]

GROUPS = ("threads", "paired", "feedback", "review")

# Which family each tool belongs to, said at the head of its description: the families overlap
# (each keeps the names and arguments its clients were written for), and an agent choosing
# among them should know which one a new integration is meant to use.
FAMILIES = {
    "threads": "[threads family: limpet's own tools, the ones to use in a new integration]",
    "paired": "[paired family: the paired-comments clients' tools (commentId, filePath)]",
    "feedback": "[feedback family: the feedback clients' tools, open threads only]",
    "review": "[review family: the review panel shown on limpet's web page]",
}
# For a tool another family also does, the one a new integration should call instead.
PREFER = {
    "add_comment": "comment_add", "get_file_comments": "comment_list (file)",
    "get_feedback": "comment_list (status: open)", "resolve_feedback": "comment_resolve",
    "get_feedback_summary": "comment_list",
}
# The selection `limpet mcp-config` offers by default: the threads family, and the tools a new
# integration needs that only the paired family has (edit, move, delete, search).
LEAN = ("threads", "edit_comment", "move_comment", "delete_comment", "search_comments")
SELECTIONS = {"lean": LEAN, "all": GROUPS}


def described_for_agents(name: str, group: str, doc: str) -> str:
    """A tool's description: its family first, then what it does, then what to prefer."""
    prefer = PREFER.get(name)
    if prefer is None and group in ("paired", "review"):
        tail = " No tool of the threads family does this: use this one."
    else:
        tail = f" For a new integration prefer {prefer}." if prefer else ""
    return f"{FAMILIES[group]} {doc}{tail}" if group != "threads" else f"{FAMILIES[group]} {doc}"


def selected_names(text: str) -> set[str]:
    """The groups and tool names of a `--tools` selection (`lean`, `all`, groups, tool names,
    comma-separated); ValueError naming what is unknown."""
    chosen: set[str] = set()
    for item in (part.strip() for part in text.split(",")):
        if item:
            chosen.update(SELECTIONS.get(item, (item,)))
    unknown = sorted(chosen - set(GROUPS) - set(REGISTRY))
    if unknown:
        raise ValueError(f"unknown group(s) or tool(s) {', '.join(unknown)}; choose from "
                         f"{', '.join([*SELECTIONS, *GROUPS])} or tool names")
    return chosen


def json_text(result: Any) -> str:
    return orjson.dumps(result).decode()


class Encoded:
    """A result whose JSON (`json`: what `json_text` writes of its dict) is known before, and
    without, its dict: the MCP door over stdio sends those bytes as both structured content and
    text (a reconcile's answer, hundreds of threads, never becomes dicts); every other reader
    gets `payload()`, built when first asked (`invoke` hands doors the dict)."""

    __slots__ = ("_build", "_payload", "json")

    def __init__(self, json: bytes, build: Callable[[], dict[str, Any]]) -> None:
        self.json = json
        self._build = build
        self._payload: dict[str, Any] | None = None

    def payload(self) -> dict[str, Any]:
        if self._payload is None:
            self._payload = self._build()
        return self._payload


class Operation(msgspec.Struct, frozen=True):
    name: str
    group: str
    title: str
    description: str
    args: type[Args]
    result: type[Out] | None
    handler: Callable[[Service, Any], Any]
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    # The text block: the JSON the seed shows for this tool (default: the structured result).
    text: Callable[[Any], str] = json_text
    # Some seed tools report failures in their own documented shape instead of raising.
    structured: Callable[[Any], dict[str, Any]] | None = None
    # Extra content blocks (wire-shaped dicts: resource links, embedded resources).
    extra_content: Callable[[Any], list[dict[str, Any]]] | None = None
    # The text block of a failed call, for seeds that document their own error text.
    error_text: Callable[[Any], str] | None = None
    # The service's argument names -> this tool's (errors name the field as the caller wrote it).
    renames: Mapping[str, str] = msgspec.field(default_factory=dict)

    def input_schema(self) -> dict[str, Any]:
        return input_schema(self.args)

    def output_schema(self) -> dict[str, Any] | None:
        return output_schema(self.result) if self.result else None

    def text_is_json(self, result: Any) -> bool:
        """Is the text block of `result` exactly its structured content's JSON?"""
        return self.text is json_text and self.structured is None and isinstance(result, dict)

    def structured_content(self, result: Any) -> dict[str, Any]:
        if self.structured is not None:
            return self.structured(result)
        return result if isinstance(result, dict) else {"result": result}


REGISTRY: dict[str, Operation] = {}


def operation(
    *,
    group: str,
    args: type[Args],
    result: type[Out] | None = None,
    title: str | None = None,
    read_only: bool = False,
    destructive: bool = False,
    idempotent: bool = False,
    text: Callable[[Any], str] | None = None,
    structured: Callable[[Any], dict[str, Any]] | None = None,
    extra_content: Callable[[Any], list[dict[str, Any]]] | None = None,
    error_text: Callable[[Any], str] | None = None,
    renames: Mapping[str, str] | None = None,
) -> Callable[[Callable[[Service, Any], Any]], Callable[[Service, Any], Any]]:
    """Register `fn` as an operation; its docstring is the description agents read."""
    if group not in GROUPS:
        raise ValueError(f"unknown group {group}")

    def register(fn: Callable[[Service, Any], Any]) -> Callable[[Service, Any], Any]:
        name = fn.__name__
        doc = " ".join((fn.__doc__ or "").split())
        declare(args, result)
        REGISTRY[name] = Operation(
            name=name,
            group=group,
            title=title or name.replace("_", " ").capitalize(),
            description=described_for_agents(name, group, doc),
            args=args,
            result=result,
            handler=fn,
            read_only=read_only,
            destructive=destructive,
            idempotent=idempotent,
            text=text or json_text,
            structured=structured,
            extra_content=extra_content,
            error_text=error_text,
            renames=dict(renames or {}),
        )
        return fn

    return register


def operations_for(groups: set[str] | None = None) -> list[Operation]:
    """The registered operations of `groups` (all of them when None; a tool's name in it
    selects that tool), group by group in the order of GROUPS, each group's in declaration
    order."""
    chosen = [op for op in REGISTRY.values() if groups is None or op.group in groups or op.name in groups]
    return sorted(chosen, key=lambda op: GROUPS.index(op.group))


def validate_args(op: Operation, raw: Any) -> Args:
    """Validate raw arguments with the operation's struct; INVALID_ARGUMENT names the field."""
    return validate(op.args, raw)


def invoke(service: Service, name: str, raw: Any, *, encoded: bool = False) -> tuple[Operation, Any]:
    """Validate and run one operation. Raises LimpetError subclasses only (or bugs).
    `encoded`: an `Encoded` result is returned as it is (else its dict)."""
    op = REGISTRY.get(name)
    if op is None:
        raise InvalidArgument(f"Unknown operation: {name}", field="name")
    args = validate_args(op, raw)
    try:
        result = op.handler(service, args)
    except LimpetError as exc:
        exc.field = op.renames.get(exc.field or "", exc.field)
        raise
    return op, (result.payload() if not encoded and type(result) is Encoded else result)


