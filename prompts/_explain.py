"""explain_complexity: the functions of a file whose cyclomatic complexity (counted on the
tree-sitter tree, decision nodes from the language's query file) reaches a threshold, with
their ranges and code, and a request for NOTE comments."""

from __future__ import annotations

import msgspec

from limpet.anchoring import cyclomatic_complexity, measures_complexity
from limpet.model import InvalidArgument
from limpet.prompts._code import CodeListing, ThreadView, file_lines, language_of, listing, thread_view
from limpet.prompts._render import render
from limpet.prompts._source import PromptSource, ToolSpec, first_tool
from limpet.prompts._spec import PromptArg, PromptSpec

__all__ = ["EXPLAIN_COMPLEXITY", "ComplexFunction", "ExplainComplexityData", "explain_complexity",
           "gather_explain_complexity"]

MAX_THRESHOLD = 1000
MAX_FUNCTION_LINES = 150  # one function's code; longer ones keep their head
MAX_TOTAL_LINES = 600  # all functions together; past it, ranges only


class ComplexFunction(msgspec.Struct, frozen=True):
    name: str  # qualified: AuthService.validate_token
    kind: str
    line_start: int
    line_end: int
    complexity: int
    code: CodeListing | None  # None once the prompt's budget is spent


class ExplainComplexityData(msgspec.Struct, frozen=True):
    file: str
    language: str
    supported: bool  # the language has decision-point captures
    threshold: int
    measured: int  # functions measured in the file
    functions: tuple[ComplexFunction, ...]  # at or above the threshold, most complex first
    threads: tuple[ThreadView, ...]
    tool: ToolSpec | None
    example_call: str | None


def gather_explain_complexity(source: PromptSource, file_path: str,
                              complexity_threshold: int = 10) -> ExplainComplexityData:
    valid = isinstance(complexity_threshold, int) and not isinstance(complexity_threshold, bool)
    if not valid or not 1 <= complexity_threshold <= MAX_THRESHOLD:
        raise InvalidArgument(f"complexityThreshold: must be an integer from 1 to {MAX_THRESHOLD}",
                              field="complexityThreshold", details={"value": repr(complexity_threshold)})
    rel = source.normalize(file_path, "filePath")
    raw = source.read_source(rel, "filePath")
    language = language_of(rel, raw)
    measured = _measure(language, raw)
    hot = sorted((m for m in measured if m[3] >= complexity_threshold), key=lambda m: (-m[3], m[2][0]))
    lines = file_lines(raw)
    functions, budget = [], MAX_TOTAL_LINES
    for name, kind, (start, end), cc in hot:
        code = None
        if budget > 0:
            code = listing(lines, language, budget=min(MAX_FUNCTION_LINES, budget), first=start, last=end)
            budget -= code.shown_lines
        functions.append(ComplexFunction(name, kind, start, end, cc, code))
    tool = first_tool(source, "add_comment", "comment_add")
    first = functions[0].line_start if functions else 1
    return ExplainComplexityData(
        file=rel, language=language, supported=_supported(language), threshold=complexity_threshold,
        measured=len(measured), functions=tuple(functions),
        threads=tuple(thread_view(t) for t in source.threads() if t.anchor.file == rel),
        tool=tool, example_call=tool.call(_example_wishes(rel, first)) if tool else None,
    )


def _measure(language: str, raw: bytes) -> list[tuple[str, str, tuple[int, int], int]]:
    """(qualified name, kind, 1-based line range, complexity) per function, in file order."""
    if not _supported(language):
        return []
    return [(s.qualified_name, s.kind, (s.start_line + 1, s.end_line + 1), cc)
            for s, cc in cyclomatic_complexity(language, raw)]


def _supported(language: str) -> bool:
    return measures_complexity(language)


def _example_wishes(rel: str, line: int) -> dict[str, object]:
    text = "NOTE: <what this function does and why it branches the way it does>"
    return {"filePath": rel, "file": rel, "line": line, "line_start": line, "line_end": line,
            "text": text, "body": text, "tag": "NOTE"}


def explain_complexity(source: PromptSource, file_path: str, complexity_threshold: int = 10) -> str:
    """The explain_complexity prompt for one workspace file."""
    data = gather_explain_complexity(source, file_path, complexity_threshold)
    return render("explain_complexity", data, source.templates_dir)


EXPLAIN_COMPLEXITY = PromptSpec(
    name="explain_complexity",
    title="Explain complex code",
    description="Add NOTE comments explaining complex functions/algorithms",
    args=(
        PromptArg("filePath", "file_path", "File to analyze (workspace-relative path)", required=True),
        PromptArg("complexityThreshold", "complexity_threshold", "Cyclomatic complexity threshold",
                  type="integer", default=10, minimum=1, maximum=MAX_THRESHOLD),
    ),
    render=explain_complexity,
)
