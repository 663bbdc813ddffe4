"""The language server's empty-server warning (live.LiveProject._empty_servers): a server of an
open file on which no tool is registered in a way mcp-lint follows is named, as `mcp-lint check`
names it (linking/unrecognised.empty_servers), unless its tools are registered in a module of the
project the editor has not opened (a register function in a module that never imports the server),
and unless the settings accept it (`require-tools = false`)."""

from __future__ import annotations

from pathlib import Path

from mcp_lint.config import SettingsResolver
from mcp_lint.live import LiveProject

PYPROJECT = "[project]\nname = 'pkg'\ndependencies = ['fastmcp>=2.10']\n"
# Tools kept in a dict a loader the link step does not read registers: the server looks empty.
LOADED = """\
import importlib

from fastmcp import FastMCP

mcp = FastMCP("records")


def load(names: list[str]) -> None:
    for name in names:
        module = importlib.import_module(name)
        for attr in dir(module):
            mcp.add_tool(module.__dict__[attr])
"""
# The server hands itself to a register function of a module that does not import it.
REGISTERED = """\
from fastmcp import FastMCP

from pkg.tools import register

mcp = FastMCP("records")
register(mcp)
"""
TOOLS = """\
def register(server) -> None:
    @server.tool()
    def lookup(key: str) -> str:
        return key
"""
EMPTY = (
    "server pkg.server.mcp ({path}): no tool is registered on it in a way mcp-lint follows "
    "(a loader, a registrar or a loop it does not read), so none of its tools was checked"
)


def _project(root: Path, files: dict[str, str], pyproject: str = PYPROJECT) -> LiveProject:
    (root / "pyproject.toml").write_text(pyproject)
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (root / "pkg" / name).write_text(text)
    return LiveProject(root, SettingsResolver())


def test_a_server_of_an_open_file_with_no_tool_is_named(tmp_path: Path) -> None:
    live = _project(tmp_path, {"server.py": LOADED})
    live.lint([tmp_path / "pkg" / "server.py"])
    assert live.unchecked == [EMPTY.format(path=tmp_path / 'pkg' / 'server.py')]


def test_a_server_whose_tools_a_module_the_editor_did_not_open_registers_is_not_named(tmp_path: Path) -> None:
    # tools.py never imports server.py: the lint of server.py alone traces no tool of it, the
    # whole project does.
    live = _project(tmp_path, {"server.py": REGISTERED, "tools.py": TOOLS})
    live.lint([tmp_path / "pkg" / "server.py"])
    assert live.unchecked == []
    # Once the register function registers nothing, the server is empty again.
    (tmp_path / "pkg" / "tools.py").write_text("def register(server) -> None:\n    print(server)\n")
    live.lint([tmp_path / "pkg" / "server.py"])
    assert live.unchecked == [EMPTY.format(path=tmp_path / 'pkg' / 'server.py')]


def test_a_server_accepted_empty_by_the_settings_is_not_named(tmp_path: Path) -> None:
    live = _project(tmp_path, {"server.py": LOADED}, PYPROJECT + "\n[tool.mcp-lint]\nrequire-tools = false\n")
    live.lint([tmp_path / "pkg" / "server.py"])
    assert live.unchecked == []


def test_a_server_of_a_file_not_open_is_not_named(tmp_path: Path) -> None:
    live = _project(tmp_path, {"server.py": LOADED, "other.py": "def helper() -> int:\n    return 1\n"})
    live.lint([tmp_path / "pkg" / "other.py"])
    assert live.unchecked == []
