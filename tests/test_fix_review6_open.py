"""Fix shapes review 6 rejected that stop 33 left open (issue 23), each with the code the fix must
write (or the code left as it was), on made-up servers."""

from __future__ import annotations

from tests.test_fixes import assert_fixes_to, fixed

# --- row 8: an error dict whose "error" item is the exception's class name --------------------

CLASS_NAMED = """\
import json

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("stats")


class StatsError(Exception):
    \"\"\"The stats client's failures; their text tells the model what to do.\"\"\"


class StatsAuthError(StatsError):
    def __init__(self) -> None:
        super().__init__("Not signed in. Call sign_in(user=..., password=...) first, or set STATS_TOKEN.")


def _fetch(code: str) -> dict:
    if not code:
        raise StatsAuthError()
    return httpx.get(f"https://stats.example/{code}").json()


@mcp.tool()
def series(code: str) -> str:
    \"\"\"One series.\"\"\"
    try:
        return json.dumps(_fetch(code))
    except StatsError as exc:
        return json.dumps({"error": type(exc).__name__, "message": str(exc)})


@mcp.tool()
def fetch_table(code: str) -> dict:
    \"\"\"One table.\"\"\"
    try:
        return httpx.get(f"https://stats.example/t/{code}").json()
    except httpx.HTTPError as exc:
        return {"error": exc.__class__.__name__, "details": str(exc)}


@mcp.tool()
def sources(code: str) -> str:
    \"\"\"The sources of a series.\"\"\"
    try:
        return json.dumps(_fetch(code)["sources"])
    except StatsError as exc:
        return json.dumps({"error": f"{type(exc).__name__}"})
"""


def test_an_error_dicts_message_is_raised_never_its_class_name() -> None:
    # The project's own exception: its text is the author's advice, raised whole. A library's
    # exception (httpx): its text is MCP002's to replace, with the operation that failed (the
    # class name is no context either). A dict with nothing but the class name has no message:
    # no fix (raising "StatsAuthError" would tell the model nothing).
    assert_fixes_to(
        CLASS_NAMED,
        CLASS_NAMED.replace(
            "import json\n",
            "import json\nimport logging\n",
        )
        .replace(
            "from mcp.server.fastmcp import FastMCP\n",
            "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\n"
            "logger = logging.getLogger(__name__)\n",
        )
        .replace(
            '        return json.dumps({"error": type(exc).__name__, "message": str(exc)})\n',
            "        raise ToolError(str(exc)) from exc\n",
        )
        .replace(
            '        return {"error": exc.__class__.__name__, "details": str(exc)}\n',
            '        logger.exception("Could not fetch table")\n        raise ToolError("Could not fetch table") from exc\n',
        ),
        None,
    )
