"""A project decorator (or decorator factory) that registers a wrapper around what it decorates:
`def tool(**options): def decorator(fn): mcp.tool(guarded(fn), **options); return fn`. Each
function decorated with it is a tool, run inside the wrapper (the wrapper's body is on its path),
on every framework, also when the server is a parameter the factory receives from a register
function that a server builder calls (`register_all(mcp)` -> `register(mcp)` -> `@tool(mcp)`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli
from cli_support import invoke_in

SERVER = """\
import functools
from typing import Any, Callable

import httpx
HEAD


def guarded(fn: Callable) -> Callable:
    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        return await fn(*args, **kwargs)

    return wrapper


def tool(**options: Any) -> Callable:
    def decorator(fn: Callable) -> Callable:
        mcp.tool(guarded(fn), **options)
        return fn

    return decorator


@tool(tags={"read"})
async def read_note(note_id: str) -> str:
    \"\"\"Read a note.\"\"\"
    try:
        return httpx.get("https://notes.invalid/" + note_id).text
    except httpx.HTTPError as e:
        return f"Error: {e}"
"""

HEADS = {
    "mcp1": ("mcp>=1.9,<2", "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('notes')"),
    "mcp2": ("mcp>=2,<3", "from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer('notes')"),
    "fastmcp2": ("fastmcp>=2.10,<3", "from fastmcp import FastMCP\n\nmcp = FastMCP('notes')"),
    "fastmcp3": ("fastmcp>=3,<4", "from fastmcp import FastMCP\n\nmcp = FastMCP('notes')"),
}

COMMON = """\
import functools
from typing import Any, Callable


def guarded(fn: Callable) -> Callable:
    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return await fn(*args, **kwargs)
        except OSError as e:
            return f"Request failed: {e}"

    return wrapper


def tool(server, **options: Any) -> Callable:
    def decorator(fn: Callable) -> Callable:
        server.tool(guarded(fn), **options)
        return fn

    return decorator
"""

NOTES = """\
import httpx

from app.tools.common import tool


def register(server, base: str) -> None:
    @tool(server, tags={"read"})
    async def read_note(note_id: str) -> str:
        \"\"\"Read a note.\"\"\"
        try:
            return httpx.get(base + note_id).text
        except httpx.HTTPError as e:
            return f"Error: {e}"
"""

TOOLS_INIT = """\
from app.tools import notes


def register_all(server, base: str) -> None:
    notes.register(server, base)
"""

BUILDER = """\
from fastmcp import FastMCP

from app.tools import register_all


def build_server(base: str) -> FastMCP:
    mcp = FastMCP(name="notes")
    register_all(mcp, base)
    return mcp
"""


def _write(root: Path, files: dict[str, str], requirement: str) -> Path:
    files = {"pyproject.toml": f'[project]\nname = "app"\nversion = "0"\ndependencies = ["{requirement}"]\n', "app/__init__.py": "", **files}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _line(text: str, needle: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if needle in line)


def _check(root: Path) -> list[str]:
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--output-format", "concise", "-q", "."])
    return sorted(f"{line.split(':')[0]}:{line.split(':')[1]}: {line.split(' ')[1]}" for line in result.output.splitlines() if line.strip())


@pytest.mark.parametrize("flavour", sorted(HEADS))
def test_a_function_decorated_with_a_factory_registering_its_wrapper_is_a_tool(tmp_path: Path, flavour: str) -> None:
    requirement, head = HEADS[flavour]
    server = SERVER.replace("HEAD", head)
    found = _check(_write(tmp_path, {"app/server.py": server}, requirement))
    row = _line(server, 'return f"Error: {e}"')
    assert f"app/server.py:{row}: MCP002" in found
    assert f"app/server.py:{row}: MCP005" in found


def test_the_wrapper_around_the_decorated_tool_is_on_its_path(tmp_path: Path) -> None:
    requirement, head = HEADS["mcp1"]
    server = SERVER.replace("HEAD", head).replace(
        "        return await fn(*args, **kwargs)\n",
        "        try:\n            return await fn(*args, **kwargs)\n        except OSError as e:\n            return f\"Request failed: {e}\"\n",
    )
    row = _line(server, 'return f"Request failed: {e}"')
    assert f"app/server.py:{row}: MCP002" in _check(_write(tmp_path, {"app/server.py": server}, requirement))


def test_a_decorator_factory_given_the_server_by_register_functions_registers_on_it(tmp_path: Path) -> None:
    files = {"app/tools/__init__.py": TOOLS_INIT, "app/tools/common.py": COMMON, "app/tools/notes.py": NOTES, "app/server.py": BUILDER}
    found = _check(_write(tmp_path, files, "fastmcp>=2.10,<3"))
    notes, common = _line(NOTES, "Error: {e}"), _line(COMMON, "Request failed: {e}")
    assert f"app/tools/notes.py:{notes}: MCP002" in found
    assert f"app/tools/common.py:{common}: MCP002" in found  # the wrapper runs each tool


def test_a_decorator_factory_that_only_keeps_the_wrapped_function_in_a_dict_registers_nothing(tmp_path: Path) -> None:
    requirement, head = HEADS["mcp1"]
    server = SERVER.replace("HEAD", head + "\nHANDLERS: dict = {}").replace("        mcp.tool(guarded(fn), **options)", "        HANDLERS[fn.__name__] = guarded(fn)")
    root = _write(tmp_path, {"app/server.py": server}, requirement)
    assert not [line for line in _check(root) if " MCP" in line]
    # ... and the run says the server's tools were not checked, rather than passing.
    assert CliRunner().invoke(cli, ["check", "--no-cache", "--isolated", "-q", str(root)]).exit_code == 2
