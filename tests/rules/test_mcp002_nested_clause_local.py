"""MCP002, the outer clause's exception read inside a nested `try` (issue 20): `except ApiError as
e:` whose body parses the error in a `try` of its own and falls back, in that `try`'s clause, to
`message = str(e)` (`e` is still the outer exception: the inner clause binds no name). The local
holds the outer exception's text where the outer clause returns it after the inner `try`, as it
does when the fallback is an `if`/`else`. An inner clause that rebinds the name, or that assigns
a text of the author's own, carries nothing."""

from __future__ import annotations

from ._support import lint_source

SERVER = """\
import json

from fastmcp import FastMCP
from itemlib import ApiError, ItemClient

mcp = FastMCP("items")
client = ItemClient()


@mcp.tool()
def close_item(key: str) -> dict:
    \"\"\"Close one item.\"\"\"
    try:
        client.close(key)
        return {"closed": key}
    except ApiError as e:
        try:
            count = json.loads(key)
            message = f"item {count} is locked"
        FALLBACK
        raise ValueError(f"Could not close {key}: {message}")
"""


def _mcp002(fallback: str) -> list[tuple[int, str]]:
    source = SERVER.replace("FALLBACK", fallback)
    return [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


def test_the_outer_exception_s_text_assigned_in_a_nested_clause_is_reported_where_it_is_put_into_words() -> None:
    """`message = str(e)` holds only the foreign text: the raise interpolating it is the flow's
    place (LABELING.md "where e is interpolated"; test_mcp002_bare_local)."""
    found = _mcp002("except (json.JSONDecodeError, TypeError):\n            message = str(e)")
    assert found == [(22, "Tool 'close_item' raises ValueError with the text of a caught itemlib.ApiError")]


def test_the_same_text_taken_in_an_else_branch_is_reported_the_same_way() -> None:
    """The `if`/`else` form the nested `try` replaces: the same finding."""
    source = SERVER.replace("        try:\n            count", "        if key:\n            count").replace(
        "FALLBACK", "else:\n            message = str(e)"
    )
    found = [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]
    assert found == [(22, "Tool 'close_item' raises ValueError with the text of a caught itemlib.ApiError")]


def test_an_author_fallback_in_the_nested_clause_carries_nothing() -> None:
    assert _mcp002("except (json.JSONDecodeError, TypeError):\n            message = 'the item is locked'") == []


def test_a_nested_clause_that_rebinds_the_name_reads_its_own_exception() -> None:
    """`except json.JSONDecodeError as e:` hides the outer `e`: the text is the parse error of the
    tool's own argument (`json.loads(key)`), not the outer clause's library text."""
    found = _mcp002("except json.JSONDecodeError as e:\n            message = str(e)")
    assert found == []


RETRY = """\
from fastmcp import FastMCP
from itemlib import ApiError, ItemClient

mcp = FastMCP("items")
client = ItemClient()


def describe(exc: Exception) -> str:
    return f"close failed: {exc}"


@mcp.tool()
def close_item(key: str, force: bool = False) -> dict:
    \"\"\"Close one item.\"\"\"
    try:
        return client.close(key)
    except ApiError as e:
        first = describe(e)
        if force:
            try:
                return client.close(key, force=True)
            except ApiError as retry_error:
                retry_text = describe(retry_error)
                message = f"{first}; retry failed: {retry_text}"
                raise ValueError(message) from retry_error
        raise ValueError(first) from e
"""


def test_a_nested_clause_s_text_mixed_with_the_outer_one_stays_the_nested_clause_s_flow() -> None:
    """The retry's own exception text and the first failure's in one message: the nested clause's
    flow, reported where it takes its text (23), beside the outer clause's own flow (18)."""
    found = [(f.location.row, f.message) for f in lint_source(RETRY, filename="server.py") if f.code == "MCP002"]
    assert found == [
        (9, "Helper 'describe' returns the text of the exception passed in 'exc', which a caller raises in ValueError"),
        (18, "Tool 'close_item' raises ValueError with the text of a caught itemlib.ApiError"),
        (23, "Tool 'close_item' raises ValueError with the text of a caught itemlib.ApiError"),
    ]
