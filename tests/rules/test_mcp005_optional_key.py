"""A lookup needs its key: a function named for one record (`get_*`) whose only key parameter
defaults to None reads a scope filter, not a record, so "No <things> found" under it is an empty
answer; with the key required it stays a lookup's miss."""

from __future__ import annotations

import textwrap

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shelves")
PLANTS: dict[str, list[str]] = {}
"""


def _src(body: str) -> str:
    return HEADER + "\n" + textwrap.dedent(body)


def test_no_record_found_with_the_key_required_is_a_lookup_miss() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            def get_shelf(shelf_name: str) -> str:
                plants = PLANTS.get(shelf_name)
                if not plants:
                    return f"No shelf found named {shelf_name}"  # expect: MCP005
                return ", ".join(plants)
            """
        )
    )


def test_nothing_found_under_an_optional_key_is_an_empty_answer() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            def get_plants(shelf_name: str | None = None) -> str:
                names = [p for shelf, items in PLANTS.items() if shelf_name in (None, shelf) for p in items]
                if not names:
                    return "No plants found"
                return ", ".join(names)
            """
        )
    )
