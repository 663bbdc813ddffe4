"""A local assigned on several paths and returned once: each assignment that reaches the
`return` is a value the tool may send, judged (and fixed) where it is built."""

from __future__ import annotations

from mcp_lint.pipeline import lint_source
from tests.rules._support import check, said

HEADER = """\
import json
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("svc")
CUSTOMERS: dict[str, dict] = {}

"""


def test_failure_assigned_in_one_branch_of_a_common_return_is_found_where_it_is_built() -> None:
    findings = check(
        HEADER
        + """\
@mcp.tool()
def get_customer(customer_id: str) -> str:
    customer = CUSTOMERS.get(customer_id)
    if customer is None:
        result = f"Error: customer {customer_id} not found"  # expect: MCP005
    else:
        result = json.dumps(customer)
    return result
"""
    )
    # The string built in the branch is the evidence (a note since issue 24).
    assert "the failure: the string 'Error: customer … not found'" in said(findings[0])


def test_renamed_tool_gets_the_same_verdict() -> None:
    check(
        HEADER
        + """\
@mcp.tool()
def get_address(address_id: str) -> str:
    address = CUSTOMERS.get(address_id)
    if address is None:
        result = f"Error: address {address_id} not found"  # expect: MCP005
    else:
        result = json.dumps(address)
    return result
"""
    )


def test_fix_raises_where_the_failure_is_built() -> None:
    source = (
        HEADER
        + """\
@mcp.tool()
def get_customer(customer_id: str) -> str:
    customer = CUSTOMERS.get(customer_id)
    if customer is None:
        result = f"Customer {customer_id} not found"
    else:
        result = json.dumps(customer)
    return result
"""
    )
    [finding] = [f for f in lint_source(source, filename="server.py") if f.code == "MCP005"]
    assert finding.location.row == 12
    [edit] = [e for e in finding.fix.edits if e.location.row == 12]
    assert edit.content == 'raise ToolError(f"Customer {customer_id} not found")'


def test_no_fix_when_statements_run_between_the_assignment_and_the_return() -> None:
    source = (
        HEADER
        + """\
@mcp.tool()
def get_customer(customer_id: str) -> str:
    customer = CUSTOMERS.get(customer_id)
    if customer is None:
        result = f"Customer {customer_id} not found"
        print("lookup missed")
    else:
        result = json.dumps(customer)
    return result
"""
    )
    [finding] = [f for f in lint_source(source, filename="server.py") if f.code == "MCP005"]
    assert finding.location.row == 12 and finding.fix is None


def test_failure_branch_that_raises_does_not_reach_the_return() -> None:
    check(
        HEADER
        + """\
@mcp.tool()
def get_customer(customer_id: str) -> str:
    customer = CUSTOMERS.get(customer_id)
    if customer is None:
        result = f"Customer {customer_id} not found; call list_customers for valid ids"
        raise ToolError(result)
    else:
        result = json.dumps(customer)
    return result
"""
    )


def test_branches_that_all_succeed_are_no_finding() -> None:
    check(
        HEADER
        + """\
@mcp.tool()
def describe_customer(customer_id: str, verbose: bool) -> str:
    customer = CUSTOMERS[customer_id]
    if verbose:
        result = json.dumps(customer, indent=2)
    else:
        result = customer["name"]
    return result
"""
    )


def test_result_checked_for_failure_before_the_return_is_no_finding() -> None:
    check(
        HEADER
        + """\
def failure_text(result: str) -> str | None:
    return result if result.startswith("Error:") else None


@mcp.tool()
def get_customer(customer_id: str) -> str:
    customer = CUSTOMERS.get(customer_id)
    if customer is None:
        result = f"Error: customer {customer_id} not found"
    else:
        result = json.dumps(customer)
    if error := failure_text(result):
        raise ToolError(error)
    return result
"""
    )
