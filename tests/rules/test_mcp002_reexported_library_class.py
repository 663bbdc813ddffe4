"""MCP002: an exception class a project module only imports from a library and passes on
(`from somelib.client import ApiError` in the project's compatibility module) is the library's
class, not the project's: a tool that catches it under the project's name and returns its text
returns library text. A class the project defines itself stays the author's."""

from __future__ import annotations

from pathlib import Path

from ._support import lint_tree, write_tree

SERVER = """\
from mcp.server.fastmcp import FastMCP

from inventory.remote import RemoteClient, RemoteError

mcp = FastMCP("inventory")
client = RemoteClient()


@mcp.tool()
def list_shelves() -> str:
    \"\"\"List the shelves.\"\"\"
    try:
        shelves = client.shelves()
    except RemoteError as e:
        return f"Inventory service error: {e}"
    return ", ".join(shelves)
"""


def _mcp002(root: Path, remote: str) -> list[tuple[str, int, str]]:
    write_tree(root, {"inventory/__init__.py": "", "inventory/server.py": SERVER, "inventory/remote.py": remote})
    return [(Path(f.filename).name, f.location.row, f.message) for f in lint_tree(root) if f.code == "MCP002"]


def test_a_library_class_passed_on_by_a_project_module_is_caught_as_library_text(tmp_path: Path) -> None:
    remote = """\
    \"\"\"The client moved to its own distribution; kept importable from here.\"\"\"
    from stockroom_sdk.client import RemoteClient, RemoteError

    __all__ = ["RemoteClient", "RemoteError"]
    """
    found = _mcp002(tmp_path, remote)
    assert found == [("server.py", 15, "Tool 'list_shelves' returns the text of a caught RemoteError as a normal result")]


def test_a_class_the_project_defines_with_its_own_words_is_not(tmp_path: Path) -> None:
    remote = """\
    class RemoteError(Exception):
        pass


    class RemoteClient:
        def shelves(self) -> list[str]:
            raise RemoteError("the inventory is not configured; set INVENTORY_URL")
    """
    assert _mcp002(tmp_path, remote) == []


def test_a_class_re_exported_from_another_project_module_is_still_the_projects(tmp_path: Path) -> None:
    remote = """\
    from inventory.errors import RemoteError


    class RemoteClient:
        def shelves(self) -> list[str]:
            raise RemoteError("the inventory is not configured; set INVENTORY_URL")
    """
    errors = """\
    class RemoteError(Exception):
        pass
    """
    write_tree(tmp_path, {"inventory/errors.py": errors})
    assert _mcp002(tmp_path, remote) == []
