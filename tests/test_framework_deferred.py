"""Whether a module reaches the framework only lazily (under `if TYPE_CHECKING:` or inside
functions): then a fix that needs a framework name imports it where the module does, not at its
top. The imports are found at any depth of statements, and only there."""

from __future__ import annotations

import ast

import pytest

from mcp_lint.fixing.imports import read_imports

CASES = [
    ("import os\n", False),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from mcp.server import Server\n", True),
    ("if TYPE_CHECKING:\n    pass\nelse:\n    from mcp import types\n", False),  # the else branch runs
    ("def f():\n    import fastmcp\n", True),
    ("class A:\n    def m(self):\n        if x:\n            from mcp.types import T\n", True),
    ("try:\n    pass\nexcept E:\n    def g():\n        from mcp import y\n", True),
    ("import mcp\ndef f():\n    import fastmcp\n", False),  # a top-level import that runs settles it
    ("try:\n    from fastmcp import FastMCP\nexcept ImportError:\n    pass\ndef f():\n    import mcp\n", False),
    ("match x:\n    case 1:\n        def h():\n            import mcp\n", True),
    ("if typing.TYPE_CHECKING:\n    if y:\n        import fastmcp.tools\n", True),
    ("for a in b:\n    pass\nelse:\n    async def k():\n        from fastmcp import F\n", True),
    ("with x:\n    from . import mcp\n", False),  # a relative import is the project's own module
    ("def f():\n    from .mcp import x\n", False),
    ("def f():\n    return lambda: __import__('mcp')\n", False),  # not an import statement
]


@pytest.mark.parametrize(("source", "deferred"), CASES)
def test_framework_imported_only_lazily(source: str, deferred: bool) -> None:
    assert read_imports(ast.parse(source), source.splitlines(), "pkg.server").framework_deferred is deferred
