"""MCP005 through a result object's serialiser (issue 20, build item 3): a helper returns its
result model flagged as failed (`FetchResult(success=False, error=str(exc))`) and the tool sends
the object written out whole (`json.dumps(result.model_dump())`, `result.to_dict()`): the
helper's failure is a success on the wire, reported at the helper. Not when the tool raises on
the flag first, nor through a method of the project's own that sends something else."""

from __future__ import annotations

from ._support import check

SOURCE = """\
import json
from dataclasses import dataclass

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from pydantic import BaseModel

mcp = FastMCP("orchard")


def pick(tree_id: str) -> int:
    return 1


class Harvest(BaseModel):
    tree_id: str
    success: bool
    error: str | None = None


class Picker:
    def harvest(self, tree_id: str) -> Harvest:
        try:
            pick(tree_id)
            return Harvest(tree_id=tree_id, success=True)
        except OSError as exc:
            return Harvest(tree_id=tree_id, success=False, error=str(exc))  # expect: MCP002,MCP005


@dataclass
class Count:
    tree_id: str
    ok: bool
    note: str = ""

    def label(self) -> str:
        return "count"


def count(tree_id: str) -> Count:
    if not tree_id:
        return Count(tree_id=tree_id, ok=False, note="Tree id is required")  # expect: MCP005
    return Count(tree_id=tree_id, ok=True)


def weigh(tree_id: str) -> Count:
    if not tree_id:
        return Count(tree_id=tree_id, ok=False, note="Tree id is required")
    return Count(tree_id=tree_id, ok=True)


def prune(tree_id: str) -> Harvest:
    try:
        pick(tree_id)
        return Harvest(tree_id=tree_id, success=True)
    except OSError as exc:
        return Harvest(tree_id=tree_id, success=False, error=str(exc))


@mcp.tool()
def harvest_tree(tree_id: str) -> str:
    picker = Picker()
    result = picker.harvest(tree_id)
    return json.dumps(result.model_dump(), indent=2)


@mcp.tool()
def count_tree(tree_id: str) -> dict:
    return count(tree_id).to_dict()


@mcp.tool()
def weigh_tree(tree_id: str) -> str:
    return weigh(tree_id).label()


@mcp.tool()
def prune_tree(tree_id: str) -> str:
    result = prune(tree_id)
    if not result.success:
        raise ToolError(f"Could not prune tree {tree_id}")
    return json.dumps(result.model_dump())
"""


def test_a_failed_result_object_written_out_whole_is_the_helpers_failure() -> None:
    check(SOURCE)
