"""Review tools: present_review (the current review, with anchored `file:line` references) and
get_selection (what is selected in the web page)."""

# No `from __future__ import annotations`: the structs' annotations are evaluated once, as
# they are defined, not parsed from text by every schema made at start (operations/_schema.py).

from typing import Annotated, Any

import orjson
from msgspec import Meta

from limpet.model import Health
from limpet.server.core import REVIEW_MODES, ReviewMode, Service
from limpet.server.operations._declare import invalid
from limpet.server.operations._fields import Args, Out, described
from limpet.server.operations._registry import operation

# Missing, null or blank: the seed's own words rather than a type error.
_REQUIRED = {"content": "Content parameter is required", "baseUri": "baseUri parameter is required"}


class PresentReviewArgs(Args):
    content: Annotated[str, Meta(
        max_length=1_000_000,
        description="Markdown content of the review: a brief summary, detailed findings with file references, "
                    "specific suggestions. Write references as [`filename:line`][] (rustdoc-style), e.g. "
                    "\"Updated authentication in [`src/auth.py:45`][]\"; limpet anchors each one to the code.")]
    baseUri: Annotated[str, Meta(
        max_length=4096,
        description="Base directory for resolving relative file references: the workspace root "
                    "(absolute path or file:// URI), a folder inside it, or '.'.")]
    mode: described(ReviewMode, "replace (default) - replace the entire review; update-section - replace one "
                                "section (needs section); append - add to the end of the existing review") = "replace"
    section: described(Annotated[str, Meta(max_length=500)] | None,
                       "Heading text of the section for update-section mode (e.g. \"Summary\", "
                       "\"Security Issues\")") = None

    @classmethod
    def prepare(cls, raw: dict[str, Any]) -> dict[str, Any]:
        for name, message in _REQUIRED.items():
            value = raw.get(name)
            if value is None or (isinstance(value, str) and not value.strip()):
                raise invalid(name, message)
        if "mode" in raw and raw["mode"] not in REVIEW_MODES:
            raise invalid("mode", "Mode must be 'replace', 'update-section', or 'append'")
        return raw

    def check(self) -> None:
        if self.mode == "update-section" and not (self.section and self.section.strip()):
            raise invalid("section", "Section parameter required for update-section mode")


class GetSelectionArgs(Args):
    pass


class ReferenceOut(Out):
    text: str
    file: str
    line: int
    line_end: int
    health: Health
    symbol: str | None = None


class PresentReviewResult(Out):
    success: bool
    message: str
    content: str
    updated_at: str | None
    references: list[ReferenceOut]


class SelectionOut(Out):
    file: str
    line_start: int
    line_end: int
    text: str


class SelectionResult(Out):
    selection: SelectionOut | None


@operation(group="review", args=PresentReviewArgs, result=PresentReviewResult, title="Present a code review")
def present_review(svc: Service, a: PresentReviewArgs) -> dict:
    """Display a code review in limpet's review panel (the web page) and keep it as the workspace's
    current review (MCP resource review://current). Reviews should be structured markdown with
    clear sections and actionable feedback. Use [`filename:line`][] format for file references
    (rustdoc-style): each is anchored to the code and keeps pointing at it after edits; a
    reference whose code is gone is reported as orphaned. Returns the references with their
    current lines and health."""
    return svc.present_review(a.content, a.baseUri, a.mode, a.section)


@operation(group="review", args=GetSelectionArgs, result=SelectionResult, read_only=True, idempotent=True,
           title="Get the selection", text=lambda r: orjson.dumps(r["selection"]).decode())
def get_selection(svc: Service, a: GetSelectionArgs) -> dict:
    """Get the text currently selected in limpet's web page (source view), with its file and
    1-based line range: {"selection": {"file", "line_start", "line_end", "text"}}. Returns
    {"selection": null} if no text is selected or no page is open."""
    return {"selection": svc.selection()["selection"]}
