"""An `except` clause for a class an earlier clause of the same `try` already catches never runs:
what it returns or raises is not analysed (no finding), while the same clause first is."""

from __future__ import annotations

from tests.rules._support import check

HEADER = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("svc")

"""


def test_clause_after_a_catch_all_is_not_analysed() -> None:
    check(
        HEADER
        + """\
@mcp.tool()
async def forecast(city: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            return (await client.get(f"https://weather.example/{city}")).text
    except Exception:
        raise ToolError("The forecast service is unavailable; try again later")
    except httpx.HTTPError as e:
        raise ToolError(f"Forecast failed: {e}")
"""
    )


def test_clause_after_its_builtin_base_is_not_analysed() -> None:
    check(
        HEADER
        + """\
@mcp.tool()
def read_notes(path: str) -> str:
    try:
        with open(path) as handle:
            return handle.read()
    except OSError:
        raise ToolError("The notes file cannot be read; check the path")
    except FileNotFoundError as e:
        raise ToolError(f"No notes: {e}")
"""
    )


def test_clause_after_a_project_base_class_is_not_analysed() -> None:
    check(HEADER + _STORE.format(first="StoreError", second="StoreTimeout", mark=""))


def test_project_subclass_before_its_base_is_analysed() -> None:
    check(HEADER + _STORE.format(first="StoreTimeout", second="StoreError", mark="  # expect: MCP005"))


_STORE = """\
class StoreError(Exception):
    pass


class StoreTimeout(StoreError):
    pass


@mcp.tool()
def load(key: str) -> str:
    try:
        return httpx.get(f"https://store.example/{{key}}").text
    except {first}:
        raise ToolError("The store is unreachable; try again in a minute")
    except {second}:
        return "Error: the store did not answer in time"{mark}
"""


def test_the_same_clause_first_is_analysed() -> None:
    check(
        HEADER
        + """\
@mcp.tool()
async def forecast(city: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            return (await client.get(f"https://weather.example/{city}")).text
    except httpx.HTTPError as e:
        raise ToolError(f"Forecast failed: {e}")  # expect: MCP002
    except Exception:
        raise ToolError("The forecast service is unavailable; try again later")
"""
    )


def test_subclass_clause_before_its_base_is_analysed() -> None:
    check(
        HEADER
        + """\
@mcp.tool()
def read_notes(path: str) -> str:
    try:
        with open(path) as handle:
            return handle.read()
    except FileNotFoundError as e:
        raise ToolError(f"No notes: {e}")  # expect: MCP002
    except OSError:
        raise ToolError("The notes file cannot be read; check the path")
"""
    )
