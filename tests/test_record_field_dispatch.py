"""A registry of records: a project decorator stores each tool as a record whose field holds the
function (`TOOLS[name] = ToolDef(name=name, handler=fn)`), and the low-level tools/call handler
runs the tool through that field (`await by_name[name].handler(args, ctx)`, in a dispatch helper
it returns). Each function the field is handed is one tool's code (ProjectNames.field_functions),
named by its own name, and a client on the context object handed to it (`ctx.notes.add(...)`,
the context class typing the attribute) is reached through it. The tool modules need not look
like tool modules: the decorator's name asks for the modules spelling it.

Nothing is reached when the field holds no function, or when nobody calls through the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import invoke_in

CLIENT = """\
import httpx


class NotesClient:
    def __init__(self, base: str) -> None:
        self._http = httpx.AsyncClient(base_url=base)

    async def add(self, text: str) -> str:
        try:
            response = await self._http.post("/notes", json={"text": text})
        except httpx.HTTPError as exc:
            return f"Error: {exc}"
        return response.text
"""

REGISTRY = """\
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app.client import NotesClient


@dataclass
class Ctx:
    notes: NotesClient


@dataclass
class ToolDef:
    name: str
    description: str
    handler: Callable[[dict, Ctx], Awaitable[Any]]


_REGISTRY: dict[str, ToolDef] = {}


def app_tool(*, name: str, description: str) -> Callable:
    def wrap(handler: Callable[[dict, Ctx], Awaitable[Any]]) -> Callable:
        if name in _REGISTRY:
            raise RuntimeError(f"Duplicate tool name: {name}")
        _REGISTRY[name] = ToolDef(name=name, description=description, handler=handler)
        return handler

    return wrap


def all_tools() -> list[ToolDef]:
    return sorted(_REGISTRY.values(), key=lambda t: t.name)
"""

TOOLS = """\
from app.registry import Ctx, app_tool


@app_tool(name="add_note", description="Add a note.")
async def add_note(args: dict, ctx: Ctx) -> str:
    return await ctx.notes.add(args["text"])
"""

SERVER = """\
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server

from app import tools  # noqa: F401  (registers the tools)
from app.client import NotesClient
from app.registry import Ctx, ToolDef, all_tools


async def dispatch(name: str, arguments: dict, *, by_name: dict[str, ToolDef], ctx: Ctx) -> list[types.TextContent]:
    tool = by_name.get(name)
    if tool is None:
        raise ValueError(f"Unknown tool: {name}")
    result = await tool.handler(arguments, ctx)
    return [types.TextContent(type="text", text=str(result))]


def build() -> Server:
    by_name = {t.name: t for t in all_tools()}
    ctx = Ctx(notes=NotesClient("https://notes.invalid"))
    server: Server = Server("notes")

    @server.call_tool()
    async def _call(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
        return await dispatch(name, arguments, by_name=by_name, ctx=ctx)

    return server
"""

# The dispatcher looks the record up in the module's table itself.
DIRECT = """\
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server

from app import tools  # noqa: F401  (registers the tools)
from app.client import NotesClient
from app.registry import _REGISTRY, Ctx

server = Server("notes")
CTX = Ctx(notes=NotesClient("https://notes.invalid"))


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    result = await _REGISTRY[name].handler(arguments, CTX)
    return [types.TextContent(type="text", text=str(result))]
"""

FOUND = ["app/client.py:12:13: MCP005", "app/client.py:12:20: MCP002"]


def _write(root: Path, files: dict[str, str]) -> Path:
    files = {
        "pyproject.toml": '[project]\nname = "app"\nversion = "0"\ndependencies = ["mcp>=1.9,<2"]\n',
        "app/__init__.py": "",
        "app/client.py": CLIENT,
        "app/registry.py": REGISTRY,
        "app/tools.py": TOOLS,
        "app/server.py": SERVER,
        **files,
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _check(root: Path, *extra: str) -> tuple[list[str], str]:
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--select", "MCP002,MCP005", *extra, "."])
    lines = result.output.splitlines()
    found = sorted(f"{line.split(':')[0]}:{line.split(':')[1]}:{line.split(':')[2]}: {line.split(' ')[1]}" for line in lines if ": MCP" in line)
    return found, result.output


@pytest.mark.parametrize("field", ["handler", "fn", "run_with"])
def test_a_function_held_in_a_records_field_is_run_through_it(tmp_path: Path, field: str) -> None:
    # The field's name is read from the class and the call, whatever it is.
    registry = REGISTRY.replace("\n    handler: Callable", f"\n    {field}: Callable").replace("handler=handler", f"{field}=handler")
    found, output = _check(_write(tmp_path, {"app/registry.py": registry, "app/server.py": SERVER.replace("tool.handler(", f"tool.{field}(")}))
    assert found == FOUND
    # Named by the decorated function, reached from the dispatcher; the decorator's duplicate
    # check is no wrapper around the tool's calls.
    assert "reached from tools '_call', 'add_note', 'dispatch'" in output
    assert "registry.py" not in output


def test_the_handler_looks_the_record_up_in_the_table_itself(tmp_path: Path) -> None:
    found, _ = _check(_write(tmp_path, {"app/server.py": DIRECT}))
    assert found == FOUND


def test_a_field_holding_no_function_runs_nothing(tmp_path: Path) -> None:
    registry = REGISTRY.replace("handler=handler)", "handler=name)")
    found, _ = _check(_write(tmp_path, {"app/registry.py": registry}))
    assert found == []


def test_a_registry_nobody_dispatches_from_reaches_nothing(tmp_path: Path) -> None:
    server = SERVER.replace("result = await tool.handler(arguments, ctx)", 'result = f"{tool.name}: {tool.description}"')
    found, _ = _check(_write(tmp_path, {"app/server.py": server}))
    assert found == []
