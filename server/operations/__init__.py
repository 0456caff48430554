"""limpet.server.operations: every operation declared once, as a typed function over the service.

    REGISTRY / operations_for(groups)   the operations, by tool group
    invoke(service, name, arguments)    validate and run one (what every door calls)
    Operation                           name, group, argument and result structs, text block, ...

One module per tool family (the groups `limpet serve --tools` selects): threads (comment_*),
paired comments (add_comment, ...), plan feedback (get_feedback, ...), review
(present_review, get_selection). A family's module registers its operations when it is
imported: when one of them is first invoked (OPERATION_MODULES says which module), or when
the operations are listed (operations_for, REGISTRY), every family.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from limpet.server.operations import _registry
from limpet.server.operations._fields import ThreadId
from limpet.server.operations._paging import MAX_PAGE, cursor_key, key_cursor, page_limit
from limpet.server.operations._registry import FAMILIES, GROUPS, LEAN, SELECTIONS, Operation, validate_args

if TYPE_CHECKING:  # the prompts import the engine: only the doors that serve prompts need them
    from limpet.prompts import ToolSpec
    from limpet.server.core import Service

__all__ = [
    "FAMILIES",
    "GROUPS",
    "LEAN",
    "MAX_PAGE",
    "OPERATION_MODULES",
    "REGISTRY",
    "SELECTIONS",
    "Operation",
    "ThreadId",
    "arguments",
    "cursor_key",
    "invoke",
    "key_cursor",
    "page_limit",
    "selected_names",
    "operations_for",
    "tool_specs",
    "validate_args",
]

# Each operation's module: a door that runs one operation (a `limpet list`) declares only its
# family, not the others nor what only they use (the review's text, the regex search).
OPERATION_MODULES = {
    "comment_add": "_threads", "comment_list": "_threads", "comment_show": "_threads",
    "comment_reply": "_threads", "comment_resolve": "_threads", "comment_reopen": "_threads",
    "comment_reconcile": "_threads",
    "add_comment": "_paired", "edit_comment": "_paired", "delete_comment": "_paired",
    "move_comment": "_paired", "search_comments": "_paired", "get_file_comments": "_paired",
    "export_comments": "_paired",
    "get_feedback": "_feedback", "resolve_feedback": "_feedback", "get_feedback_summary": "_feedback",
    "present_review": "_review", "get_selection": "_review",
}


def _load(module: str) -> None:
    """Import one family's module (its operations register themselves)."""
    if module == "_threads":
        from limpet.server.operations import _threads  # noqa: F401
    elif module == "_paired":
        from limpet.server.operations import _paired  # noqa: F401
    elif module == "_feedback":
        from limpet.server.operations import _feedback  # noqa: F401
    elif module == "_review":
        from limpet.server.operations import _review  # noqa: F401
    else:
        raise KeyError(module)


def _registry_of_all() -> dict[str, Operation]:
    for module in ("_feedback", "_paired", "_review", "_threads"):
        _load(module)
    return _registry.REGISTRY


def invoke(service: Service, name: str, raw: Any) -> tuple[Operation, Any]:
    """Validate and run one operation. Raises LimpetError subclasses only (or bugs)."""
    module = OPERATION_MODULES.get(name)
    if module is not None:
        _load(module)
    else:  # not a name the table knows: whatever declares it (or nothing does) is loaded
        _registry_of_all()
    return _registry.invoke(service, name, raw)


def arguments(name: str, raw: Mapping[str, Any]) -> Any:
    """`raw` checked by operation `name`'s argument struct exactly as `invoke` checks it (bounds,
    vocabulary, defaults; INVALID_ARGUMENT naming the field): for a door that then calls the
    service itself (the library, limpet.Workspace), so its arguments follow the tools' rules."""
    _load(OPERATION_MODULES[name])
    return validate_args(_registry.REGISTRY[name], {k: v for k, v in raw.items() if v is not None})


def operations_for(groups: set[str] | None = None) -> list[Operation]:
    """The operations of `groups` (all of them when None), group by group in the order of
    GROUPS, each group's in declaration order."""
    _registry_of_all()
    return _registry.operations_for(groups)


def __getattr__(name: str) -> Any:
    if name == "REGISTRY":  # every operation by name: every family declared
        return _registry_of_all()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def tool_specs(ops: Iterable[Operation]) -> dict[str, ToolSpec]:
    """The tools a door exposes, as prompts describe them (name, description, arguments)."""
    from limpet.prompts import ToolSpec

    return {op.name: ToolSpec.from_schema(op.name, op.description, op.input_schema()) for op in ops}


def selected_names(text: str) -> set[str]:
    """The groups and tool names a `--tools` selection names (`lean`, `all`, groups, tools)."""
    _registry_of_all()
    return _registry.selected_names(text)
