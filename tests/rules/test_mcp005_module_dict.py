"""MCP005: a failure dict the module keeps in a constant (`_NEEDS_KEY = {"error": ..., "message":
...}` assigned once at module level, never written into) and a tool returns by name says what its
items say. No fix: the message lives at module level, shared by every tool that returns it.
A module dict the module writes into is state, and an ordinary answer kept in a constant (an
empty listing, a confirmation prompt, a "nothing to do", a status check's verdict) is no failure."""

from __future__ import annotations

from ._support import check, only

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kiln")
KILNS: dict[str, int] = {}
_NEEDS_KEY = {
    "error": "key_required",
    "message": "This tool needs a controller key: set KILN_KEY and reconnect.",
}
"""

TOOL = """

def _key() -> str | None:
    return None


@mcp.tool()
def fire_batch(batch: str) -> dict:
    if not _key():
        return _NEEDS_KEY  # expect: MCP005
    KILNS[batch] = 1
    return {"batch": batch, "state": "firing"}
"""


def test_a_failure_dict_kept_in_a_module_constant_is_reported_where_a_tool_returns_it() -> None:
    finding = only(HEADER + TOOL)
    assert finding.message == "Tool 'fire_batch' returns a failure dict as a normal result"
    assert finding.fix is None  # the shared message stays where it is: the author's call


def test_every_tool_returning_the_constant_is_reported() -> None:
    second = TOOL.replace("fire_batch", "cool_batch").replace("def _key", "def _other_key").replace("_key()", "_other_key()")
    check(HEADER + TOOL + second)


def test_a_module_dict_the_module_writes_into_is_state_not_a_constant() -> None:
    for write in ('_NEEDS_KEY["error"] = None', '_NEEDS_KEY.update(error=None)', "del _NEEDS_KEY['error']"):
        changed = TOOL.replace("    KILNS[batch] = 1\n", "    KILNS[batch] = 1\n") + f"\n\ndef reset() -> None:\n    {write}\n"
        check(HEADER + changed.replace("  # expect: MCP005", ""))
    rebinding = "\n\ndef load() -> None:\n    global _NEEDS_KEY\n    _NEEDS_KEY = {}\n"
    check(HEADER + TOOL.replace("  # expect: MCP005", "") + rebinding)


def test_a_local_of_the_same_name_holds_what_the_function_put_there() -> None:
    local = TOOL.replace("    if not _key():\n", '    _NEEDS_KEY = {"batch": batch, "queued": True}\n    if not _key():\n')
    check(HEADER + local.replace("  # expect: MCP005", ""))


def test_ordinary_answers_kept_in_module_constants_are_not_failures() -> None:
    check('''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kiln")
KILNS: dict[str, int] = {}
_NO_BATCHES = {"batches": [], "count": 0}
_CONFIRM = {"confirm_required": True, "message": "This empties the kiln. Call again with confirm=True."}
_NOTHING_TO_DO = {"status": "ok", "message": "Nothing to cool: the kiln is already cold."}
_UNHEALTHY = {"status": "unhealthy", "detail": "The kiln controller does not answer."}


@mcp.tool()
def list_batches() -> dict:
    if not KILNS:
        return _NO_BATCHES
    return {"batches": list(KILNS), "count": len(KILNS)}


@mcp.tool()
def empty_kiln(confirm: bool = False) -> dict:
    if not confirm:
        return _CONFIRM
    KILNS.clear()
    return {"emptied": True}


@mcp.tool()
def cool_kiln() -> dict:
    if not KILNS:
        return _NOTHING_TO_DO
    KILNS.clear()
    return {"status": "ok", "message": "Cooling."}


@mcp.tool()
def kiln_health() -> dict:
    if not KILNS:
        return _UNHEALTHY
    return {"status": "healthy"}
''')
