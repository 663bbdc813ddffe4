"""One answer to "is this expression message text written here?" (`results.is_text`), asked by
MCP002's fix when it picks the author's words out of an exception's arguments or an error dict,
by MCP005's error builders and by the fixes of both."""

from __future__ import annotations

import libcst as cst
import pytest

from mcp_lint.fixing.apply import fix_source
from mcp_lint.pipeline import lint_source
from mcp_lint.rules.results import is_text


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ('"Item not found"', True),
        ('f"Item {item_id} not found"', True),
        ('"Item " "not found"', True),
        ('"Item " + item_id', True),
        ('item_id + " not found"', True),
        ('"Item {} not found".format(item_id)', True),
        ('("Item " "{}").format(item_id)', True),
        ('b"raw bytes"', False),
        ('b"raw " + data', False),
        ("template.format(item_id)", False),  # the words are not here
        ("str(e)", False),
        ("item_id", False),
        ("1 + 2", False),
        ('", ".join(names)', False),
    ],
)
def test_is_text(code: str, expected: bool) -> None:
    assert is_text(cst.parse_expression(code)) is expected


SERVER = '''\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


class ApiError(Exception):
    pass


@mcp.tool()
def fetch_item(item_id: str) -> dict:
    try:
        return httpx.get(f"https://x/{item_id}").json()
    except ValueError as e:
        {statement}
'''


def _fixed_handler(statement: str) -> str:
    code = SERVER.replace("{statement}", statement)
    outcome = fix_source(code, lambda source: lint_source(source, select=("MCP002",)), unsafe=True)
    assert outcome.error is None
    return outcome.fixed[outcome.fixed.index("    except ValueError") :]


def test_the_text_argument_of_a_projects_exception_may_be_formatted_with_format() -> None:
    """`ApiError(502, "Item {} could not be parsed: {}".format(item_id, e), None)`: the message is
    the `.format` argument; the fix keeps the author's words and the other arguments."""
    fixed = _fixed_handler('raise ApiError(502, "Item {} could not be parsed: {}".format(item_id, e), None)')
    assert fixed == '    except ValueError as e:\n        raise ApiError(502, f"Item {item_id} could not be parsed", None) from e\n'


def test_the_authors_hint_under_another_key_of_an_error_dict_may_be_formatted_with_format() -> None:
    fixed = _fixed_handler('return {"ok": False, "hint": "Item {} could not be read".format(item_id), "error": str(e)}')
    # The hint follows the failed operation as its next sentence, never in its place.
    assert 'raise ToolError(f"Could not fetch item. Item {item_id} could not be read") from e' in fixed
