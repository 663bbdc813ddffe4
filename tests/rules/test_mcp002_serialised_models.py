"""A failure built as a model object and serialised for the model (`reply.model_dump_json()`,
`json.dumps(reply.dict())`): MCP002 where a caught exception's text enters it (the model carries the
text it was built with), MCP005 where it is returned as a normal result."""

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
        return json.dumps(reply.model_dump())  # expect: MCP005
"""
    )
    (raw,) = [f for f in findings if f.code == "MCP002"]
    assert raw.message == "Tool 'forecast' returns the text of a caught httpx.HTTPError as a normal result"


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
        return json.dumps(reply.dict())  # expect: MCP005
"""
    )


def test_a_model_built_with_the_authors_words_and_dumped_is_a_failure_without_foreign_text() -> None:
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
        return reply.model_dump_json()  # expect: MCP005
"""
    )


def test_a_result_model_without_a_failure_dumped_is_not_a_failure() -> None:
    check(
        HEADER
        + """

CACHE = {"Oslo": "snow"}

@mcp.tool()
def forecast(city: str) -> str:
    text = CACHE.get(city, "")
    reply = Reply(error=None, forecast=text)
    return json.dumps(reply.dict()) if text else Reply(forecast="no forecast today").model_dump_json()
"""
    )
