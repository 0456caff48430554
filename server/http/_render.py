"""What the page shows as HTML, rendered here with well-kept libraries (never in the browser):

    markdown_html(text)                  comment bodies: CommonMark (markdown-it-py), raw HTML
                                         off, links only to http(s)/mailto, plain URLs linked
    markdown_text(line)                  a line of markdown as plain text (titles)
    review_html(content, references)    the review: the same, with `[`file:line`][]`
                                         references as links to their current place
    highlight_lines(path, text)          source as one HTML string per line (Pygments; cached)
    highlight_snippet(path, text)        the same for a piece of code (not cached)
    highlight_css()                      the token colours, light and dark (Pygments styles)

Everything a user or a file wrote is escaped by the libraries; the page inserts only what
these functions return.
"""

from __future__ import annotations

import functools
import html
import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from markdown_it import MarkdownIt
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.token import STANDARD_TYPES, _TokenType
from pygments.util import ClassNotFound

from limpet.model import blake2b
from limpet.server.core import REVIEW_REFERENCE

__all__ = ["MAX_HIGHLIGHT_BYTES", "highlight_css", "highlight_lines", "highlight_snippet", "language_of",
           "markdown_html", "markdown_text", "review_html"]

MAX_HIGHLIGHT_BYTES = 1_000_000  # bigger files are shown as plain text: the lexer would take seconds
_SAFE_LINK = re.compile(r"^(https?:|mailto:)", re.IGNORECASE)
LIGHT_STYLE, DARK_STYLE = "default", "github-dark"


# -- markdown -------------------------------------------------------------------------------------
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": True, "typographer": False})
    md.enable(["linkify", "strikethrough", "table"])
    md.disable("image")  # the page loads nothing from elsewhere (CSP, offline)
    md.validateLink = lambda url: bool(_SAFE_LINK.match(url.strip()))
    md.options["highlight"] = _fence
    md.inline.ruler.before("link", "limpet_ref", _reference_rule)
    md.inline.ruler.before("emphasis", "limpet_identifier", _identifier_rule)
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("limpet_ref", _render_reference)
    return md


def _link_open(self: Any, tokens: Sequence[Any], idx: int, options: Any, env: Any) -> str:
    tokens[idx].attrSet("rel", "noopener noreferrer")
    tokens[idx].attrSet("target", "_blank")
    return self.renderToken(tokens, idx, options, env)


def _fence(code: str, lang: str, _attrs: str) -> str:
    lexer = _lexer_by_name(lang) if lang else None
    if lexer is None:
        return ""  # markdown-it escapes it itself
    return '<pre class="hl"><code>' + "\n".join(_highlight(lexer, code)) + "</code></pre>"


_IDENTIFIER = re.compile(r"_+[A-Za-z0-9][A-Za-z0-9_]*")


def _identifier_rule(state: Any, silent: bool) -> bool:
    """Underscores that begin a run of word characters are part of an identifier, kept as
    written: `FileField.__init__`, `__all__`, `_private_` never turn bold or italic (review
    comments name code far more often than they emphasize; `*` still emphasizes)."""
    if state.src[state.pos] != "_":
        return False
    m = _IDENTIFIER.match(state.src, state.pos)
    if m is None:
        return False
    if not silent:
        state.pending += m.group()
    state.pos = m.end()
    return True


def _reference_rule(state: Any, silent: bool) -> bool:
    if not state.env.get("references_on") or state.src[state.pos] != "[":
        return False
    m = REVIEW_REFERENCE.match(state.src, state.pos)
    if m is None:
        return False
    if not silent:
        token = state.push("limpet_ref", "", 0)
        token.content = f"{m['path']}:{m['line']}" + (f"-{m['end']}" if m["end"] else "")
    state.pos = m.end()
    return True


def _render_reference(self: Any, tokens: Sequence[Any], idx: int, options: Any, env: Any) -> str:
    label = tokens[idx].content
    unused: list[dict[str, Any]] = env["limpet_refs"]
    ref = next((r for r in unused if r.get("text") == label), None)
    if ref is None:  # not anchored (outside the workspace, ...): shown, not a link
        return f'<span class="ref health-orphaned" title="Not found in the workspace">{html.escape(label)}</span>'
    unused.remove(ref)
    file, line, health = str(ref["file"]), int(ref["line"]), str(ref["health"])
    now = f"{file}:{line}"
    path, _, lines = label.rpartition(":")
    moved = (path, lines.split("-")[0]) != (file, str(line))
    title = ("Orphaned: this code is gone (last known place)" if health == "orphaned"
             else f"{health}: now {now}")
    extra = f'<span class="now"> → {html.escape(now)}</span>' if moved else ""
    return (f'<a class="ref health-{html.escape(health)}" href="#{quote(file, safe="")}:{line}" '
            f'data-file="{html.escape(file)}" data-line="{line}" title="{html.escape(title)}">'
            f"{html.escape(label)}{extra}</a>")


@functools.cache
def _md() -> MarkdownIt:
    return _markdown()


def markdown_html(text: str) -> str:
    """A comment body as safe HTML."""
    return _md().render(text, {"references_on": False})


def markdown_text(line: str) -> str:
    """One line of markdown as plain text (a title): `**x** and `y`` → `x and y`."""
    tokens = _md().parseInline(line, {"references_on": False})
    parts = [t.content for tok in tokens for t in (tok.children or []) if t.type in ("text", "code_inline")]
    return "".join(parts)


def review_html(content: str, references: Sequence[dict[str, Any]]) -> str:
    """The review as safe HTML; each reference links to its current, re-anchored place."""
    return _md().render(content, {"references_on": True, "limpet_refs": list(references)})


# -- source ---------------------------------------------------------------------------------------
def _short(ttype: _TokenType) -> str:
    while ttype not in STANDARD_TYPES:
        ttype = ttype.parent
    return STANDARD_TYPES[ttype]


def _highlight(lexer: Lexer, text: str) -> list[str]:
    """One HTML string per line of `text` (a token spanning lines is cut at each newline)."""
    lines: list[list[str]] = [[]]
    for ttype, value in lexer.get_tokens(text):
        cls = _short(ttype)
        for i, part in enumerate(value.split("\n")):
            if i:
                lines.append([])
            if part:
                escaped = html.escape(part, quote=False)
                lines[-1].append(f'<span class="{cls}">{escaped}</span>' if cls else escaped)
    if text.endswith("\n") and not lines[-1]:
        lines.pop()
    return ["".join(parts) for parts in lines]


def _lexer_by_name(name: str) -> Lexer | None:
    from pygments.lexers import get_lexer_by_name

    try:
        return get_lexer_by_name(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


def _lexer_for(path: str) -> Lexer:
    try:
        return get_lexer_for_filename(path, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


def language_of(path: str) -> str:
    return _lexer_for(path).name


_CACHE: OrderedDict[tuple[str, bytes], list[str]] = OrderedDict()  # the files shown last (re-renders)
_CACHE_SIZE = 32


def highlight_snippet(path: str, text: str) -> list[str]:
    """A piece of a file called `path` (a thread's original code), one HTML string per line."""
    return _highlight(_lexer_for(path), text[:MAX_HIGHLIGHT_BYTES])


def highlight_lines(path: str, text: str) -> list[str]:
    """`text` (a file called `path`) as one HTML string per line; plain when very large."""
    if len(text) > MAX_HIGHLIGHT_BYTES:
        lines = text.split("\n")
        return [html.escape(line, quote=False) for line in (lines[:-1] if text.endswith("\n") else lines)]
    key = (path, blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest())
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    out = _CACHE[key] = _highlight(_lexer_for(path), text)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return out


@functools.cache
def highlight_css() -> str:
    """Token colours for `.hl` code: the light style, and the dark one under [data-theme=dark]."""
    light = HtmlFormatter(style=LIGHT_STYLE).get_token_style_defs(".hl")
    dark = HtmlFormatter(style=DARK_STYLE).get_token_style_defs(":root[data-theme=dark] .hl")
    note = f"/* Pygments styles {LIGHT_STYLE} (light) and {DARK_STYLE} (dark), generated by limpet */"
    return "\n".join([note, *light, *dark]) + "\n"
