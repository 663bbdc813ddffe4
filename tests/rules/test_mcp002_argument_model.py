"""MCP002 and the author's argument model: `fields = Args(**params)` then `fields.model_dump()`
in the same `try` only validates and serializes what the model sent (the error describes its
input, which it can correct); a library call beside them, or a serializer of another value,
still makes the caught text foreign."""

from __future__ import annotations

from mcp_lint.pipeline import lint_source

SERVER = """\
from typing import Any

import httpx
from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel

mcp = FastMCP("groups")


class GroupCreate(BaseModel):
    name: str
    size: int = 0


@mcp.tool()
async def create_group(group_fields: dict[str, Any]) -> dict[str, Any]:
    try:
        BODY
    except Exception as e:
        return {"error": f"Could not create the group: {e}"}
    async with httpx.AsyncClient() as client:
        resp = await client.post("https://groups.invalid/", json=data)
    return {"id": resp.json()["id"]}
"""


def _mcp002(body: str) -> list[tuple[int, str]]:
    source = SERVER.replace("BODY", body.replace("\n", "\n        "))
    return [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


def test_the_validated_argument_model_serialized_is_no_foreign_code() -> None:
    assert _mcp002("fields = GroupCreate(**group_fields)\ndata = fields.model_dump(exclude_none=True)") == []


def test_a_library_call_beside_the_argument_model_is_still_foreign() -> None:
    body = "fields = GroupCreate(**group_fields)\ndata = fields.model_dump()\nhttpx.get('https://groups.invalid/check', params=data)"
    assert _mcp002(body) == [(22, "Tool 'create_group' returns the text of a caught Exception as a normal result")]


def test_a_serializer_of_a_value_that_is_not_the_argument_model_is_still_foreign() -> None:
    body = "fields = GroupCreate(**group_fields)\ndata = {**stored_defaults.model_dump(), **fields.model_dump()}"
    assert _mcp002(body) == [(21, "Tool 'create_group' returns the text of a caught Exception as a normal result")]
