"""Error hints in the CLI's own words.

Errors carry one suggestion, written for agents (it names MCP tools: "Use comment_list ...").
At the command line the same advice names the command that does it; this table is the one
place that knows which command runs which tool. Tools with no command (the review panel's,
the feedback summary) are left as they are.
"""

from __future__ import annotations

import functools
import re

from limpet.model import LimpetError

__all__ = ["NO_COMMAND", "TOOL_COMMANDS", "cli_suggestion"]

TOOL_COMMANDS = {
    "comment_add": "limpet add FILE:START[-END] BODY",
    "add_comment": "limpet add FILE:START[-END] BODY",
    "comment_list": "limpet list",
    "get_file_comments": "limpet list --file PATH",
    "get_feedback": "limpet list --status open",
    "comment_show": "limpet show ID",
    "comment_reply": "limpet reply ID BODY",
    "comment_resolve": "limpet resolve ID",
    "resolve_feedback": "limpet resolve ID",
    "comment_reopen": "limpet reopen ID",
    "comment_reconcile": "limpet reconcile",
    "edit_comment": "limpet edit ID BODY",
    "delete_comment": "limpet delete ID",
    "move_comment": "limpet move ID FILE:START[-END]",
    "search_comments": "limpet search REGEX",
    "export_comments": "limpet export",
}
# Tools a person does not run from a shell: the page and agents use them.
NO_COMMAND = frozenset({"present_review", "get_selection", "get_feedback_summary"})

_WORKSPACE_HINT = "Give --workspace an existing directory (default: the current directory)."


def cli_suggestion(exc: LimpetError) -> str | None:
    """The error's suggestion with tool names replaced by the commands that run them."""
    if exc.field == "workspace" and exc.code == "FILE_NOT_FOUND":
        return _WORKSPACE_HINT
    if not exc.suggestion:
        return None
    return _tool_names().sub(lambda m: f"`{TOOL_COMMANDS[m[1]]}`", exc.suggestion)


@functools.cache
def _tool_names() -> re.Pattern[str]:
    """Any tool name of the table (built when an error is first shown, not by every command)."""
    return re.compile(r"\b(" + "|".join(sorted(TOOL_COMMANDS, key=len, reverse=True)) + r")\b")
