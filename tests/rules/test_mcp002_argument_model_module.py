"""MCP002 and a request model reached through its module (`models.CreateRequest(...)`), the
nested parts built from the tool's arguments too (`path=models.Path(id=group_id)`): a
`pydantic.ValidationError` of it describes what the model sent, which it can correct. A call
of anything else in the `try`, or an argument that is not the tool's, keeps the text foreign."""

from __future__ import annotations

from mcp_lint.pipeline import lint_source

SERVER = """\
import pydantic
from mcp.server.fastmcp import FastMCP

import models

mcp = FastMCP("groups")


@mcp.tool()
async def create_group(group_id: int, name: str) -> dict:
    try:
        BODY
    except pydantic.ValidationError as err:
        raise ValueError(f"Invalid parameters: {err.errors()}") from err
    return {"path": request.path.model_dump()}
"""

MESSAGE = "Tool 'create_group' raises ValueError with the text of a caught pydantic.ValidationError"


def _mcp002(body: str) -> list[tuple[int, str]]:
    source = SERVER.replace("BODY", body.replace("\n", "\n        "))
    return [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


def test_a_module_request_model_built_from_the_arguments_is_about_the_input() -> None:
    body = "request = models.CreateRequest(\n    path=models.GroupPath(group_id=group_id),\n    body=models.GroupBody(name=name),\n)"
    assert _mcp002(body) == []


def test_a_module_request_model_of_one_argument_is_about_the_input() -> None:
    assert _mcp002("request = models.GroupPath(group_id=group_id)") == []


def test_a_nested_part_built_from_a_fetched_value_stays_foreign() -> None:
    body = "request = models.CreateRequest(\n    path=models.GroupPath(group_id=group_id),\n    body=models.GroupBody(name=stored_names[0]),\n)"
    assert _mcp002(body) == [(17, MESSAGE)]  # the raise, below the four-line body


def test_a_lowercase_method_of_a_module_object_stays_foreign() -> None:
    assert _mcp002("request = models.client.create(group_id=group_id)") == [(14, MESSAGE)]  # the raise


def test_a_part_built_by_a_function_stays_foreign() -> None:
    assert _mcp002("request = models.CreateRequest(body=fetch_body(group_id))") == [(14, MESSAGE)]  # the raise
