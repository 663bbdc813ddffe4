"""MCP005: a checker's refusal a tool hands on through an assignment expression (`if (err :=
check()): return err`) is handed on as `err = check(); if err: return err` is: the tool returns
the refusal whole, and the finding is the checker's. A status check returning it, a test that
reads more than the local and answers in its own words, an empty listing or a confirmation prompt
handed on stay what they were."""

from __future__ import annotations

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kiln")
WRITES_OFF = True
KILNS: dict[str, int] = {}


def _check_writes() -> dict | None:
    \"\"\"An error dict while writes are off, else None.\"\"\"
    if WRITES_OFF:
        return {"error": "Operation blocked: writes are turned off"}{mark}
    return None
"""


def test_a_checkers_refusal_handed_on_through_a_walrus_is_reported_at_the_checker() -> None:
    check(HEADER.replace("{mark}", "  # expect: MCP005") + """

@mcp.tool()
def fire_batch(batch: str) -> dict:
    if (refusal := _check_writes()):
        return refusal
    KILNS[batch] = 1
    return {"batch": batch}
""")


def test_a_walrus_compared_with_none_hands_the_refusal_on_too() -> None:
    check(HEADER.replace("{mark}", "  # expect: MCP005") + """

@mcp.tool()
async def fire_batch(batch: str) -> dict:
    if (refusal := _check_writes()) is not None:
        return refusal
    KILNS[batch] = 1
    return {"batch": batch}
""")


def test_a_status_tool_handing_the_verdict_on_keeps_it_as_its_answer() -> None:
    check(HEADER.replace("{mark}", "") + """

@mcp.tool()
def check_writes() -> dict:
    if (refusal := _check_writes()):
        return refusal
    return {"writes": "on"}
""")


def test_a_walrus_whose_test_reads_more_and_whose_branch_words_its_own_answer_is_no_hand_on() -> None:
    check(HEADER.replace("{mark}", "") + """

@mcp.tool()
def fire_batch(batch: str, force: bool = False) -> dict:
    if (refusal := _check_writes()) and not force:
        return {"batch": batch, "queued": True, "note": "Writes are off; the batch waits for them."}
    KILNS[batch] = 1
    return {"batch": batch}
""")


def test_empty_listings_and_confirmation_prompts_handed_on_are_no_failures() -> None:
    check('''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kiln")
KILNS: dict[str, int] = {}


def _nothing_to_list() -> dict | None:
    if not KILNS:
        return {"batches": [], "count": 0}
    return None


def _check_confirmed(confirm: bool) -> dict | None:
    if not confirm:
        return {"confirm_required": True, "message": "This empties the kiln. Call again with confirm=True."}
    return None


@mcp.tool()
def list_batches() -> dict:
    if (empty := _nothing_to_list()):
        return empty
    names = sorted(KILNS)
    return {"batches": names, "count": len(names)}


@mcp.tool()
def empty_kiln(confirm: bool = False) -> dict:
    if (prompt := _check_confirmed(confirm)):
        return prompt
    KILNS.clear()
    return {"emptied": True}
''')
