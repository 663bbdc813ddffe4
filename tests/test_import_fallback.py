"""`try: from .store import Store` / `except ImportError: from store import Store`: inside its
package the module runs the relative import, so a name it binds is the package's class, not the
top-level module the script-mode fallback names."""

from __future__ import annotations

from pathlib import Path

from test_cross_module import findings

STORE = """\
class Store:
    def remove(self, name: str, confirm: bool = False) -> dict:
        if not confirm:
            return {"success": False, "error": f"Set confirm=True to remove {name}."}
        return {"success": True, "removed": name}
"""

TOOLS = """\
import json
from mcp.server.fastmcp import FastMCP

{imports}

mcp = FastMCP("x")


def get_store() -> Store:
    return Store()


@mcp.tool()
def remove(name: str, confirm: bool = False) -> str:
    result = get_store().remove(name, confirm)
    return json.dumps(result)
"""


def test_the_relative_import_of_a_fallback_pair_names_the_class(tmp_path: Path) -> None:
    imports = "try:\n    from .store import Store\nexcept ImportError:\n    from store import Store"
    files = {"store.py": STORE, "app.py": TOOLS.format(imports=imports)}
    assert findings(tmp_path, files) == [("store.py", "remove")]


def test_an_absolute_import_alone_still_names_a_module_outside_the_package(tmp_path: Path) -> None:
    # No relative import binds the name: `store` is a top-level module the project does not
    # hold (the package's own store.py is another module), so nothing is reached.
    files = {"store.py": STORE, "app.py": TOOLS.format(imports="from store import Store")}
    assert findings(tmp_path, files) == []
