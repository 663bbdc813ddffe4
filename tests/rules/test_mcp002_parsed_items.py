"""MCP002: a parse error of one item of a tool's list argument (`for row in rows:
Row.model_validate(row)`) describes what the model sent, as a parse error of the argument itself
does; a loop over anything else (a fetched list) keeps the parser's text foreign."""

from __future__ import annotations

from ._support import lint_source

SERVER = """\
import json

from fastmcp import FastMCP
from pydantic import BaseModel

mcp = FastMCP("orders")
STORED = ['{"sku": "a1", "count": 2}']


class Line(BaseModel):
    sku: str
    count: int


def clean_lines(lines: list[dict]) -> tuple[list[Line], list[str]]:
    kept: list[Line] = []
    warnings: list[str] = []
    for i, raw in enumerate(SOURCE):
        try:
            kept.append(Line.model_validate(raw))
        except Exception as exc:
            warnings.append(f"line {i} skipped: {exc}")
            continue
    return kept, warnings


@mcp.tool
def add_lines(lines: list[dict]) -> dict:
    \"\"\"Add order lines; each needs a sku and a count.\"\"\"
    kept, warnings = clean_lines(lines)
    return {"added": len(kept), "warnings": warnings}


@mcp.tool
def count_words(texts: list[str]) -> dict:
    \"\"\"Count the words of each JSON-encoded text.\"\"\"
    counts: list[int] = []
    problems: list[str] = []
    for text in TEXTS:
        try:
            counts.append(len(json.loads(text)))
        except json.JSONDecodeError as exc:
            problems.append(f"a text is not JSON: {exc}")
    return {"counts": counts, "problems": problems}
"""


def _rows(source: str) -> list[int]:
    return [f.location.row for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


def test_a_helpers_validation_error_of_an_item_of_a_tools_list_is_not_reported() -> None:
    assert _rows(SERVER.replace("SOURCE", "lines").replace("TEXTS", "texts")) == []


def test_a_tools_parse_error_of_an_item_of_its_own_list_is_not_reported() -> None:
    assert 43 not in _rows(SERVER.replace("SOURCE", "lines").replace("TEXTS", "texts"))


def test_items_of_a_stored_list_keep_the_validators_text_foreign() -> None:
    rows = _rows(SERVER.replace("SOURCE", "[json.loads(s) for s in STORED]").replace("TEXTS", "STORED"))
    assert rows == [22, 43]


def test_a_loop_target_assigned_again_is_no_longer_the_item() -> None:
    source = SERVER.replace("SOURCE", "lines").replace("TEXTS", "texts")
    source = source.replace("        try:\n            kept", "        raw = json.loads(STORED[0]) if not raw else raw\n        try:\n            kept")
    assert 23 in _rows(source)
