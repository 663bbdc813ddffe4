"""A registration decorator on a module of the framework itself (`import mcp` then `@mcp.tool()`)
registers nothing: servers are objects the project builds, and such a decorator would fail at
import. The same name bound to a server the project builds is one."""

from __future__ import annotations

import pytest

from test_registration_forms import flagged, marked


@pytest.mark.parametrize("imports", ["import mcp", "import fastmcp", "import mcp.server as mcp", "from mcp import server as mcp"])
def test_a_framework_module_is_no_server(imports: str) -> None:
    source = f"{imports}\n\nclass Tools:\n    def __init__(self, db):\n        self.db = db\n\n"
    source += marked("@mcp.tool()", indent="    ").replace("def t(x)", "def t(self, x)") if "fastmcp" not in imports else ""
    source += marked("@fastmcp.tool()") if "fastmcp" in imports else ""
    assert flagged(source) == []


def test_the_same_name_bound_to_a_server_the_project_builds_is_one() -> None:
    source = "import mcp\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n" + marked("@mcp.tool()")
    assert flagged(source) == ["t"]
