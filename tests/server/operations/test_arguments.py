"""Every door validates an operation's arguments the same way (the operation's struct), and
every door publishes the same schema for them. The published schemas are a golden file:
a change to one is a change to the public contract and shows up here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from limpet.model import InvalidArgument
from limpet.server.operations import REGISTRY, validate_args

GOLDEN = Path(__file__).with_name("golden") / "tool_schemas.json"


def _validate(name: str, raw: object):
    return validate_args(REGISTRY[name], raw)


def _refusal(name: str, raw: object) -> InvalidArgument:
    with pytest.raises(InvalidArgument) as caught:
        _validate(name, raw)
    return caught.value


def test_every_tool_publishes_the_schemas_of_the_golden_file():
    golden = json.loads(GOLDEN.read_text())
    published = {name: {"in": op.input_schema(), "out": op.output_schema()} for name, op in REGISTRY.items()}
    assert sorted(published) == sorted(golden)
    for name, schemas in golden.items():
        assert published[name] == schemas, name


def test_defaults_fill_what_the_caller_left_out():
    args = _validate("comment_add", {"file": "a.py", "line_start": 1, "line_end": 2, "body": "x"})
    assert (args.tag, args.author_type, args.author) == ("NOTE", "agent", "ai")
    assert _validate("search_comments", {"query": "x"}).filters.dateRange.start is None


def test_numbers_written_as_text_are_read_as_numbers():
    """Query strings and loose clients send "5" for 5: accepted, as before."""
    assert _validate("comment_list", {"limit": "5"}).limit == 5


@pytest.mark.parametrize(
    ("name", "raw", "field"),
    [
        ("comment_add", {"line_start": 1, "line_end": 1, "body": "x"}, "file"),
        ("comment_add", {"file": "a.py", "line_start": 0, "line_end": 1, "body": "x"}, "line_start"),
        ("comment_add", {"file": "a.py", "line_start": 1, "line_end": 1, "body": "x", "colour": "red"}, "colour"),
        ("comment_add", {"file": "a.py", "line_start": 1, "line_end": 1, "body": "x", "tag": "BUG"}, "tag"),
        ("comment_add", {"file": "a.py", "line_start": 1, "line_end": 1, "body": "   "}, "body"),
        ("comment_show", {"thread_id": "t_1"}, "thread_id"),
        ("search_comments", {"query": "x", "filters": {"dateRange": {"start": "yesterday"}}}, "filters.dateRange.start"),
        ("search_comments", {"query": "x", "filters": {"colour": 1}}, "filters.colour"),
        ("add_comment", {"filePath": "a.py", "line": 1, "text": "x", "tag": "NOTE", "aiMeta": {"confidence": 2}},
         "aiMeta.confidence"),
        ("present_review", {"baseUri": "."}, "content"),
        ("present_review", {"content": "x", "baseUri": ".", "mode": "update-section"}, "section"),
    ],
)
def test_a_refusal_names_the_field_at_fault(name, raw, field):
    exc = _refusal(name, raw)
    assert exc.code == "INVALID_ARGUMENT"
    assert exc.field == field
    assert exc.message.startswith(f"{field}: ")
    assert exc.details["errors"][0]["field"] == field


def test_the_seed_s_own_words_for_its_own_rules():
    assert _refusal("comment_show", {"thread_id": "t_1"}).message == "thread_id: Invalid thread ID format"
    assert _refusal("present_review", {"content": " ", "baseUri": "."}).message == \
        "content: Content parameter is required"


def test_arguments_that_are_not_an_object_are_refused():
    for raw in ([], "x", 3):
        exc = _refusal("comment_list", raw)
        assert exc.field is None and "JSON object" in exc.message


def test_a_date_range_is_normalized_to_limpet_s_utc_text():
    filters = _validate("search_comments", {"query": "x", "filters": {"dateRange": {"end": "2000-01-01"}}}).filters
    assert filters.dateRange.end == "2000-01-01T23:59:59.999Z"


@given(st.text(max_size=40))
def test_a_body_is_taken_exactly_when_it_has_something_besides_blanks(body):
    raw = {"file": "a.py", "line_start": 1, "line_end": 1, "body": body}
    if body.strip():
        assert _validate("comment_add", raw).body == body
    else:
        assert _refusal("comment_add", raw).field == "body"


@given(st.text(min_size=1, max_size=12).filter(lambda s: s not in ("TODO", "FIXME", "NOTE", "STAR", "QUESTION")))
def test_a_value_outside_a_vocabulary_is_refused_with_the_values_it_takes(tag):
    error = _refusal("comment_add", {"file": "a.py", "line_start": 1, "line_end": 1, "body": "x", "tag": tag})
    assert error.field == "tag"
    assert error.message.endswith("expected one of TODO, FIXME, NOTE, STAR, QUESTION")
    assert error.details["errors"][0]["message"].endswith("expected one of TODO, FIXME, NOTE, STAR, QUESTION")


def test_an_optional_vocabulary_filter_names_its_values_too():
    error = _refusal("comment_list", {"status": "closed"})
    assert (error.field, error.message) == ("status", "status: Invalid enum value 'closed'; expected one of open, resolved, wontfix")
