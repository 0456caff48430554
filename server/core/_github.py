"""Importing a pull request's review comments (`limpet import --format github`).

Each GitHub thread (a comment and its replies, read by limpet.exporters.read_github_comments)
becomes a limpet thread, written whole as one `snapshot` event (mode merge: two clones that
import one pull request make the same thread ids, see `_thread_id`, and a union merge of their
files keeps what either knew). Where it is anchored, in order:

    a comment on the pull request's head (`line` set)   its lines in the file as of `commit_id`
                                                        (git), else in the working tree
    an outdated comment (`line` null)                   its original lines in the file as of
                                                        `original_commit_id`, read from git
    either, when git lacks that version                 the lines the comment's `diff_hunk` shows
                                                        (limpet then looks for them in the file)
    `subject_type: file`                                the file's first line (said in the report
                                                        and in the thread's history)
    a LEFT-side comment (on lines the pull request      an orphan, its code the deleted lines the
    deleted), or no evidence at all                     `diff_hunk` shows (or none)

and then every imported thread is re-anchored to the working tree as any thread is: code that
moved is followed, code that is gone leaves an orphan. Nothing is dropped: a comment on a file
that no longer exists is an orphan too; only a comment on a path outside the workspace folder,
or on a path limpet never comments (`.git`, `.limpet`), is left out, and the report says so.

What identifies an imported thread is kept in it: a history event `imported` whose details are
the GitHub record (`source: github`, `comment_id`, `replies`, `url`, the commit and lines it was
anchored on; docs/github.md). A history event's details are free-form in every store schema,
so a limpet that knows nothing of GitHub reads the thread as any other. Importing again adds
nothing: a known thread only gains the replies it lacks (matched by id, or by author and time)
and, with GraphQL review threads given, the resolution GitHub records. A comment a
github-review export posted names its thread (`<!-- limpet:c_... -->`): it is that thread, not
a new one, and the replies people wrote under it on GitHub join it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import IO, TYPE_CHECKING, Any

import msgspec

from limpet.model import (
    Comment,
    HistoryEvent,
    InvalidAnchor,
    InvalidArgument,
    InvalidPath,
    LimpetError,
    Thread,
    blake2b,
)
from limpet.server.core import _edits as edits
from limpet.server.core._ids import utc_now
from limpet.server.core._tree import looks_binary
from limpet.server.store import Event, GitHistory, ThreadStore, Workspace

if TYPE_CHECKING:
    from limpet.exporters import GithubComment, GithubThread, Resolution
    from limpet.model import Anchor

__all__ = ["GithubImport", "GithubImportReport", "Input", "read_input"]

Input = bytes | str | os.PathLike[str] | IO[bytes]  # the JSON itself, or a path or stream holding it

MAX_HUNK_START = 1_000_000  # a hunk further down than this is not rebuilt (it would be padded with blank lines)
_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")
_MARKER = re.compile(r"<!-- limpet:(c_\d{1,40}) -->")  # what a github-review export leaves in a comment


class GithubImportReport(msgspec.Struct):
    imported: list[dict[str, Any]] = msgspec.field(default_factory=list)  # one per new thread: where it landed
    updated: list[str] = msgspec.field(default_factory=list)  # known threads that gained replies or a resolution
    unchanged: list[str] = msgspec.field(default_factory=list)
    left_out: list[dict[str, Any]] = msgspec.field(default_factory=list)  # {comment_id, path, reason}

    def to_dict(self) -> dict[str, Any]:
        return {"imported": len(self.imported), "updated": len(self.updated), "unchanged": len(self.unchanged),
                "left_out": self.left_out, "threads": self.imported, "updated_ids": self.updated}


class _Placement(msgspec.Struct, frozen=True):
    anchor: Anchor
    placed_on: str  # commit, working_tree, diff_hunk, none
    commit: str | None
    lines: tuple[int, int]
    orphan: bool  # written orphaned (LEFT side, no evidence)


class GithubImport:
    """One import into one workspace (see the module docstring)."""

    def __init__(self, ws: Workspace, store: ThreadStore, new_id: Callable[[set[str]], str],
                 written: Callable[[Iterable[Thread]], None], place: Callable[[list[Thread]], None]) -> None:
        self._ws = ws
        self._store = store
        self._new_id = new_id  # an unused thread id (the set: ids this batch took)
        self._written = written
        self._place = place  # re-anchors threads to the working tree
        self._git = GitHistory.open(ws.root)
        self._prefix = self._git.prefix if self._git is not None else ""

    def run(self, comments: Input, review_threads: Input | None = None) -> GithubImportReport:
        """`comments`, `review_threads`: the JSON (bytes), or a path or binary stream to read it
        from, at most MAX_GITHUB_INPUT bytes (a larger input is refused, never read whole)."""
        data = read_input(comments, "file")
        threads = read_input(review_threads, "review_threads") if review_threads is not None else None
        try:
            return self._run(data, threads)
        finally:
            if self._git is not None:
                self._git.close()  # its `git cat-file` reader

    def _run(self, data: bytes, review_threads: bytes | None) -> GithubImportReport:
        from limpet.exporters import read_github_comments, read_review_threads

        threads = read_github_comments(data)
        resolutions = read_review_threads(review_threads) if review_threads is not None else {}
        report = GithubImportReport()
        now = utc_now()
        with self._store.transaction():
            known = self._known()
            taken: set[str] = set()
            events: list[tuple[str, Event]] = []
            for gh in threads:
                rel = self._path(gh.root, report)
                if rel is None:
                    continue
                resolution = resolutions.get(gh.root.id)
                thread = known.get(gh.root.id) or self._posted_by_limpet(gh.root)
                if thread is not None:
                    self._update(thread, gh, resolution, events, report)
                    continue
                thread = self._thread(self._thread_id(gh.root, taken), rel, gh, resolution, now)
                events.append((thread.id, edits.new_event("snapshot", thread.author, thread.author_type,
                                                          at=thread.created_at, thread=thread, mode="merge")))
            written = [t for t in self._store.append_many(events) if t is not None] if events else []
        self._written(written)
        new_ids = {thread_id for thread_id, e in events if e.event == "snapshot"}
        fresh = [t for t in written if t.id in new_ids]
        self._place(fresh)
        for t in fresh:
            report.imported.append(self._landed(self._store.get(t.id)))
        return report

    # -- which threads were imported before ---------------------------------------------------

    def _known(self) -> dict[int, Thread]:
        """GitHub comment id (of a thread's first comment) -> the limpet thread imported from it."""
        out: dict[int, Thread] = {}
        for t in self._store.all():
            for h in t.history:
                if h.event == "imported" and h.details.get("source") == "github":
                    cid = h.details.get("comment_id")
                    if isinstance(cid, int):
                        out[cid] = t
        return out

    def _posted_by_limpet(self, root: GithubComment) -> Thread | None:
        """The thread a github-review export posted as this comment (its body names the thread)."""
        marker = _MARKER.search(root.body)
        if marker is None or not self._store.exists(marker[1]):
            return None
        try:
            return self._store.get(marker[1])
        except LimpetError:  # deleted or unreadable: the comment is imported as a thread of its own
            return None

    def _update(self, thread: Thread, gh: GithubThread, resolution: Resolution | None,
                events: list[tuple[str, Event]], report: GithubImportReport) -> None:
        from limpet.exporters import author_of, limpet_body

        ids = {r for h in thread.history if h.event == "imported" for r in h.details.get("replies") or ()}
        before = len(events)
        for reply in gh.replies:
            author, author_type = author_of(reply)
            body = limpet_body(reply)
            if reply.id not in ids and not any(_same(c, author, body, reply.created_at) for c in thread.comments):
                events.append((thread.id, edits.new_event("replied", author, author_type, at=reply.created_at,
                                                          body=body)))
        if resolution is not None and resolution.resolved and thread.status == "open":
            events.append((thread.id, edits.new_event("resolved", resolution.by or "github")))
        (report.updated if len(events) > before else report.unchanged).append(thread.id)

    # -- a new thread ---------------------------------------------------------------------------

    def _thread_id(self, root: GithubComment, taken: set[str]) -> str:
        """The id every clone gives the thread of this GitHub comment: its time as a thread id's
        13 digits of milliseconds, then 6 digits of a hash of the comment's id. Two clones that
        import one pull request make the same threads, and git's union merge of their files
        reads as one thread each. (Taken, by the rare other thread of that millisecond: a new id.)"""
        ms = int(datetime.fromisoformat(root.created_at).timestamp() * 1000)
        digest = int.from_bytes(blake2b(f"github-comment:{root.id}".encode(), digest_size=8).digest(), "big")
        thread_id = f"c_{ms:013d}{digest % 1_000_000:06d}"
        if 0 <= ms < 10**13 and thread_id not in taken and not self._store.exists(thread_id):
            taken.add(thread_id)
            return thread_id
        return self._new_id(taken)

    def _path(self, root: GithubComment, report: GithubImportReport) -> str | None:
        """The comment's workspace path; None (reported) when it is not one limpet may comment."""
        if not root.path.startswith(self._prefix):
            report.left_out.append({"comment_id": root.id, "path": root.path, "reason": "outside the workspace"})
            return None
        try:
            return self._ws.normalize(root.path[len(self._prefix):], "path")
        except InvalidPath as exc:
            report.left_out.append({"comment_id": root.id, "path": root.path, "reason": exc.message})
            return None

    def _thread(self, thread_id: str, rel: str, gh: GithubThread, resolution: Resolution | None,
                now: str) -> Thread:
        from limpet.exporters import author_of, limpet_body

        root = gh.root
        place = self._placement(rel, root)
        author, author_type = author_of(root)
        t = edits.new_thread(thread_id, place.anchor, limpet_body(root), "NOTE", author, author_type, None,
                             root.created_at)
        for reply in gh.replies:
            t = edits.replied(t, limpet_body(reply), *author_of(reply), reply.created_at)
        if resolution is not None and resolution.resolved:
            t = edits.resolved(t, None, False, resolution.by or "github", now)
        source = {"source": "github", "comment_id": root.id, "replies": [r.id for r in gh.replies],
                  "url": root.html_url, "path": root.path, "side": root.side or "RIGHT",
                  "subject_type": root.subject_type or "line", "outdated": root.outdated,
                  "commit_id": place.commit, "lines": list(place.lines), "placed_on": place.placed_on}
        if gh.orphan_reply:
            source["in_reply_to_id"] = root.in_reply_to_id  # its thread's first comment was not in the input
        # updated now: an incremental export (`--since` its last run) takes threads imported since
        t = t.evolve(updated_at=max(now, t.updated_at), history=(*t.history, HistoryEvent(now, "imported", "limpet",
                                                                                           source)))
        if place.orphan:
            t = t.evolve(health="orphaned", anchor_method="orphaned", anchor_confidence=0.0)
        return t

    def _placement(self, rel: str, c: GithubComment) -> _Placement:
        from limpet.anchoring import create_anchor

        if c.subject_type == "file":
            current = self._text(self._ws.read_or_none(rel))
            if current is not None:
                return _Placement(create_anchor(rel, current, 1, 1), "working_tree", None, (1, 1), False)
            return self._from_commit(rel, c.commit_id or c.original_commit_id, (1, 1)) \
                or self._orphan(rel, (1, 1), None)
        if c.side == "LEFT":
            end = c.line or c.original_line or _hunk_end(c.diff_hunk, "LEFT") or 1
            start = (c.start_line or c.original_start_line or end) if c.start_side != "RIGHT" else end
            return self._orphan(rel, (min(start, end), end), c.diff_hunk, side="LEFT")
        if c.line is not None:  # GitHub placed it on the pull request's head
            lines = (_start(c.start_line, c.start_side, c.line), c.line)
            commit = c.commit_id
        else:  # outdated; an old comment may only have its diff position: the hunk ends at its line
            end = c.original_line or _hunk_end(c.diff_hunk, "RIGHT")
            if end is None:
                return self._orphan(rel, (1, 1), None)
            lines = (_start(c.original_start_line, c.start_side, end), end)
            commit = c.original_commit_id
        found = self._from_commit(rel, commit, lines)
        if found is None and c.line is not None:
            current = self._text(self._ws.read_or_none(rel))
            found = self._anchored(rel, current, lines, "working_tree", None)
        return found or self._from_hunk(rel, lines, c.diff_hunk, "RIGHT") or self._orphan(rel, lines, None)

    def _from_commit(self, rel: str, commit: str | None, lines: tuple[int, int]) -> _Placement | None:
        if self._git is None or commit is None:
            return None
        return self._anchored(rel, self._text(self._git.read(commit, self._prefix + rel)), lines, "commit", commit)

    def _anchored(self, rel: str, source: bytes | None, lines: tuple[int, int], placed_on: str,
                  commit: str | None) -> _Placement | None:
        from limpet.anchoring import create_anchor

        if source is None:
            return None
        try:
            return _Placement(create_anchor(rel, source, *lines), placed_on, commit, lines, False)
        except InvalidAnchor:  # lines the file does not have (a hand-made or mismatched file)
            return None

    def _from_hunk(self, rel: str, lines: tuple[int, int], hunk: str | None, side: str) -> _Placement | None:
        shown = _hunk_side(hunk, side)
        if shown is None or lines[0] < shown[0]:  # the hunk does not show those lines
            return None
        return self._anchored(rel, shown[1], lines, "diff_hunk", None)

    def _orphan(self, rel: str, lines: tuple[int, int], hunk: str | None, side: str = "RIGHT") -> _Placement:
        """An orphan: its code is what the diff hunk shows of those lines, if it shows them."""
        from limpet.anchoring import create_anchor

        placed = self._from_hunk(rel, lines, hunk, side)
        if placed is not None:
            return _Placement(placed.anchor, "diff_hunk", None, lines, True)
        # No code known: an empty anchor at the comment's lines (it matches nothing, ever).
        return _Placement(_at_lines(create_anchor(rel, b"", 1, 1), lines), "none", None, lines, True)

    @staticmethod
    def _text(source: bytes | None) -> bytes | None:
        return None if source is None or looks_binary(source) else source

    def _landed(self, t: Thread) -> dict[str, Any]:
        source = next(h.details for h in t.history if h.event == "imported")
        return {"thread_id": t.id, "comment_id": source["comment_id"], "file": t.anchor.file,
                "line_start": t.anchor.line_start, "line_end": t.anchor.line_end, "health": t.health,
                "status": t.status, "replies": len(t.comments) - 1, "outdated": source["outdated"],
                "subject_type": source["subject_type"], "side": source["side"], "placed_on": source["placed_on"],
                "from": {"commit_id": source["commit_id"], "lines": source["lines"]}}


def read_input(source: Input, field: str) -> bytes:
    """The bytes of an import's input: given, or read from a path or a binary stream, up to one
    byte past the budget (read_github_comments refuses what is over it)."""
    from limpet.exporters import MAX_GITHUB_INPUT

    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source)
    try:
        if isinstance(source, str | os.PathLike):
            with open(source, "rb") as fh:
                return fh.read(MAX_GITHUB_INPUT + 1)
        if hasattr(source, "read"):
            data = source.read(MAX_GITHUB_INPUT + 1)
            if isinstance(data, bytes):
                return data
    except OSError as exc:
        raise InvalidArgument(f"Cannot read {source}: {exc.strerror}", field=field) from None
    raise InvalidArgument(f"{field} must be JSON bytes, a path or a binary stream", field=field)


def _same(comment: Comment, author: str, body: str, created_at: str) -> bool:
    """Is `comment` this GitHub reply, imported before? By author and time; or by author and
    text, for a reply the store dated after its thread's latest event (a reply is never dated
    before what its writer saw: server.store's `stamped`)."""
    if comment.author != author:
        return False
    return comment.created_at == created_at or (comment.body == body and comment.created_at >= created_at)


def _start(start: int | None, start_side: str | None, end: int) -> int:
    """The first line of a range on the right side (a range starting on the left: its last line)."""
    if start is None or start_side == "LEFT" or start > end:
        return end
    return start


def _at_lines(anchor: Anchor, lines: tuple[int, int]) -> Anchor:
    import msgspec

    return msgspec.structs.replace(anchor, line_start=lines[0], line_end=lines[1])


def _hunk_end(hunk: str | None, side: str) -> int | None:
    """The line a hunk ends at on one side: the commented line (GitHub's hunks end there)."""
    shown = _hunk_side(hunk, side)
    return shown[1].count(b"\n") if shown is not None else None


def _hunk_side(hunk: str | None, side: str) -> tuple[int, bytes] | None:
    """(first line, a stand-in for the file) as the hunk shows one side of it: blank lines down
    to the hunk, then the hunk's lines of that side (None: no usable hunk)."""
    if not hunk:
        return None
    head, _, body = hunk.partition("\n")
    m = _HUNK.match(head)
    if m is None:
        return None
    start = int(m.group(1) if side == "LEFT" else m.group(2))
    if not 1 <= start <= MAX_HUNK_START:
        return None
    drop = "+" if side == "LEFT" else "-"
    kept = [line[1:] for line in body.split("\n") if not line.startswith((drop, "\\"))]
    return start, ("\n" * (start - 1) + "\n".join(kept) + "\n").encode("utf-8", "surrogatepass")

