"""present_review and get_selection (seed 001): reference parsing, modes, anchoring, storage."""

from __future__ import annotations

import json

import orjson
import pytest

from limpet.model import LimpetError
from limpet.server.core._review_text import apply_mode, find_references
from limpet.server.operations import invoke

REVIEW = (
    "# Review\n\nAuth is sound. See [`src/auth.py:10`][].\n\n"
    "## Security Issues\n\nToken check at [`src/auth.py:13`][].\n\n### Detail\n\nmore\n\n"
    "## Performance\n\nFine ([`main.go:5`][]).\n"
)


def present(service, content, **extra):
    op, result = invoke(service, "present_review", {"content": content, "baseUri": ".", **extra})
    return result


def error_of(service, args) -> dict:
    with pytest.raises(LimpetError) as info:
        invoke(service, "present_review", args)
    return info.value.to_dict()


# -- references -------------------------------------------------------------------------------------
def test_references_are_found_in_the_rustdoc_form_with_or_without_backticks():
    refs = find_references("a [`src/a.py:3`][] b [lib/b.rs:10-12][] c [`x:1`] d [not a ref](x)")
    assert [(r.text, r.path, r.line, r.line_end) for r in refs] == [
        ("src/a.py:3", "src/a.py", 3, 3), ("lib/b.rs:10-12", "lib/b.rs", 10, 12)]


def test_references_inside_fenced_code_are_ignored():
    refs = find_references("```\n[`a.py:1`][]\n```\n[`b.py:2`][]\n")
    assert [r.text for r in refs] == ["b.py:2"]


# -- modes ------------------------------------------------------------------------------------------
def test_append_adds_to_the_end_after_a_blank_line():
    edit = apply_mode("# R\n\nbody\n", "\n## More\n\nx\n", "append")
    assert edit.content == "# R\n\nbody\n\n## More\n\nx\n"


def test_update_section_replaces_the_body_up_to_the_next_heading_of_the_same_level_and_keeps_the_heading():
    edit = apply_mode(REVIEW, "All fixed.", "update-section", "Security Issues")
    assert "## Security Issues\n\nAll fixed.\n\n## Performance" in edit.content
    assert "Token check" not in edit.content and "### Detail" not in edit.content
    assert edit.content.startswith("# Review\n\nAuth is sound.")


def test_update_section_content_may_repeat_the_heading():
    edit = apply_mode(REVIEW, "## Performance\n\nSlow now.\n", "update-section", "Performance")
    assert edit.content.endswith("## Performance\n\nSlow now.\n")
    assert edit.content.count("## Performance") == 1


def test_update_section_of_a_missing_section_appends_it_with_a_heading():
    edit = apply_mode("# R\n", "Nothing yet.", "update-section", "Risks")
    assert edit.content == "# R\n\n## Risks\n\nNothing yet.\n"
    assert "not found" in edit.note


# -- the tool ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("args", "field", "message"), [
    ({"baseUri": "."}, "content", "Content parameter is required"),
    ({"content": "  ", "baseUri": "."}, "content", "Content parameter is required"),
    ({"content": "x", "baseUri": ".", "mode": "merge"}, "mode", "Mode must be 'replace', 'update-section', or 'append'"),
    ({"content": "x", "baseUri": ".", "mode": "update-section"}, "section",
     "Section parameter required for update-section mode"),
    ({"content": "x"}, "baseUri", "baseUri parameter is required"),
])
def test_invalid_arguments_get_the_seed_messages(service, args, field, message):
    err = error_of(service, args)
    assert err["code"] == "INVALID_ARGUMENT"
    assert err["field"] == field
    assert message in err["message"]


def test_present_review_anchors_references_and_reports_them(service):
    result = present(service, REVIEW)
    assert result["success"] is True
    refs = {r["text"]: r for r in result["references"]}
    assert refs["src/auth.py:10"] == {"text": "src/auth.py:10", "file": "src/auth.py", "line": 10, "line_end": 10,
                                      "health": "anchored", "symbol": "AuthService.validate_token"}
    assert refs["main.go:5"]["health"] == "anchored"


def test_references_follow_the_code_after_an_edit_and_missing_code_is_orphaned(service, workspace):
    present(service, REVIEW + "\nGone: [`src/missing.py:1`][] and [`src/auth.py:99`][].\n")
    auth = workspace / "src/auth.py"
    auth.write_text("# a new header line\n# and another\n" + auth.read_text())
    refs = {r["text"]: r for r in service.current_review()["references"]}
    assert (refs["src/auth.py:10"]["line"], refs["src/auth.py:10"]["health"]) == (12, "anchored")
    assert refs["src/auth.py:13"]["line"] == 15
    assert refs["src/missing.py:1"]["health"] == "orphaned"
    assert refs["src/auth.py:99"]["health"] == "orphaned"


def test_a_reference_whose_code_is_deleted_becomes_orphaned_and_keeps_its_last_line(service, workspace):
    present(service, "See [`src/auth.py:17`][].")
    auth = workspace / "src/auth.py"
    auth.write_text(auth.read_text().replace("def helper(x):\n    return x * 2\n", ""))
    (ref,) = service.current_review()["references"]
    assert (ref["health"], ref["line"]) == ("orphaned", 17)


def test_append_keeps_the_anchors_of_earlier_references(service, workspace):
    present(service, "First [`src/auth.py:10`][].")
    auth = workspace / "src/auth.py"
    auth.write_text("\n\n" + auth.read_text())
    result = present(service, "Then [`src/auth.py:10`][].", mode="append")
    first, second = result["references"]
    assert first["line"] == 12  # still validate_token, which moved down
    assert second["line"] == 10  # written against the current file


def test_update_section_reanchors_only_the_new_section(service):
    present(service, REVIEW)
    result = present(service, "Now [`PLAN.md:1`][].", mode="update-section", section="Security Issues")
    assert [r["text"] for r in result["references"]] == ["src/auth.py:10", "PLAN.md:1", "main.go:5"]


def test_base_uri_may_be_the_workspace_a_file_uri_or_a_folder(service, workspace):
    for base in (str(workspace), workspace.as_uri()):
        (ref,) = invoke(service, "present_review", {"content": "[`src/auth.py:1`][]", "baseUri": base})[1]["references"]
        assert (ref["file"], ref["health"]) == ("src/auth.py", "anchored")
    (ref,) = invoke(service, "present_review", {"content": "[`auth.py:1`][]", "baseUri": "src"})[1]["references"]
    assert ref["file"] == "src/auth.py"
    err = error_of(service, {"content": "x", "baseUri": "/etc"})
    assert (err["code"], err["field"]) == ("INVALID_PATH", "baseUri")


def test_the_review_is_stored_as_committable_deterministic_text_with_a_backup(service, workspace):
    present(service, REVIEW)
    path = workspace / ".limpet/reviews/current.json"
    data = path.read_bytes()
    assert data.endswith(b"\n") and orjson.loads(data)["schema"] == 1
    assert (workspace / ".limpet/cache/backups/reviews/current.json").read_bytes() == data  # private
    assert list(orjson.loads(data)) == sorted(orjson.loads(data))


def test_present_review_notifies_listeners(service):
    seen = []
    service.subscribe(seen.append)
    present(service, "x")
    assert [c.review for c in seen] == [True]


# -- get_selection ------------------------------------------------------------------------------------
def test_get_selection_is_null_until_the_page_reports_one(service):
    op, result = invoke(service, "get_selection", {})
    assert result == {"selection": None}
    assert op.text(result) == "null"
    sel = {"file": "src/auth.py", "line_start": 10, "line_end": 11, "text": "def validate_token"}
    service.report_selection({"selection": sel, "active_file": "src/auth.py"})
    op, result = invoke(service, "get_selection", {})
    assert result == {"selection": sel}
    assert json.loads(op.text(result)) == sel
