"""Code listings and tool descriptions as prompts show them."""

from __future__ import annotations

import re

from limpet.prompts import ToolSpec, gather_explain_complexity, gather_review_code, get_prompt
from limpet.prompts._code import MAX_LINE_CHARS, file_lines, listing


def numbers(text: str) -> list[int]:
    return [int(m.group(1)) for m in re.finditer(r"^\s*(\d+) \|", text, re.MULTILINE)]


def test_lines_are_numbered_as_limpet_numbers_them():
    assert file_lines(b"a\r\nb\n\nc") == ["a", "b", "", "c"]
    assert file_lines(b"a\x0cb\n") == ["a\x0cb"]  # a form feed is not a line break
    assert file_lines(b"") == []


def test_a_short_file_is_listed_whole():
    code = listing(["x = 1", "", "y = 2"], "python")
    assert code.text == "1 | x = 1\n2 |\n3 | y = 2"
    assert not code.truncated and code.fence == "```"


def test_a_long_file_keeps_the_relevant_ranges_then_the_top_and_marks_gaps():
    lines = [f"line {n}" for n in range(1, 1001)]
    code = listing(lines, "python", keep=[(500, 505)], budget=20)
    shown = numbers(code.text)
    assert code.truncated and code.shown_lines == 20 == len(shown)
    assert shown == [*range(1, 15), *range(500, 506)]
    assert "lines 15-499 omitted" in code.text and "lines 506-1000 omitted" in code.text


def test_a_fence_cannot_be_closed_by_the_code():
    code = listing(["s = '```'", "t = '`````'"], "python")
    assert code.fence == "``````"


def test_minified_lines_are_clipped():
    code = listing(["x" * (MAX_LINE_CHARS + 50)], "")
    assert code.text.endswith("... [+50 chars]")


def test_review_code_on_a_huge_file_sends_the_code_around_its_threads(source, fixture_ws, fixture_service):
    big = "".join(f"value_{n} = {n}\n" for n in range(1, 5001))
    (fixture_ws / "src" / "big.py").write_text(big)
    fixture_service.add("src/big.py", 4000, 4001, "Why these two?", tag="QUESTION")
    data = gather_review_code(source, "src/big.py")
    shown = numbers(data.code.text)
    assert data.code.truncated and len(shown) == 400 and data.code.total_lines == 5000
    assert {3997, 4000, 4001, 4004} <= set(shown)
    text = get_prompt(source, "review_code", {"filePath": "src/big.py"})
    assert "400 of its 5000 lines are shown" in text and "omitted: too long for one prompt" in text
    assert len(text) < 40_000


def test_explain_complexity_cuts_a_huge_function(source, fixture_ws):
    body = "".join(f"    if x == {n}:\n        return {n}\n" for n in range(300))
    (fixture_ws / "src" / "huge.py").write_text(f"def huge(x):\n{body}    return -1\n")
    data = gather_explain_complexity(source, "src/huge.py", 10)
    [fn] = data.functions
    assert fn.complexity == 301 and (fn.line_start, fn.line_end) == (1, 602)
    assert fn.code.truncated and fn.code.shown_lines == 150 and "lines 151-602 omitted" in fn.code.text


SCHEMA = {
    "type": "object",
    "properties": {
        "format": {"type": "string", "enum": ["json", "jsonl"]},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "description": "A  note"},
        "options": {"type": "object", "properties": {"deep": {"type": "boolean", "default": False}}},
    },
    "required": ["format"],
}


def test_tool_specs_flatten_the_input_schema():
    spec = ToolSpec.from_schema("export", "Export.", SCHEMA)
    assert spec.arg_names == ("format", "note", "options", "options.deep")
    fmt, note, _, deep = spec.args
    assert fmt.required and fmt.enum == ("json", "jsonl")
    assert note.type == "string" and not note.required and note.description == "A note" and note.default is None
    assert deep.type == "boolean" and deep.default == "false" and not deep.required


def test_tool_calls_use_only_the_arguments_the_tool_has():
    spec = ToolSpec.from_schema("export", "Export.", SCHEMA)
    assert spec.call({"format": "jsonl", "options.deep": True, "file": "x"}) == (
        'export {"format": "jsonl", "options": {"deep": true}}')
    assert spec.call({"options.deep": True}) is None  # the required format is missing
