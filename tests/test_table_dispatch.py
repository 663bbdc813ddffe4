"""Low-level `call_tool` handlers that dispatch through a table of functions the rules could
not see into: a dict built inside the handler, a table imported from another module (some of
its values made by a factory), an object's table of its own methods.

Each per-tool function returns a failure as a normal result (MCP005) only a tool path reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_lint.pipeline import lint_source
from test_cross_module import findings as package_findings

LOW = "from mcp.server import Server\nfrom mcp.types import TextContent\n"


def per_tool(name: str, indent: str = "", receiver: str = "") -> str:
    lines = [
        f"async def {name}({receiver}arguments):",
        "    if arguments:",
        f'        return [TextContent(type="text", text="Error: the {name} request was refused")]',
        "    return []",
    ]
    return "".join(indent + line + "\n" for line in lines)


def flagged(source: str, code: str = "MCP005") -> list[str]:
    return sorted({f.context for f in lint_source(source, "server.py") if f.code == code})


GUARD = """import json
from functools import wraps

def guarded(func):
    @wraps(func)
    async def wrapper(*args, **kwargs):
        try:
            return await func(*args, **kwargs)
        except Exception as e:
            return [TextContent(type="text", text=json.dumps({"error": True, "message": str(e)}))]
    return wrapper

@guarded
async def archive_entry(arguments):
    return [TextContent(type="text", text="archived")]

"""


def test_a_table_built_inside_the_handler_reaches_each_function_and_its_decorator() -> None:
    source = LOW + GUARD + per_tool("purge_entry") + per_tool("render_entry")
    source += (
        "def build():\n    server = Server('x')\n\n    @server.call_tool()\n    async def call(name, arguments):\n"
        "        handlers = {'archive_entry': archive_entry, 'purge_entry': purge_entry}\n"
        "        if name not in handlers:\n            raise ValueError(name)\n"
        "        return await handlers[name](arguments)\n    return server\n"
    )
    assert flagged(source) == ["purge_entry", "wrapper"]
    assert flagged(source, "MCP002") == ["wrapper"]


def test_a_table_built_inside_the_handler_but_never_called_reaches_nothing() -> None:
    source = LOW + GUARD + per_tool("purge_entry")
    source += (
        "server = Server('x')\n\n@server.call_tool()\nasync def call(name, arguments):\n"
        "    handlers = {'archive_entry': archive_entry, 'purge_entry': purge_entry}\n"
        "    return [TextContent(type='text', text=str(sorted(handlers)))]\n"
    )
    assert flagged(source) == []
    assert flagged(source, "MCP002") == []


HANDLERS_MODULE = LOW + per_tool("purge_entry") + per_tool("render_entry") + (
    "def remote(path):\n    async def handler(arguments):\n        return [TextContent(type='text', text=path)]\n    return handler\n"
    "HANDLERS = {'fetch_entry': remote('/entry'), 'purge_entry': purge_entry}\n"
)


IMPORTED_TABLE_CALLS = {
    "called": (
        "    handler = HANDLERS.get(name)\n    if handler is None:\n        raise ValueError(name)\n    return await handler(arguments)\n",
        [("handlers.py", "purge_entry")],
    ),
    "read-but-never-called": (
        "    known = HANDLERS.get(name) is not None\n    return [TextContent(type='text', text=str(known))]\n",
        [],
    ),
}


@pytest.mark.parametrize(("body", "expected"), IMPORTED_TABLE_CALLS.values(), ids=IMPORTED_TABLE_CALLS.keys())
def test_a_table_of_another_module_reaches_the_functions_it_names_when_called(tmp_path: Path, body: str, expected: list) -> None:
    server = LOW + "from .handlers import HANDLERS\nserver = Server('x')\n\n@server.call_tool()\nasync def call(name, arguments):\n" + body
    assert package_findings(tmp_path, {"handlers.py": HANDLERS_MODULE, "server.py": server}) == expected


def service(dispatch: str) -> str:
    return LOW + (
        "class Service:\n    def __init__(self):\n"
        "        self.handlers = {'purge_entry': self.purge_entry, 'render_entry': self.render_entry}\n\n"
        f"    async def dispatch(self, name, arguments):\n{dispatch}\n"
        + per_tool("purge_entry", "    ", "self, ")
        + per_tool("render_entry", "    ", "self, ")
        + per_tool("export_entry", "    ", "self, ")
        + "service = Service()\nserver = Server('x')\n\n@server.call_tool()\n"
        "async def call(name, arguments):\n    return await service.dispatch(name, arguments)\n"
    )


def test_an_objects_table_of_its_own_methods_reaches_each_method() -> None:
    dispatch = "        handler = self.handlers.get(name)\n        if handler is None:\n            raise ValueError(name)\n        return await handler(arguments)\n"
    assert flagged(service(dispatch)) == ["purge_entry", "render_entry"]


def test_an_objects_table_of_methods_used_only_for_names_reaches_nothing() -> None:
    dispatch = "        return [TextContent(type='text', text=', '.join(self.handlers))]\n"
    assert flagged(service(dispatch)) == []


FACTORY = """
def make_handler(kind):
    async def handler(arguments):
        if arguments:
            return [TextContent(type="text", text=f"Error: the {kind} request was refused")]
        return []

    return handler


def make_settings(kind):
    return {"kind": kind}


server = Server("x")
HANDLERS = {"archive": VALUE("archive"), "purge": VALUE("purge")}


@server.call_tool()
async def call(name, arguments):
    return await HANDLERS[name](arguments)
"""


def test_a_table_of_functions_a_factory_of_the_module_makes_reaches_what_it_returns() -> None:
    assert flagged(LOW + FACTORY.replace("VALUE", "make_handler")) == ["handler"]


def test_a_table_of_values_a_factory_makes_that_are_no_functions_reaches_nothing() -> None:
    assert flagged(LOW + FACTORY.replace("VALUE", "make_settings")) == []
