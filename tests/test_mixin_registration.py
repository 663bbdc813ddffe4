"""A mixin that registers its subclasses' methods by name (`for row in self.tools: fn =
getattr(self, row["fn"]); mcp.tool(**row)(fn)`): each public method a project subclass defines is
a tool (the names are data the linker does not read), on every framework; a class with no
subclass registers its own public methods, not the registering one; nothing private, nothing of a
class whose `getattr(self, name)` is only called."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import invoke_in

MIXIN = """\
from typing import Any, ClassVar


class ToolMixin:
    tools: ClassVar[list[dict[str, Any]]] = []

    def register_tools(self, server):
        for row in self.tools:
            meta = dict(row)
            fn = getattr(self, meta.pop("fn"))
            server.tool(**meta)(fn)
        return server

    def render(self, value: str) -> str:
        return value.strip()
"""

SERVICE = """\
import httpx
HEAD

from app.mixin import ToolMixin


class RatesService(ToolMixin):
    tools = [{"fn": "latest_rate", "name": "latest_rate"}]

    def latest_rate(self, currency: str) -> str:
        try:
            return self.render(self._fetch(currency))
        except httpx.HTTPError as e:
            return f"Could not fetch {currency}: {e}"

    def _fetch(self, currency: str) -> str:
        return httpx.get("https://rates.invalid/" + currency).text


def build():
    server = SERVER
    return RatesService().register_tools(server)
"""

HEADS = {
    "mcp1": ("mcp>=1.9,<2", "from mcp.server.fastmcp import FastMCP", "FastMCP('rates')"),
    "mcp2": ("mcp>=2,<3", "from mcp.server.mcpserver import MCPServer", "MCPServer('rates')"),
    "fastmcp2": ("fastmcp>=2.10,<3", "from fastmcp import FastMCP", "FastMCP('rates')"),
    "fastmcp3": ("fastmcp>=3,<4", "from fastmcp import FastMCP", "FastMCP('rates')"),
}


def _write(root: Path, files: dict[str, str], requirement: str) -> Path:
    files = {"pyproject.toml": f'[project]\nname = "app"\nversion = "0"\ndependencies = ["{requirement}"]\n', "app/__init__.py": "", **files}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _run(root: Path, *options: str) -> tuple[list[str], str]:
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--output-format", "concise", *options, "."])
    found = sorted(f"{line.split(':')[0]}:{line.split(':')[1]}: {line.split(' ')[1]}" for line in result.output.splitlines() if " MCP" in line and line.startswith("app"))
    return found, result.output


def _service(flavour: str) -> tuple[str, str]:
    requirement, head, server = HEADS[flavour]
    return SERVICE.replace("HEAD", head).replace("SERVER", server), requirement


@pytest.mark.parametrize("flavour", sorted(HEADS))
def test_each_public_method_a_subclass_defines_is_a_tool_of_the_mixins_loop(tmp_path: Path, flavour: str) -> None:
    service, requirement = _service(flavour)
    found, output = _run(_write(tmp_path, {"app/mixin.py": MIXIN, "app/service.py": service}, requirement), "-v")
    assert "app/service.py:14: MCP002" in found
    assert "1 tool: latest_rate" in output  # not the private helper, not the mixin's own methods


def test_a_method_looked_up_by_name_and_only_called_is_no_tool(tmp_path: Path) -> None:
    service, requirement = _service("mcp1")
    mixin = MIXIN.replace("            server.tool(**meta)(fn)\n", "            fn()\n")
    found, output = _run(_write(tmp_path, {"app/mixin.py": mixin, "app/service.py": service}, requirement), "-v")
    assert found == []
    assert "no MCP server or tool was found" in output  # the run says nothing was checked, rather than passing


def test_a_class_with_no_subclass_registers_its_own_public_methods_but_not_the_registering_one(tmp_path: Path) -> None:
    requirement, head, server = HEADS["fastmcp2"]
    own = MIXIN.replace("class ToolMixin:", "import httpx\n" + head + "\n\n\nclass RatesService:").replace(
        "    def render(self, value: str) -> str:\n        return value.strip()\n",
        "    def latest_rate(self, currency: str) -> str:\n        try:\n            return httpx.get(currency).text\n"
        "        except httpx.HTTPError as e:\n            return f\"Error: {e}\"\n\n\n"
        f"def build():\n    return RatesService().register_tools({server})\n",
    )
    found, output = _run(_write(tmp_path, {"app/service.py": own}, requirement), "-v")
    assert "app/service.py:22: MCP002" in found
    assert "1 tool: latest_rate" in output
