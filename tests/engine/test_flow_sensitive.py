"""Local values follow the control-flow graph: what a return sends is what reaches it.

Each cause has a positive test (the flow is real: a finding at the statement that takes the
exception's text) and a negative one (the text never reaches the return: no finding)."""

from __future__ import annotations

from tests.rules._support import check

HEADER = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("svc")

"""
FAILED = 'raise ToolError("The item service refused item_id; check it with list_items")'


def test_text_stored_on_a_path_that_raises_does_not_reach_a_later_return() -> None:
    check(
        HEADER
        + f"""\
@mcp.tool()
def get_item(item_id: str) -> str:
    detail = "none"
    try:
        data = httpx.get(f"https://items.example/{{item_id}}").text
    except Exception as e:
        detail = str(e)
        print(detail)
        {FAILED}
    return f"Item {{item_id}}: {{data}} ({{detail}})"
"""
    )


def test_text_stored_on_a_path_that_goes_on_reaches_the_return() -> None:
    check(
        HEADER
        + """\
@mcp.tool()
def get_item(item_id: str) -> str:
    detail = "none"
    try:
        data = httpx.get(f"https://items.example/{item_id}").text
    except Exception as e:
        detail = str(e)
        data = ""
    return f"Item {item_id}: {data} ({detail})"  # expect: MCP002
"""
    )


def test_name_reused_in_another_branch_does_not_reach_its_return() -> None:
    check(
        HEADER
        + f"""\
@mcp.tool()
def lookup(item_id: str, mode: str) -> str:
    if mode == "remote":
        try:
            return httpx.get(f"https://items.example/{{item_id}}").text
        except httpx.HTTPError as e:
            message = f"remote lookup failed: {{e}}"
            print(message)
            {FAILED}
    message = "local items are not kept"
    return message
"""
    )


def test_name_reassigned_only_on_one_path_still_reaches_the_return() -> None:
    check(
        HEADER
        + """\
@mcp.tool()
def lookup(item_id: str, mode: str) -> str:
    message = "no remote lookup made"
    if mode == "remote":
        try:
            message = httpx.get(f"https://items.example/{item_id}").text
        except httpx.HTTPError as e:
            message = f"remote lookup failed: {e}"  # expect: MCP002
    return message
"""
    )


def test_name_bound_by_a_comprehension_is_not_the_local() -> None:
    check(
        HEADER
        + f"""\
@mcp.tool()
def names(item_id: str) -> str:
    try:
        rows = httpx.get(f"https://items.example/{{item_id}}").json()
    except httpx.HTTPError as e:
        error = str(e)
        print(error)
        {FAILED}
    return ", ".join(error for error in rows)
"""
    )


def test_local_read_inside_a_comprehension_is_the_local() -> None:
    check(
        HEADER
        + """\
@mcp.tool()
def names(item_id: str) -> str:
    rows = []
    error = ""
    try:
        rows = httpx.get(f"https://items.example/{item_id}").json()
    except httpx.HTTPError as e:
        error = str(e)
    return ", ".join(f"{row}: {error}" for row in rows)  # expect: MCP002
"""
    )
