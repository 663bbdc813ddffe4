"""MCP002: a failure built as a model object and serialised for the model (`reply.model_dump_json()`,
`json.dumps(reply.dict())`) carries the text it was built with; reported where the text enters."""

from __future__ import annotations

from ._support import check

HEADER = """\
import json

import httpx
from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel

mcp = FastMCP("weather")


class Failure(BaseModel):
    message: str
    retry: bool = False


class Reply(BaseModel):
    error: Failure | None = None
    forecast: str = ""
"""


def test_a_model_built_with_the_exceptions_text_and_dumped_is_reported_where_it_is_built() -> None:
    findings = check(
        HEADER
        + """

@mcp.tool()
def forecast(city: str) -> str:
    try:
        return httpx.get(f"https://weather.invalid/{city}").text
    except httpx.HTTPError as e:
        reply = Reply(error=Failure(message=f"lookup failed: {e}"))  # expect: MCP002
        return json.dumps(reply.model_dump())
"""
    )
    assert findings[0].message == "Tool 'forecast' returns the text of a caught httpx.HTTPError as a normal result"


def test_a_model_dumped_by_its_old_style_method_is_reported() -> None:
    check(
        HEADER
        + """

@mcp.tool()
def forecast(city: str) -> str:
    try:
        return httpx.get(f"https://weather.invalid/{city}").text
    except httpx.HTTPError as e:
        reply = Reply(error=Failure(message=str(e)))  # expect: MCP002
        return reply.json() if reply.error else json.dumps(reply.dict())
"""
    )


def test_a_model_built_with_the_authors_words_and_dumped_is_not_reported() -> None:
    check(
        HEADER
        + """

@mcp.tool()
def forecast(city: str) -> str:
    try:
        return httpx.get(f"https://weather.invalid/{city}").text
    except httpx.HTTPError as e:
        reply = Reply(error=Failure(message="the weather service is unreachable; retry later", retry=True))
        print(type(e).__name__)
        return reply.model_dump_json()
"""
    )
