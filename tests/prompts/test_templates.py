"""Templates: variables match the data each prompt provides; workspace overrides are used,
sandboxed, and fail loudly (file and line) instead of falling back to the built-in."""

from __future__ import annotations

import subprocess
import sys

import jinja2
import jinja2.meta
import msgspec
import pytest
from support import write_override

from limpet.model import LimpetError
from limpet.prompts import PROMPTS, TEMPLATE_DATA, TemplateFailure, builtin_template_source, get_prompt


@pytest.mark.parametrize("name", sorted(PROMPTS))
def test_template_variables_are_exactly_what_the_prompt_provides(name):
    undeclared = jinja2.meta.find_undeclared_variables(jinja2.Environment().parse(builtin_template_source(name)))
    assert undeclared == {f.name for f in msgspec.structs.fields(TEMPLATE_DATA[name])}


def test_every_prompt_has_a_template_and_a_data_class():
    assert set(TEMPLATE_DATA) == set(PROMPTS)


def test_a_workspace_template_replaces_the_builtin(source, fixture_ws):
    write_override(fixture_ws, "review_code", "Review {{ file }} ({{ focus }}): {{ threads | length }} threads.\n")
    assert get_prompt(source, "review_code", {"filePath": "src/auth.py"}) == "Review src/auth.py (all): 2 threads.\n"


def test_other_prompts_keep_their_builtin_template(source, fixture_ws):
    write_override(fixture_ws, "review_code", "custom\n")
    assert get_prompt(source, "training_export", {}).startswith("Export this workspace's review threads")


def test_a_syntax_error_names_the_file_and_line(source, fixture_ws):
    path = write_override(fixture_ws, "review_code", "line one\n{% if focus %}\nunclosed\n")
    with pytest.raises(TemplateFailure) as info:
        get_prompt(source, "review_code", {"filePath": "src/auth.py"})
    err = info.value
    assert err.code == "PARSE_ERROR"
    assert err.details["template"] == str(path) and err.details["line"] == 3
    assert str(path) in err.message and "line 3" in err.message


def test_an_undefined_variable_fails_with_its_line_not_the_builtin(source, fixture_ws):
    path = write_override(fixture_ws, "explain_complexity", "ok {{ file }}\n\n{{ no_such_thing }}\n")
    with pytest.raises(TemplateFailure) as info:
        get_prompt(source, "explain_complexity", {"filePath": "src/rules.py"})
    assert info.value.details == {"template": str(path), "line": 3, "error": "UndefinedError"}
    assert "no_such_thing" in info.value.message


def test_an_undefined_attribute_is_an_error_too(source, fixture_ws):
    write_override(fixture_ws, "fix_orphans", "{% for o in orphans %}{{ o.nope }}{% endfor %}\n")
    with pytest.raises(TemplateFailure, match="nope"):
        get_prompt(source, "fix_orphans", {})


@pytest.mark.parametrize("expression", [
    "{{ ''.__class__.__mro__ }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ file.__class__ }}",
    "{{ code.text.format.__globals__ }}",
    "{{ cycler.__init__.__globals__ }}",
])
def test_workspace_templates_cannot_reach_python_internals(source, fixture_ws, expression):
    path = write_override(fixture_ws, "review_code", f"Title\n{expression}\n")
    with pytest.raises(TemplateFailure) as info:
        get_prompt(source, "review_code", {"filePath": "src/auth.py"})
    assert info.value.details["template"] == str(path)
    assert info.value.details["line"] == 2
    assert "unsafe" in info.value.message or "undefined" in info.value.message


def test_the_template_error_is_a_limpet_error_with_the_wire_shape(source, fixture_ws):
    write_override(fixture_ws, "review_code", "{{ ''.__class__ }}\n")
    with pytest.raises(LimpetError) as info:
        get_prompt(source, "review_code", {"filePath": "src/auth.py"})
    wire = info.value.to_dict()
    assert wire["code"] == "PARSE_ERROR" and wire["field"] == "template"
    assert wire["details"]["rpc_code"] == -32006 and wire["suggestion"]


def test_a_non_utf8_override_is_reported(source, fixture_ws):
    path = write_override(fixture_ws, "review_code", "")
    path.write_bytes(b"\xff\xfe bad")
    with pytest.raises(TemplateFailure, match="Cannot read prompt template"):
        get_prompt(source, "review_code", {"filePath": "src/auth.py"})


def test_importing_prompts_does_not_import_jinja2_or_the_server():
    code = "import sys, limpet.prompts; print('jinja2' in sys.modules, 'limpet.server' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
