"""MCP002, one finding per flow: a helper that catches a library failure and raises a builtin
class with its text (`raise ValueError(f"... {e}")`) takes the library text in at that raise; a
tool whose `except ValueError` returns the text only passes it on. The raise is reported (naming
the clause that passes it on), not the clause, in the tool's module or another. A `try` body that
also lets a library's own ValueError out (a decode error nobody catches) keeps the clause as the
finding."""

from __future__ import annotations

from pathlib import Path

from ._support import lint_tree, write_tree

CATALOG = """\
import httpx


class Catalog:
    async def fetch_item(self, item_id: str) -> dict:
        try:
            async with httpx.AsyncClient() as client:
                reply = await client.get(f"https://catalog.invalid/items/{item_id}")
                reply.raise_for_status()
                return reply.json()
        except CLAUSE as e:
            raise ValueError(f"Could not reach the catalog: {e}")


catalog = Catalog()
"""

TOOL = """\
@mcp.tool()
async def show_item(item_id: str) -> str:
    \"\"\"Show an item.\"\"\"
    try:
        item = await catalog.fetch_item(item_id)
    except ValueError as exc:
        return f"Error: {exc}"
    return item["title"]
"""

HEADER = 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("shop")\n\n\n'


def _mcp002(root: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    write_tree(root, {"shop/__init__.py": "", **files})
    return [(Path(f.filename).name, f.location.row, f.message) for f in lint_tree(root) if f.code == "MCP002"]


def test_the_raise_taking_the_text_in_is_reported_not_the_tool_passing_it_on(tmp_path: Path) -> None:
    one_module = CATALOG.replace("CLAUSE", "Exception") + "\n\n" + HEADER + TOOL
    found = _mcp002(tmp_path, {"shop/server.py": one_module})
    assert found == [("server.py", 12, "Helper 'fetch_item' raises ValueError with the text of a caught Exception")]


def test_across_modules_the_raise_is_reported_too(tmp_path: Path) -> None:
    server = "from mcp.server.fastmcp import FastMCP\n\nfrom shop.catalog import catalog\n\nmcp = FastMCP(\"shop\")\n\n\n" + TOOL
    found = _mcp002(tmp_path, {"shop/server.py": server, "shop/catalog.py": CATALOG.replace("CLAUSE", "Exception")})
    assert found == [("catalog.py", 12, "Helper 'fetch_item' raises ValueError with the text of a caught Exception")]


def test_a_library_value_error_escaping_beside_it_keeps_the_clause_as_the_finding(tmp_path: Path) -> None:
    # Only httpx.HTTPError is caught: the decode error of `reply.json()` (a ValueError) reaches
    # the tool's clause as the library raised it.
    server = "from mcp.server.fastmcp import FastMCP\n\nfrom shop.catalog import catalog\n\nmcp = FastMCP(\"shop\")\n\n\n" + TOOL
    found = _mcp002(tmp_path, {"shop/server.py": server, "shop/catalog.py": CATALOG.replace("CLAUSE", "httpx.HTTPError")})
    assert ("server.py", 14, "Tool 'show_item' returns the text of a caught ValueError as a normal result") in found


def test_a_helper_raising_its_own_words_is_not_reported_at_all(tmp_path: Path) -> None:
    own = CATALOG.replace("CLAUSE", "Exception").replace('f"Could not reach the catalog: {e}"', '"Could not reach the catalog; try again later"')
    server = "from mcp.server.fastmcp import FastMCP\n\nfrom shop.catalog import catalog\n\nmcp = FastMCP(\"shop\")\n\n\n" + TOOL
    assert _mcp002(tmp_path, {"shop/server.py": server, "shop/catalog.py": own}) == []
