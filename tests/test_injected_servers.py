"""A server that reaches its registrations through parameters and attributes: a registrar object
keeping the server its constructor received (`self._mcp = mcp`, then `@self._mcp.tool()`,
`self.mcp.add_tool(self.store)`), and a server made by an injected factory whose default is the
project's own (`def create_server(mcp_factory=make_server)`, `factory = mcp_factory or
make_server`). The tools are checked when a caller hands the registrar a server; a registrar
given something else registers nothing mcp-lint checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

REGISTRAR = """\
import httpx


class ToolContext:
    def __init__(self, mcp, base_url: str) -> None:
        self._mcp = mcp
        self.base_url = base_url

    def register(self) -> None:
        @self._mcp.tool()
        def lookup(key: str) -> str:
            try:
                return httpx.get(self.base_url + key).text
            except httpx.HTTPError as exc:
                return f"Error: {exc}"

        self._mcp.tool()(self.store)

    def store(self, key: str) -> str:
        if not key:
            return "Error: key is required"
        return key
"""
# The same registrar keeping the server beside another value, registering with add_tool.
PAIRED = REGISTRAR.replace("        self._mcp = mcp\n        self.base_url = base_url\n", "        self.mcp, self.base_url = mcp, base_url\n        self.calls = 0\n").replace(
    "self._mcp.tool()(self.store)", "self.mcp.add_tool(self.store)"
).replace("@self._mcp.tool()", "@self.mcp.tool()")
FLAGGED = ["pkg/tools.py:15: MCP002", "pkg/tools.py:15: MCP005", "pkg/tools.py:21: MCP005"]

MODULE_SERVER = """\
from fastmcp import FastMCP

from pkg.tools import ToolContext

mcp = FastMCP("records")
ToolContext(mcp, "https://records.invalid/").register()
"""
DEFAULT_FACTORY = """\
from fastmcp import FastMCP

from pkg.tools import ToolContext


def _make_server(name: str) -> FastMCP:
    return FastMCP(name)


def create_server(mcp_factory=_make_server):
    mcp = mcp_factory("records")
    ToolContext(mcp, "https://records.invalid/").register()
    return mcp
"""
FALLBACK_FACTORY = """\
from pkg.tools import ToolContext


def _make_server(name: str):
    from fastmcp import FastMCP

    return FastMCP(name)


def create_server(mcp_factory=None):
    factory = mcp_factory or _make_server
    mcp = factory("records")
    ToolContext(mcp, "https://records.invalid/").register()
    return mcp
"""


def _project(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'pkg'\ndependencies = ['fastmcp>=2.10']\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (root / "pkg" / name).write_text(text)


def _findings(root: Path, monkeypatch: pytest.MonkeyPatch, *options: str) -> tuple[list[str], int, str]:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(
        cli, ["check", "--no-cache", "--select", "MCP002,MCP005", "--output-format", "concise", *options, "."], catch_exceptions=False
    )
    lines = sorted(f"{line.split(':')[0]}:{line.split(':')[1]}: {line.split(' ')[1]}" for line in result.stdout.splitlines() if ": MCP" in line)
    return lines, result.exit_code, result.stderr


@pytest.mark.parametrize(
    ("registrar", "server"),
    [(REGISTRAR, MODULE_SERVER), (PAIRED, MODULE_SERVER), (REGISTRAR, DEFAULT_FACTORY), (REGISTRAR, FALLBACK_FACTORY)],
    ids=["attribute-of-a-constructor-parameter", "paired-attributes-add-tool", "factory-parameter-default", "factory-or-fallback"],
)
def test_tools_a_registrar_adds_to_the_server_its_constructor_received_are_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, registrar: str, server: str
) -> None:
    _project(tmp_path, {"tools.py": registrar, "server.py": server})
    lines, code, stderr = _findings(tmp_path, monkeypatch)
    assert lines == FLAGGED, stderr
    assert code == 1
    assert "warning" not in stderr
    assert _findings(tmp_path, monkeypatch, "--jobs", "1")[0] == FLAGGED


def test_a_registrar_given_an_object_that_is_no_server_checks_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The registrar is handed the project's own router: `.tool()` there is not MCP's.
    server = (
        "from fastmcp import FastMCP\n\nfrom pkg.tools import ToolContext\n\n\nclass Router:\n"
        "    def tool(self):\n        return lambda fn: fn\n\n\nmcp = FastMCP('records')\n"
        "ToolContext(Router(), 'https://records.invalid/').register()\n\n\n@mcp.tool()\ndef ping() -> str:\n    return 'pong'\n"
    )
    _project(tmp_path, {"tools.py": REGISTRAR, "server.py": server})
    lines, _, _ = _findings(tmp_path, monkeypatch)
    assert lines == []


def test_a_factory_parameter_whose_default_makes_no_server_makes_no_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The default builds a plain dict: nothing registered on what it returns is a tool.
    server = DEFAULT_FACTORY.replace("def _make_server(name: str) -> FastMCP:\n    return FastMCP(name)", "def _make_server(name: str) -> dict:\n    return {'name': name}")
    server += "\n\nserver = FastMCP('other')\n\n\n@server.tool()\ndef ping() -> str:\n    return 'pong'\n"
    _project(tmp_path, {"tools.py": REGISTRAR, "server.py": server})
    lines, _, _ = _findings(tmp_path, monkeypatch)
    assert lines == []
