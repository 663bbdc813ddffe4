"""A server built from a library's re-export of a framework's server class (`from somelib.fastmcp
import FastMCP`): recognised by the class's name and the project's declared requirement on the
framework, never by the library's name (issue 20: such a server had been checked by nobody)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

# A made-up library that re-exports a framework's server class; the linted project does not hold it.
LIBRARY = "widgetkit"

NOTE_TOOL = '''

NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(note_id: str) -> str:
    if note_id not in NOTES:
        return f"Error: note {note_id} not found"
    return NOTES[note_id]
'''
FINDING = "pkg/server.py:12:9: MCP005 Tool 'read_note' "


def _project(root: Path, requires: list[str], files: dict[str, str]) -> None:
    deps = ", ".join(repr(r) for r in requires)
    (root / "pyproject.toml").write_text(f"[project]\nname = 'pkg'\ndependencies = [{deps}]\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (root / "pkg" / name).write_text(text)


def _check(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str):
    monkeypatch.chdir(root)
    return CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", "-v", *args, "."], catch_exceptions=False)


def _servers(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("mcp-lint: server ")]


@pytest.mark.parametrize(
    ("requires", "imported", "framework"),
    [
        (["fastmcp>=3.0,<4", LIBRARY], f"from {LIBRARY}.fastmcp import FastMCP", "fastmcp, fastmcp>=3.0,<4 from pyproject.toml"),
        (["fastmcp>=3.0,<4", "mcp>=1.9", LIBRARY], f"from {LIBRARY} import FastMCP", "fastmcp, fastmcp>=3.0,<4 from pyproject.toml"),
        (["mcp>=1.9,<2", LIBRARY], f"from {LIBRARY}.servers import FastMCP", "mcp (FastMCP), mcp>=1.9,<2 from pyproject.toml"),
        # Any mcp release: the name is mcp 1.x's class (2.x calls it MCPServer).
        (["mcp", LIBRARY], f"from {LIBRARY} import FastMCP", "mcp (FastMCP), version not pinned"),
        (["mcp>=2", LIBRARY], f"from {LIBRARY} import MCPServer as FastMCP", "mcp (MCPServer), mcp>=2 from pyproject.toml"),
    ],
)
def test_a_server_on_a_reexported_class_is_checked_on_the_declared_framework(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, requires: list[str], imported: str, framework: str
) -> None:
    _project(tmp_path, requires, {"server.py": f"{imported}\n\nmcp = FastMCP('notes')\n" + NOTE_TOOL})
    result = _check(tmp_path, monkeypatch)
    assert result.exit_code == 1, result.output
    assert FINDING in result.stdout
    # Named by what made it (the class as the module imports it), as for a project factory's server.
    [server] = _servers(result)
    made_by = imported.split(" ")[1] + "." + imported.split(" ")[3]
    assert server.startswith(f"mcp-lint: server {made_by} (pkg/server.py): {framework}"), server
    assert server.endswith("1 tool: read_note")


def test_a_project_subclass_of_a_reexported_class_in_another_module_is_a_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(
        tmp_path,
        ["fastmcp>=3,<4"],
        {
            "base.py": f"from {LIBRARY}.fastmcp import FastMCP\n\n\nclass NotesServer(FastMCP):\n    pass\n",
            "server.py": "from pkg.base import NotesServer\n\nmcp = NotesServer('notes')\n" + NOTE_TOOL,
        },
    )
    result = _check(tmp_path, monkeypatch)
    assert result.exit_code == 1, result.output
    assert FINDING in result.stdout
    assert _servers(result)[0].startswith("mcp-lint: server pkg.base.NotesServer (pkg/base.py): fastmcp, fastmcp>=3,<4 from pyproject.toml")


def test_register_functions_handed_a_reexported_server_register_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The server is built in a factory, handed to an annotated register function, which hands it
    # on to an unannotated one: every tool of both is a tool of the re-exported server.
    _project(
        tmp_path,
        ["fastmcp>=3,<4"],
        {
            "server.py": (
                f"from {LIBRARY}.fastmcp import FastMCP\n\nfrom pkg.tools import register_tools\n\n\n"
                "def create_app():\n    server = FastMCP('notes')\n    register_tools(server)\n    return server\n"
            ),
            "tools.py": (
                "from typing import TYPE_CHECKING, Any\n\nif TYPE_CHECKING:\n"
                f"    from {LIBRARY}.fastmcp import FastMCP\n\n\n"
                "def register_tools(mcp: 'FastMCP') -> None:\n    register_more(mcp)\n\n    @mcp.tool()\n"
                "    def ping(x: str) -> str:\n        if not x:\n            return 'Error: x is required'\n        return x\n\n\n"
                "def register_more(app: Any) -> None:\n    @app.tool()\n"
                "    def pong(x: str) -> str:\n        if not x:\n            return 'Error: x is required'\n        return x\n"
            ),
        },
    )
    result = _check(tmp_path, monkeypatch)
    assert result.exit_code == 1, result.output
    found = sorted(line.split(" ")[0] for line in result.stdout.splitlines() if " MCP005 " in line)
    assert found == ["pkg/tools.py:13:13:", "pkg/tools.py:21:13:"], result.stdout


def test_a_same_named_class_without_a_framework_requirement_makes_no_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The project declares neither mcp nor fastmcp: a class of that name is some other library's.
    _project(tmp_path, [LIBRARY], {"server.py": f"from {LIBRARY} import FastMCP\n\nmcp = FastMCP('notes')\n" + NOTE_TOOL})
    result = _check(tmp_path, monkeypatch)
    assert FINDING not in result.stdout
    assert _servers(result) == []
    assert result.exit_code == 2
    assert (
        f"mcp-lint: warning: no MCP server recognised in pkg/server.py (1 tool not checked: read_note): FastMCP comes from {LIBRARY}, "
        "which mcp-lint cannot resolve; it takes that class for the framework's only when the project's requirements name "
        "fastmcp or mcp, and none was found"
    ) in result.stderr


def test_a_same_named_class_with_no_tool_registration_makes_no_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An unrelated library's class of that name, used without any tool registration: nothing to
    # check there, and no server is made of it (the real server's tool is still checked).
    _project(
        tmp_path,
        ["fastmcp>=3,<4", LIBRARY],
        {
            "render.py": f"from {LIBRARY}.widgets import FastMCP\n\npanel = FastMCP('panel')\npanel.draw()\n",
            "server.py": "from fastmcp import FastMCP\n\nmcp = FastMCP('notes')\n" + NOTE_TOOL,
        },
    )
    result = _check(tmp_path, monkeypatch)
    assert result.exit_code == 1, result.output
    assert FINDING in result.stdout
    assert [line.split(" ")[2] for line in _servers(result)] == ["pkg.server.mcp"]


def test_a_framework_of_the_other_family_does_not_take_a_class_it_does_not_define(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `FastMCPProxy` is fastmcp's only: a project requiring mcp alone has no server in it.
    _project(tmp_path, ["mcp>=1.9,<2", LIBRARY], {"server.py": f"from {LIBRARY} import FastMCPProxy as FastMCP\n\nmcp = FastMCP('notes')\n" + NOTE_TOOL})
    result = _check(tmp_path, monkeypatch)
    assert FINDING not in result.stdout
    assert _servers(result) == []
    assert f"FastMCPProxy comes from {LIBRARY}, which mcp-lint cannot resolve; it takes that class for the framework's only when the project's requirements name fastmcp, and they name mcp>=1.9,<2, no release of which has that class" in result.stderr


@pytest.mark.parametrize(("mask", "reported"), [("True", False), ("False", True)])
def test_the_reexported_constructors_masking_argument_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mask: str, reported: bool) -> None:
    server = (
        f"import sqlite3\n\nfrom {LIBRARY}.fastmcp import FastMCP\n\nmcp = FastMCP('notes', mask_error_details={mask})\n\n\n"
        "@mcp.tool()\ndef read_note(note_id: str) -> str:\n    try:\n"
        "        return sqlite3.connect('notes.db').execute('select 1').fetchone()[0]\n"
        "    except sqlite3.Error as e:\n        raise RuntimeError(f'database failed: {e}') from e\n"
    )
    _project(tmp_path, ["fastmcp>=3,<4"], {"server.py": server})
    result = _check(tmp_path, monkeypatch)
    found = "pkg/server.py:13:15: MCP002 Tool 'read_note' raises RuntimeError with the text of a caught sqlite3.Error" in result.stdout
    assert found is reported, result.output
    assert result.exit_code == (1 if reported else 0)


@pytest.mark.parametrize(
    "factory",
    ["def create_server() -> FastMCP:\n    return build()\n", "def create_server():\n    return FastMCP('notes')\n"],
)
def test_a_project_factory_of_a_reexported_server_makes_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, factory: str) -> None:
    _project(
        tmp_path,
        ["fastmcp>=3,<4"],
        {
            "factory.py": f"from {LIBRARY}.fastmcp import FastMCP\n\n\n{factory}",
            "server.py": "from pkg.factory import create_server\n\nmcp = create_server()\n" + NOTE_TOOL,
        },
    )
    result = _check(tmp_path, monkeypatch)
    assert result.exit_code == 1, result.output
    assert FINDING in result.stdout
    assert _servers(result)[0].startswith("mcp-lint: server pkg.factory.create_server (pkg/factory.py): fastmcp, fastmcp>=3,<4")


def test_a_directory_walk_analyses_the_helpers_a_reexported_servers_tool_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The helper's module registers nothing: only the link step's request has it analysed, and
    # the prefilter's link step, which reads no requirements, must take the server for one.
    store = (
        "import sqlite3\n\n\ndef read(key: str) -> str:\n    try:\n"
        "        return sqlite3.connect('n.db').execute('select v from t where k=?', (key,)).fetchone()[0]\n"
        "    except sqlite3.Error as e:\n        return f'Error: {e}'\n"
    )
    server = f"from {LIBRARY}.fastmcp import FastMCP\n\nfrom pkg.store import read\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\ndef lookup(key: str) -> str:\n    return read(key)\n"
    _project(tmp_path, ["fastmcp>=3,<4"], {"store.py": store, "server.py": server})
    result = _check(tmp_path, monkeypatch)
    assert result.exit_code == 1, result.output
    assert "pkg/store.py:8:9: MCP005 Helper 'read' returns a failure string as a normal result" in result.stdout


def test_add_tool_on_a_reexported_server_registers_the_function(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = NOTE_TOOL.replace("@mcp.tool()\n", "") + "\n\nmcp.add_tool(read_note)\n"
    _project(tmp_path, ["fastmcp>=3,<4"], {"server.py": f"from {LIBRARY}.fastmcp import FastMCP\n\nmcp = FastMCP('notes')\n" + server})
    result = _check(tmp_path, monkeypatch)
    assert result.exit_code == 1, result.output
    assert "pkg/server.py:11:9: MCP005 Tool 'read_note' " in result.stdout
