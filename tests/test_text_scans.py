"""The text scans every file of a run goes through before any parse (prefilter.imported_modules,
framework_copies.find_copies): statements on a file's first line count as on any other."""

from __future__ import annotations

from mcp_lint.framework_copies import FrameworkCopy, find_copies
from mcp_lint.module_names import ModuleName
from mcp_lint.prefilter import imported_modules

SERVER = b"""class FastMCP:
    def tool(self, name=None):
        return lambda f: f
"""
ERRORS = b"""class ToolError(Exception):
    pass
"""


def test_a_copy_whose_classes_open_their_files_is_found() -> None:
    copies = find_copies([("app._vendor.fmcp.server.server", SERVER), ("app._vendor.fmcp.exceptions", ERRORS)])
    assert copies == (FrameworkCopy("app._vendor.fmcp", "fastmcp", "app._vendor.fmcp.exceptions"),)


def test_a_server_class_without_a_registering_method_is_no_copy() -> None:
    plain = b"class FastMCP:\n    def run(self):\n        pass\n"
    assert find_copies([("app._vendor.fmcp.server.server", plain), ("app._vendor.fmcp.exceptions", ERRORS)]) == ()


def test_a_class_statement_inside_a_block_is_not_top_level() -> None:
    indented = b"if True:\n    class FastMCP:\n        def tool(self):\n            pass\n"
    assert find_copies([("app._vendor.fmcp.server.server", indented), ("app._vendor.fmcp.exceptions", ERRORS)]) == ()


def test_imports_on_the_first_line_and_after_a_parenthesised_list() -> None:
    text = b"import app.store as s\nfrom app.tools import (\n    one,\n    two)\nfrom .helpers import fmt\n  import lazy\n"
    assert imported_modules(text, ModuleName("app.server", False)) == {
        "app", "app.store", "app.tools", "app.tools.one", "app.tools.two", "app.helpers", "app.helpers.fmt", "lazy"
    }
