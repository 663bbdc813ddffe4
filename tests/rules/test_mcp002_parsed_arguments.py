"""MCP002: a helper's parse error of a value its callers take from a tool's arguments describes
what the model sent (the model can correct it), as it does in the tool itself; a value from
anywhere else keeps the parser's text foreign."""

from __future__ import annotations

from ._support import check

SERVER = """\
import json

from mcp.server.lowlevel import Server

server = Server("garden")
BEDS = {"north": '[3, 4]'}


def _widths(value):
    try:
        return json.loads(value)
    except ValueError as exc:
        raise ValueError(f"widths is not valid JSON: {exc}") from exc  MARK


async def _plant(name, args):
    PLANTED
    return [f"planted {name} in {len(widths)} rows"]


@server.call_tool()
async def call_tool(name, arguments):
    args = arguments or {}
    return await _plant(name, args)
"""


def test_a_helpers_parse_error_of_a_tools_argument_is_not_reported() -> None:
    source = SERVER.replace("MARK", "").replace("PLANTED", 'widths = _widths(args.get("widths"))')
    assert [f for f in check(source) if f.code == "MCP002"] == []


def test_a_helpers_parse_error_of_stored_text_is_reported() -> None:
    # The caller hands the helper text of its own table, not of the tool's arguments.
    source = SERVER.replace("MARK", "# expect: MCP002").replace("PLANTED", 'widths = _widths(BEDS[args.get("bed", "north")])')
    (finding,) = [f for f in check(source) if f.code == "MCP002"]
    assert finding.message == "Helper '_widths' raises ValueError with the text of a caught ValueError"


def test_a_helper_one_caller_feeds_from_stored_text_is_reported() -> None:
    planted = 'widths = _widths(args.get("widths"))\n    default = _widths(BEDS["north"])'
    source = SERVER.replace("MARK", "# expect: MCP002").replace("PLANTED", planted)
    assert [f.location.row for f in check(source) if f.code == "MCP002"] == [13]
