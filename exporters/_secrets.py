"""Secrets out of training data: what detect-secrets finds becomes a typed placeholder.

Code under review holds tokens, keys and passwords (the code a thread was on, and what people
quoted in comments); a dataset must not. Every training format (JSONL, Parquet, Delta) passes
the text it writes through `Redactor.text`: each secret becomes `<SECRET:GitHubToken>`
(detect-secrets' type, without spaces), and the redactor counts them by type for the summary.

detect-secrets' plugins take ~0.25 ms a line together, so only text that goes out is scanned,
one line at a time, each distinct text and line once (the same code appears in a pair's prompt and its
`before`), and each plugin only on lines that can hold what it looks for: the pattern plugins
(tokens and keys of known shapes, all 20 characters or more) and the entropy plugin on lines
with a run of 20 token characters, basic auth on lines with `://` and `@`, private keys on
lines that say `private`, the keyword plugin on lines with one of its keywords (`password`,
`secret`, `api_key`...). A text with none of these is returned at once. The regex plugins give
the secret's span (their findings only keep a group of it); the keyword and entropy plugins give
the value, replaced wherever it occurs in the line. Left out: public IPv4 addresses (not
secrets) and hex "high entropy" strings (every commit hash and digest in code).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cached_property

__all__ = ["Redactor", "placeholder"]

_RUN = re.compile(r"[A-Za-z0-9+/=_\-]{20}")  # the shortest token any pattern or entropy plugin finds
_KEYWORDS = ("pass", "pwd", "secret", "key", "token", "auth", "contrase")  # detect-secrets' keyword list, folded
_KEYWORD_TYPE = "Secret Keyword"
_LEFT_OUT = {"Public IP (ipv4)", "Hex High Entropy String"}
_CACHE = 1 << 16  # distinct lines remembered


def _worth_scanning(text: str) -> bool:
    """Can `text` hold anything a plugin finds? (See the module's docstring.)"""
    if _RUN.search(text) is not None or ("://" in text and "@" in text):
        return True
    low = text.lower()  # the keywords spelled out: a generator over them costs half as much again
    return ("pass" in low or "pwd" in low or "secret" in low or "key" in low or "token" in low or "auth" in low
            or "contrase" in low or "private" in low)


def placeholder(secret_type: str) -> str:
    words = re.split(r"[^A-Za-z0-9]+", secret_type)
    return "<SECRET:" + "".join(w[:1].upper() + w[1:] for w in words) + ">"


def _trimmed(m: re.Match[str], secret_type: str) -> tuple[int, int, int, str]:
    """A find's span, without the URL punctuation basic-auth's pattern takes in (`://`, `@`)."""
    start, end = m.span()
    text = m.group(0)
    if text.startswith("://"):
        start += 3
    if text.endswith("@") and end - 1 > start:
        end -= 1
    return start, end, 0, secret_type


class Redactor:
    """Replaces secrets in text with placeholders; `counts` says how many of each type."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._lines: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {}
        self._texts: dict[str, tuple[str, tuple[str, ...]]] = {}  # whole texts seen, and what they held

    @cached_property
    def _plugins(self) -> tuple[list, list]:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.plugins.base import RegexBasedDetector

        spans, values = [], []
        for secret_type, cls in sorted(get_mapping_from_secret_type_to_class().items()):
            if secret_type in _LEFT_OUT:
                continue
            if issubclass(cls, RegexBasedDetector):
                spans.append((secret_type, tuple(cls().denylist)))
            else:  # keyword, base64 entropy: they report the value
                values.append((secret_type, cls()))
        return spans, values

    def text(self, text: str | None, filename: str = "comment.txt") -> str | None:
        """`text` with every secret replaced (None and secret-free text come back as they are)."""
        if not text:
            return text
        hit = self._texts.get(text)  # the same code as a thread's text and its creation snapshot
        if hit is None:
            if len(self._texts) >= _CACHE:
                self._texts.clear()
            hit = self._texts[text] = self._text(text, filename) if _worth_scanning(text) else (text, ())
        if hit[1]:
            self.counts.update(hit[1])
        return hit[0]

    def _text(self, text: str, filename: str) -> tuple[str, tuple[str, ...]]:
        lines = text.split("\n")
        found: list[str] = []
        for i, line in enumerate(lines):
            if _worth_scanning(line):
                lines[i], kinds = self._line(line, filename)
                found += kinds
        return ("\n".join(lines), tuple(found)) if found else (text, ())

    def _line(self, line: str, filename: str) -> tuple[str, tuple[str, ...]]:
        key = (line, filename.rsplit(".", 1)[-1] if "." in filename else "")
        hit = self._lines.get(key)
        if hit is None:
            if len(self._lines) >= _CACHE:
                self._lines.clear()
            hit = self._lines[key] = self._scan(line, filename)
        return hit

    def _scan(self, line: str, filename: str) -> tuple[str, tuple[str, ...]]:
        spans_plugins, value_plugins = self._plugins
        low = line.lower()
        run = _RUN.search(line) is not None
        shaped = run or ("://" in line and "@" in line) or "private" in low
        keyword = any(k in low for k in _KEYWORDS)
        found: list[tuple[int, int, int, str]] = []  # start, end, priority (lower wins), type
        for secret_type, patterns in spans_plugins if shaped else ():
            for rx in patterns:
                found += [_trimmed(m, secret_type) for m in rx.finditer(line) if m.end() > m.start()]
        for priority, (secret_type, plugin) in enumerate(value_plugins, start=1):
            if not (keyword if secret_type == _KEYWORD_TYPE else run):
                continue
            for secret in plugin.analyze_line(filename=filename, line=line, line_number=0):
                value = secret.secret_value
                if value:
                    found += [(m.start(), m.end(), priority, secret_type)
                              for m in re.finditer(re.escape(value), line)]
        if not found:
            return line, ()
        merged: list[list] = []  # overlapping finds are one secret, named by the most specific
        for start, end, priority, secret_type in sorted(found):
            if merged and start < merged[-1][1]:
                last = merged[-1]
                last[1] = max(last[1], end)
                if priority < last[2]:
                    last[2], last[3] = priority, secret_type
            else:
                merged.append([start, end, priority, secret_type])
        out, at = [], 0
        for start, end, _, secret_type in merged:
            out += [line[at:start], placeholder(secret_type)]
            at = end
        out.append(line[at:])
        return "".join(out), tuple(m[3] for m in merged)
