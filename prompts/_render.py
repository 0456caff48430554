"""Loading and rendering prompt templates: built-in, or overridden per workspace.

A workspace override (`.limpet/prompts/NAME.md.j2`) replaces the built-in template
entirely. It is rendered in a Jinja SandboxedEnvironment with StrictUndefined; when it is
broken the caller gets PARSE_ERROR naming the file and line, never the built-in instead
(a silently ignored override would be worse than a loud one). An override is measured before it
is compiled (length, tags, nesting: prompts/_template_scan.py) and renders within resource
limits (size, integers, range, output, time: prompts/_limits.py); going over one is the
same PARSE_ERROR, saying which limit. jinja2 is imported here only, on
first render: a server's cold start never pays for it.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import msgspec

from limpet.model import ParseFailure

__all__ = ["TEMPLATE_SUFFIX", "TemplateFailure", "TemplateFolder", "builtin_template_source", "context_of", "render"]

TEMPLATE_SUFFIX = ".md.j2"


class TemplateFailure(ParseFailure):
    """A prompt template that does not parse or does not render (PARSE_ERROR)."""


def builtin_template_source(name: str) -> str:
    return resources.files(__package__).joinpath("templates", f"{name}{TEMPLATE_SUFFIX}").read_text("utf-8")


class TemplateFolder(Protocol):
    """Where a workspace keeps its overrides, read by whoever owns that folder (the server
    reads `.limpet/prompts/` through its confinement layer: no symlink in any component)."""

    path: Path

    def read(self, name: str) -> bytes | None:
        """The file's bytes; None when there is none; OSError when it cannot be read (a symlink
        on the way, not a regular file), with a message saying so."""
        ...


def _source_of(name: str, override_dir: Path | TemplateFolder | None) -> tuple[str, str, bool]:
    """(template text, file name used in errors, is an override); the override wins when it exists."""
    if override_dir is not None and not isinstance(override_dir, Path):
        return _override_of(name, override_dir)
    if override_dir is not None:
        path = override_dir / f"{name}{TEMPLATE_SUFFIX}"
        linked = next((p for p in (override_dir.parent, override_dir, path) if p.is_symlink()), None)
        if linked is not None:  # committed files are input: a link could render /etc/passwd
            raise TemplateFailure(f"Prompt template {path} is reached through a symlink ({linked}): refused",
                                  field="template", details={"template": str(path)})
        if path.is_file():
            try:
                return path.read_text("utf-8"), str(path), True
            except (OSError, UnicodeDecodeError) as exc:
                raise TemplateFailure(f"Cannot read prompt template {path}: {exc}", field="template",
                                      details={"template": str(path)}) from None
    return builtin_template_source(name), f"<built-in>/templates/{name}{TEMPLATE_SUFFIX}", False


def _override_of(name: str, folder: TemplateFolder) -> tuple[str, str, bool]:
    file = f"{name}{TEMPLATE_SUFFIX}"
    shown = str(folder.path / file)
    try:
        data = folder.read(file)
        if data is not None:
            return data.decode("utf-8"), shown, True
    except (OSError, UnicodeDecodeError) as exc:
        raise TemplateFailure(f"Cannot read prompt template {shown}: {exc}: refused", field="template",
                              details={"template": shown}) from None
    return builtin_template_source(name), f"<built-in>/templates/{name}{TEMPLATE_SUFFIX}", False


def context_of(data: Any) -> dict[str, Any]:
    """A prompt's data (a msgspec struct: its top-level fields) or a mapping as template
    variables; nested values stay objects, so templates read attributes."""
    if isinstance(data, msgspec.Struct):
        return {name: getattr(data, name) for name in data.__struct_fields__}
    return dict(data)


def render(name: str, data: Any, override_dir: Path | TemplateFolder | None = None) -> str:
    """Render template `name` with the fields of `data`; TemplateFailure names file and line."""
    from jinja2 import FunctionLoader, StrictUndefined, TemplateSyntaxError
    from jinja2.sandbox import SandboxedEnvironment

    from limpet.prompts._limits import bounded_environment, render_bounded
    from limpet.prompts._template_scan import TemplateTooBig, check_template_text

    source, filename, is_override = _source_of(name, override_dir)
    options = dict(
        loader=FunctionLoader(lambda _name: (source, filename, lambda: True)),
        undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True,
        trim_blocks=True, lstrip_blocks=True,
    )
    # Built-in templates are package code: rendered as ever, sized by the data they show.
    env = bounded_environment(**options) if is_override else SandboxedEnvironment(**options)
    try:
        if is_override:  # measured before jinja2 and Python compile it (_template_scan.py)
            check_template_text(env, source, name)
        template = env.get_template(name)
    except TemplateSyntaxError as exc:
        raise _failure(filename, exc.lineno, exc.message or str(exc), "syntax") from None
    except TemplateTooBig as exc:
        raise _failure(filename, exc.line, str(exc), "LimitExceeded") from None
    except (RecursionError, SyntaxError, MemoryError) as exc:  # the scan's limits should make these unreachable
        if not is_override:
            raise
        raise _failure(filename, getattr(exc, "lineno", None), f"too complex to compile ({type(exc).__name__})",
                       "LimitExceeded") from None
    try:
        context = context_of(data)
        text = render_bounded(env, template, context) if is_override else template.render(context)
    except Exception as exc:  # any failure inside a template is the template's fault: report where
        line = _template_line(exc, filename) or getattr(exc, "line", None)
        raise _failure(filename, line, str(exc), type(exc).__name__) from None
    return text.rstrip() + "\n"


def _template_line(exc: BaseException, filename: str) -> int | None:
    # Jinja rewrites tracebacks so template frames carry the template's file name and line.
    line, tb = None, exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _failure(filename: str, line: int | None, message: str, kind: str) -> TemplateFailure:
    where = f"{filename}, line {line}" if line else filename
    return TemplateFailure(
        f"Prompt template {where}: {message}", field="template",
        details={"template": filename, "line": line, "error": kind},
        suggestion="Fix or delete the workspace template; built-in templates are in limpet/prompts/templates/.",
    )
