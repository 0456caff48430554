"""fix_orphans: each open orphaned thread with its original code, its last location and the
engine's best candidate locations (with scores), asking the agent to confirm a move or to
resolve the thread."""

from __future__ import annotations

import msgspec

from limpet.model import LimpetError, Thread
from limpet.prompts._code import CodeListing, ThreadView, file_lines, language_of, listing, thread_view
from limpet.prompts._render import render
from limpet.prompts._source import CandidateLike, PromptSource, ToolSpec, first_tool
from limpet.prompts._spec import PromptArg, PromptSpec

__all__ = ["FIX_ORPHANS", "CandidateView", "FixOrphansData", "OrphanView", "fix_orphans", "gather_fix_orphans"]

CANDIDATES = 5  # the engine's top-k per orphan
MAX_ORPHANS = 20
MAX_ORIGINAL_LINES = 60
MAX_CANDIDATE_LINES = 40


class CandidateView(msgspec.Struct, frozen=True):
    file: str
    line_start: int
    line_end: int
    score: str  # two decimals: "0.87"
    method: str
    code: CodeListing | None  # None when the file cannot be read
    move_call: str | None


class OrphanView(msgspec.Struct, frozen=True):
    thread: ThreadView
    last_location: str  # file:line[-line]
    original_location: str  # where the thread was written
    original: CodeListing
    candidates: tuple[CandidateView, ...]
    resolve_call: str | None


class FixOrphansData(msgspec.Struct, frozen=True):
    file: str | None  # the filter, when given
    orphans: tuple[OrphanView, ...]
    more: int  # orphans not shown (prompt size)
    move_tool: ToolSpec | None
    resolve_tool: ToolSpec | None


def gather_fix_orphans(source: PromptSource, file_path: str | None = None) -> FixOrphansData:
    rel = source.normalize(file_path, "filePath") if file_path else None
    threads = source.threads()
    if rel is not None and not any(t.anchor.file == rel for t in threads):
        source.read_source(rel, "filePath")  # FILE_NOT_FOUND unless the file exists
    orphans = [t for t in threads if t.health == "orphaned" and t.status == "open"
               and (rel is None or t.anchor.file == rel)]
    move = first_tool(source, "move_comment")
    resolve = first_tool(source, "comment_resolve", "resolve_feedback")
    views = tuple(_orphan(source, t, move, resolve) for t in orphans[:MAX_ORPHANS])
    return FixOrphansData(rel, views, max(len(orphans) - MAX_ORPHANS, 0), move, resolve)


def _orphan(source: PromptSource, t: Thread, move: ToolSpec | None, resolve: ToolSpec | None) -> OrphanView:
    a = t.anchor
    created = t.snapshots.get("created")
    file, start, text = (created.file, created.line_start, created.text) if created else (
        a.file, a.line_start, a.selected_text)
    original = listing(text.split("\n"), language_of(file), budget=MAX_ORIGINAL_LINES, number_from=start)
    candidates = tuple(_candidate(source, t, c, move) for c in source.orphan_candidates(t, CANDIDATES))
    wishes = {"thread_id": t.id, "threadId": t.id,
              "decision": "The code this thread was about is gone: <why it no longer applies>"}
    return OrphanView(
        thread=thread_view(t), last_location=_where(a.file, a.line_start, a.line_end),
        original_location=_where(file, start, start + text.count("\n")), original=original,
        candidates=candidates, resolve_call=resolve.call(wishes) if resolve else None,
    )


def _candidate(source: PromptSource, t: Thread, c: CandidateLike, move: ToolSpec | None) -> CandidateView:
    try:
        lines = file_lines(source.read_source(c.file))
        code = listing(lines, language_of(c.file), budget=MAX_CANDIDATE_LINES, first=c.line_start, last=c.line_end)
    except LimpetError:  # gone since the engine looked: still worth listing
        code = None
    wishes = {"sourceFile": t.anchor.file, "targetFile": c.file, "commentId": t.id, "targetLine": c.line_start}
    return CandidateView(c.file, c.line_start, c.line_end, f"{c.score:.2f}", c.method, code,
                         move.call(wishes) if move else None)


def _where(file: str, start: int, end: int) -> str:
    return f"{file}:{start}" if start == end else f"{file}:{start}-{end}"


def fix_orphans(source: PromptSource, file_path: str | None = None) -> str:
    """The fix_orphans prompt for one file, or for the whole workspace."""
    return render("fix_orphans", gather_fix_orphans(source, file_path), source.templates_dir)


FIX_ORPHANS = PromptSpec(
    name="fix_orphans",
    title="Fix orphaned comments",
    description="Analyze orphaned comments and suggest new anchor locations",
    args=(PromptArg("filePath", "file_path", "File with orphaned comments (omit for all files)"),),
    render=fix_orphans,
)
