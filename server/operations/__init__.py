"""limpet.server.operations: every operation declared once, as a typed function over the service.

    REGISTRY / operations_for(groups)   the operations, by tool group
    invoke(service, name, arguments)    validate and run one (what every door calls)
    Operation                           name, group, argument and result structs, text block, ...

One module per tool family (the groups `limpet serve --tools` selects): threads (comment_*),
paired comments (add_comment, ...), plan feedback (get_feedback, ...), review
(present_review, get_selection). Importing this package registers all of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from limpet.server.operations import _feedback, _paired, _review, _threads  # noqa: F401  (registers them)
from limpet.server.operations._fields import ThreadId
from limpet.server.operations._paging import MAX_PAGE, cursor_key, key_cursor, page_limit
from limpet.server.operations._registry import (
    GROUPS,
    REGISTRY,
    Operation,
    invoke,
    operations_for,
    validate_args,
)

if TYPE_CHECKING:  # the prompts import the engine: only the doors that serve prompts need them
    from limpet.prompts import ToolSpec

__all__ = [
    "GROUPS",
    "MAX_PAGE",
    "REGISTRY",
    "Operation",
    "ThreadId",
    "cursor_key",
    "invoke",
    "key_cursor",
    "page_limit",
    "operations_for",
    "tool_specs",
    "validate_args",
]


def tool_specs(ops: Iterable[Operation]) -> dict[str, ToolSpec]:
    """The tools a door exposes, as prompts describe them (name, description, arguments)."""
    from limpet.prompts import ToolSpec

    return {op.name: ToolSpec.from_schema(op.name, op.description, op.input_schema()) for op in ops}
