"""Registration by value flow (model/passed_callables.py, linking/passed_callables.py): a function
that reaches a registration call through a parameter, a loop over one, a wrapper call, or a
reflection over a module is a tool, whatever the loop or the loader looks like; a function that
reaches no registration is none."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

# Functions that return a failure as text: MCP005 where they are tools.
HANDLERS = (
    "def lookup(key: str) -> str:\n    if not key:\n        return 'Error: key is required'\n    return key\n\n\n"
    "def store(key: str) -> str:\n    if not key:\n        return 'Error: nothing to store'\n    return key\n\n\n"
    "def _helper(key: str) -> str:\n    if not key:\n        return 'Error: no key'\n    return key\n"
)
HANDLERS_TABLE = HANDLERS + "\n\nEXPOSED = (lookup, store)\n"

INSTALL_LOOP = (
    "from fastmcp import FastMCP\n\nfrom pkg.handlers import EXPOSED\n\nmcp = FastMCP('x')\n\n\n"
    "def adapt(fn):\n    def wrapped(*args, **kwargs):\n        return fn(*args, **kwargs)\n\n    return wrapped\n\n\n"
    "def install(fns):\n    for fn in fns:\n        mcp.tool(adapt(fn), name=fn.__name__)\n\n\n"
    "install((*EXPOSED,))\n"
)
INSTALL_ONE = (
    "from fastmcp import FastMCP\n\nfrom pkg import handlers\n\nmcp = FastMCP('x')\n\n\n"
    "class Registrar:\n    def add(self, fn, title):\n        mcp.add_tool(fn, name=title)\n\n\n"
    "registrar = Registrar()\nregistrar.add(handlers.lookup, 'lookup')\nregistrar.add(handlers.store, 'store')\n"
)
REFLECTED = (
    "import inspect\n\nfrom fastmcp import FastMCP\n\nfrom pkg import handlers\n\nmcp = FastMCP('x')\n\n\n"
    "def load(server, source):\n    for name, member in inspect.getmembers(source, inspect.isfunction):\n"
    "        if not name.startswith('_'):\n            server.tool()(member)\n\n\n"
    "load(mcp, handlers)\n"
)
BY_NAME = (
    "from fastmcp import FastMCP\n\nfrom pkg import handlers\n\nmcp = FastMCP('x')\n\n"
    "for name in ('lookup', 'store'):\n    mcp.tool()(getattr(handlers, name))\n"
)
# A decorator that stores what it decorates in a module table; a later loop registers the rows.
STORED = (
    "from fastmcp import FastMCP\n\nmcp = FastMCP('x')\nREGISTRY = {}\n\n\n"
    "def exposed(kind):\n    def decorator(fn):\n        REGISTRY[fn.__name__] = (kind, fn)\n        return fn\n\n    return decorator\n\n\n"
    "@exposed('read')\ndef lookup(key: str) -> str:\n    if not key:\n        return 'Error: key is required'\n    return key\n\n\n"
    "@exposed('write')\ndef store(key: str) -> str:\n    if not key:\n        return 'Error: nothing to store'\n    return key\n\n\n"
    "def register_enabled(enabled):\n    for name in enabled:\n        _kind, fn = REGISTRY[name]\n        mcp.tool(fn)\n"
)
FLAGGED = ["pkg/handlers.py:3:9: MCP005", "pkg/handlers.py:9:9: MCP005"]


def _project(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'pkg'\ndependencies = ['fastmcp>=2.10']\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (root / "pkg" / name).write_text(text)


def _findings(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int, str]:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--select", "MCP005", "--output-format", "concise", "."], catch_exceptions=False)
    lines = [" ".join(line.split(" ")[:2]) for line in result.stdout.splitlines() if ": MCP" in line]
    return lines, result.exit_code, result.stderr


@pytest.mark.parametrize(
    ("server", "handlers"),
    [(INSTALL_LOOP, HANDLERS_TABLE), (INSTALL_ONE, HANDLERS), (REFLECTED, HANDLERS), (BY_NAME, HANDLERS)],
    ids=["loop-over-a-parameter-through-an-adapter", "registrar-method-parameter", "reflection-over-a-module-parameter", "getattr-by-name"],
)
def test_functions_that_flow_into_a_registration_are_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: str, handlers: str) -> None:
    _project(tmp_path, {"server.py": server, "handlers.py": handlers})
    lines, code, stderr = _findings(tmp_path, monkeypatch)
    assert lines == FLAGGED, stderr
    assert code == 1
    assert "warning" not in stderr


def test_a_private_function_of_a_reflected_module_is_no_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, {"server.py": REFLECTED, "handlers.py": HANDLERS})
    lines, _, _ = _findings(tmp_path, monkeypatch)
    assert "pkg/handlers.py:15:9: MCP005" not in lines


def test_functions_passed_to_a_function_that_registers_nothing_are_no_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same loop, but what it hands the functions to is a list of the project, not a server.
    audit = INSTALL_LOOP.replace("mcp.tool(adapt(fn), name=fn.__name__)", "AUDITED.append(adapt(fn))").replace(
        "mcp = FastMCP('x')\n", "mcp = FastMCP('x')\nAUDITED = []\n\n\n@mcp.tool()\ndef ping() -> str:\n    return 'pong'\n"
    )
    _project(tmp_path, {"server.py": audit, "handlers.py": HANDLERS_TABLE})
    lines, code, stderr = _findings(tmp_path, monkeypatch)
    assert lines == [], stderr
    assert code == 0


def test_functions_a_decorator_stores_in_a_table_that_a_loop_registers_are_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, {"server.py": STORED})
    lines, code, stderr = _findings(tmp_path, monkeypatch)
    assert lines == ["pkg/server.py:18:9: MCP005", "pkg/server.py:25:9: MCP005"], stderr
    assert code == 1


def test_functions_a_decorator_stores_in_a_table_nothing_registers_are_no_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listed = STORED.replace("        mcp.tool(fn)\n", "        print(fn)\n") + "\n\n@mcp.tool()\ndef ping() -> str:\n    return 'pong'\n"
    _project(tmp_path, {"server.py": listed})
    lines, code, stderr = _findings(tmp_path, monkeypatch)
    assert lines == [], stderr
    assert code == 0


# The adapter a registration wraps each tool in catches every failure and returns its text.
GUARDED_ADAPTER = INSTALL_LOOP.replace(
    "    def wrapped(*args, **kwargs):\n        return fn(*args, **kwargs)\n",
    "    def wrapped(*args, **kwargs):\n        try:\n            return fn(*args, **kwargs)\n        except Exception as exc:\n"
    "            return {'status': 'error', 'message': str(exc)}\n",
)


def test_the_adapter_a_registration_wraps_a_tool_in_runs_on_the_tools_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, {"server.py": GUARDED_ADAPTER, "handlers.py": HANDLERS_TABLE})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--select", "MCP002,MCP005", "--output-format", "concise", "."], catch_exceptions=False)
    lines = [" ".join(line.split(" ")[:2]) for line in result.stdout.splitlines() if ": MCP" in line]
    assert lines == [*FLAGGED, "pkg/server.py:13:13: MCP005", "pkg/server.py:13:20: MCP002"], result.stdout


def test_an_adapter_that_lets_failures_through_adds_no_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    passing = GUARDED_ADAPTER.replace("            return {'status': 'error', 'message': str(exc)}\n", "            raise\n")
    _project(tmp_path, {"server.py": passing, "handlers.py": HANDLERS_TABLE})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--select", "MCP002,MCP005", "--output-format", "concise", "."], catch_exceptions=False)
    lines = [" ".join(line.split(" ")[:2]) for line in result.stdout.splitlines() if ": MCP" in line]
    assert lines == FLAGGED, result.stdout
