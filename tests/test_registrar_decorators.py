"""A registrar object whose method is a decorator factory over the server it was handed: the
registration call kept in a local (`register = self._server.tool(...)`, applied in the inner
decorator), the decorated function handed to a project wrapper beside other values
(`register(audited(sink, fn, limit=1))`), the method taken from a local registrar object
(`@reg.tool("x")`, `tool = reg.tool` then `@tool("x")`, `tool("x")(fn)` as a statement), and the
registrar made from a register function's parameter. The tools are checked when the object the
registrar holds is an MCP server; a registrar over the project's own router registers nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke_in

REGISTRAR = """\
import json
from typing import Any, Callable

import httpx


def audited(sink, fn, *, limit: float = 0.0):
    def wrapped(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapped


class Registrar:
    def __init__(self, server: Any, sink: str) -> None:
        self._server, self._sink = server, sink

    def tool(self, title: str) -> Callable[[Callable], Callable]:
        register = self._server.tool(description=title)

        def deco(fn: Callable) -> Callable:
            return register(audited(self._sink, fn, limit=1.0))

        return deco


def register_notes(server) -> Registrar:
    reg = Registrar(server, "audit")
    tool = reg.tool

    @tool("Read a note")
    def read_note(note_id: str) -> str:
        try:
            return httpx.get(f"https://notes.invalid/{note_id}").text
        except httpx.HTTPError as exc:
            return json.dumps({"error": str(exc)})

    @reg.tool("Delete a note")
    def delete_note(note_id: str) -> str:
        if not note_id:
            return json.dumps({"error": "note_id is required"})
        return "deleted"

    def count_notes(folder: str) -> str:
        try:
            return str(len(httpx.get(f"https://notes.invalid/{folder}").json()))
        except httpx.HTTPError as exc:
            return f"Error: {exc}"

    tool("Count notes")(count_notes)
    return reg
"""
FLAGGED = [
    "pkg/tools.py:36: MCP002",
    "pkg/tools.py:36: MCP005",
    "pkg/tools.py:41: MCP005",
    "pkg/tools.py:48: MCP002",
    "pkg/tools.py:48: MCP005",
]

MODULE_SERVER = """\
from mcp.server.fastmcp import FastMCP

from pkg.tools import register_notes

server = FastMCP("notes")
register_notes(server)
"""
FACTORY_SERVER = """\
from typing import Any, Callable

from pkg.tools import register_notes


def _default_factory(name: str):
    from mcp.server.fastmcp import FastMCP

    return FastMCP(name)


def build(name: str, *, server_factory: Callable[..., Any] = _default_factory):
    server = server_factory(name)
    register_notes(server)
    return server
"""
ROUTER = """\
from pkg.tools import register_notes


class Router:
    def tool(self, description: str = ""):
        return lambda fn: fn


register_notes(Router())
"""


def _project(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'pkg'\ndependencies = ['mcp>=1.10']\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (root / "pkg" / name).write_text(text)


def _findings(root: Path, *options: str) -> tuple[list[str], int, str]:
    result = invoke_in(root, ["check", "--no-cache", "--select", "MCP002,MCP005", "--output-format", "concise", *options, "."])
    lines = sorted(f"{line.split(':')[0]}:{line.split(':')[1]}: {line.split(' ')[1]}" for line in result.stdout.splitlines() if ": MCP" in line)
    return lines, result.exit_code, result.stderr


@pytest.mark.parametrize("server", [MODULE_SERVER, FACTORY_SERVER], ids=["module-server", "injected-factory"])
def test_tools_a_registrar_method_decorates_are_checked(tmp_path: Path, server: str) -> None:
    _project(tmp_path, {"tools.py": REGISTRAR, "server.py": server})
    lines, code, stderr = _findings(tmp_path)
    assert lines == FLAGGED, stderr
    assert code == 1
    assert "warning" not in stderr
    assert _findings(tmp_path, "--jobs", "1")[0] == FLAGGED


def test_the_verbose_listing_names_the_registrars_tools(tmp_path: Path) -> None:
    _project(tmp_path, {"tools.py": REGISTRAR, "server.py": MODULE_SERVER})
    _, _, stderr = _findings(tmp_path, "-v")
    assert "3 tools: count_notes, delete_note, read_note" in stderr


def test_a_registrar_over_the_projects_own_router_checks_nothing(tmp_path: Path) -> None:
    # The same registrar handed an object whose `.tool()` is the project's: no MCP tool.
    _project(tmp_path, {"tools.py": REGISTRAR, "server.py": ROUTER})
    lines, _, _ = _findings(tmp_path)
    assert lines == []


CATALOG = """\
import httpx
from mcp.server.fastmcp import FastMCP

server = FastMCP("notes")


class Catalog:
    def __init__(self) -> None:
        self._rows: list = []

    def entry(self, title: str):
        def deco(fn):
            self._rows.append((title, fn))
            return fn

        return deco


@server.tool()
def ping() -> str:
    return "pong"


def describe(catalog: Catalog) -> None:
    def count_notes(folder: str) -> str:
        try:
            return str(len(httpx.get(f"https://notes.invalid/{folder}").json()))
        except httpx.HTTPError as exc:
            return f"Error: {exc}"

    catalog.entry("Count notes")(count_notes)
    local = Catalog()
    local.entry("Count notes")(count_notes)
"""


def test_a_decorator_factory_of_a_class_that_registers_nothing_makes_no_tool(tmp_path: Path) -> None:
    # A project class's decorator factory applied as a statement keeps rows of its own: the
    # function it decorates is no tool, though the project has a server.
    _project(tmp_path, {"server.py": CATALOG})
    lines, _, stderr = _findings(tmp_path, "-v")
    assert lines == []
    assert "1 tool: ping" in stderr


NOTES = """\
import httpx


def register_notes(app, base: str) -> None:
    @app.tool()
    def read_note(note_id: str) -> dict:
        try:
            return {"text": httpx.get(base + note_id).text}
        except httpx.HTTPError as exc:
            return {"error": True, "message": str(exc)}
"""
PROXY = """\
from mcp.server.fastmcp import FastMCP

from pkg.notes import register_notes


class _Annotating:
    def __init__(self, real, read_only: bool) -> None:
        self._real = real
        self._read_only = read_only

    def tool(self, *args, **kwargs):
        def wrapper(fn):
            real_decorator = self._real.tool(*args, **kwargs)
            return real_decorator(fn)

        return wrapper


def register_all(app, read_only: bool = False) -> None:
    proxy = _Annotating(app, read_only=read_only)
    register_notes(proxy, "https://notes.invalid/")


mcp = FastMCP("notes")
register_all(mcp)
"""


def test_tools_registered_on_a_proxy_built_around_the_server_are_checked(tmp_path: Path) -> None:
    # A local proxy object made of a project class answering `tool`, handed to register functions.
    _project(tmp_path, {"notes.py": NOTES, "server.py": PROXY})
    lines, code, stderr = _findings(tmp_path, "-v")
    assert lines == ["pkg/notes.py:10: MCP002", "pkg/notes.py:10: MCP005"], stderr
    assert "1 tool: read_note" in stderr
    assert code == 1


def test_an_object_of_a_class_that_answers_no_tool_is_no_proxy(tmp_path: Path) -> None:
    # The same wrapper class without a `tool` method (nor `__getattr__`): what it is handed is
    # not registered on through it, and the register function's tools stay unchecked (warned).
    plain = PROXY.replace("    def tool(self, *args, **kwargs):", "    def annotate(self, *args, **kwargs):")
    _project(tmp_path, {"notes.py": NOTES, "server.py": plain})
    lines, _, stderr = _findings(tmp_path)
    assert lines == []
    assert "no MCP server recognised in pkg/notes.py" in stderr
