"""Argument values generated from a tool's `inputSchema` (JSON Schema).

Three kinds of value per schema:

- *missing*: valid for the schema but naming nothing that can exist (an id far beyond any real
  table, a string no one would have stored). A correct tool answers it with `isError: true`.
- *ordinary*: a plain, plausible value (the schema's default, first enum member or example, else
  1 / "probe"), used for the other arguments while one argument gets an edge value.
- *edge*: per type, values a careful tool rejects: empty and whitespace strings, `../`, very long
  strings, zero, negative and out-of-range numbers, an empty list.

URLs point at a closed port on the loopback address, so a tool that fetches them fails at once
without sending anything off the machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

MISSING_TEXT = "mcp-lint-probe-missing-7f3a9c"
MISSING_ID = 987654321
LOOPBACK_URL = "http://127.0.0.1:9/mcp-lint-probe-missing"
LONG_LENGTH = 5000

Schema = Mapping[str, Any]

_MISSING_BY_FORMAT = {
    "uri": LOOPBACK_URL,
    "url": LOOPBACK_URL,
    "uri-reference": LOOPBACK_URL,
    "email": f"{MISSING_TEXT}@example.invalid",
    "uuid": "7f3a9c00-0000-4000-8000-00000000dead",
    "date": "1901-01-01",
    "date-time": "1901-01-01T00:00:00Z",
    "time": "00:00:01",
    "hostname": "mcp-lint-probe-missing.invalid",
}
_ORDINARY_BY_FORMAT = {
    "uri": LOOPBACK_URL,
    "url": LOOPBACK_URL,
    "uri-reference": LOOPBACK_URL,
    "email": "probe@example.invalid",
    "uuid": "00000000-0000-4000-8000-000000000001",
    "date": "2024-01-01",
    "date-time": "2024-01-01T00:00:00Z",
    "time": "12:00:00",
    "hostname": "localhost",
}


@dataclass(frozen=True)
class EdgeCase:
    """One argument set to an edge value; `label` says which, for the report."""

    argument: str
    label: str
    value: Any


def schema_type(schema: Schema) -> str | None:
    """The JSON type a schema asks for; the first non-null one of a union or `anyOf`."""
    declared = schema.get("type")
    if isinstance(declared, str):
        return declared
    if isinstance(declared, list):
        return next((t for t in declared if t != "null"), None)
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key) or ():
            if isinstance(option, Mapping) and schema_type(option) not in (None, "null"):
                return schema_type(option)
    if "enum" in schema:
        return None
    if "properties" in schema:
        return "object"
    return None


def _branch(schema: Schema) -> Schema:
    """The non-null branch of an `anyOf`/`oneOf` (Optional[X] in pydantic), else the schema."""
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key) or ():
            if isinstance(option, Mapping) and schema_type(option) not in (None, "null"):
                return option
    return schema


def _clamp(value: float, schema: Schema) -> float:
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    if isinstance(high, (int, float)) and not isinstance(high, bool) and value > high:
        value = high - (1 if "exclusiveMaximum" in schema and "maximum" not in schema else 0)
    if isinstance(low, (int, float)) and not isinstance(low, bool) and value < low:
        value = low + (1 if "exclusiveMinimum" in schema and "minimum" not in schema else 0)
    return value


def _fit_length(text: str, schema: Schema) -> str:
    high = schema.get("maxLength")
    low = schema.get("minLength")
    if isinstance(high, int) and len(text) > high:
        text = text[:high]
    if isinstance(low, int) and len(text) < low:
        text = text + "x" * (low - len(text))
    return text


def missing_value(schema: Schema) -> Any:
    """A value valid for `schema` that names nothing existing."""
    schema = _branch(schema)
    if schema.get("enum"):
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema_type(schema)
    if kind == "integer":
        return int(_clamp(MISSING_ID, schema))
    if kind == "number":
        return _clamp(float(MISSING_ID) + 0.5, schema)
    if kind == "boolean":
        return False
    if kind == "array":
        items = schema.get("items")
        item = missing_value(items) if isinstance(items, Mapping) else MISSING_TEXT
        return [item] * max(1, int(schema.get("minItems") or 1))
    if kind == "object":
        return arguments(schema, missing_value)
    if kind == "null":
        return None
    return _fit_length(_MISSING_BY_FORMAT.get(str(schema.get("format")), MISSING_TEXT), schema)


def ordinary_value(schema: Schema) -> Any:
    """A plain value of the right type (the schema's own default or example first)."""
    schema = _branch(schema)
    for key in ("default", "const"):
        if key in schema and schema[key] is not None:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return examples[0]
    kind = schema_type(schema)
    if kind == "integer":
        return int(_clamp(1, schema))
    if kind == "number":
        return _clamp(1.0, schema)
    if kind == "boolean":
        return False
    if kind == "array":
        items = schema.get("items")
        count = int(schema.get("minItems") or 0)
        return [ordinary_value(items) if isinstance(items, Mapping) else "probe"] * count
    if kind == "object":
        return arguments(schema, ordinary_value)
    if kind == "null":
        return None
    return _fit_length(_ORDINARY_BY_FORMAT.get(str(schema.get("format")), "probe"), schema)


def arguments(schema: Schema, make: Callable[[Schema], Any]) -> dict[str, Any]:
    """Arguments for an object schema: its required properties, or all of them when none is required."""
    properties = schema.get("properties") or {}
    if not isinstance(properties, Mapping):
        return {}
    required = [name for name in schema.get("required") or () if name in properties]
    names = required or list(properties)
    return {name: make(properties[name]) for name in names if isinstance(properties[name], Mapping)}


def _edge_values(schema: Schema) -> list[tuple[str, Any]]:
    schema = _branch(schema)
    kind = schema_type(schema)
    if schema.get("enum") and kind in (None, "string"):
        return [("a value outside the enum", f"{MISSING_TEXT}-not-an-option")]
    if kind == "string":
        return [
            ("an empty string", ""),
            ("a whitespace string", "   "),
            ("a relative path out of the directory", f"../../{MISSING_TEXT}"),
            (f"a {LONG_LENGTH}-character string", "x" * LONG_LENGTH),
        ]
    if kind in ("integer", "number"):
        cases: list[tuple[str, Any]] = [("zero", 0), ("a negative number", -1)]
        high = schema.get("maximum", schema.get("exclusiveMaximum"))
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        if isinstance(high, (int, float)) and not isinstance(high, bool):
            cases.append(("a number above the maximum", high + 1))
        else:
            cases.append(("a very large number", 10**15))
        if isinstance(low, (int, float)) and not isinstance(low, bool) and low < -1:
            cases.append(("a number below the minimum", low - 1))
        return cases
    if kind == "array":
        return [("an empty list", [])]
    return []


def edge_cases(schema: Schema) -> list[EdgeCase]:
    """One case per (argument, edge value) of a tool's input schema."""
    properties = schema.get("properties") or {}
    if not isinstance(properties, Mapping):
        return []
    cases = []
    for name, prop in properties.items():
        if isinstance(prop, Mapping):
            cases.extend(EdgeCase(name, label, value) for label, value in _edge_values(prop))
    return cases


def edge_arguments(schema: Schema, case: EdgeCase) -> dict[str, Any]:
    """Ordinary values for the tool's arguments, with `case.argument` set to the edge value."""
    args = arguments(schema, ordinary_value)
    args[case.argument] = case.value
    return args
