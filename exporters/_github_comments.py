"""GitHub's pull request review comments, read: what `limpet import --format github` takes.

The input is what GitHub's REST API answers for `GET /repos/{owner}/{repo}/pulls/{n}/comments`:
a JSON array of review comments (the fields read are below; every other field is ignored), as
`gh api --paginate` prints it: one array, several arrays one after another (one a page), or
an array of those arrays (`--slurp`). Everything is untrusted: the size is checked before
parsing, each comment is decoded by a strict typed model, and an error names the comment and
its field (`comments[3].line`). Replies (`in_reply_to_id`) join their thread in the order
GitHub wrote them; a reply whose thread is not in the input starts a thread of its own, so
nothing is dropped.

Optionally, `read_review_threads` reads which threads are resolved from GitHub's GraphQL API
(`reviewThreads`, see docs/github.md).

What becomes of a comment (its lines, the version of the file they are in) is the service's
business (limpet.server.core); this module only reads and checks.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

import msgspec
import orjson

from limpet.model import MAX_BODY, MAX_LINE, InvalidArgument, ParseFailure

__all__ = [
    "MAX_GITHUB_INPUT",
    "GithubComment",
    "GithubThread",
    "Resolution",
    "author_of",
    "limpet_body",
    "read_github_comments",
    "read_review_threads",
]

MAX_GITHUB_INPUT = 64 * 1024 * 1024  # bytes of JSON read at most (checked before parsing)
MAX_COMMENTS = 100_000

Line = Annotated[int, msgspec.Meta(ge=1, le=MAX_LINE)]
Sha = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{40}([0-9a-f]{24})?$")]
Timestamp = Annotated[str, msgspec.Meta(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$")]
Side = Literal["LEFT", "RIGHT"]


class GithubUser(msgspec.Struct, frozen=True):
    login: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    type: str = "User"  # User, Bot, Organization, ...


class GithubComment(msgspec.Struct, frozen=True):
    """One review comment, the fields limpet reads (GitHub's names and types)."""

    id: Annotated[int, msgspec.Meta(ge=1)]
    path: Annotated[str, msgspec.Meta(min_length=1, max_length=4096)]
    body: Annotated[str, msgspec.Meta(max_length=1_000_000)]
    created_at: Timestamp
    user: GithubUser | None = None  # null for a deleted account
    in_reply_to_id: Annotated[int, msgspec.Meta(ge=1)] | None = None
    line: Line | None = None  # null: outdated (the line is gone from the pull request's head)
    start_line: Line | None = None
    original_line: Line | None = None
    original_start_line: Line | None = None
    side: Side | None = None
    start_side: Side | None = None
    commit_id: Sha | None = None
    original_commit_id: Sha | None = None
    subject_type: Literal["line", "file"] | None = None
    diff_hunk: Annotated[str, msgspec.Meta(max_length=1_000_000)] | None = None
    html_url: Annotated[str, msgspec.Meta(max_length=4096)] | None = None

    @property
    def outdated(self) -> bool:
        return self.subject_type != "file" and self.line is None


class GithubThread(msgspec.Struct, frozen=True):
    root: GithubComment
    replies: tuple[GithubComment, ...]  # in the order GitHub wrote them
    orphan_reply: bool = False  # the root is a reply whose thread was not in the input


class Resolution(msgspec.Struct, frozen=True):
    resolved: bool
    by: str | None  # who resolved it, when GitHub says


def author_of(comment: GithubComment) -> tuple[str, str]:
    """(author, author type): the login, an agent for a bot account, else a human."""
    if comment.user is None:
        return "ghost", "human"  # GitHub's name for a deleted account
    return comment.user.login, "agent" if comment.user.type == "Bot" else "human"


def limpet_body(comment: GithubComment) -> str:
    """The comment's text as a limpet comment holds it (1 to MAX_BODY characters)."""
    body = comment.body.strip("\n")
    if not body.strip():
        return "(an empty comment on GitHub)"
    if len(body) > MAX_BODY:
        note = f"\n\n… (cut at {MAX_BODY:,} characters; whole on GitHub: {comment.html_url or comment.id})"
        body = body[: MAX_BODY - len(note)] + note
    return body


# -- reading -------------------------------------------------------------------------------------

def _documents(data: bytes, what: str) -> list[Any]:
    """The JSON values in `data`: one, or several one after another (`gh api --paginate`)."""
    if len(data) > MAX_GITHUB_INPUT:
        raise InvalidArgument(f"The {what} file has {len(data):,} bytes; limpet reads at most "
                              f"{MAX_GITHUB_INPUT:,}", field="file", details={"limit": MAX_GITHUB_INPUT})
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return [orjson.loads(data)]
    except orjson.JSONDecodeError:
        pass
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseFailure(f"The {what} file is not UTF-8 text: {exc}", field="file") from None
    decoder, docs, at = json.JSONDecoder(), [], 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            break
        try:
            doc, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise ParseFailure(f"The {what} file is not JSON: {exc}", field="file",
                               details={"line": exc.lineno, "column": exc.colno}) from None
        docs.append(doc)
    if not docs:
        raise ParseFailure(f"The {what} file is empty", field="file")
    return docs


_AT = re.compile(r" - at `\$(.*)`$")


def _comment(raw: object, index: int) -> GithubComment:
    try:
        return msgspec.convert(raw, GithubComment)
    except msgspec.ValidationError as exc:
        message = str(exc)
        where = _AT.search(message)
        field = f"comments[{index}]" + (where.group(1) if where else "")
        reason = message[: where.start()] if where else message
        raise InvalidArgument(f"GitHub comment {index} ({field}): {reason}", field=field,
                              details={"index": index},
                              suggestion="Give the JSON `gh api repos/OWNER/REPO/pulls/N/comments "
                                         "--paginate` prints.") from None


def _raw_comments(docs: list[Any]) -> list[Any]:
    out: list[Any] = []
    for doc in docs:
        pages = doc if isinstance(doc, list) and doc and all(isinstance(p, list) for p in doc) else [doc]
        for page in pages:
            if not isinstance(page, list):
                raise InvalidArgument("GitHub's review comments are a JSON array (of comment objects)",
                                      field="comments", details={"got": type(page).__name__})
            out.extend(page)
    if len(out) > MAX_COMMENTS:
        raise InvalidArgument(f"{len(out):,} comments; limpet imports at most {MAX_COMMENTS:,} at once",
                              field="comments", details={"limit": MAX_COMMENTS})
    return out


def read_github_comments(data: bytes) -> list[GithubThread]:
    """The threads of a pull request's review comments, in the order their first comments
    were written (a repeated comment, from overlapping pages, is read once)."""
    comments: dict[int, GithubComment] = {}
    for index, raw in enumerate(_raw_comments(_documents(data, "GitHub comments"))):
        comment = _comment(raw, index)
        comments.setdefault(comment.id, comment)
    roots: dict[int, list[GithubComment]] = {}
    for comment in comments.values():
        roots.setdefault(_root_of(comment, comments), []).append(comment)
    threads = []
    for root_id, members in roots.items():
        members.sort(key=lambda c: (c.created_at, c.id))
        root = comments[root_id]
        replies = tuple(c for c in members if c.id != root_id)
        threads.append(GithubThread(root, replies, orphan_reply=root.in_reply_to_id is not None))
    threads.sort(key=lambda t: (t.root.created_at, t.root.id))
    return threads


def _root_of(comment: GithubComment, comments: dict[int, GithubComment]) -> int:
    """The first comment of `comment`'s thread that the input holds (replies name the thread's
    first comment; an older reply may name another reply: followed, never in a loop)."""
    seen = {comment.id}
    while comment.in_reply_to_id is not None and comment.in_reply_to_id in comments:
        comment = comments[comment.in_reply_to_id]
        if comment.id in seen:
            break
        seen.add(comment.id)
    return comment.id


def read_review_threads(data: bytes) -> dict[int, Resolution]:
    """comment id -> its thread's resolution, from GitHub's GraphQL `reviewThreads` (one
    answer, several one after another, or an array of them: `gh api graphql --paginate`)."""
    out: dict[int, Resolution] = {}
    pages = [p for doc in _documents(data, "review threads") for p in (doc if isinstance(doc, list) else [doc])]
    for page_index, page in enumerate(pages):
        nodes = _thread_nodes(page, page_index)
        for n, node in enumerate(nodes):
            field = f"reviewThreads.nodes[{n}]"
            if not isinstance(node, dict) or not isinstance(node.get("isResolved"), bool):
                raise InvalidArgument(f"{field}.isResolved must be true or false", field=f"{field}.isResolved")
            by = node.get("resolvedBy")
            login = by.get("login") if isinstance(by, dict) else None
            resolution = Resolution(node["isResolved"], login if isinstance(login, str) and login else None)
            comments = node.get("comments")
            ids = comments.get("nodes") if isinstance(comments, dict) else None
            if not isinstance(ids, list):
                raise InvalidArgument(f"{field}.comments.nodes must be a list (ask for comments {{ nodes "
                                      f"{{ databaseId }} }})", field=f"{field}.comments.nodes")
            for c in ids:
                db_id = c.get("databaseId") if isinstance(c, dict) else None
                if not isinstance(db_id, int) or isinstance(db_id, bool):
                    raise InvalidArgument(f"{field}.comments.nodes[].databaseId must be an integer",
                                          field=f"{field}.comments.nodes.databaseId")
                out[db_id] = resolution
    return out


def _thread_nodes(page: object, index: int) -> list[Any]:
    node: Any = page
    for key in ("data", "repository", "pullRequest", "reviewThreads"):
        node = node.get(key) if isinstance(node, dict) else None
        if node is None:
            raise InvalidArgument(f"Review threads page {index} has no data.repository.pullRequest.reviewThreads"
                                  f" (missing {key!r})", field="reviewThreads", details={"page": index})
    nodes = node.get("nodes") if isinstance(node, dict) else None
    if nodes is None and isinstance(node, dict) and isinstance(node.get("edges"), list):
        nodes = [e.get("node") if isinstance(e, dict) else None for e in node["edges"]]
    if not isinstance(nodes, list):
        raise InvalidArgument("reviewThreads has no nodes list", field="reviewThreads.nodes")
    return nodes
