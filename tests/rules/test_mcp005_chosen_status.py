"""MCP005 on a status word chosen by a conditional expression (`"status": "success" if ok else
"failed"`): on the path that picks the failure word, the dict goes out as the tool's success. Not
when neither word (or both) is a failure, nor when the test sums up a batch the function counted."""

from __future__ import annotations

from ._support import check

SOURCE = """\
import json

import mcp.types as types
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("greenhouse")


def water(bed_id: str) -> bool:
    return True


@mcp.tool()
def water_bed(bed_id: str) -> str:
    done = water(bed_id)
    return json.dumps({"status": "success" if done else "failed", "bed": bed_id})  # expect: MCP005


@mcp.tool()
def drain_bed(bed_id: str) -> list[types.TextContent]:
    drained = water(bed_id)
    if bed_id:
        result = {
            "status": "ok" if drained else "error",
            "message": "drained" if drained else "the valve did not open",
        }
        return [types.TextContent(type="text", text=json.dumps(result, indent=2))]  # expect: MCP005
    return [types.TextContent(type="text", text="no bed")]


@mcp.tool()
def bed_state(bed_id: str) -> dict:
    wet = water(bed_id)
    return {"status": "wet" if wet else "dry", "bed": bed_id}


@mcp.tool()
def water_beds(bed_ids: list[str]) -> dict:
    missed = []
    for bed_id in bed_ids:
        if not water(bed_id):
            missed.append(bed_id)
    return {"status": "error" if missed else "ok", "missed": missed}
"""


def test_a_status_word_chosen_by_a_test_is_a_failure_on_one_path() -> None:
    check(SOURCE)


PROBE = """\
import json

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("greenhouse")


class Valves:
    def test_connection(self) -> bool:
        return True

    def open(self) -> bool:
        return True


VALVES = Valves()


@mcp.tool()
def valve_link() -> str:
    linked = VALVES.test_connection()
    return json.dumps({"status": "success" if linked else "failed"})


@mcp.tool()
def valve_action(action: str) -> str:
    if action == "open":
        done = VALVES.open()
        return json.dumps({"status": "success" if done else "failed"})  # expect: MCP005
    elif action == "test_connection":
        done = VALVES.test_connection()
        return json.dumps({"status": "success" if done else "failed"})
    return json.dumps({"status": "idle"})
"""


def test_a_status_word_chosen_by_a_probes_verdict_is_its_answer() -> None:
    check(PROBE)
