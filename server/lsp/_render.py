"""How a thread looks in an editor: a diagnostic, a code lens, an inlay hint, a hover.

Severity follows the tag while a thread is open (a FIXME is an error to fix, a TODO a
warning, a QUESTION or NOTE information, a STAR a hint); a resolved or won't-fix thread is a
hint. Health is said in the message and in `code`-adjacent data: a drifted thread ("the
code changed since") and an orphaned one ("its code is gone; last seen here") are marked so
a reader never takes a stale place for a current one.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types as lsp

from limpet.model import TAGS, Thread
from limpet.server.lsp._tracking import Pos, Span

__all__ = ["SEVERITY", "code_lenses", "diagnostic", "first_line", "hover_markdown", "inlay_hint", "lsp_range",
           "range_dict"]

SEVERITY: dict[str, lsp.DiagnosticSeverity] = {
    "FIXME": lsp.DiagnosticSeverity.Error,
    "TODO": lsp.DiagnosticSeverity.Warning,
    "QUESTION": lsp.DiagnosticSeverity.Information,
    "NOTE": lsp.DiagnosticSeverity.Information,
    "STAR": lsp.DiagnosticSeverity.Hint,
}
assert set(SEVERITY) == set(TAGS), "every tag has a severity"

_HEALTH_NOTE = {
    "anchored": "",
    "drifted": " (drifted: the code changed since)",
    "orphaned": " (orphaned: its code is gone; last seen here)",
}
_LABEL_CHARS = 60


def first_line(text: str, limit: int = _LABEL_CHARS) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def lsp_range(span: Span) -> lsp.Range:
    return lsp.Range(start=lsp.Position(span.start.line, span.start.character),
                     end=lsp.Position(span.end.line, span.end.character))


def range_dict(r: lsp.Range) -> dict:
    """A range as JSON (command arguments and listings carry plain JSON)."""
    return {"start": {"line": r.start.line, "character": r.start.character},
            "end": {"line": r.end.line, "character": r.end.character}}


def _replies(t: Thread) -> str:
    n = len(t.comments) - 1
    return "" if n <= 0 else f" [{n} repl{'y' if n == 1 else 'ies'}]"


def diagnostic(t: Thread, span: Span) -> dict[str, Any]:
    """The thread as an LSP Diagnostic, in JSON (built directly: after each keystroke the
    whole list is sent again, so it skips the typed objects' conversion)."""
    severity = SEVERITY[t.tag] if t.status == "open" else lsp.DiagnosticSeverity.Hint
    status = "" if t.status == "open" else f" ({t.status}" + (f": {first_line(t.decision.summary)})" if t.decision
                                                               else ")")
    message = f"{t.tag}: {first_line(t.body, 200)}{_replies(t)}{status}{_HEALTH_NOTE.get(t.health, '')}"
    return {"range": {"start": {"line": span.start.line, "character": span.start.character},
                      "end": {"line": span.end.line, "character": span.end.character}},
            "severity": severity.value, "code": t.id, "source": "limpet", "message": message,
            "data": {"threadId": t.id, "tag": t.tag, "status": t.status, "health": t.health}}


def inlay_hint(t: Thread, span: Span, end_of_first_line: Pos) -> lsp.InlayHint:
    mark = "✓" if t.status != "open" else "⚠" if t.health == "orphaned" else "◆"
    label = f"{mark} {t.tag}: {first_line(t.body)}{_replies(t)}"
    return lsp.InlayHint(position=lsp.Position(end_of_first_line.line, end_of_first_line.character), label=label,
                         padding_left=True, tooltip=lsp.MarkupContent(lsp.MarkupKind.Markdown, hover_markdown([(t, span)])))


def code_lenses(t: Thread, span: Span) -> list[lsp.CodeLens]:
    at = lsp.Range(start=lsp.Position(span.start.line, 0), end=lsp.Position(span.start.line, 0))
    n = len(t.comments)
    title = f"{t.tag} · {t.status} · {t.health} · {n} comment{'s' if n != 1 else ''}: {first_line(t.body, 40)}"
    lenses = [lsp.CodeLens(range=at, command=lsp.Command(title=title, command="limpet.openInPage", arguments=[{"threadId": t.id}]))]
    if t.status == "open":
        lenses.append(lsp.CodeLens(range=at, command=lsp.Command(title="resolve", command="limpet.resolve", arguments=[{"threadId": t.id}])))
    else:
        lenses.append(lsp.CodeLens(range=at, command=lsp.Command(title="reopen", command="limpet.reopen", arguments=[{"threadId": t.id}])))
    return lenses


def _where(t: Thread, span: Span) -> str:
    first, last = span.start.line + 1, span.end.line + 1
    lines = f"line {first}" if first == last else f"lines {first}–{last}"
    on = f" on `{t.anchor.symbol}`" if t.anchor.symbol else ""
    return f"{lines}{on}"


def hover_markdown(marks: list[tuple[Thread, Span]]) -> str:
    """The threads under the cursor (where the editor shows them), with comments and decision."""
    parts = []
    for t, span in marks:
        head = f"**{t.tag}** · {t.status} · {t.health} — `{t.id}`, {_where(t, span)}"
        out = [head]
        if t.health == "drifted":
            out.append("_The code changed since this thread was written._")
        elif t.health == "orphaned":
            out.append("_Its code is gone: this is where it was last seen. Re-attach it with a code action._")
        for i, c in enumerate(t.comments):
            who = f"**{c.author}**" + (" (agent)" if c.author_type == "agent" else "")
            lead = "" if i == 0 else "↳ "
            out.append(f"{lead}{who}, {c.created_at}:\n\n{_quoted(c.body)}")
        if t.decision:
            d = t.decision
            out.append(f"**Decision** ({d.status}) by {d.decider}, {d.decided_at}:\n\n{_quoted(d.summary)}")
        parts.append("\n\n".join(out))
    return "\n\n---\n\n".join(parts)


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines() or [""])
