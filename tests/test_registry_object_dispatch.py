"""A registry object whose registering method stores each function in a table of its own
(`self._tools[name] = {"function": func, ...}`, also in a decorator defined in that method), and
whose dispatch method calls what it finds there (`func = self._tools[name]["function"];
func(**arguments)`), run by a low-level `call_tool` handler: every function that can land in the
table is one tool's code. What lands there is what the registering method's callers pass, through
functions that pass their own parameter on (`def tool(f): return registry.tool(f)`), a loader's
loop over a module's members (`for _, obj in inspect.getmembers(ops): tool(obj)`), or what is
decorated with such a function (`@tool`). A function no registration stores, or stored in a table
no dispatcher calls through, reaches no tool."""

from __future__ import annotations

from pathlib import Path


from cli_support import invoke_in

REGISTRY = """\
import json


class Registry:
    \"\"\"Tools by name, each with its function.\"\"\"

    def __init__(self):
        self._tools = {}

    def tool(self, func_or_name=None):
        def decorator(func):
            if callable(func_or_name):
                func = func_or_name
            self._tools[func.__name__] = {"function": func, "doc": func.__doc__}
            return func

        if callable(func_or_name):
            return decorator(func_or_name)
        return decorator

    def call(self, name, arguments):
        if name not in self._tools:
            raise ValueError(f"unknown tool {name}")
        func = self._tools[name]["function"]
        result = func(**arguments)
        return [{"type": "text", "text": json.dumps(result)}]

    def names(self):
        return sorted(self._tools)


registry = Registry()


def tool(func_or_name=None):
    return registry.tool(func_or_name)
"""

# The registry's dispatch method names the tools; it calls none of them.
LISTING_REGISTRY = REGISTRY.replace(
    """        func = self._tools[name]["function"]
        result = func(**arguments)
        return [{"type": "text", "text": json.dumps(result)}]""",
    """        return [{"type": "text", "text": json.dumps(self.names())}]""",
)

OPS = """\
def find_item(item_id: str) -> dict:
    \"\"\"Find one item.\"\"\"
    if not item_id.isdigit():
        return {"error": f"Item id must be digits, got {item_id!r}"}
    return {"id": item_id}
"""

DECORATED_OPS = """\
from .registry import tool


@tool
def find_item(item_id: str) -> dict:
    \"\"\"Find one item.\"\"\"
    if not item_id.isdigit():
        return {"error": f"Item id must be digits, got {item_id!r}"}
    return {"id": item_id}
"""

# A module of the same shape that no loader reflects over.
INTERNAL = """\
def compute(value: str) -> dict:
    \"\"\"Not a tool.\"\"\"
    if not value:
        return {"error": "Input is empty"}
    return {"value": value}
"""

LOADER = """\
import inspect

from . import ops
from .registry import tool


def load_tools():
    for name, obj in inspect.getmembers(ops):
        if inspect.isfunction(obj) and not name.startswith("_"):
            tool(obj)


load_tools()
"""

SERVER = """\
from mcp.server import Server

from . import {loaded}  # noqa: F401
from .registry import registry

server = Server("items")


@server.call_tool()
async def call_tool(name: str, arguments: dict):
    return registry.call(name, arguments)
"""


def _run(root: Path, registry: str = REGISTRY, ops: str = OPS, loaded: str = "loader", loader: str = LOADER) -> tuple[list[str], int]:
    files = {
        "pyproject.toml": '[project]\nname = "app"\nversion = "0"\ndependencies = ["mcp>=1.9,<2"]\n',
        "app/__init__.py": "",
        "app/registry.py": registry,
        "app/ops.py": ops,
        "app/internal.py": INTERNAL,
        "app/loader.py": loader,
        "app/server.py": SERVER.format(loaded=loaded),
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--select", "MCP005", "--output-format", "concise", "-q", "."])
    return sorted(line for line in result.output.splitlines() if " MCP" in line), result.exit_code


def test_a_function_a_reflection_loader_stores_in_the_registry_is_a_tool(tmp_path: Path) -> None:
    lines, code = _run(tmp_path)
    assert lines == ["app/ops.py:4:9: MCP005 Tool 'find_item' returns a failure dict as a normal result"]
    assert code == 1


def test_a_function_decorated_with_the_registering_function_is_a_tool(tmp_path: Path) -> None:
    lines, code = _run(tmp_path, ops=DECORATED_OPS, loaded="ops")
    assert lines == ["app/ops.py:8:9: MCP005 Tool 'find_item' returns a failure dict as a normal result"]
    assert code == 1


def test_stored_functions_reach_no_tool_when_the_dispatcher_does_not_call_through_the_table(tmp_path: Path) -> None:
    assert _run(tmp_path, registry=LISTING_REGISTRY) == ([], 0)


def test_a_module_no_loader_reflects_over_reaches_no_tool(tmp_path: Path) -> None:
    # internal.py has the same failure dict; only ops' members are stored in the registry.
    lines, _ = _run(tmp_path)
    assert not any(line.startswith("app/internal.py") for line in lines)


def test_members_handed_to_a_function_that_stores_nothing_reach_no_tool(tmp_path: Path) -> None:
    registry = REGISTRY + '\n\ndef describe(func):\n    return func.__doc__\n'
    loader = LOADER.replace("import tool", "import describe").replace("tool(obj)", "describe(obj)")
    lines, code = _run(tmp_path, registry=registry, loader=loader)
    assert lines == [] and code == 0
