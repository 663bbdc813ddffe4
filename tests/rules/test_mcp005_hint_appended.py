"""MCP005: a failure text a describing helper builds from the exception it is handed is one flow,
reported at the helper's returns, also where a caller (or a second helper it is handed to) sends
that text whole with a hint after it (`f"{msg}\\n\\n{HINT}"`). A caller that writes its own words
before it (`f"Firing failed: {msg}"`) builds a failure of its own."""

from __future__ import annotations

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kiln")
HINT = "Check that the kiln controller is switched on."


class KilnError(Exception):
    pass


def explain_error(exc: Exception) -> str:
    if isinstance(exc, TimeoutError):
        return "Error: the kiln did not answer in time."  # expect: MCP005
    return f"Error: kiln failure - {type(exc).__name__}: {exc}"  # expect: MCP005, MCP002


def start(batch: str) -> str:
    raise KilnError(batch)
"""


def test_a_hint_appended_to_the_helpers_text_in_the_tool_is_the_helpers_flow() -> None:
    check(HEADER + """

@mcp.tool()
def fire(batch: str) -> str:
    try:
        return start(batch)
    except Exception as exc:
        msg = explain_error(exc)  # the helper reports the text of exc (MCP002 at its return), once
        if "answer" in msg:
            return f"{msg}\\n\\n{HINT}"
        return msg
""")


def test_a_second_helper_appending_a_hint_passes_the_flow_on() -> None:
    check(HEADER + """

def kiln_error_message(exc: Exception) -> str:
    msg = explain_error(exc)
    if "answer" in msg:
        return msg + "\\n\\n" + HINT
    return msg


@mcp.tool()
def fire(batch: str) -> str:
    try:
        return start(batch)
    except Exception as exc:
        return kiln_error_message(exc)
""")


def test_words_of_the_callers_own_before_the_helpers_text_are_its_own_failure() -> None:
    check(HEADER + """

@mcp.tool()
def fire(batch: str) -> str:
    try:
        return start(batch)
    except Exception as exc:
        msg = explain_error(exc)  # the helper reports the text of exc (MCP002 at its return), once
        return f"Firing batch {batch} failed: {msg}"  # expect: MCP005
""")


def test_a_hint_helper_in_another_module_passes_the_flow_on(tmp_path) -> None:
    from test_cross_module import findings

    describing = HEADER.replace("  # expect: MCP005, MCP002", "").replace("  # expect: MCP005", "")
    files = {
        "errors.py": describing,
        "tools.py": """\
from .errors import HINT, explain_error, mcp, start


def _kiln_error_message(exc: Exception) -> str:
    msg = explain_error(exc)
    if "answer" in msg:
        return f"{msg}\\n\\n{HINT}"
    return msg


@mcp.tool()
def fire(batch: str) -> str:
    try:
        return start(batch)
    except Exception as exc:
        return _kiln_error_message(exc)
""",
    }
    assert findings(tmp_path, files) == [("errors.py", "explain_error"), ("errors.py", "explain_error")]
