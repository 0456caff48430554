"""A workspace template measured before it is compiled (the limits: prompts/_limits.py).

jinja2 parses a template recursively and compiles it to Python source that Python compiles
again: 200 nested `{% if %}` are 200 indents (IndentationError past 100), 5,000 nested
parentheses a RecursionError, a megabyte of text seconds and gigabytes. So the text is
measured first, cheaply and linearly: its length before anything else, then jinja2's own
lexer (a flat token stream, no recursion: what is counted is what the parser will see) for
the number of tags and of their tokens (what compiling costs), the nesting of blocks and of
brackets, and the tokens of one tag (an expression nests as deep as it is long). Going
over a limit is a TemplateFailure (PARSE_ERROR) naming the file and the line.
"""

from __future__ import annotations

from typing import Any

from limpet.prompts._limits import (
    MAX_TEMPLATE_BLOCK_DEPTH,
    MAX_TEMPLATE_BRACKET_DEPTH,
    MAX_TEMPLATE_CHARS,
    MAX_TEMPLATE_TAG_TOKENS,
    MAX_TEMPLATE_TAGS,
    MAX_TEMPLATE_TOKENS,
)

__all__ = ["TemplateTooBig", "check_template_text"]

# Tags that open a block closed by {% end<name> %} ({% set %} only without `=`: the block form).
_BLOCKS = frozenset({"if", "for", "macro", "call", "filter", "with", "block", "autoescape", "set", "trans"})
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")  # operators, as the raw token stream spells them
_SKIPPED = frozenset({"whitespace", "comment", "linecomment"})


class TemplateTooBig(Exception):
    """Over one of the limits; `line` is where."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def check_template_text(env: Any, source: str, name: str) -> None:
    """Raise TemplateTooBig when `source` is over a limit; jinja2's TemplateSyntaxError when its
    lexer refuses it (unbalanced brackets ...)."""
    if len(source) > MAX_TEMPLATE_CHARS:
        raise TemplateTooBig(f"the template is {len(source):,} characters, over {MAX_TEMPLATE_CHARS:,}, the size "
                             "limit for workspace templates", source.count("\n", 0, MAX_TEMPLATE_CHARS) + 1)
    tags = blocks = brackets = tokens = 0
    tag: list[tuple[str, str]] = []  # the current tag's tokens
    for line, kind, value in env.lex(source, name):
        if kind in _SKIPPED:
            continue
        if kind in ("block_begin", "variable_begin"):
            tags += 1
            _over(tags, MAX_TEMPLATE_TAGS, "tags ({% %} and {{ }})", line)
            tag = []
        elif kind == "block_end":
            blocks += _block_step(tag)
            _over(blocks, MAX_TEMPLATE_BLOCK_DEPTH, "blocks ({% if %}, {% for %}, ...) inside one another", line)
        elif kind != "variable_end":
            tag.append((kind, value))
            tokens += 1
            _over(len(tag), MAX_TEMPLATE_TAG_TOKENS, "tokens in one tag", line)
            _over(tokens, MAX_TEMPLATE_TOKENS, "tokens in tags", line)
            if kind == "operator" and value in _OPEN:
                brackets += 1
                _over(brackets, MAX_TEMPLATE_BRACKET_DEPTH, "brackets ( [ { inside one another", line)
            elif kind == "operator" and value in _CLOSE:
                brackets -= 1


def _block_step(tag: list[tuple[str, str]]) -> int:
    """+1 for a tag opening a block, -1 for one closing it, 0 otherwise."""
    if not tag or tag[0][0] != "name":
        return 0
    word = tag[0][1]
    if word.startswith("end") and word[3:] in _BLOCKS:
        return -1
    if word == "set":
        return 0 if ("operator", "=") in tag else 1
    return 1 if word in _BLOCKS else 0


def _over(count: int, limit: int, what: str, line: int) -> None:
    if count > limit:
        raise TemplateTooBig(f"more than {limit:,} {what}, the limit for workspace templates", line)
