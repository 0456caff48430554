"""Workspace templates are measured before they are compiled (issue 33, items 9 and 11): a
megabyte of text, 200 nested {% if %} or 5,000 nested parentheses are the PARSE_ERROR of a
broken override, naming the file, the line and the limit, and never reach jinja2's compiler
(which took 13-19 s and 2 GB for the first, and raised IndentationError or RecursionError for
the others). The limits are written once, in prompts/_limits.py."""

from __future__ import annotations

import pytest
from support import write_override

import limpet.prompts._limits as limits
from limpet.prompts import TemplateFailure, get_prompt

ARGS = {"filePath": "src/auth.py"}


@pytest.fixture
def no_compiling(monkeypatch):
    """jinja2's compiler refuses to run: what is refused must be refused before it."""
    import jinja2

    def compile_(*args, **kwargs):
        raise AssertionError("the template reached jinja2's compiler")

    monkeypatch.setattr(jinja2.Environment, "compile", compile_)


def refused(source, workspace, text: str) -> TemplateFailure:
    path = write_override(workspace, "review_code", text)
    with pytest.raises(TemplateFailure) as info:
        get_prompt(source, "review_code", ARGS)
    err = info.value
    assert err.code == "PARSE_ERROR" and err.details["template"] == str(path)
    assert err.details["error"] == "LimitExceeded" and "limit for workspace templates" in err.message
    assert f"{path}, line {err.details['line']}:" in err.message
    return err


def test_a_megabyte_override_is_refused_before_it_is_read_further(source, fixture_ws, no_compiling):
    err = refused(source, fixture_ws, "Review\n" + "{{ file }} " * 100_000)
    assert err.details["line"] == 2 and "100,000" in err.message and "1,100,00" in err.message


def test_200_nested_ifs_are_refused_at_the_first_too_deep(source, fixture_ws, no_compiling):
    deep = "\n".join(["Title", *["{% if true %}"] * 200, "x", *["{% endif %}"] * 200])
    err = refused(source, fixture_ws, deep)
    assert err.details["line"] == 2 + limits.MAX_TEMPLATE_BLOCK_DEPTH
    assert "blocks" in err.message


def test_5000_nested_parentheses_are_refused(source, fixture_ws, no_compiling):
    err = refused(source, fixture_ws, "Title\n\n{{ " + "(" * 5000 + "1" + ")" * 5000 + " }}\n")
    assert err.details["line"] == 3


@pytest.mark.parametrize("text, what", [
    ("{{ " + "[" * 17 + "]" * 17 + " }}", "brackets"),
    ("{{ 1" + " + 1" * 24 + " }}", "tokens in one tag"),
    ("{{ 'a'" + " | upper" * 24 + " }}", "tokens in one tag"),
    ("{{ x }}\n" * 1001, "tags"),
    ("{{ a.b(c) }}\n" * 900, "tokens in tags"),
    ("{% for i in x %}" * 17 + "{% endfor %}" * 17, "blocks"),
    ("{% macro m() %}" * 17 + "{% endmacro %}" * 17, "blocks"),
    ("{% set a %}" * 17 + "{% endset %}" * 17, "blocks"),
    ("{% filter upper %}" * 9 + "{% with a = 1 %}" * 8 + "x" + "{% endwith %}" * 8 + "{% endfilter %}" * 9, "blocks"),
])
def test_every_measure_has_its_limit(source, fixture_ws, no_compiling, text, what):
    assert what in refused(source, fixture_ws, text).message


def test_a_template_at_every_limit_still_renders(source, fixture_ws):
    depth = limits.MAX_TEMPLATE_BLOCK_DEPTH
    text = ("{% if true %}" * (depth - 1) + "{% for t in threads %}"
            + "{{ (" * 1 + "[" * (limits.MAX_TEMPLATE_BRACKET_DEPTH - 1) + "1" + "]" * (limits.MAX_TEMPLATE_BRACKET_DEPTH - 1)
            + ") | length }}" + "{% endfor %}" + "{% endif %}" * (depth - 1)
            + "{% set a = 1 %}{% set b = 2 %}" * 40 + "\n{{ 1" + " + 1" * 23 + " }}\n")
    assert get_prompt(source, "review_code", ARGS) != ""  # the built-in, before the override
    write_override(fixture_ws, "review_code", text)
    assert get_prompt(source, "review_code", ARGS) == "11" + "24\n"  # a 1 per thread (two), then 1 + 23


def test_the_lexer_s_own_refusals_are_syntax_errors_with_their_line(source, fixture_ws):
    write_override(fixture_ws, "review_code", "ok\n{{ (1 }}\n")
    with pytest.raises(TemplateFailure) as info:
        get_prompt(source, "review_code", ARGS)
    assert info.value.details["error"] == "syntax" and info.value.details["line"] == 2


def test_built_in_templates_are_well_within_the_limits():
    from jinja2.sandbox import SandboxedEnvironment

    from limpet.prompts._render import builtin_template_source
    from limpet.prompts._template_scan import check_template_text

    env = SandboxedEnvironment()
    for name in ("review_code", "fix_orphans", "explain_complexity", "training_export"):
        check_template_text(env, builtin_template_source(name), name)
