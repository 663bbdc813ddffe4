"""Helpers a tool runs through a lambda it passes to another helper.

Servers wrap every tool body in a retry or recovery helper that calls the function it is given:
`return await with_reconnect(lambda: NotebookService().read(name))`. The function the lambda's
body calls runs as part of the tool, and its value is the tool's when the wrapper's is returned.
"""

from __future__ import annotations

from ._support import said, check

HEADER = """\
import asyncio
import logging

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("notebooks", mask_error_details=True)


async def with_reconnect(operation, attempts=3):
    for attempt in range(attempts):
        try:
            return await operation()
        except ConnectionError:
            await asyncio.sleep(attempt)
    raise ToolError("The notebook server did not answer after 3 attempts; check that it is running")


class NotebookService:
    async def read(self, name: str) -> str:
        try:
            return await fetch_notebook(name)
        except Exception as e:
            return f"Error reading notebook {name}: {e}"  # expect: MCP002, MCP005


async def fetch_notebook(name: str) -> str:
    raise NotImplementedError
"""


def test_a_method_the_lambda_calls_is_reached_and_its_value_returned() -> None:
    findings = check(
        HEADER
        + """

@mcp.tool()
async def read_notebook(name: str) -> str:
    return await with_reconnect(lambda: NotebookService().read(name))
"""
    )
    assert {f.code for f in findings} == {"MCP002", "MCP005"}
    assert all("reached from tool 'read_notebook'" in said(f) for f in findings)


def test_a_function_the_lambda_calls_is_reached() -> None:
    check(
        """\
import logging

from fastmcp import FastMCP

mcp = FastMCP("reports", mask_error_details=True)


def run_logged(operation):
    logging.getLogger(__name__).info("running %s", operation)
    return operation()


def load_report(path: str) -> str:
    try:
        with open(path) as handle:
            return handle.read()
    except OSError as e:
        return f"Could not read report: {e}"  # expect: MCP002, MCP005


@mcp.tool()
def read_report(path: str) -> str:
    return run_logged(lambda: load_report(path))
"""
    )


def test_a_lambda_whose_value_the_tool_does_not_return_sends_no_failure() -> None:
    # The wrapper's value is dropped: the helper's error string never reaches the model.
    check(
        HEADER.replace("  # expect: MCP002, MCP005", "")
        + """

@mcp.tool()
async def warm_notebook(name: str) -> str:
    await with_reconnect(lambda: NotebookService().read(name))
    return f"Notebook {name} is loaded"
"""
    )


def test_a_call_on_the_lambdas_own_parameter_is_not_a_helper() -> None:
    # `row.get` is a method of each element, not a project function named `row`.
    check(
        """\
from fastmcp import FastMCP

mcp = FastMCP("orders", mask_error_details=True)


class row:
    @staticmethod
    def get(key: str) -> str:
        return "Error: no such order"


@mcp.tool()
def list_orders(rows: list[dict]) -> list[dict]:
    return sorted(rows, key=lambda row: row.get("created"))
"""
    )
