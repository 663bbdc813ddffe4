"""A call on what a factory without a return annotation hands back reaches the function of that
name in each module or class the factory's returns name: `store = pick_store()` returning one of
two modules imported in its body, then `store.read(key)` in a tool, may run either module's
`read`. Anything else a factory returns (a local, a call of a function) says nothing of what it
is, and a module the factory never returns is not reached."""

from __future__ import annotations

import textwrap
from pathlib import Path

from mcp_lint.config import SettingsResolver
from mcp_lint.pipeline import lint_paths

# Two storage modules with the same functions: each reports a failure as a normal result.
FILES_MODULE = """\
import os

ROOT = os.environ.get("SHELF_ROOT", "")


def read(key: str) -> str:
    if not ROOT:
        return "Error: SHELF_ROOT must be set."
    with open(os.path.join(ROOT, key)) as handle:
        return handle.read()
"""

WEB_MODULE = """\
import httpx


def read(key: str) -> str:
    try:
        reply = httpx.get("https://shelf.invalid/" + key)
        reply.raise_for_status()
        return reply.text
    except httpx.HTTPError as exc:
        return f"Could not read {key}: {exc}"
"""

# A module the factory does not return: its `read` is reached by no tool.
SPARE_MODULE = """\
def read(key: str) -> str:
    return "Error: the spare shelf is closed."
"""

TOOLS = """\
from fastmcp import FastMCP

from shelf import stores

mcp = FastMCP("shelf")
store = stores.pick()


@mcp.tool()
def read_item(key: str) -> str:
    \"\"\"Read one item.\"\"\"
    return store.read(key)
"""


def findings(tmp_path: Path, picker: str) -> list[tuple[str, int, str]]:
    """(file, line, code) of the MCP002/MCP005 findings of package `shelf` with the picker given."""
    package = tmp_path / "shelf"
    (package / "stores").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "server.py").write_text(TOOLS, encoding="utf-8")
    (package / "stores" / "__init__.py").write_text(textwrap.dedent(picker), encoding="utf-8")
    (package / "stores" / "files.py").write_text(FILES_MODULE, encoding="utf-8")
    (package / "stores" / "web.py").write_text(WEB_MODULE, encoding="utf-8")
    (package / "stores" / "spare.py").write_text(SPARE_MODULE, encoding="utf-8")
    result = lint_paths(sorted(package.rglob("*.py")), SettingsResolver(isolated=True))
    assert result.internal_errors == []
    return sorted((Path(f.filename).name, f.location.row, f.code) for f in result.findings if f.code in {"MCP002", "MCP005"})


BOTH_MODULES = [("files.py", 8, "MCP005"), ("web.py", 10, "MCP002"), ("web.py", 10, "MCP005")]


def test_a_method_of_the_module_a_factory_returns_is_reached_in_each_module_it_may_return(tmp_path: Path) -> None:
    picker = """
        import os


        def pick():
            if os.environ.get("SHELF_URL"):
                from shelf.stores import web as web_store
                return web_store
            if os.environ.get("SHELF_ROOT"):
                from shelf.stores import files
                return files
            return None
        """
    assert findings(tmp_path, picker) == BOTH_MODULES


def test_a_factory_returning_one_of_two_classes_reaches_the_method_of_each(tmp_path: Path) -> None:
    picker = """
        import os

        from shelf.stores import files, web


        class FileShelf:
            def read(self, key: str) -> str:
                return files.read(key)


        class WebShelf:
            def read(self, key: str) -> str:
                return web.read(key)


        def pick():
            if os.environ.get("SHELF_URL"):
                return WebShelf()
            return FileShelf()
        """
    assert findings(tmp_path, picker) == BOTH_MODULES


def test_a_module_imported_beside_the_returned_one_is_not_reached(tmp_path: Path) -> None:
    picker = """
        from shelf.stores import files, spare


        def pick():
            spare.read("warm-up")
            return files
        """
    assert findings(tmp_path, picker) == [("files.py", 8, "MCP005")]


def test_a_factory_returning_anything_else_reaches_no_module(tmp_path: Path) -> None:
    # A local and a function's value: what they are is not written in the factory.
    picker = """
        import importlib
        import os


        def pick():
            if os.environ.get("SHELF_URL"):
                chosen = importlib.import_module("shelf.stores.web")
                return chosen
            return make_default()


        def make_default():
            return None
        """
    assert findings(tmp_path, picker) == []
