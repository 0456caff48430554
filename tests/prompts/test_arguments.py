"""Prompt arguments: declared once, converted from the strings MCP sends, refused with
field-level errors; unknown files and paths get the contract's codes."""

from __future__ import annotations

import pytest

from limpet.model import FileNotFound, InvalidArgument, InvalidPath
from limpet.prompts import PROMPTS, gather_explain_complexity, get_prompt, review_code

SEED_ARGUMENTS = {  # seed 004's prompts: argument -> (required, default)
    "review_code": {"filePath": (True, None), "focus": (False, "all")},
    "explain_complexity": {"filePath": (True, None), "complexityThreshold": (False, 10)},
    "training_export": {"includeContext": (False, True)},
    "fix_orphans": {"filePath": (False, None)},
}


def test_the_four_prompts_declare_the_seed_arguments():
    declared = {name: {a.name: (a.required, a.default) for a in spec.args} for name, spec in PROMPTS.items()}
    assert declared == SEED_ARGUMENTS
    assert PROMPTS["review_code"].args[1].enum == ("security", "performance", "maintainability", "all")


@pytest.mark.parametrize(("raw", "expected"), [("2", 2), (" 15 ", 15), (7, 7)])
def test_integer_arguments_arrive_as_strings(raw, expected):
    assert PROMPTS["explain_complexity"].convert({"filePath": "a.py", "complexityThreshold": raw}) == {
        "file_path": "a.py", "complexity_threshold": expected}


@pytest.mark.parametrize(("raw", "expected"), [("true", True), ("false", False), ("False", False), ("1", True),
                                               ("no", False), (True, True)])
def test_boolean_arguments_arrive_as_strings(raw, expected):
    assert PROMPTS["training_export"].convert({"includeContext": raw}) == {"include_context": expected}


def test_absent_or_empty_optional_arguments_take_their_defaults():
    assert PROMPTS["review_code"].convert({"filePath": "a.py"})["focus"] == "all"
    assert PROMPTS["review_code"].convert({"filePath": "a.py", "focus": ""})["focus"] == "all"
    assert PROMPTS["training_export"].convert(None) == {"include_context": True}
    assert PROMPTS["fix_orphans"].convert({}) == {"file_path": None}


@pytest.mark.parametrize(("name", "args", "field"), [
    ("review_code", {"filePath": "src/auth.py", "focus": "style"}, "focus"),
    ("review_code", {}, "filePath"),
    ("review_code", {"filePath": "src/auth.py", "fous": "security"}, "fous"),
    ("explain_complexity", {"filePath": "src/rules.py", "complexityThreshold": "ten"}, "complexityThreshold"),
    ("explain_complexity", {"filePath": "src/rules.py", "complexityThreshold": "0"}, "complexityThreshold"),
    ("explain_complexity", {"filePath": "src/rules.py", "complexityThreshold": "2.5"}, "complexityThreshold"),
    ("training_export", {"includeContext": "maybe"}, "includeContext"),
    ("no_such_prompt", {}, "name"),
])
def test_bad_arguments_are_invalid_argument_naming_the_field(source, name, args, field):
    with pytest.raises(InvalidArgument) as info:
        get_prompt(source, name, args)
    assert info.value.field == field
    assert info.value.to_dict()["details"]["rpc_code"] == -32602


def test_a_bad_focus_lists_the_allowed_values(source):
    with pytest.raises(InvalidArgument) as info:
        get_prompt(source, "review_code", {"filePath": "src/auth.py", "focus": "style"})
    assert info.value.details["allowed"] == ["security", "performance", "maintainability", "all"]


def test_the_typed_functions_validate_too(source):
    with pytest.raises(InvalidArgument):
        review_code(source, "src/auth.py", focus="style")
    with pytest.raises(InvalidArgument):
        gather_explain_complexity(source, "src/rules.py", complexity_threshold=0)


@pytest.mark.parametrize("name", ["review_code", "explain_complexity"])
def test_an_unknown_file_is_file_not_found(source, name):
    with pytest.raises(FileNotFound) as info:
        get_prompt(source, name, {"filePath": "src/missing.py"})
    assert info.value.field == "filePath"


@pytest.mark.parametrize("name", ["review_code", "explain_complexity", "fix_orphans"])
@pytest.mark.parametrize("path", ["../outside.py", "/etc/passwd", ".limpet/threads"])
def test_paths_outside_the_workspace_are_refused(source, name, path):
    with pytest.raises(InvalidPath) as info:
        get_prompt(source, name, {"filePath": path})
    assert info.value.field == "filePath"


def test_fix_orphans_accepts_a_deleted_file_that_still_has_threads(source):
    text = get_prompt(source, "fix_orphans", {"filePath": "src/gone.py"})
    assert "c_1763790000000080" in text and "c_1763790000000070" not in text


def test_fix_orphans_refuses_a_file_that_neither_exists_nor_has_threads(source):
    with pytest.raises(FileNotFound):
        get_prompt(source, "fix_orphans", {"filePath": "src/never.py"})


def test_explain_complexity_on_a_language_without_branches_says_so(source, fixture_ws):
    (fixture_ws / "notes.txt").write_text("just text\n")
    text = get_prompt(source, "explain_complexity", {"filePath": "notes.txt"})
    assert "cannot measure cyclomatic complexity" in text
