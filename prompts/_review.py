"""review_code: a file with line numbers, the threads already on it, a checklist, and how to
answer with add_comment calls."""

from __future__ import annotations

import msgspec

from limpet.model import InvalidArgument
from limpet.prompts._code import CodeListing, ThreadView, file_lines, language_of, listing, thread_view
from limpet.prompts._render import render
from limpet.prompts._source import PromptSource, ToolSpec, first_tool
from limpet.prompts._spec import PromptArg, PromptSpec

__all__ = ["CHECKLISTS", "FOCUSES", "REVIEW_CODE", "ChecklistSection", "ReviewCodeData", "gather_review_code",
           "review_code"]

FOCUSES = ("security", "performance", "maintainability", "all")
MAX_LISTING_LINES = 400
THREAD_CONTEXT = 3  # lines around an existing thread kept when a file is cut

CHECKLISTS: dict[str, tuple[str, ...]] = {
    "security": (
        "Authentication and authorization: missing or bypassable checks",
        "Input validation: untrusted data reaching queries, commands, paths or templates (injection, traversal)",
        "Cryptographic issues: weak algorithms, hard-coded secrets, non-constant-time comparisons",
        "Rate limiting and resource exhaustion",
        "Session and token management: expiry, revocation, leakage in logs or errors",
    ),
    "performance": (
        "Algorithmic complexity: nested loops and repeated work on large inputs",
        "I/O in loops: repeated queries, reads or network calls that could be batched or cached",
        "Unnecessary copies, allocations or conversions on hot paths",
        "Blocking calls in asynchronous or latency-sensitive code",
        "Unbounded growth: caches, buffers or collections without limits",
    ),
    "maintainability": (
        "Naming: names that do not say what a thing is or does",
        "Long or deeply nested functions that should be split",
        "Duplicated logic that should live in one place",
        "Error handling: swallowed exceptions, unclear failure modes",
        "Missing tests or documentation for non-obvious behaviour; magic numbers",
    ),
}


class ChecklistSection(msgspec.Struct, frozen=True):
    title: str
    items: tuple[str, ...]


class ReviewCodeData(msgspec.Struct, frozen=True):
    file: str
    focus: str
    code: CodeListing
    threads: tuple[ThreadView, ...]
    checklist: tuple[ChecklistSection, ...]
    tool: ToolSpec | None
    example_call: str | None


def gather_review_code(source: PromptSource, file_path: str, focus: str = "all") -> ReviewCodeData:
    if focus not in FOCUSES:
        raise InvalidArgument(f"focus: must be one of {', '.join(FOCUSES)}, got {focus!r}", field="focus",
                              details={"allowed": list(FOCUSES), "value": focus})
    rel = source.normalize(file_path, "filePath")
    raw = source.read_source(rel, "filePath")
    lines = file_lines(raw)
    threads = [t for t in source.threads() if t.anchor.file == rel]
    keep = [(t.anchor.line_start - THREAD_CONTEXT, t.anchor.line_end + THREAD_CONTEXT) for t in threads]
    sections = FOCUSES[:-1] if focus == "all" else (focus,)
    tool = first_tool(source, "add_comment", "comment_add")
    return ReviewCodeData(
        file=rel,
        focus=focus,
        code=listing(lines, language_of(rel, raw), keep=keep, budget=MAX_LISTING_LINES),
        threads=tuple(thread_view(t) for t in threads),
        checklist=tuple(ChecklistSection(s.capitalize(), CHECKLISTS[s]) for s in sections),
        tool=tool,
        example_call=tool.call(_example_wishes(rel, lines)) if tool else None,
    )


def _example_wishes(rel: str, lines: list[str]) -> dict[str, object]:
    # Both seeds' spellings: ToolSpec.call keeps only those the exposed tool really has.
    line = next((n for n, text in enumerate(lines, 1) if text.strip()), 1)
    text = "FIXME: <the concern> - <a brief fix recommendation>"
    return {"filePath": rel, "file": rel, "line": line, "line_start": line, "line_end": line,
            "text": text, "body": text, "tag": "FIXME"}


def review_code(source: PromptSource, file_path: str, focus: str = "all") -> str:
    """The review_code prompt for one workspace file."""
    return render("review_code", gather_review_code(source, file_path, focus), source.templates_dir)


REVIEW_CODE = PromptSpec(
    name="review_code",
    title="Review code",
    description="Review code and suggest TODO/FIXME comments for improvements",
    args=(
        PromptArg("filePath", "file_path", "File to review (workspace-relative path)", required=True),
        PromptArg("focus", "focus", "Review focus area", default="all", enum=FOCUSES),
    ),
    render=review_code,
)
