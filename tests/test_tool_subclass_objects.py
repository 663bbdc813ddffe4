"""An object of a project subclass of the framework's Tool class handed to the server
(`mcp.add_tool(FlowTool(...))`, or made by a factory: `tool = await build_flow_tool(name);
mcp.add_tool(tool)`): the framework calls its `run`, which is the tool's code, named by its
class. An object of any other project class registers nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import invoke_in

FLOWS = """\
from typing import Any

import httpx
BASE_IMPORT


class FlowTool(BASE):
    async def run(self, arguments: dict[str, Any]) -> Any:
        try:
            return httpx.get("https://flows.invalid/" + arguments["flow"]).text
        except httpx.HTTPError as e:
            return f"Error: {e}"


async def build_flow_tool(name: str) -> FlowTool:
    return FlowTool(name=name, description="Run a flow.", parameters={})
"""

FACTORY_SERVER = """\
from fastmcp import FastMCP

from app.flows import build_flow_tool

mcp = FastMCP("flows")


async def load_flows(names: list[str]) -> None:
    for name in names:
        tool = await build_flow_tool(name)
        mcp.add_tool(tool)
"""

DIRECT_SERVER = """\
from fastmcp import FastMCP

from app.flows import FlowTool

mcp = FastMCP("flows")
mcp.add_tool(FlowTool(name="run_flow", description="Run a flow.", parameters={}))
"""

BASES = {
    "fastmcp2": ("fastmcp>=2.10,<3", "from fastmcp.tools.tool import Tool", "Tool"),
    "fastmcp3": ("fastmcp>=3,<4", "from fastmcp.tools import Tool", "Tool"),
}


def _write(root: Path, files: dict[str, str], requirement: str) -> Path:
    files = {"pyproject.toml": f'[project]\nname = "app"\nversion = "0"\ndependencies = ["{requirement}"]\n', "app/__init__.py": "", **files}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _run(root: Path) -> tuple[list[str], str, int]:
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--output-format", "concise", "."])
    found = sorted(f"{line.split(':')[0]}:{line.split(':')[1]}: {line.split(' ')[1]}" for line in result.output.splitlines() if " MCP" in line and line.startswith("app"))
    return found, result.output, result.exit_code


def _flows(flavour: str) -> tuple[str, str]:
    requirement, base_import, base = BASES[flavour]
    return FLOWS.replace("BASE_IMPORT", base_import).replace("(BASE)", f"({base})"), requirement


@pytest.mark.parametrize("flavour", sorted(BASES))
@pytest.mark.parametrize("server", [FACTORY_SERVER, DIRECT_SERVER], ids=["factory", "direct"])
def test_the_run_of_a_tool_subclass_object_added_to_the_server_is_a_tool(tmp_path: Path, flavour: str, server: str) -> None:
    flows, requirement = _flows(flavour)
    found, output, code = _run(_write(tmp_path, {"app/flows.py": flows, "app/server.py": server}, requirement))
    assert "app/flows.py:12: MCP002" in found
    assert "Tool 'FlowTool'" in output
    assert code == 1


def test_an_object_of_a_class_that_is_no_tool_registers_nothing(tmp_path: Path) -> None:
    flows, requirement = _flows("fastmcp2")
    flows = flows.replace("from fastmcp.tools.tool import Tool", "\n\nclass Tool:\n    def __init__(self, **kwargs: Any) -> None:\n        self.kwargs = kwargs")
    found, output, code = _run(_write(tmp_path, {"app/flows.py": flows, "app/server.py": DIRECT_SERVER}, requirement))
    assert found == []
    assert code == 2  # the server's only registration is not a tool: the run says nothing was checked


def test_a_factory_made_object_that_is_no_tool_leaves_the_server_unchecked_and_the_run_says_so(tmp_path: Path) -> None:
    # `mcp.add_tool(tool)` hands the server an object, not another server: the server is not
    # one composed of others, so with no tool found on it the run warns and exits 2.
    flows, requirement = _flows("fastmcp2")
    flows = flows.replace("from fastmcp.tools.tool import Tool", "\n\nclass Tool:\n    def __init__(self, **kwargs: Any) -> None:\n        self.kwargs = kwargs")
    found, output, code = _run(_write(tmp_path, {"app/flows.py": flows, "app/server.py": FACTORY_SERVER}, requirement))
    assert found == []
    assert "no tool is registered on it in a way mcp-lint follows" in output
    assert code == 2
