"""MCP005: a helper handed a caught exception that only words it (one sentence per class or
status, every return a text it writes) builds a failure at each of its returns, whatever words
each branch uses ("Access denied.", "The service took too long."): one flow per return, reported
at the helper; the tool that returns the helper's text only passes it on (issue 20: a value built
on a path where a failure held). A helper that also returns a value it does not write (data, None,
an empty text) is not a wording helper: only its failure-worded returns are failures."""

from __future__ import annotations

from ._support import check

HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("greenhouse")
"""

TOOL = """

@mcp.tool()
async def read_sensors(bed: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            reply = await client.get("https://sensors.invalid/beds", params={"bed": bed})
            reply.raise_for_status()
            return reply.text
    except Exception as exc:
        return {helper}(exc, "sensor beds")
"""


def test_every_sentence_a_wording_helper_returns_is_a_failure() -> None:
    check(HEADER + """

def explain(exc: Exception, what: str = "") -> str:
    lead = f"Trouble with {what}: " if what else "Trouble: "
    if isinstance(exc, httpx.HTTPStatusError):
        code = exc.response.status_code
        if code == 404:
            return f"{lead}bed not found."  # expect: MCP005
        elif code == 403:
            return f"{lead}access denied."  # expect: MCP005
        return f"{lead}status {code}"  # expect: MCP005
    elif isinstance(exc, httpx.TimeoutException):
        return f"{lead}the sensors took too long."  # expect: MCP005
    return f"{lead}{type(exc).__name__}: {exc}"  # expect: MCP005, MCP002
""" + TOOL.replace("{helper}", "explain"))


def test_a_helper_that_also_returns_data_keeps_only_its_failure_worded_returns() -> None:
    check(HEADER + """

def explain(exc: Exception, what: str = "") -> str | None:
    if isinstance(exc, httpx.TimeoutException):
        return None
    if isinstance(exc, httpx.HTTPStatusError) and exc.response.status_code == 404:
        return f"Error: {what} not found."  # expect: MCP005
    return f"Trouble with {what}: status {exc.response.status_code}"
""" + TOOL.replace("{helper}", "explain"))


def test_a_helper_returning_the_exceptions_own_text_builds_the_failure() -> None:
    # `return str(exc)` with no words of its own: the helper words the exception it is handed
    # (its text is also MCP002's), the tool only passes it on.
    check(HEADER + """

def explain(exc: Exception, what: str = "") -> str:
    if isinstance(exc, httpx.TimeoutException):
        return f"The {what} took too long."  # expect: MCP005
    return str(exc)  # expect: MCP005, MCP002
""" + TOOL.replace("{helper}", "explain"))


def test_a_helper_returning_a_texts_own_words_for_a_text_argument_is_no_describer() -> None:
    # A text parameter (not an exception the caller caught) made into a sentence: the caller's
    # own data, handed in from no `except`.
    check(HEADER + """

def shout(error: str) -> str:
    return f"{error}!"


@mcp.tool()
def echo(word: str) -> str:
    return shout(word)
""")
