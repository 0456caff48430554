"""training_export: what a JSONL training export of the workspace would contain (counts by
tag, status and health; one sample record) and the exact CLI command and tool call that
produce it."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

import msgspec

from limpet.model import HEALTHS, STATUSES, TAGS, InvalidArgument, Thread
from limpet.prompts._render import render
from limpet.prompts._source import PromptSource, ToolSpec, first_tool
from limpet.prompts._spec import PromptArg, PromptSpec

__all__ = ["TRAINING_EXPORT", "Count", "TrainingExportData", "gather_training_export", "training_export"]

OUTPUT = "training.jsonl"


class Count(msgspec.Struct, frozen=True):
    name: str
    count: int


class TrainingExportData(msgspec.Struct, frozen=True):
    include_context: bool
    context_lines: int
    total: int
    files: int
    by_tag: tuple[Count, ...]
    by_status: tuple[Count, ...]
    by_health: tuple[Count, ...]
    sample_id: str | None
    sample: str | None  # the sample record, pretty-printed JSON
    cli: str
    tool: ToolSpec | None
    tool_call: str | None


def gather_training_export(source: PromptSource, include_context: bool = True) -> TrainingExportData:
    context_lines = source.default_context_lines if include_context else 0
    threads = list(source.threads())
    tool = first_tool(source, "export_comments")
    wishes = {"format": "jsonl", "options.includeSourceContext": include_context,
              "options.contextLines": context_lines if include_context else None}
    return TrainingExportData(
        include_context=include_context,
        context_lines=context_lines,
        total=len(threads),
        files=len({t.anchor.file for t in threads}),
        by_tag=_counts(threads, "tag", TAGS),
        by_status=_counts(threads, "status", STATUSES),
        by_health=_counts(threads, "health", HEALTHS),
        sample_id=threads[0].id if threads else None,
        sample=_sample(source, threads[0], context_lines) if threads else None,
        cli=f"limpet export --format jsonl --context-lines {context_lines} --output {OUTPUT}",
        tool=tool,
        tool_call=tool.call(wishes) if tool else None,
    )


def _counts(threads: Sequence[Thread], attr: str, order: tuple[str, ...]) -> tuple[Count, ...]:
    counted = Counter(getattr(t, attr) for t in threads)
    extra = sorted(set(counted) - set(order))  # values from a newer store still show up
    return tuple(Count(name, counted.get(name, 0)) for name in (*order, *extra))


def _sample(source: PromptSource, thread: Thread, context_lines: int) -> str:
    """The record the JSONL export itself writes for `thread` (not a re-spelling of it)."""
    return json.dumps(source.training_record(thread, context_lines), indent=2, ensure_ascii=False)


def training_export(source: PromptSource, include_context: bool = True) -> str:
    """The training_export prompt for the whole workspace."""
    if not isinstance(include_context, bool):
        raise InvalidArgument("includeContext: must be true or false", field="includeContext")
    return render("training_export", gather_training_export(source, include_context), source.templates_dir)


TRAINING_EXPORT = PromptSpec(
    name="training_export",
    title="Export training data",
    description="Export workspace comments as AI training data (JSONL format)",
    args=(
        PromptArg("includeContext", "include_context", "Include code context around comments",
                  type="boolean", default=True),
    ),
    render=training_export,
)
