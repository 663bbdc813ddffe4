"""MCP005: a status tool's complaint about its argument written as a machine code of snake_case
words (`{"error": "items_must_be_nonempty_list"}`) is judged as the same words in prose are: a
failure of the call. A code whose words complain of nothing (a verdict about what it checked,
`"address_not_deliverable"`) stays the status check's answer, and prose is unchanged."""

from __future__ import annotations

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kiln")
"""


def _tool(message: str, mark: str) -> str:
    return HEADER + f"""

@mcp.tool()
def validate_batches(batches: list) -> dict:
    if not isinstance(batches, list) or not batches:
        return {{"error": "{message}"}}{mark}
    return {{"count": len(batches), "valid": all(isinstance(b, str) for b in batches)}}
"""


def test_a_status_tools_argument_complaint_as_a_snake_case_code_is_a_failure() -> None:
    check(_tool("batches_must_be_nonempty_list", "  # expect: MCP005"))
    check(_tool("batches_missing", "  # expect: MCP005"))


def test_the_same_words_in_prose_are_judged_alike() -> None:
    check(_tool("batches must be a non-empty list", "  # expect: MCP005"))


def test_a_code_that_complains_of_nothing_stays_the_status_checks_answer() -> None:
    check(_tool("no_batches_to_check", ""))
    check(_tool("batch_list_empty_nothing_checked", ""))
    # Words run together without underscores are no code of words.
    check(_tool("BATCHESMUSTBELIST", ""))
