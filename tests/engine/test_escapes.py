"""Who wrote a caught ValueError's text is decided by what the `try` body lets escape: a project
function raising only its own message is the author's text, a project function that lets a
library parser's error through is library text."""

from __future__ import annotations

from tests.rules._support import check, unmasked

HEADER = """\
import json
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("svc")

"""
# The same module, for snippets doing file I/O that no `try` handles (MCP007 at the server).
HEADER_IO = unmasked(HEADER)

SERVICE = """\
class ItemService:
    def get_item(self, item_id: str) -> dict:
        if not item_id:
            raise ValueError("item_id is required; pass an id from list_items")
        return {{"id": item_id, "raw": {payload}}}


service = ItemService()


@mcp.tool()
def get_item(item_id: str) -> dict:
    try:
        return service.get_item(item_id)
    except ValueError as e:
        raise ToolError(str(e)){mark}
"""


def test_project_service_raising_its_own_value_error_is_author_text() -> None:
    check(HEADER + SERVICE.format(payload='"{}"', mark=""))


def test_project_service_letting_a_parser_error_escape_is_library_text() -> None:
    check(HEADER_IO + SERVICE.format(payload='json.loads(open("items.json").read())', mark="  # expect: MCP002"))


PARSER = """\
def parse_filters(text: str) -> dict:
    return json.loads(text)


@mcp.tool()
def search(path: str, filters: str) -> dict:
    with open(path) as handle:
        raw = handle.read()
    try:
        return parse_filters({argument})
    except ValueError as e:
        raise ToolError(f"Bad filters: {{e}}"){mark}
"""


def test_project_parser_of_fetched_text_lets_library_text_escape() -> None:
    check(HEADER_IO + PARSER.format(argument="raw", mark="  # expect: MCP002"))


def test_project_parser_of_the_tool_argument_describes_what_the_model_sent() -> None:
    check(HEADER_IO + PARSER.format(argument="filters", mark=""))


def test_project_validator_raising_its_own_message() -> None:
    check(
        HEADER
        + """\
def require_positive(count: int) -> int:
    if count <= 0:
        raise ValueError("count must be a positive number of rows")
    return count


@mcp.tool()
def sample(count: int) -> list:
    try:
        wanted = require_positive(count)
    except ValueError as e:
        raise ToolError(str(e))
    return list(range(wanted))
"""
    )


def test_validator_catching_and_rewording_a_library_error_is_author_text() -> None:
    check(
        HEADER_IO
        + """\
def load_settings(path: str) -> dict:
    try:
        return json.loads(open(path).read())
    except ValueError:
        raise ValueError("the settings file is not valid JSON; fix it and retry")


@mcp.tool()
def settings(path: str) -> dict:
    try:
        return load_settings(path)
    except ValueError as e:
        raise ToolError(str(e))
"""
    )
