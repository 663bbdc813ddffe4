"""A module's state set by one tool and read by others: `global conn; conn = store`, where the
object came out of a registry (a dict of classes or objects: `store = KINDS[kind]()`) or was made
in the tool. Calls on the module's name in any other function run the methods of each class the
registry holds (FunctionFacts.global_instances, ProjectNames.candidates), so a leak in one of them
is reported, on every framework's registration form."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import invoke_in

STORES = """\
import httpx


class FileStore:
    def open(self, where: str) -> None:
        self.where = where

    def fetch(self, key: str) -> str:
        try:
            return httpx.get(self.where + key).text
        except httpx.HTTPError as e:
            return f"Error: {e}"


class WebStore:
    def open(self, where: str) -> None:
        self.where = where

    def fetch(self, key: str) -> str:
        try:
            return httpx.get(self.where + "/" + key).text
        except httpx.HTTPError as e:
            return f"Failed: {e}"
"""

BODY = """\
_KINDS = {"file": FileStore, "web": WebStore}
_active = None


DECO
def open_store(kind: str, where: str) -> str:
    \"\"\"Open a store.\"\"\"
    global _active
    store = _KINDS[kind]()
    store.open(where)
    _active = store
    return "opened"


DECO
def read_key(key: str) -> str:
    \"\"\"Read a key.\"\"\"
    if _active is None:
        raise ValueError("no store open")
    return _active.fetch(key)
"""

HEADS = {
    "mcp1": ("mcp>=1.9,<2", "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('stores')\n", "@mcp.tool()"),
    "mcp2": ("mcp>=2,<3", "from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer('stores')\n", "@mcp.tool()"),
    "fastmcp2": ("fastmcp>=2.10,<3", "from fastmcp import FastMCP\n\nmcp = FastMCP('stores')\n", "@mcp.tool"),
    "fastmcp3": ("fastmcp>=3,<4", "from fastmcp import FastMCP\n\nmcp = FastMCP('stores')\n", "@mcp.tool"),
}

LOWLEVEL = """\
from mcp.server.lowlevel import Server
from mcp.types import TextContent

from app.stores import FileStore, WebStore

server = Server("stores")
_KINDS = {"file": FileStore, "web": WebStore}
_conn = None


def _open(kind: str) -> str:
    global _conn
    _conn = _KINDS.get(kind)()
    return "opened"


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    if name == "open":
        return [TextContent(type="text", text=_open(arguments["kind"]))]
    return [TextContent(type="text", text=_conn.fetch(arguments["key"]))]
"""


def _tree(root: Path, server: str, requirement: str) -> Path:
    files = {
        "pyproject.toml": f'[project]\nname = "app"\nversion = "0"\ndependencies = ["{requirement}"]\n',
        "app/__init__.py": "",
        "app/stores.py": STORES,
        "app/server.py": server,
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _server(flavour: str) -> tuple[str, str]:
    requirement, head, deco = HEADS[flavour]
    return head + "\nfrom app.stores import FileStore, WebStore\n\n" + BODY.replace("DECO", deco), requirement


def _check(root: Path) -> list[str]:
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--output-format", "concise", "-q", "."])
    return sorted(f"{line.split(':')[0]}:{line.split(':')[1]}: {line.split(' ')[1]}" for line in result.output.splitlines() if line.strip())


@pytest.mark.parametrize("flavour", sorted(HEADS))
def test_a_method_called_on_a_global_set_from_a_registry_of_classes_runs_each_classs_method(tmp_path: Path, flavour: str) -> None:
    found = _check(_tree(tmp_path, *_server(flavour)))
    assert "app/stores.py:12: MCP002" in found
    assert "app/stores.py:23: MCP002" in found


def test_the_low_level_dispatcher_reading_a_global_set_from_a_registry_reaches_each_class(tmp_path: Path) -> None:
    found = _check(_tree(tmp_path, LOWLEVEL, "mcp>=1.9,<2"))
    assert "app/stores.py:12: MCP002" in found
    assert "app/stores.py:23: MCP002" in found


def test_an_object_made_in_the_tool_and_kept_in_a_global_is_typed_by_its_class(tmp_path: Path) -> None:
    server, requirement = _server("mcp1")
    server = server.replace("store = _KINDS[kind]()", "store = WebStore()")
    found = _check(_tree(tmp_path, server, requirement))
    assert "app/stores.py:23: MCP002" in found
    assert not [line for line in found if line.startswith("app/stores.py:12")]  # FileStore is never made


def test_a_registry_whose_objects_no_tool_calls_a_method_on_is_not_on_any_path(tmp_path: Path) -> None:
    server, requirement = _server("mcp1")
    server = server.replace("    return _active.fetch(key)", "    return key")
    assert not [line for line in _check(_tree(tmp_path, server, requirement)) if line.startswith("app/stores.py")]


def test_a_local_of_the_same_name_is_not_the_modules_state(tmp_path: Path) -> None:
    # Without `global`, `_active = store` binds a local of open_store: read_key's `_active` is
    # the module's None, whose methods run nothing of the registry.
    server, requirement = _server("mcp1")
    server = server.replace("    global _active\n", "")
    assert not [line for line in _check(_tree(tmp_path, server, requirement)) if line.startswith("app/stores.py")]
