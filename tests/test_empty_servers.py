"""A server on which mcp-lint links no tool is named, and the run is no pass: its tools were
added by something the link step did not read as a registration, so no rule looked at them
(linking/unrecognised.empty_servers). A server that only takes other servers in, or whose
project's tools sit on a server mcp-lint could not name, is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

# Tools that installed plugins provide, loaded at run time: nothing in the project names them.
LOADED = (
    "from importlib.metadata import entry_points\n\nfrom fastmcp import FastMCP\n\nmcp = FastMCP('loaded')\n\n"
    "for entry in entry_points(group='pkg.tools'):\n    mcp.add_tool(entry.load())\n"
)
HANDLERS = "def lookup(key: str) -> str:\n    return key\n\n\nlookup.exposed = True\n"
EMPTY_WARNING = (
    "mcp-lint: warning: server pkg.server.mcp (pkg/server.py): no tool is registered on it in a way mcp-lint "
    "follows (a loader, a registrar or a loop it does not read), so none of its tools was checked"
)
# A parent server that mounts a child: the child's tools are the parent's.
PARENT = "from fastmcp import FastMCP\n\nfrom pkg.child import child\n\nmcp = FastMCP('parent')\nmcp.mount(child)\n"
CHILD = "from fastmcp import FastMCP\n\nchild = FastMCP('child')\n\n\n@child.tool()\ndef ping() -> str:\n    return 'pong'\n"
# Tools registered on a parameter typed with the server class, by a function the server's
# lifespan calls: linked, but to no server mcp-lint can name.
LIFESPAN = (
    "from contextlib import asynccontextmanager\n\nfrom fastmcp import FastMCP\n\nfrom pkg import extra\n\n\n"
    "@asynccontextmanager\nasync def lifespan(server: FastMCP):\n    extra.register(server)\n    yield {}\n\n\n"
    "mcp = FastMCP('main', lifespan=lifespan)\n"
)
REGISTER = "from fastmcp import FastMCP\n\n\ndef register(app: FastMCP) -> None:\n    @app.tool()\n    def ping() -> str:\n        return 'pong'\n"


# A package that hands out its server on first use through a module `__getattr__`: a function
# mcp-lint takes for a server factory, with no tool of its own.
LAZY = (
    "from fastmcp import FastMCP\n\n\ndef __getattr__(name: str) -> FastMCP:\n    if name == 'mcp':\n        from pkg.child import child\n\n        return child\n"
    "    raise AttributeError(name)\n"
)


# A project subclass of the server class, and the server made from it with a tool.
SUBCLASSED = (
    "from fastmcp import FastMCP\n\n\nclass _Server(FastMCP):\n    pass\n\n\nmcp = _Server('x')\n\n\n"
    "@mcp.tool()\ndef ping() -> str:\n    return 'pong'\n"
)


def _project(root: Path, files: dict[str, str], settings: str = "") -> None:
    (root / "pyproject.toml").write_text(f"[project]\nname = 'pkg'\ndependencies = ['fastmcp>=2.10']\n{settings}")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (root / "pkg" / name).write_text(text)


def _check(root: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(root)
    return CliRunner().invoke(cli, ["check", "--no-cache", "."], catch_exceptions=False)


def _warnings(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("mcp-lint: warning:")]


def test_a_server_left_with_no_tool_is_named_and_the_run_is_no_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, {"server.py": LOADED, "handlers.py": HANDLERS})
    result = _check(tmp_path, monkeypatch)
    assert _warnings(result) == [EMPTY_WARNING]
    assert "All checks passed!" not in result.stdout
    assert result.exit_code == 2


def test_require_tools_false_accepts_a_server_with_no_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, {"server.py": LOADED, "handlers.py": HANDLERS}, "\n[tool.mcp-lint]\nrequire-tools = false\n")
    result = _check(tmp_path, monkeypatch)
    assert _warnings(result) == []
    assert result.exit_code == 0


@pytest.mark.parametrize(
    "files",
    [
        {"server.py": PARENT, "child.py": CHILD},
        {"server.py": LIFESPAN, "extra.py": REGISTER},
        {"lazy.py": LAZY, "child.py": CHILD},
        {"server.py": SUBCLASSED},
    ],
    ids=["mounts", "typed-parameter", "factory-beside-a-server-with-tools", "server-subclass"],
)
def test_a_server_whose_tools_are_elsewhere_is_not_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> None:
    _project(tmp_path, files)
    result = _check(tmp_path, monkeypatch)
    assert _warnings(result) == []
    assert result.stdout.strip() == "All checks passed!"
    assert result.exit_code == 0
