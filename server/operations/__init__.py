"""limpet.server.operations: every operation declared once, as a typed function over the service.

    REGISTRY / operations_for(groups)   the operations, by tool group
    invoke(service, name, arguments)    validate and run one (what every door calls)
    Operation                           name, group, argument and result structs, text block, ...

One module per tool family (the groups `limpet serve --tools` selects): threads (comment_*),
paired comments (add_comment, ...), plan feedback (get_feedback, ...), review
(present_review, get_selection). A family's module registers its operations when it is
imported (limpet.model.Deferred): when one of them is first invoked (OPERATION_MODULES says
which module), or when the operations are listed (operations_for, REGISTRY), every family.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

from limpet.model import Deferred
from limpet.server.operations import _registry
from limpet.server.operations._fields import ThreadId
from limpet.server.operations._paging import (
    MAX_PAGE,
    cursor_key,
    key_cursor,
    next_cursor,
    page_limit,
    page_of,
    search_page,
    start_after,
)
from limpet.server.operations._registry import (
    FAMILIES,
    GROUPS,
    LEAN,
    SELECTIONS,
    Encoded,
    Operation,
    json_text,
    validate_args,
)

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
    "Encoded",
    "Operation",
    "ThreadId",
    "arguments",
    "comment_result",
    "cursor_key",
    "invoke",
    "json_text",
    "key_cursor",
    "move_result",
    "next_cursor",
    "page_limit",
    "page_of",
    "search_page",
    "selected_names",
    "spellings",
    "start_after",
    "operations_for",
    "tool_specs",
    "validate_args",
]


# Each family's module, imported when one of its operations is first run, so a door that runs
# one operation (a `limpet list`) declares only its family, not the others nor what only they
# use (the review's text, the regex search); listing the operations (REGISTRY) declares them all.
def _load_threads() -> ModuleType:
    from limpet.server.operations import _threads
    return _threads


def _load_paired() -> ModuleType:
    from limpet.server.operations import _paired
    return _paired


def _load_feedback() -> ModuleType:
    from limpet.server.operations import _feedback
    return _feedback


def _load_review() -> ModuleType:
    from limpet.server.operations import _review
    return _review


def _load_registry() -> ModuleType:  # the registry, every family declared
    for family in (_load_threads, _load_paired, _load_feedback, _load_review):
        family()
    return _registry


_PAIRED_RESULTS = ("comment_result", "move_result")  # the paired tools' results, for the CLI's --json
__getattr__ = _DEFERRED = Deferred(globals(), {
    _load_threads: ("comment_add", "comment_list", "comment_show", "comment_reply", "comment_resolve",
                    "comment_reopen", "comment_reconcile"),
    _load_paired: ("add_comment", "edit_comment", "delete_comment", "move_comment", "search_comments",
                   "get_file_comments", "export_comments", *_PAIRED_RESULTS),
    _load_feedback: ("get_feedback", "resolve_feedback", "get_feedback_summary"),
    _load_review: ("present_review", "get_selection"),
    _load_registry: ("REGISTRY",),
})
__dir__ = _DEFERRED.dir
# Each operation's module, by name (what the table above says; checked against the registry).
OPERATION_MODULES = {name: module for name, module in _DEFERRED.modules().items()
                     if module != "_registry" and name not in _PAIRED_RESULTS}


def _declare(name: str) -> None:
    """Declare operation `name`'s family (a name the table does not know: every family)."""
    if name in OPERATION_MODULES:
        _DEFERRED.module(name)
    else:
        _load_registry()


def invoke(service: Service, name: str, raw: Any, *, encoded: bool = False) -> tuple[Operation, Any]:
    """Validate and run one operation. Raises LimpetError subclasses only (or bugs).
    `encoded`: a result written as JSON already comes as it is (`Encoded`: the MCP door)."""
    _declare(name)
    return _registry.invoke(service, name, raw, encoded=encoded)


def arguments(name: str, raw: Mapping[str, Any]) -> Any:
    """`raw` checked by operation `name`'s argument struct exactly as `invoke` checks it (bounds,
    vocabulary, defaults; INVALID_ARGUMENT naming the field): for a door that then calls the
    service itself (the library, limpet.Workspace), so its arguments follow the tools' rules."""
    _declare(name)
    return validate_args(_registry.REGISTRY[name], {k: v for k, v in raw.items() if v is not None})


def spellings(name: str) -> Mapping[str, str]:
    """How operation `name` spells the service's argument names (`thread_id` -> `commentId`):
    a door answering in that tool's words renames an error's field by it."""
    _declare(name)
    return _registry.REGISTRY[name].renames


def operations_for(groups: set[str] | None = None) -> list[Operation]:
    """The operations of `groups` (all of them when None), group by group in the order of
    GROUPS, each group's in declaration order."""
    _load_registry()
    return _registry.operations_for(groups)


def tool_specs(ops: Iterable[Operation]) -> dict[str, ToolSpec]:
    """The tools a door exposes, as prompts describe them (name, description, arguments)."""
    from limpet.prompts import ToolSpec

    return {op.name: ToolSpec.from_schema(op.name, op.description, op.input_schema()) for op in ops}


def selected_names(text: str) -> set[str]:
    """The groups and tool names a `--tools` selection names (`lean`, `all`, groups, tools)."""
    _load_registry()
    return _registry.selected_names(text)
