"""Linking through a script-mode fallback import: `try: from .database import Manager` / `except
ImportError: from database import Manager` names the same module of the package (run as a
script from its folder), so the tools reach the package's class and the rules report what its
methods do. A fallback to another distribution's module is that module."""

from __future__ import annotations

from pathlib import Path

from ._support import lint_tree, write_tree

DATABASE = """\
from typing import Any


class Manager:
    def create(self, name: str) -> dict[str, Any]:
        try:
            self._run(name)
            return {"success": True}
        except Exception as e:
            return {"success": False, "error": str(e)}

    def _run(self, name: str) -> None:
        import sqlite3

        sqlite3.connect(name).execute("select 1")
"""

SERVER = """\
import json
import sys
from typing import Optional

from mcp.server.fastmcp import FastMCP

try:
    from .database import Manager
except ImportError:
    sys.path.insert(0, ".")
    FALLBACK

mcp = FastMCP("store")
_manager: Optional[Manager] = None


def get_manager() -> Manager:
    global _manager
    if _manager is None:
        _manager = Manager()
    return _manager


@mcp.tool()
def create(name: str) -> str:
    \"\"\"Create a database.\"\"\"
    result = get_manager().create(name)
    return json.dumps(result)
"""


def _mcp002(root: Path, fallback: str) -> list[tuple[str, int]]:
    write_tree(root, {"store/__init__.py": "", "store/database.py": DATABASE, "store/server.py": SERVER.replace("FALLBACK", fallback)})
    return [(Path(f.filename).name, f.location.row) for f in lint_tree(root) if f.code == "MCP002"]


def test_the_same_module_imported_by_its_bare_name_is_the_packages_module(tmp_path: Path) -> None:
    assert _mcp002(tmp_path, "from database import Manager") == [("database.py", 10)]


def test_a_fallback_to_another_distributions_module_is_that_module(tmp_path: Path) -> None:
    assert _mcp002(tmp_path, "from legacy_store.engine import Manager") == []
