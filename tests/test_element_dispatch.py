"""Tools kept as objects in a collection (model/elements.py): a low-level dispatcher that takes the
requested tool's object out of a list or dict of objects (`self.tools[name]`, `.get(name)`,
`next((t for t in self.tools if t.name == name), None)`, `for t in self.tools:`) and returns
what its method gives runs that method of each class the collection holds: each is one tool's
code, checked as a tool. A method the dispatcher does not return the value of, a collection no
dispatcher takes from, and a collection of computed values make no tool.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import invoke_in
from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.pins import PinSource
from mcp_lint.pipeline import analyze_all
from mcp_lint.project_links import Project

ACTIONS = """\
from typing import Any

import httpx


class Action:
    name = ""

    async def run(self, args: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        return {"name": self.name}


class Lookup(Action):
    name = "lookup"

    def __init__(self, base_url: str = "https://records.invalid") -> None:
        self.base_url = base_url

    async def run(self, args: dict[str, Any]) -> dict[str, Any]:
        try:
            return {"value": httpx.get(self.base_url + "/" + args["key"]).json()}
        except Exception as exc:
            return {"status": "error", "error": str(exc)}


class Store(Action):
    name = "store"

    async def run(self, args: dict[str, Any]) -> dict[str, Any]:
        if not args.get("key"):
            return {"status": "error", "error": "Error: key is required"}
        return {"stored": args["key"]}
"""

# Lookup.run: MCP005 and MCP002 at the except clause's return; Store.run: MCP005 at its refusal.
FLAGGED = ["app/actions.py:26: MCP002", "app/actions.py:26: MCP005", "app/actions.py:34: MCP005"]

SERVER_HEAD = """\
import json
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server

from app.actions import Action, Lookup, Store
"""

# The server as a class: the collection is an attribute its constructor fills, the handlers are
# registered in a method and read it through `self`.
CLASS_SERVER = SERVER_HEAD + """

class App:
    def __init__(self) -> None:
        self.server = Server("records")
        self.actions = [Lookup(), Store()]
        self._install()

    def _install(self) -> None:
        @self.server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name=a.name, description="", inputSchema={}) for a in self.actions]

        @self.server.call_tool()
        async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
            action = next((a for a in self.actions if a.name == name), None)
            if action is None:
                raise ValueError(f"Unknown tool: {name}")
            result = await action.run(arguments)
            return [types.TextContent(type="text", text=json.dumps(result))]
"""

# A module-level table of objects keyed by name, built by a comprehension.
TABLE_SERVER = SERVER_HEAD + """
server = Server("records")
ACTIONS = {action.name: action for action in (Lookup(), Store())}


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    action = ACTIONS.get(name)
    if action is None:
        raise ValueError(f"Unknown tool: {name}")
    return [types.TextContent(type="text", text=json.dumps(await action.run(arguments)))]
"""

# Classes listed, objects made in a comprehension over them, the requested one found in a loop.
CLASSES_SERVER = SERVER_HEAD + """
server = Server("records")
ACTION_CLASSES = [Lookup, Store]


class Registry:
    def __init__(self) -> None:
        self.actions = {cls.name: cls() for cls in ACTION_CLASSES}


registry = Registry()


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    for key, action in registry.actions.items():
        if key == name:
            result = await action.run(arguments)
            return [types.TextContent(type="text", text=json.dumps(result))]
    raise ValueError(f"Unknown tool: {name}")
"""

# Objects added one by one into a collection annotated with their base class: every subclass's
# override may be the one that runs.
ANNOTATED_SERVER = SERVER_HEAD + """

class App:
    def __init__(self) -> None:
        self.server = Server("records")
        self.actions: dict[str, Action] = {}
        self.server.call_tool()(self.call_tool)

    def add(self, action: Action) -> None:
        self.actions[action.name] = action

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
        result = await self.actions[name].run(arguments)
        return [types.TextContent(type="text", text=json.dumps(result))]
"""


def _tree(root: Path, server: str) -> Path:
    files = {"app/__init__.py": "", "app/actions.py": ACTIONS, "app/server.py": server}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / "pyproject.toml").write_text("[project]\nname = 'app'\ndependencies = ['mcp>=1.2']\n")
    return root


def _check(root: Path, *options: str) -> tuple[list[str], str]:
    """`mcp-lint check .` in `root` (the prefilter picks the files): `file:row: code` lines, stderr."""
    result = invoke_in(root, ["check", "--no-cache", "--select", "MCP002,MCP005", "--output-format", "concise", *options, "."], catch_exceptions=False)
    lines = sorted(f"{line.split(':')[0]}:{line.split(':')[1]}: {line.split(' ')[1]}" for line in result.stdout.splitlines() if ": MCP" in line)
    return lines, result.stderr


@pytest.mark.parametrize(
    "server",
    [CLASS_SERVER, TABLE_SERVER, CLASSES_SERVER, ANNOTATED_SERVER],
    ids=["attribute-list-next-over-a-generator", "module-dict-comprehension-get", "classes-listed-loop-over-items", "annotated-dict-subscript"],
)
def test_the_method_a_dispatcher_calls_on_an_object_of_a_collection_is_each_classs_tool(tmp_path: Path, server: str) -> None:
    found, stderr = _check(_tree(tmp_path, server))
    assert found == FLAGGED, stderr


def test_each_class_is_a_tool_of_the_server_named_by_its_class(tmp_path: Path) -> None:
    root = _tree(tmp_path, CLASS_SERVER)
    result = invoke_in(root, ["check", "--no-cache", "-v", "--output-format", "concise", "."], catch_exceptions=False)
    assert "3 tools: Lookup, Store, call_tool (tools/call handler)" in result.stderr
    assert "app/actions.py:26:20: MCP002 Tool 'Lookup' returns the text of a caught Exception as a normal result" in result.stdout


def test_the_prefilter_analyses_the_modules_defining_the_collections_classes(tmp_path: Path) -> None:
    root = _tree(tmp_path, TABLE_SERVER)
    whole = [o.summary for o in analyze_all(discover([root], SettingsResolver(isolated=True)), 1) if o.summary is not None]
    expected = sorted(
        f"app/{Path(f.filename).name}:{f.location.row}: {f.code}"
        for f in Project(whole, PinSource(SettingsResolver(isolated=True))).findings()
        if f.code in {"MCP002", "MCP005"}
    )
    assert expected == FLAGGED
    assert _check(root)[0] == expected
    assert _check(root, "--jobs", "1")[0] == expected


def test_a_method_whose_value_the_dispatcher_does_not_return_makes_no_tool(tmp_path: Path) -> None:
    # The dispatcher calls `describe()` of the object for a log line and answers by itself: the
    # objects' `run` is never called, their `describe` returns no failure.
    server = CLASS_SERVER.replace(
        "            result = await action.run(arguments)\n",
        "            print(action.describe())\n            result = {\"accepted\": name}\n",
    )
    found, _ = _check(_tree(tmp_path, server))
    assert found == []


def test_a_collection_no_dispatcher_takes_from_makes_no_tool(tmp_path: Path) -> None:
    # The objects are listed (list_tools reads them) but call_tool answers from a table of
    # plain functions: no object's method runs for a tool call.
    server = CLASS_SERVER.replace(
        "            action = next((a for a in self.actions if a.name == name), None)\n"
        "            if action is None:\n"
        "                raise ValueError(f\"Unknown tool: {name}\")\n"
        "            result = await action.run(arguments)\n",
        "            result = {\"echo\": arguments}\n",
    )
    found, _ = _check(_tree(tmp_path, server))
    assert found == []


def test_a_list_of_computed_values_and_an_unannotated_parameter_name_no_class(tmp_path: Path) -> None:
    # `handlers` is whatever the caller passes, `steps` holds computed values (no object made
    # by a class): a method called on an element of either is not tied to Lookup or Store.
    server = SERVER_HEAD + """
server = Server("records")


def pick(handlers, name):
    return handlers[name]


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    steps = [str(name), json.dumps(arguments)]
    first = steps[0]
    result = await pick({}, name).run(arguments)
    return [types.TextContent(type="text", text=json.dumps(result) + first.upper())]
"""
    found, _ = _check(_tree(tmp_path, server))
    assert found == []


# Classes kept by name; the dispatcher makes the requested one's object from its class.
CLASS_TABLE_SERVER = SERVER_HEAD + """
server = Server("records")
ACTION_CLASSES = {"lookup": Lookup, "store": Store}


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    classes = ACTION_CLASSES
    action_class = classes[name]
    action = action_class()
    return [types.TextContent(type="text", text=json.dumps(await action.run(arguments)))]
"""

# A registry object filled through a method whose parameter is typed with the base class.
REGISTRY_SERVER = SERVER_HEAD + """
server = Server("records")


class Registry:
    def __init__(self) -> None:
        self._actions = {}

    def add(self, action: Action) -> None:
        self._actions[action.name] = action

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return await self._actions[name].run(arguments)


registry = Registry()
registry.add(Lookup())
registry.add(Store())


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=json.dumps(await registry.call(name, arguments)))]
"""


# The same registry with an untyped parameter: the objects its callers pass fill the dict.
UNTYPED_REGISTRY_SERVER = REGISTRY_SERVER.replace("def add(self, action: Action)", "def add(self, action)")


@pytest.mark.parametrize(
    "server",
    [CLASS_TABLE_SERVER, REGISTRY_SERVER, UNTYPED_REGISTRY_SERVER],
    ids=["classes-by-name-made-on-call", "registry-method-typed-parameter", "registry-method-untyped-parameter"],
)
def test_objects_made_from_a_table_of_classes_or_added_through_a_typed_parameter_run_their_method(tmp_path: Path, server: str) -> None:
    found, stderr = _check(_tree(tmp_path, server))
    assert found == FLAGGED, stderr


def test_a_registry_filled_through_a_parameter_holds_only_what_its_callers_pass(tmp_path: Path) -> None:
    # Only Store objects are added: Lookup's run is never called for a tool.
    server = UNTYPED_REGISTRY_SERVER.replace("registry.add(Lookup())\n", "")
    found, stderr = _check(_tree(tmp_path, server))
    assert found == ["app/actions.py:34: MCP005"], stderr


def test_an_annotated_local_taken_from_a_library_objects_dict_keeps_its_annotations_class(tmp_path: Path) -> None:
    # `client: Api = ctx.lifespan_context["client"]`: the annotation names the class; the
    # lifespan's dict is the framework's object, no collection the project filled.
    (tmp_path / "app").mkdir()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'app'\ndependencies = ['fastmcp>=2.10']\n")
    (tmp_path / "app/__init__.py").write_text("")
    (tmp_path / "app/api.py").write_text(
        "import httpx\n\n\nclass Api:\n    async def fetch(self, key: str) -> str:\n"
        "        resp = httpx.get('https://records.invalid/' + key)\n"
        "        if resp.status_code != 200:\n            raise RuntimeError(f'Lookup failed: {resp.text}')\n"
        "        return resp.text\n"
    )
    (tmp_path / "app/server.py").write_text(
        "from fastmcp import Context, FastMCP\n\nfrom app.api import Api\n\nmcp = FastMCP('records')\n\n\n"
        "@mcp.tool()\nasync def lookup(key: str, ctx: Context) -> str:\n"
        "    client: Api = ctx.lifespan_context['client']\n    return await client.fetch(key)\n"
    )
    found, stderr = _check(tmp_path)
    assert found == ["app/api.py:8: MCP002"], stderr
