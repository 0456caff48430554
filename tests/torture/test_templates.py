"""Templates from the workspace (.limpet/prompts/NAME.md.j2) render sandboxed: no attribute
access to Python internals, no file reads, no code execution — each attempt is a PARSE_ERROR
naming the template, the server keeps serving, and the built-in prompts are unaffected."""

from __future__ import annotations

import pytest
from support import write_files
from torture.harness import TRACEBACK_MARKS, RpcServer

SECRET = "TOP-SECRET-outside-the-workspace"
ESCAPES = [
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{% for c in [].__class__.__base__.__subclasses__() %}{{ c }}{% endfor %}",
    "{{ self.__init__.__globals__ }}",
    "{{ self._TemplateReference__context }}",
    "{{ lipsum.__globals__['os'].popen('touch PWNED').read() }}",
    "{{ lipsum.__globals__.__builtins__.open('/etc/passwd').read() }}",
    "{{ cycler.__init__.__globals__.os.system('touch PWNED') }}",
    "{{ joiner.__init__.__globals__ }}",
    "{{ namespace.__init__.__globals__ }}",
    "{{ file.__class__.__init__.__globals__ }}",
    "{{ file|attr('__class__') }}",
    "{{ (file|attr('__class__')).__mro__ }}",
    "{% set k = file.__class__ %}{{ k.__subclasses__() }}",
    "{{ '{0.__class__.__mro__}'.format(file) }}",
    "{{ '%s'|format(file.__class__) }}",
    "{{ threads.__class__.__init__.__globals__ }}",
    "{{ threads[0].__class__.__dict__ if threads else file.__dict__ }}",
    "{{ threads.append(1) }}{{ threads.clear() }}",
    "{{ range.__self__.__import__('os').system('touch PWNED') }}",
    "{{ dict.__base__.__subclasses__() }}",
    "{{ config }}{{ request }}{{ os }}",
    "{% include '../../outside/secret.txt' %}",
    "{% include '/etc/passwd' %}",
    "{% import 'os' as os %}{{ os.system('touch PWNED') }}",
    "{% extends '../../outside/secret.txt' %}",
    "{{ range(10 ** 9) | list | length }}",  # the sandbox's range limit
]


@pytest.mark.timeout(120)
def test_workspace_templates_cannot_reach_python_internals_files_or_commands(workspace, tmp_path, figures):
    write_files(tmp_path, {"outside/secret.txt": SECRET})
    override = workspace / ".limpet" / "prompts" / "review_code.md.j2"
    override.parent.mkdir(parents=True)
    refused = 0
    with RpcServer(workspace, timeout=60) as server:
        server.ok("comment_add", {"file": "src/auth.py", "line_start": 10, "line_end": 14, "body": "a thread"})
        for expression in ESCAPES:
            override.write_text(f"Review {{{{ file }}}}\n{expression}\n")
            reply = server.request("prompts/get", {"name": "review_code", "arguments": {"filePath": "src/auth.py"}})
            raw = server.last_raw.decode()
            assert "error" in reply, (expression, reply)
            error = reply["error"]
            assert error["data"]["code"] == "PARSE_ERROR", (expression, error)
            assert error["data"]["details"]["template"] == str(override)
            assert SECRET not in raw and "root:" not in raw and "<class" not in raw, (expression, raw[:500])
            assert not any(mark in raw for mark in TRACEBACK_MARKS)
            refused += 1
        assert not list(workspace.rglob("PWNED")) and not list(tmp_path.rglob("PWNED"))
        # a well-behaved override still renders, and without one the built-in is back
        override.write_text("Review {{ file }}: {{ threads | length }} thread(s)\n")
        shown = server.request("prompts/get", {"name": "review_code", "arguments": {"filePath": "src/auth.py"}})
        assert shown["result"]["messages"][0]["content"]["text"] == "Review src/auth.py: 1 thread(s)\n"
        override.unlink()
        builtin = server.request("prompts/get", {"name": "review_code", "arguments": {"filePath": "src/auth.py"}})
        assert "src/auth.py" in builtin["result"]["messages"][0]["content"]["text"]
        server.ok("comment_list", {})
    figures["templates"] = {"sandbox_escapes_refused": refused}


EXHAUSTION = [
    "{{ 'x' * 10 ** 9 }}",
    "{{ 10 ** (10 ** 10) }}",
    "{{ range(10 ** 6) | list | length }}",
    "{% set s = 'x' * 1000000 %}{{ s.replace('x', s) }}",
    "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
    "{% for i in range(10000) %}{{ 'y' * 1000 }}{% endfor %}",
    # nothing called or looked up inside: stopped by the deadline (5 s) checked at each loop step
    "{% for i in range(10000) %}{% for j in range(10000) %}{% for k in range(10000) %}"
    "{% endfor %}{% endfor %}{% endfor %}",
]


# Templates that cost their compile, not their render (issue 33, items 9 and 11): measured
# before jinja2 sees them (prompts/_template_scan.py). (text, the line named)
TOO_BIG_TO_COMPILE = [
    ("Title\n" + "x" * 1_000_000, 2),  # 13-19 s and 1.2-2 GB to compile before
    ("Title\n" + "{{ file }}" * 100_000, 2),
    ("Title\n" + "{% if true %}\n" * 200 + "x\n" + "{% endif %}\n" * 200, 18),  # IndentationError
    ("Title\n{{ " + "(" * 5000 + "1" + ")" * 5000 + " }}\n", 2),  # RecursionError
    ("Title\n{{ " + "[" * 100 + "]" * 100 + " }}\n", 2),
    ("Title\n{{ 1" + " + 1" * 5000 + " }}\n", 2),  # a chain of operators nests as deep
    ("Title\n{{ file" + " | upper" * 5000 + " }}\n", 2),
    ("Title\n" + "{% for i in [1] %}" * 200 + "{% endfor %}" * 200 + "\n", 2),
    ("Title\n" + "{% macro m() %}" * 200 + "{% endmacro %}" * 200 + "\n", 2),
    ("Title\n" + "{{ file.upper() }}\n" * 5000, 835),
]


@pytest.mark.timeout(120)
def test_workspace_templates_too_big_to_compile_are_refused_before_compiling(workspace, tmp_path, figures):
    override = workspace / ".limpet" / "prompts" / "review_code.md.j2"
    override.parent.mkdir(parents=True)
    refused = 0
    with RpcServer(workspace, timeout=60) as server:
        for text, line in TOO_BIG_TO_COMPILE:
            override.write_text(text)
            reply = server.request("prompts/get", {"name": "review_code", "arguments": {"filePath": "src/auth.py"}})
            error = reply["error"]["data"]
            assert error["code"] == "PARSE_ERROR" and error["details"]["line"] == line, (text[:60], error)
            assert error["details"]["error"] == "LimitExceeded" and "limit for workspace templates" in error["message"]
            refused += 1
        server.ok("comment_list", {})
    figures["templates"] = {**figures.get("templates", {}), "too_big_to_compile_refused": refused}


@pytest.mark.timeout(120)
def test_workspace_templates_cannot_exhaust_memory_or_time(workspace, figures):
    override = workspace / ".limpet" / "prompts" / "review_code.md.j2"
    override.parent.mkdir(parents=True)
    refused = 0
    with RpcServer(workspace, timeout=60) as server:
        for expression in EXHAUSTION:
            override.write_text(f"Review {{{{ file }}}}\n{expression}\n")
            reply = server.request("prompts/get", {"name": "review_code", "arguments": {"filePath": "src/auth.py"}})
            error = reply["error"]["data"]
            assert error["code"] == "PARSE_ERROR", (expression, error)
            assert error["details"]["error"] == "LimitExceeded" and error["details"]["line"] == 2, error
            assert "limit for workspace templates" in error["message"]
            refused += 1
        server.ok("comment_list", {})
    figures["templates"] = {**figures.get("templates", {}), "resource_exhaustion_refused": refused}


@pytest.mark.timeout(120)
def test_a_template_reached_through_a_symlink_is_refused_never_rendered(workspace, tmp_path, figures):
    import os
    import shutil

    write_files(tmp_path, {"outside/secret.txt": SECRET, "outside/prompts/review_code.md.j2": SECRET})
    prompts = workspace / ".limpet" / "prompts"
    prompts.mkdir(parents=True)
    refused = 0
    with RpcServer(workspace, timeout=60) as server:
        for target, link in ((tmp_path / "outside" / "secret.txt", prompts / "review_code.md.j2"),
                             (tmp_path / "outside" / "prompts", prompts)):
            if link == prompts:
                shutil.rmtree(prompts)
            os.symlink(target, link)
            reply = server.request("prompts/get", {"name": "review_code", "arguments": {"filePath": "src/auth.py"}})
            raw = server.last_raw.decode()
            assert reply["error"]["data"]["code"] == "PARSE_ERROR" and "symlink" in reply["error"]["message"], reply
            assert SECRET not in raw
            refused += 1
    figures["templates"] = {**figures.get("templates", {}), "symlinked_templates_refused": refused}
