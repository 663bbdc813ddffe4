"""MCP005 and a value with a note in parentheses: a helper rendering an amount writes
`f"{amount} (unknown currency)"` when the currency is missing. The words after the value describe
that value in the answer; they do not open a failure message. A note that says the lookup failed
("{} (not found)") is still a failure, and so is a message that opens with its own failure words."""

from __future__ import annotations

from ._support import check

SOURCE = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("ledger")
ACCOUNTS = {"a1": {"amount": "12.50", "currency": ""}}


def render(amount: str, currency: str) -> str:
    if not currency:
        return f"{amount} (unknown currency)"
    return f"{amount} {currency}"


def label(code: str) -> str:
    if code not in {"EUR", "USD"}:
        return f"{code} (unsupported format)"
    return code


@mcp.tool()
def get_balance(account_id: str) -> str:
    entry = ACCOUNTS.get(account_id)
    if entry is None:
        return f"{account_id} (not found)"  # expect: MCP005
    if not entry["amount"]:
        return f"Unknown amount for account {account_id}"  # expect: MCP005
    return f"Balance: {render(entry['amount'], entry['currency'])} ({label(entry['currency'])})"
"""


def test_a_note_describing_a_value_is_no_failure_but_a_note_of_a_failed_lookup_is() -> None:
    check(SOURCE)
