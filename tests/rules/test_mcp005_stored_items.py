"""MCP005 on a failure written into a local dict by item stores just before the return
(`report = {}` at the top; `except Timeout: report["error"] = "..."; return json.dumps(report)`):
the local resolves to its one assignment, the empty dict, so what the clause stores is what it
sends. Reported at the return (no fix: the message is not in the returned statement). Not when
the stores say nothing failed, when the error item is emptied, when the store is in another
block than the return, or in a status check filling its report."""

from __future__ import annotations

from pathlib import Path

import pytest

from ._support import check, lint_tree, write_tree

HEADER = """\
import json
from typing import Any

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kiln")


async def fire(batch: str) -> dict:
    return {}
"""

STORED = HEADER + """

@mcp.tool()
async def fire_batch(batch: str) -> str:
    report: dict[str, Any] = {}
    try:
        reply = await fire(batch)
        report["temperature"] = reply["temperature"]
    except TimeoutError:
        report["error"] = "The kiln did not answer within 30 s"
        return json.dumps(report, indent=2)  # expect: MCP005
    except Exception as exc:
        report["error"] = str(exc)  # expect: MCP002
        return json.dumps(report)  # expect: MCP005
    return json.dumps(report)
"""


def test_an_error_item_stored_before_the_return_is_the_failure_sent() -> None:
    findings = [f for f in check(STORED) if f.code == "MCP005"]
    assert [f.message for f in findings] == ["Tool 'fire_batch' returns a failure dict as a normal result"] * 2
    assert all(f.fix is None for f in findings)


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("fehler", "Der Ofen hat nicht geantwortet"),  # German error key
        ("erreur", "Le four n'a pas répondu"),  # French error key
    ],
)
def test_renamed_and_in_another_language(key: str, text: str) -> None:
    source = HEADER + f"""

@mcp.tool()
async def glaze(piece: str) -> dict:
    answer = {{"piece": piece}}
    try:
        await fire(piece)
    except OSError:
        answer["{key}"] = "{text}"
        return answer  # expect: MCP005
    answer["done"] = True
    return answer
"""
    check(source)


def test_the_store_in_a_helper_of_another_module_is_reported_there(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "kiln/__init__.py": "",
            "kiln/probe.py": """\
                import json

                import httpx


                async def measure(url: str) -> str:
                    outcome = {}
                    try:
                        async with httpx.AsyncClient() as client:
                            reply = await client.get(url)
                        outcome["status"] = reply.status_code
                    except httpx.TimeoutException:
                        outcome["error"] = "No answer within 30 s"
                        return json.dumps(outcome)
                    return json.dumps(outcome)
                """,
            "kiln/server.py": """\
                from mcp.server.fastmcp import FastMCP

                from kiln.probe import measure

                mcp = FastMCP("kiln")


                @mcp.tool()
                async def measure_kiln(url: str) -> str:
                    return await measure(url)
                """,
        },
    )
    findings = [f for f in lint_tree(tmp_path) if f.code == "MCP005"]
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("probe.py", 14)]


NOT_FAILURES = HEADER + """

@mcp.tool()
async def kiln_reading(batch: str) -> str:
    reading = {}
    try:
        reply = await fire(batch)
    except KeyError:
        reading["temperature"] = None
        reading["note"] = "no temperature in the reply"
        return json.dumps(reading)
    reading["temperature"] = reply
    return json.dumps(reading)


@mcp.tool()
async def kiln_state(batch: str) -> dict:
    state = {"batch": batch}
    try:
        await fire(batch)
    except OSError:
        state["error"] = None
        return state
    return state


@mcp.tool()
async def kiln_log(batch: str, verbose: bool = False) -> dict:
    log = {"batch": batch}
    if verbose:
        log["error"] = "verbose mode"
    try:
        await fire(batch)
    except OSError:
        return log
    return log


@mcp.tool()
async def kiln_health() -> dict:
    report = {"reachable": False, "error": None}
    try:
        await fire("probe")
        report["reachable"] = True
    except Exception as exc:
        report["error"] = f"Kiln unreachable: {exc}"  # expect: MCP002
        return report
    return report


@mcp.tool()
async def kiln_retry(batch: str) -> dict:
    summary = {}
    try:
        await fire(batch)
    except OSError:
        summary["error"] = "not fired"
        summary = {"batch": batch, "queued": True}
        return summary
    return summary
"""


def test_stores_that_say_nothing_failed_or_another_block_are_not_the_failure() -> None:
    check(NOT_FAILURES)
