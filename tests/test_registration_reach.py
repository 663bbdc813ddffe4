"""Tools registered in ways the linker must follow to check them at all (issue 20):

- a loop over the functions a factory hands back, when the factory returns its table through a
  copy or a comprehension (`return tuple(tools[name] for name in ORDER)`, `list(tools.values())`)
  after merging other builders' tables into a local (`tools = common(); tools.update(extra())`);
- a registry object whose method adds what its callers pass (`self._server.add_tool(fn)`), called
  on a parameter typed with the registry's class from a module that names no tool registration;
  the masking of the server the registry is built with covers those tools;
- a server in a function's local handed to a register function (`register(server)`): its tools
  are that server's (its `mask_error_details`, the inventory line).

Each package is written by the test in tmp_path and linted through the project API or the CLI.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from mcp_lint.cli import cli
from mcp_lint.config import SettingsResolver
from mcp_lint.pipeline import lint_paths
from test_cross_module import write_package

# Two builders of nested tool functions: each returns a caught library error's text as a
# normal result (MCP002 and MCP005 inside a tool, nothing elsewhere).
BUILDERS = """\
import httpx


def common_tools(client):
    async def read_page(path: str) -> str:
        \"\"\"Read a page.\"\"\"
        try:
            return (await client.get(path)).text
        except httpx.HTTPError as exc:
            return f"Error: could not read {path}: {exc}"

    async def unused(path: str) -> str:
        try:
            return (await client.get(path)).text
        except httpx.HTTPError as exc:
            return f"Error: could not read {path}: {exc}"

    return {"read_page": read_page}


def extra_tools(client):
    async def list_pages() -> str:
        \"\"\"List the pages.\"\"\"
        try:
            return (await client.get("/pages")).text
        except httpx.HTTPError as exc:
            return f"Error: could not list pages: {exc}"

    return {"list_pages": list_pages}


ORDER = ("read_page", "list_pages")


def build_tools(client, read_only=False):
    tools = common_tools(client)
    tools.update(extra_tools(client))
    return {returned}
"""

FACTORY_SERVER = """\
import httpx
from mcp.server.fastmcp import FastMCP

from pkg.builders import build_tools


def create_server():
    client = httpx.AsyncClient()
    {server} = FastMCP(name="pages")
    for tool in build_tools(client, read_only=False):
        {server}.tool(description="x")(tool)
    return {server}, client
"""


def _lint(root: Path, files: dict[str, str]) -> list[tuple[str, str, int, str]]:
    result = lint_paths(write_package(root, files), SettingsResolver(isolated=True))
    assert result.internal_errors == []
    return sorted((f.code, Path(f.filename).name, f.location.row, f.message) for f in result.findings)


def _verbose(root: Path) -> str:
    result = CliRunner().invoke(cli, ["check", "-v", "--no-cache", "--isolated", str(root)], catch_exceptions=False)
    return result.output


def _factory_findings(tmp_path: Path, returned: str, server: str = "mcp") -> list[tuple[str, str, int, str]]:
    files = {"builders.py": BUILDERS.replace("{returned}", returned), "server.py": FACTORY_SERVER.replace("{server}", server)}
    return _lint(tmp_path, files)


FACTORY_FOUND = [
    ("MCP002", "builders.py", 10, "Tool 'read_page' returns the text of a caught httpx.HTTPError as a normal result"),
    ("MCP002", "builders.py", 27, "Tool 'list_pages' returns the text of a caught httpx.HTTPError as a normal result"),
    ("MCP005", "builders.py", 10, "Tool 'read_page' returns a failure string as a normal result"),
    ("MCP005", "builders.py", 27, "Tool 'list_pages' returns a failure string as a normal result"),
]


def test_a_comprehension_over_a_merged_table_returned_by_a_factory_registers_its_functions(tmp_path: Path) -> None:
    found = _factory_findings(tmp_path, "tuple(tools[name] for name in ORDER if not read_only)")
    assert found == FACTORY_FOUND


def test_a_copy_of_the_merged_table_s_values_registers_its_functions(tmp_path: Path) -> None:
    assert _factory_findings(tmp_path, "list(tools.values())") == FACTORY_FOUND


def test_a_list_comprehension_over_the_table_s_values_registers_its_functions(tmp_path: Path) -> None:
    assert _factory_findings(tmp_path, "[fn for fn in tools.values()]") == FACTORY_FOUND


def test_a_function_the_factory_defines_but_does_not_return_is_no_tool(tmp_path: Path) -> None:
    """`unused` (line 16) is defined in the builder like the tools, never put in its table."""
    found = _factory_findings(tmp_path, "tuple(tools[name] for name in ORDER)")
    assert all(row != 16 for _, _, row, _ in found)


def test_the_factory_s_functions_registered_on_something_else_are_no_tools(tmp_path: Path) -> None:
    files = {
        "builders.py": BUILDERS.replace("{returned}", "tuple(tools[name] for name in ORDER)"),
        "server.py": FACTORY_SERVER.replace("{server}", "app").replace("app = FastMCP(name=\"pages\")", "app = Router()").replace(
            "from mcp.server.fastmcp import FastMCP", "from webkit import Router"
        ),
    }
    assert _lint(tmp_path, files) == []


def test_a_copy_of_something_else_than_a_table_registers_nothing(tmp_path: Path) -> None:
    """`tuple(ORDER)`: the names of the tools, not the functions."""
    assert _factory_findings(tmp_path, "tuple(ORDER)") == []


# -- a registry object that adds what its callers pass -----------------------------------------

REGISTRY = """\
from typing import Any, Callable

from fastmcp import FastMCP


class Registry:
    def __init__(self, server: FastMCP, *, enabled: frozenset[str]) -> None:
        self._server = server
        self._enabled = enabled

    def register(self, fn: Callable[..., Any], *, group: str) -> None:
        if group not in self._enabled:
            return
        {adds}
"""

# No word of this module says it registers a tool: only its call of the registry's method does.
ITEMS = """\
import httpx

from pkg.registry import Registry


def register(registry: Registry, base: str) -> None:
    async def fetch_item(key: str) -> str:
        \"\"\"Fetch one item.\"\"\"
        try:
            return httpx.get(base + key).text
        except httpx.HTTPError as exc:
            return f"Could not fetch {key}: {exc}"

    registry.register(fetch_item, group="core")
"""

REGISTRY_SERVER = """\
from fastmcp import FastMCP

from pkg import items
from pkg.registry import Registry


def build_server() -> FastMCP:
    server = FastMCP("items")
    registry = Registry(server, enabled=frozenset({"core"}))
    items.register(registry, "https://items.invalid/")
    return server
"""


def _registry_files(adds: str) -> dict[str, str]:
    return {"registry.py": REGISTRY.replace("{adds}", adds), "items.py": ITEMS, "server.py": REGISTRY_SERVER}


def test_a_registry_method_adding_what_its_callers_pass_registers_their_functions(tmp_path: Path) -> None:
    found = _lint(tmp_path, _registry_files("self._server.add_tool(fn)"))
    assert found == [
        ("MCP002", "items.py", 12, "Tool 'fetch_item' returns the text of a caught httpx.HTTPError as a normal result"),
        ("MCP005", "items.py", 12, "Tool 'fetch_item' returns a failure string as a normal result"),
    ]


def test_the_registry_s_tools_are_listed_as_checked(tmp_path: Path) -> None:
    write_package(tmp_path, _registry_files("self._server.add_tool(fn)"))
    output = _verbose(tmp_path)
    assert "1 tool: fetch_item" in output
    assert "no tool is registered on it" not in output


def test_a_registry_that_only_records_names_registers_nothing(tmp_path: Path) -> None:
    found = _lint(tmp_path, _registry_files("self._names = [*getattr(self, '_names', []), fn.__name__]"))
    assert found == []


def _raising_registry_files(options: str) -> dict[str, str]:
    files = _registry_files("self._server.add_tool(fn)")
    files["items.py"] = ITEMS.replace('return f"Could not fetch {key}: {exc}"', 'raise RuntimeError(f"Could not fetch {key}: {exc}")')
    files["server.py"] = REGISTRY_SERVER.replace('FastMCP("items")', f'FastMCP("items"{options})')
    return files


def test_the_masking_of_the_server_given_to_the_registry_covers_its_tools(tmp_path: Path) -> None:
    assert _lint(tmp_path, _raising_registry_files(", mask_error_details=True")) == []


def test_without_masking_the_registry_s_tool_s_raise_is_reported(tmp_path: Path) -> None:
    assert _lint(tmp_path, _raising_registry_files("")) == [
        ("MCP002", "items.py", 12, "Tool 'fetch_item' raises RuntimeError with the text of a caught httpx.HTTPError"),
    ]


# -- a function's local server handed to a register function ------------------------------------

REGISTER = """\
import httpx


def register(mcp):
    @mcp.tool()
    def fetch(url: str) -> str:
        \"\"\"Fetch a page.\"\"\"
        try:
            return httpx.get(url).text
        except httpx.HTTPError as exc:
            raise RuntimeError(f"fetch failed: {exc}")
"""

LOCAL_SERVER = """\
from fastmcp import FastMCP

from pkg.tools import register


def main():
    server = FastMCP("pages"{options})
    register(server)
    server.run()
"""


def _local_server_files(options: str) -> dict[str, str]:
    return {"tools.py": REGISTER, "server.py": LOCAL_SERVER.replace("{options}", options)}


def test_a_local_server_s_masking_covers_the_tools_a_register_function_adds(tmp_path: Path) -> None:
    assert _lint(tmp_path, _local_server_files(", mask_error_details=True")) == []


def test_without_masking_the_registered_tool_s_raise_is_reported(tmp_path: Path) -> None:
    assert _lint(tmp_path, _local_server_files("")) == [
        ("MCP002", "tools.py", 11, "Tool 'fetch' raises RuntimeError with the text of a caught httpx.HTTPError"),
    ]


def test_the_tools_a_register_function_adds_are_listed_under_the_local_server(tmp_path: Path) -> None:
    write_package(tmp_path, _local_server_files(""))
    output = _verbose(tmp_path)
    assert "server pkg.server.main (" in output
    assert "1 tool: fetch" in output
    assert "tools without a server" not in output
