"""Workspace templates render within limits: values built by operators, filters and calls, big
integers, range(), the output and the time of one render are bounded, and going over any of
them is the PARSE_ERROR a broken override gives, naming the file, the line and the limit —
never a hang, never a MemoryError. Built-in templates are not limited (golden tests)."""

from __future__ import annotations

import pytest
from support import write_override

import limpet.prompts._limits as limits
from limpet.prompts import TemplateFailure, get_prompt

S = "{% set s = 'x' * 1000000 %}"  # the biggest string a template may build


def refusal(source, fixture_ws, text):
    path = write_override(fixture_ws, "review_code", text)
    with pytest.raises(TemplateFailure) as info:
        get_prompt(source, "review_code", {"filePath": "src/auth.py"})
    err = info.value
    assert err.code == "PARSE_ERROR" and err.details["template"] == str(path)
    assert err.details["error"] == "LimitExceeded"
    return err


@pytest.mark.parametrize("expression", [
    "{{ 'x' * 10 ** 9 }}",
    "{{ [0] * 10 ** 9 }}",
    "{{ 'x' * 1000001 }}",
    S + "{{ s + s }}",
    S + "{{ [s] * 2 }}",
    S + "{{ s ~ 'y' }}",
    S + "{{ '%s%s' % (s, s) }}",
    "{{ '%1000000000d' % 1 }}",
    "{{ '{:>1000000000}'.format(1) }}",
    "{{ 'x'.center(10 ** 9) }}",
    "{{ 'x' | center(10 ** 9) }}",
    S + "{{ s.replace('x', s) }}",
    S + "{{ s | replace('x', s) }}",
    S + "{{ ([''] * 1000000) | join(s) }}",
    S + "{{ ('\\n' * 100000) | indent(s) }}",
    "{{ (([[1] * 1000] * 1000) | map('list')) | sum(start=[]) }}",
    "{% set l = [] %}{% for i in range(10000) %}{{ l.extend([1] * 1000) }}{% endfor %}",
    "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
])
def test_values_over_a_million_characters_or_items_are_refused(source, fixture_ws, expression):
    err = refusal(source, fixture_ws, f"Title\n{expression}\n")
    assert err.details["line"] == 2
    assert "1,000,000" in err.message
    assert "the size limit" in err.message or "the argument limit" in err.message


@pytest.mark.parametrize("expression", ["{{ 10 ** (10 ** 10) }}", "{{ 2 ** 5000 }}",
                                        "{{ (2 ** 4095) * (2 ** 4095) }}"])
def test_integers_over_4096_bits_are_refused(source, fixture_ws, expression):
    err = refusal(source, fixture_ws, f"Title\n{expression}\n")
    assert err.details["line"] == 2 and "4,096" in err.message and "integer limit" in err.message


@pytest.mark.parametrize("expression", ["{{ range(10 ** 9) | list | length }}", "{{ range(10001) | length }}"])
def test_range_is_capped_at_ten_thousand(source, fixture_ws, expression):
    err = refusal(source, fixture_ws, f"Title\n{expression}\n")
    assert err.details["line"] == 2 and "10,000" in err.message and "range limit" in err.message


def test_output_over_two_million_characters_is_refused_at_its_line(source, fixture_ws):
    err = refusal(source, fixture_ws, "Title\n\n{% for i in range(3000) %}{{ 'y' * 1000 }}{% endfor %}\n")
    assert err.details["line"] == 3 and "2,000,000" in err.message and "output limit" in err.message


@pytest.mark.parametrize("loop", [
    "{% for i in range(10000) %}{% for j in range(10000) %}{% for k in range(10000) %}"
    "{% endfor %}{% endfor %}{% endfor %}",  # nothing called or looked up: the loop steps are checked
    "{% set l = [0] * 1000000 %}{% for a in l %}{% for b in l %}{% endfor %}{% endfor %}",
    "{% for i in range(10000) %}{% for j in range(10000) %}{{ file[:0] }}{% endfor %}{% endfor %}",
    "{% macro m(n) %}{{ m(n) if n else '' }}{% endmacro %}{% for i in range(10000) %}"
    "{% for j in range(10000) %}{{ m(0) }}{% endfor %}{% endfor %}",
])
def test_a_render_that_runs_past_the_deadline_is_stopped(source, fixture_ws, monkeypatch, loop):
    monkeypatch.setattr(limits, "DEADLINE_SECONDS", 0.2)
    err = refusal(source, fixture_ws, f"Title\n{loop}\n")
    assert err.details["line"] == 2 and "0.2 s" in err.message and "time limit" in err.message


def test_the_deadline_is_five_seconds():
    assert limits.DEADLINE_SECONDS == 5.0


def test_templates_within_the_limits_render_as_before(source, fixture_ws):
    write_override(fixture_ws, "review_code", (
        "{{ 3 ** 20 }} {{ 'ab' * 2 }} {{ [1] + [2] }} {{ 'a' ~ 'b' }} {{ '%s-%03d' % (file, 7) }}\n"
        "{% for t in threads %}{{ loop.index }}/{{ loop.length }} {% else %}none{% endfor %}\n"
        "{{ range(3) | map('string') | join(',') }} {{ nothing | default('d') }} {{ '{}!'.format(focus) }}\n"
        "{{ ('x' * 999999) | length }} {{ range(10000) | sum }}\n"))
    assert get_prompt(source, "review_code", {"filePath": "src/auth.py"}) == (
        "3486784401 abab [1, 2] ab src/auth.py-007\n1/2 2/2 0,1,2 d all!\n999999 49995000\n")


def test_lipsum_is_not_offered_to_workspace_templates(source, fixture_ws):
    write_override(fixture_ws, "review_code", "{{ lipsum(100000) }}\n")
    with pytest.raises(TemplateFailure, match="'lipsum' is undefined"):
        get_prompt(source, "review_code", {"filePath": "src/auth.py"})


def test_jinja_module_globals_are_left_alone(source, fixture_ws):
    import jinja2.sandbox

    refusal(source, fixture_ws, "{{ range(20000) | length }}\n")
    assert jinja2.sandbox.MAX_RANGE == 100000
