"""MCP002 in a broad `except` narrowed by `isinstance(e, X)`, where X is a module-level alias of a
class (`try: SCOPE_ERROR = ScopeMissing / except ImportError: SCOPE_ERROR = None`): the branch
for the project's own class passes its own text on; the branch for a library class does not."""

from __future__ import annotations

from pathlib import Path

from ._support import lint_tree, write_tree

ERRORS = '''\
class ScopeMissing(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
'''

SERVER = '''\
import json

import httpx
from mcp.server import Server
from mcp.types import TextContent

try:
    from .errors import ScopeMissing
    SCOPE_ERROR = ScopeMissing
except ImportError:
    SCOPE_ERROR = None

UPSTREAM_ERROR = httpx.HTTPError

app = Server("weather")


@app.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    try:
        return await run(name, arguments)
    except Exception as e:
        if SCOPE_ERROR and isinstance(e, SCOPE_ERROR):
            reply = {"error": "scope", "message": e.message}
            return [TextContent(type="text", text=json.dumps(reply))]
        if isinstance(e, UPSTREAM_ERROR):
            return [TextContent(type="text", text=json.dumps({"error": "upstream", "message": str(e)}))]
        raise
'''


def test_the_own_class_branch_is_silent_and_the_library_branch_reported(tmp_path: Path) -> None:
    write_tree(tmp_path, {"weatherpkg/__init__.py": "", "weatherpkg/errors.py": ERRORS, "weatherpkg/server.py": SERVER})
    rows = sorted(f.location.row for f in lint_tree(tmp_path) if f.code == "MCP002")
    assert rows == [27]
