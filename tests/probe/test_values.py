"""Argument values generated from input schemas: valid, naming nothing, and edge values."""

from __future__ import annotations

import jsonschema
import pytest

from mcp_lint.probe import values

# The shapes the frameworks generate: pydantic (mcp, fastmcp) with anyOf for Optional, bounds
# from Field(ge=, le=), formats for URLs and dates, enums from Literal.
ORDER_SCHEMA = {
    "type": "object",
    "properties": {
        "order_id": {"type": "integer", "minimum": 1, "maximum": 100000},
        "note": {"anyOf": [{"type": "string", "maxLength": 12}, {"type": "null"}], "default": None},
        "status": {"type": "string", "enum": ["open", "closed"]},
        "callback": {"type": "string", "format": "uri"},
        "when": {"type": "string", "format": "date"},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "limit": {"type": "number", "exclusiveMaximum": 50},
    },
    "required": ["order_id", "status", "callback", "when", "tags", "limit"],
}


def test_missing_values_satisfy_the_schema() -> None:
    arguments = values.arguments(ORDER_SCHEMA, values.missing_value)
    jsonschema.validate(arguments, ORDER_SCHEMA, format_checker=jsonschema.FormatChecker())
    assert arguments["order_id"] == 100000  # the unlikely id, clamped into the bounds
    assert arguments["status"] == "open"
    assert arguments["callback"].startswith("http://127.0.0.1:9/")  # nothing leaves the machine
    assert arguments["limit"] < 50


def test_only_required_arguments_are_sent_when_some_are_required() -> None:
    assert "note" not in values.arguments(ORDER_SCHEMA, values.missing_value)


def test_all_arguments_are_sent_when_none_is_required() -> None:
    schema = {"type": "object", "properties": {"query": {"type": "string"}, "page": {"type": "integer"}}}
    assert values.arguments(schema, values.missing_value) == {"query": values.MISSING_TEXT, "page": values.MISSING_ID}


def test_string_lengths_are_respected() -> None:
    assert values.missing_value({"type": "string", "maxLength": 5}) == values.MISSING_TEXT[:5]
    assert len(values.missing_value({"type": "string", "minLength": 40})) == 40


def test_optional_string_uses_its_non_null_branch() -> None:
    assert values.missing_value({"anyOf": [{"type": "string"}, {"type": "null"}]}) == values.MISSING_TEXT
    assert values.schema_type({"type": ["null", "integer"]}) == "integer"


def test_ordinary_values_prefer_the_schema_default_and_examples() -> None:
    assert values.ordinary_value({"type": "integer", "default": 7}) == 7
    assert values.ordinary_value({"type": "string", "examples": ["ACME"]}) == "ACME"
    assert values.ordinary_value({"type": "integer", "minimum": 10}) == 10
    assert values.ordinary_value({"type": "integer"}) == 1


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string"}, ["", "   ", f"../../{values.MISSING_TEXT}", "x" * values.LONG_LENGTH]),
        ({"type": "integer"}, [0, -1, 10**15]),
        ({"type": "integer", "maximum": 10}, [0, -1, 11]),
        ({"type": "number", "minimum": -5, "maximum": 5}, [0, -1, 6, -6]),
        ({"type": "array", "items": {"type": "string"}}, [[]]),
        ({"type": "string", "enum": ["a", "b"]}, [f"{values.MISSING_TEXT}-not-an-option"]),
        ({"type": "boolean"}, []),
    ],
)
def test_edge_values_per_type(schema: dict, expected: list) -> None:
    cases = values.edge_cases({"type": "object", "properties": {"x": schema}})
    assert [case.value for case in cases] == expected
    assert all(case.argument == "x" for case in cases)


def test_edge_arguments_keep_the_other_arguments_ordinary() -> None:
    schema = {"type": "object", "properties": {"note_id": {"type": "integer"}, "title": {"type": "string"}}, "required": ["note_id", "title"]}
    case = next(c for c in values.edge_cases(schema) if c.argument == "title" and c.value == "")
    assert values.edge_arguments(schema, case) == {"note_id": 1, "title": ""}
