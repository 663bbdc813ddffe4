"""MCP002: a helper handed a caught exception that raises another class with its text
(`def _raise_for(e): raise DashError(e.response.text)`) puts library text into an exception that
escapes to the framework, which forwards its text on mcp 1.x FastMCP. Reported at that raise; a
raise of the author's own words, or one every caller catches, is not."""

from __future__ import annotations

from ._support import check

SERVER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("dash")


class DashError(Exception):
    pass


class Client:
    def _raise_for(self, e: httpx.HTTPStatusError) -> None:
        RAISE

    async def get(self, path: str) -> dict:
        try:
            async with httpx.AsyncClient() as client:
                reply = await client.get(path)
                reply.raise_for_status()
                return reply.json()
        except httpx.HTTPStatusError as e:
            self._raise_for(e)
        return {}


client = Client()


@mcp.tool()
async def boards() -> dict:
    CALL
"""


def test_a_helper_raising_the_handed_exceptions_text_in_another_class_is_reported() -> None:
    source = SERVER.replace("RAISE", 'raise DashError(f"dash answered {e.response.status_code}: {e.response.text}")  # expect: MCP002')
    (finding,) = check(source.replace("CALL", 'return await client.get("/boards")'))
    assert finding.message == "Helper '_raise_for' raises DashError with the text of the exception passed in 'e'"


def test_a_helper_raising_its_own_words_or_a_class_every_caller_catches_is_not() -> None:
    own = SERVER.replace("RAISE", 'raise DashError(f"dash answered {e.response.status_code}; check the board id")')
    check(own.replace("CALL", 'return await client.get("/boards")'))
    caught = SERVER.replace("RAISE", 'raise DashError(f"dash answered: {e.response.text}")')
    call = 'try:\n        return await client.get("/boards")\n    except DashError:\n        raise ValueError("the dashboard service refused the request; check the token") from None'
    check(caught.replace("CALL", call))
