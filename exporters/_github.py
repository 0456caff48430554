"""The github-review export: the body of GitHub's "create a review for a pull request" call
(`POST /repos/{owner}/{repo}/pulls/{n}/reviews`), posted with `gh api ... --input FILE`.

    {"body": "...", "comments": [{"body", "line", "path", "side": "RIGHT",
                                  "start_line", "start_side": "RIGHT"}],
     "commit_id": HEAD, "event": "COMMENT"}

One review comment per open thread placed on code, at its current lines (`start_line` only when
it spans several); the comment's body is the thread's first comment with the replies quoted
below it and the thread's id in an HTML comment GitHub does not show. GitHub only takes lines
the pull request's diff shows: given those (`diff_lines`, from `limpet export --base REF`), a
thread on other lines is listed in the review's own body instead, as an open orphan (it has no
lines at all) always is; nothing is dropped. Paths are the repository's (`repo_prefix` + the
workspace path); `commit_id` is left out when the workspace is not in git (GitHub then takes
the pull request's newest commit). See docs/github.md.
"""

from __future__ import annotations

import os
from abc import abstractmethod
from collections.abc import Iterable
from typing import Any, BinaryIO

import orjson

from limpet.exporters._base import Exporter
from limpet.exporters._sink import ProgressTicker, checked, open_sink
from limpet.exporters._types import ExportItem, ExportOptions, ExportResult
from limpet.model import Thread

__all__ = ["GithubReviewExporter", "PostedThreadsExporter", "comment_body", "posted_threads"]

MAX_GITHUB_BODY = 65_536  # characters GitHub takes in one comment or review body
_CUT = "\n\n_… cut here: GitHub takes 65,536 characters in a comment; the thread has more._"


def posted_threads(items: Iterable[ExportItem], ticker: ProgressTicker) -> list[ExportItem]:
    """The open threads among `items` (the formats for GitHub carry what is still to do), in
    (file, line, id) order, whatever order they came in."""
    kept = []
    for item in items:
        item = checked(item)
        ticker.tick()
        if item.thread.status == "open":
            kept.append(item)
    return sorted(kept, key=lambda i: (i.thread.anchor.file, i.thread.anchor.line_start, i.thread.id))


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}".rstrip() for line in text.split("\n"))


def comment_body(thread: Thread) -> str:
    """The thread as one GitHub comment: tag and symbol, the first comment, the replies quoted
    with their author and time, and a marker naming the thread."""
    head = f"**{thread.tag}**" + (f" · `{thread.anchor.symbol}`" if thread.anchor.symbol else "")
    parts = [head, thread.body]
    for reply in thread.comments[1:]:
        parts.append(f"> **{reply.author}** ({reply.author_type}) · {reply.created_at}\n>\n{_quoted(reply.body)}")
    parts.append(f"<!-- limpet:{thread.id} -->")
    return _fit("\n\n".join(parts))


def _fit(text: str) -> str:
    return text if len(text) <= MAX_GITHUB_BODY else text[: MAX_GITHUB_BODY - len(_CUT)] + _CUT


def _review_comment(thread: Thread, prefix: str) -> dict[str, Any]:
    a = thread.anchor
    out: dict[str, Any] = {"path": prefix + a.file, "line": a.line_end, "side": "RIGHT", "body": comment_body(thread)}
    if a.line_start < a.line_end:
        out.update(start_line=a.line_start, start_side="RIGHT")
    return out


def _listed(threads: list[Thread], prefix: str, where: str) -> list[str]:
    return [f"- `{prefix}{t.anchor.file}` ({where} {t.anchor.line_start}) **{t.tag}** {t.body.split(chr(10), 1)[0]}"
            f" <!-- limpet:{t.id} -->" for t in threads]


def _review_body(placed: int, orphans: list[Thread], outside: list[Thread], prefix: str) -> str:
    noun = "thread" if placed == 1 else "threads"
    lines = [f"limpet: {placed} open {noun} on code" + ("." if not orphans and not outside else ":")]
    if outside:
        lines.append("\nOpen threads on lines this pull request's diff does not show:")
        lines.extend(_listed(outside, prefix, "at line"))
    if orphans:
        lines.append("\nOpen orphans (their code is gone):")
        lines.extend(_listed(orphans, prefix, "last at line"))
    return _fit("\n".join(lines))


def _in_diff(thread: Thread, diff: dict[str, tuple[tuple[int, int], ...]] | None) -> bool:
    a = thread.anchor
    return diff is None or any(first <= a.line_start and a.line_end <= last for first, last in diff.get(a.file, ()))


def review(items: list[ExportItem], options: ExportOptions) -> dict[str, Any]:
    prefix = options.repo_prefix
    diff = dict(options.diff_lines) if options.diff_lines is not None else None
    on_code = [i.thread for i in items if i.thread.health != "orphaned"]
    placed = [t for t in on_code if _in_diff(t, diff)]
    outside = [t for t in on_code if not _in_diff(t, diff)]
    orphans = [i.thread for i in items if i.thread.health == "orphaned"]
    body: dict[str, Any] = {"body": _review_body(len(placed), orphans, outside, prefix), "event": "COMMENT",
                            "comments": [_review_comment(t, prefix) for t in placed]}
    if options.head_commit:
        body["commit_id"] = options.head_commit
    return body


class PostedThreadsExporter(Exporter):
    """A format written as one JSON document of the threads a forge is given (open threads of
    one workspace): subclasses say what the document is (`document`)."""

    reads_source = False
    open_only = True
    one_repository = True  # repository paths and one commit: threads of one workspace only

    @abstractmethod
    def document(self, posted: list[ExportItem], options: ExportOptions) -> dict[str, Any]:
        """The JSON document the forge takes for these threads."""

    def write_items(
        self, items: Iterable[ExportItem], out: BinaryIO | str | os.PathLike, options: ExportOptions,
        ticker: ProgressTicker,
    ) -> ExportResult:
        posted = posted_threads(items, ticker)
        data = orjson.dumps(self.document(posted, options), option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"
        with open_sink(out, allow_stdout=True) as (sink, path):
            sink.write(data)
        return ExportResult(self.name, len(posted), sink.count, path, self.media_type)


class GithubReviewExporter(PostedThreadsExporter):
    name = "github-review"
    media_type = "application/json"
    extension = ".review.json"

    def document(self, posted: list[ExportItem], options: ExportOptions) -> dict[str, Any]:
        return review(posted, options)
