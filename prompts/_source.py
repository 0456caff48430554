"""What a prompt needs from the application, as a typed Protocol (prompts never import the server).

The server implements `PromptSource` over its one service; tests may implement it over a
fixture. Tools are described by `ToolSpec`, built from the JSON schema the server exposes,
so prompts spell tool and argument names exactly as the server does.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import msgspec

from limpet.model import Thread
from limpet.prompts._render import TemplateFolder

__all__ = ["CandidateLike", "PromptSource", "ToolArg", "ToolSpec", "first_tool"]


class ToolArg(msgspec.Struct, frozen=True):
    name: str  # dotted for nested objects: options.contextLines
    type: str
    required: bool
    description: str = ""
    enum: tuple[str, ...] = ()
    default: str | None = None  # JSON text of the default, None when there is none


class ToolSpec(msgspec.Struct, frozen=True):
    name: str
    description: str
    args: tuple[ToolArg, ...]

    @property
    def arg_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args)

    @classmethod
    def from_schema(cls, name: str, description: str, schema: dict[str, Any]) -> ToolSpec:
        """A tool's arguments as its input schema declares them, nested objects flattened."""
        return cls(name, description, tuple(_flatten(schema)))

    def call(self, wishes: dict[str, Any]) -> str | None:
        """`name {json}` with the wished values of the arguments this tool really has (in its
        schema order; None values skipped), or None when a required argument has no value.
        Wishes may name alternatives (file / filePath): only the exposed spelling is used."""
        args: dict[str, Any] = {}
        for arg in self.args:
            if arg.type == "object" and any(a.name.startswith(f"{arg.name}.") for a in self.args):
                continue  # filled through its own properties below
            value = wishes.get(arg.name)
            if value is None:
                if arg.required:
                    return None
                continue
            *parents, leaf = arg.name.split(".")
            target = args
            for part in parents:
                target = target.setdefault(part, {})
            target[leaf] = value
        return f"{self.name} {json.dumps(args, ensure_ascii=False)}"


def _flatten(schema: dict[str, Any], prefix: str = "", parent_required: bool = True) -> list[ToolArg]:
    out: list[ToolArg] = []
    required = set(schema.get("required", ()))
    for key, prop in (schema.get("properties") or {}).items():
        prop = _non_null(prop)
        name = f"{prefix}{key}"
        is_required = parent_required and key in required
        out.append(ToolArg(
            name=name, type=str(prop.get("type", "any")), required=is_required,
            description=" ".join(str(prop.get("description", "")).split()),
            enum=tuple(str(v) for v in prop.get("enum", ())),
            default=json.dumps(prop["default"]) if "default" in prop and prop["default"] is not None else None,
        ))
        if prop.get("type") == "object" and prop.get("properties"):
            out.extend(_flatten(prop, f"{name}.", is_required))
    return out


def _non_null(prop: dict[str, Any]) -> dict[str, Any]:
    # pydantic spells `X | None` as anyOf [X, null]: describe X, keep the outer description.
    variants = [v for v in prop.get("anyOf", ()) if v.get("type") != "null"]
    if len(variants) == 1:
        return {**variants[0], **{k: v for k, v in prop.items() if k != "anyOf"}}
    return prop


class CandidateLike(Protocol):
    """One place the engine thinks an orphaned thread's code may have gone."""

    file: str
    line_start: int
    line_end: int
    score: float
    method: str


class PromptSource(Protocol):
    """The workspace as prompts see it. Errors are limpet errors (FILE_NOT_FOUND, ...)."""

    @property
    def workspace_name(self) -> str: ...

    @property
    def templates_dir(self) -> Path | TemplateFolder | None:
        """Where workspace overrides live (`.limpet/prompts/`), or None: a folder path, or
        a TemplateFolder that reads it (the server's, through its confinement layer)."""
        ...

    def normalize(self, path: str, field: str = "filePath") -> str:
        """Canonical workspace-relative path, or INVALID_PATH."""
        ...

    def read_source(self, rel: str, field: str = "filePath") -> bytes:
        """Current bytes of a workspace file, or FILE_NOT_FOUND."""
        ...

    def threads(self) -> Sequence[Thread]:
        """Every thread, at its current position, ordered by file then line."""
        ...

    def tool(self, name: str) -> ToolSpec | None:
        """The tool the server exposes under `name`, or None."""
        ...

    def orphan_candidates(self, thread: Thread, k: int) -> Sequence[CandidateLike]:
        """The engine's best k places for an orphaned thread, best first."""
        ...

    @property
    def default_context_lines(self) -> int:
        """Lines of code around an anchor that a training export includes by default."""
        ...

    def training_record(self, thread: Thread, context_lines: int) -> dict[str, Any]:
        """The JSONL training record an export writes for `thread` (0 context lines: none)."""
        ...


def first_tool(source: PromptSource, *names: str) -> ToolSpec | None:
    """The first of `names` the server exposes (seed 004's tool, then its seed 002 twin)."""
    for name in names:
        spec = source.tool(name)
        if spec is not None:
            return spec
    return None
