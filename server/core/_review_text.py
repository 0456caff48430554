"""Review documents as text: finding `file:line` references and applying present_review modes.

Pure functions (strings in, values out); anchoring and storage live in _reviews.py.
A reference is the rustdoc-style link seed 001 asks agents to write: [`src/auth.py:23`][]
(the backticks are optional, and `file:10-14` names a range).
"""

from __future__ import annotations

import re
from typing import Literal, get_args

import msgspec

__all__ = ["REVIEW_MODES", "REVIEW_REFERENCE", "Edit", "Reference", "ReviewMode", "apply_mode", "find_references", "heading_text"]

ReviewMode = Literal["replace", "update-section", "append"]
REVIEW_MODES: tuple[str, ...] = get_args(ReviewMode)

_REF = re.compile(r"\[(`?)(?P<path>[^\[\]`\s][^\[\]`\n]*?):(?P<line>\d{1,9})(?:-(?P<end>\d{1,9}))?\1\]\[\]")
REVIEW_REFERENCE = _REF  # a `[`file:line`][]` reference (the page's renderer finds them in prose too)
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


class Reference(msgspec.Struct, frozen=True):
    start: int  # character offsets of the whole link in the content
    end: int
    text: str  # "src/auth.py:23" as written
    path: str
    line: int
    line_end: int


class Edit(msgspec.Struct, frozen=True):
    """The new content, and which part of it is new: [new_start, new_end) replaced the old
    content's [old_start, old_end). References outside that window keep their anchors."""

    content: str
    old_start: int
    old_end: int
    new_start: int
    new_end: int
    note: str = ""


def find_references(content: str) -> list[Reference]:
    """Every reference outside fenced code blocks, in order."""
    refs = []
    for lo, hi in _prose_spans(content):
        for m in _REF.finditer(content, lo, hi):
            line = int(m["line"])
            end = int(m["end"]) if m["end"] else line
            text = m.group(0)[1 + len(m.group(1)) : -(3 + len(m.group(1)))]
            refs.append(Reference(m.start(), m.end(), text, m["path"], line, max(line, end)))
    return refs


def _prose_spans(content: str) -> list[tuple[int, int]]:
    """Character spans of `content` that are not inside ``` / ~~~ fences."""
    spans, pos, start, fence = [], 0, 0, None
    for line in content.splitlines(keepends=True):
        m = _FENCE.match(line)
        if m and fence is None:
            spans.append((start, pos))
            fence = m.group(1)
        elif m and line.strip().startswith(fence or "\0"):
            fence, start = None, pos + len(line)
        pos += len(line)
    if fence is None:
        spans.append((start, len(content)))
    return [(a, b) for a, b in spans if b > a]


def heading_text(line: str) -> tuple[int, str] | None:
    """(level, text) of an ATX heading line, else None."""
    m = _HEADING.match(line.rstrip("\r\n"))
    return (len(m.group(1)), m.group(2).strip()) if m else None


def _headings(content: str) -> list[tuple[int, int, int, str]]:
    """(line start offset, line end offset, level, text) of every heading outside fences."""
    out, pos, fence = [], 0, None
    for line in content.splitlines(keepends=True):
        m = _FENCE.match(line)
        if m:
            fence = None if fence and line.strip().startswith(fence) else (fence or m.group(1))
        elif fence is None and (h := heading_text(line)):
            out.append((pos, pos + len(line), h[0], h[1]))
        pos += len(line)
    return out


def apply_mode(old: str, content: str, mode: str, section: str | None = None) -> Edit:
    if mode == "replace" or (mode == "append" and not old.strip()):
        return Edit(content, 0, len(old), 0, len(content))
    if mode == "append":
        head = old.rstrip("\n") + "\n\n"
        body = content.lstrip("\n")
        return Edit(head + body, len(old), len(old), len(head), len(head) + len(body))
    return _update_section(old, content, section or "")


def _update_section(old: str, content: str, section: str) -> Edit:
    """Replace the body under the heading whose text equals `section`; the heading stays."""
    heads = _headings(old)
    index = next((i for i, h in enumerate(heads) if h[3] == section.strip()), None)
    if index is None:
        # A missing section is added at the end (with a heading), so the agent's text is never lost.
        body = content.strip("\n")
        first = heading_text(body.split("\n", 1)[0])
        block = body if first and first[1] == section.strip() else f"## {section.strip()}\n\n{body}"
        edit = apply_mode(old, block + "\n", "append")
        return Edit(edit.content, edit.old_start, edit.old_end, edit.new_start, edit.new_end,
                    f"Section '{section}' not found; appended as a new section")
    _, head_end, level, _ = heads[index]
    nxt = next((h[0] for h in heads[index + 1 :] if h[2] <= level), len(old))
    body = _without_same_heading(content, section)
    body = "\n" + body.strip("\n") + "\n" + ("\n" if nxt < len(old) else "")
    head = old[:head_end] if old[:head_end].endswith("\n") else old[:head_end] + "\n"
    new = head + body + old[nxt:]
    return Edit(new, head_end, nxt, len(head), len(head) + len(body))


def _without_same_heading(content: str, section: str) -> str:
    """The content may repeat the section's heading; the original heading line is kept."""
    stripped = content.lstrip("\n")
    first, _, rest = stripped.partition("\n")
    h = heading_text(first)
    return rest if h and h[1] == section.strip() else stripped
