"""A function that classifies (every return one word: "critical", "invalid", "ok") returns
labels, not messages: "invalid" there is neither a vague failure message (MCP003) nor a failure
returned as a success (MCP005). A one-word failure returned beside real values still is."""

from __future__ import annotations

import textwrap

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("licenses")
"""


def test_a_label_of_a_classifier_is_no_failure_message() -> None:
    check(
        HEADER
        + "\n"
        + textwrap.dedent(
            """\
            def overall(blocks: list) -> str:
                if any(b.get("level") == "RED" for b in blocks):
                    return "critical"
                if any(not b.get("valid", True) for b in blocks):
                    return "invalid"
                return "ok"


            @mcp.tool()
            def explain(blocks: list) -> dict:
                return {"status": overall(blocks), "blocks": blocks}
            """
        )
    )


def test_a_one_word_failure_beside_values_is_still_reported() -> None:
    check(
        HEADER
        + "\n"
        + textwrap.dedent(
            """\
            def normalize_key(key: str) -> str:
                if not key:
                    return "invalid"  # expect: MCP003, MCP005
                if key.startswith("-"):
                    return "rejected"
                return key.upper()


            @mcp.tool()
            def explain(key: str) -> dict:
                return {"key": normalize_key(key)}
            """
        )
    )
