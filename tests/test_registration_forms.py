"""Which functions mcp-lint treats as MCP tools, for every server and registration form.

Each snippet carries a marker defect that is reported only inside a tool (or a function whose
value a tool returns): `return "Error: ..."` for MCP005, `raise McpError(...)` for MCP001. A form
is recognised when the marker is reported in the function's name, and ignored when it is not.
"""

from __future__ import annotations

import textwrap

import pytest

from mcp_lint.pipeline import lint_source
from rules._support import said

# The body of every marked function: a failure returned as a normal result (MCP005).
FAIL = 'if x:\n        return "Error: something failed"\n    return "ok"'


def flagged(source: str, code: str = "MCP005", *, target: str | None = None) -> list[str]:
    """Names of the functions in which `code` is reported, sorted."""
    findings = lint_source(textwrap.dedent(source), "server.py", target=target)
    return sorted({f.context for f in findings if f.code == code})


def messages(source: str, code: str, *, target: str | None = None) -> list[str]:
    return [said(f) for f in lint_source(textwrap.dedent(source), "server.py", target=target) if f.code == code]


def marked(header: str, *, name: str = "t", indent: str = "") -> str:
    """`header` (decorators) above `def name(x):` with the marker body, at `indent`."""
    body = f"def {name}(x):\n    {FAIL}\n"
    lines = textwrap.dedent(header).strip("\n").splitlines() + body.splitlines()
    return "\n".join(indent + line if line else line for line in lines) + "\n"


# -- servers, however imported ---------------------------------------------------------------

SERVER_IMPORTS = {
    "mcp1-from-fastmcp": 'from mcp.server.fastmcp import FastMCP\nmcp = FastMCP("x")',
    "mcp1-module-alias": 'import mcp.server.fastmcp as fm\nmcp = fm.FastMCP("x")',
    "mcp1-full-dotted": 'import mcp.server.fastmcp\nmcp = mcp.server.fastmcp.FastMCP("x")',
    "mcp1-from-mcp-server": 'from mcp.server import FastMCP\nmcp = FastMCP("x")',
    "mcp1-class-alias": 'from mcp.server.fastmcp import FastMCP as F\nmcp = F("x")',
    "mcp1-submodule": 'from mcp.server.fastmcp.server import FastMCP\nmcp = FastMCP("x")',
    "mcp2-mcpserver": 'from mcp.server.mcpserver import MCPServer\nmcp = MCPServer("x")',
    "mcp2-from-mcp-server": 'from mcp.server import MCPServer\nmcp = MCPServer("x")',
    "fastmcp": 'from fastmcp import FastMCP\nmcp = FastMCP("x")',
    "fastmcp-module": 'import fastmcp\nmcp = fastmcp.FastMCP("x")',
    "fastmcp-from-openapi": 'from fastmcp import FastMCP\nmcp = FastMCP.from_openapi(openapi_spec=spec, client=client)',
    "fastmcp-server-from-openapi": 'from fastmcp.server.server import FastMCP\nmcp = FastMCP.from_openapi(spec, client)',
    "fastmcp-openapi-class": 'from fastmcp.server.openapi import FastMCPOpenAPI\nmcp = FastMCPOpenAPI(spec, client)',
    "fastmcp-create-proxy": 'from fastmcp.server import create_proxy\nmcp = create_proxy("http://upstream")',
    "fastmcp-local-provider": "from fastmcp.server.providers import LocalProvider\nmcp = LocalProvider()",
    "fastmcp-app": 'from fastmcp.apps import FastMCPApp\nmcp = FastMCPApp("x")',
    "annotated-assignment": "from fastmcp import FastMCP\nfrom .factory import build\nmcp: FastMCP = build()",
    "local-subclass": 'from fastmcp import FastMCP\nclass Mine(FastMCP):\n    pass\nmcp = Mine("x")',
    "generic-subclass": 'from fastmcp import FastMCP\nclass Mine(FastMCP[dict]):\n    pass\nmcp = Mine("x")',
    "factory-annotated": 'from fastmcp import FastMCP\ndef make() -> FastMCP:\n    return build()\nmcp = make()',
    "factory-returning": 'from mcp.server.fastmcp import FastMCP\ndef make():\n    server = FastMCP("x")\n    return server\nmcp = make()',
    "alias-of-server": 'from fastmcp import FastMCP\napp = FastMCP("x")\nmcp = app',
}


@pytest.mark.parametrize("setup", SERVER_IMPORTS.values(), ids=SERVER_IMPORTS.keys())
def test_tool_on_every_kind_of_server_is_found(setup: str) -> None:
    assert flagged(setup + "\n" + marked("@mcp.tool()")) == ["t"]


@pytest.mark.parametrize("setup", SERVER_IMPORTS.values(), ids=SERVER_IMPORTS.keys())
def test_undecorated_function_next_to_every_kind_of_server_is_not_a_tool(setup: str) -> None:
    assert flagged(setup + "\n" + marked("")) == []


@pytest.mark.parametrize("setup", SERVER_IMPORTS.values(), ids=SERVER_IMPORTS.keys())
def test_resource_on_every_kind_of_server_is_not_a_tool(setup: str) -> None:
    assert flagged(setup + "\n" + marked('@mcp.resource("res://{x}")')) == []


def test_server_attribute_on_self_registers_from_another_method() -> None:
    source = "from fastmcp import FastMCP\nclass Service:\n    def __init__(self):\n        self.mcp = FastMCP('x')\n    def setup(self):\n"
    source += marked("@self.mcp.tool()", indent="        ")
    assert flagged(source) == ["t"]


def test_class_attribute_server_is_reached_through_self() -> None:
    source = "from fastmcp import FastMCP\nclass Service:\n    mcp = FastMCP('x')\n    def setup(self):\n"
    source += marked("@self.mcp.tool", indent="        ")
    assert flagged(source) == ["t"]


def test_self_attribute_holding_a_non_server_is_not_a_server() -> None:
    source = "from fastmcp import FastMCP\nfrom pydantic_ai import Agent\nmcp = FastMCP('x')\n"
    source += "class Service:\n    def __init__(self):\n        self.agent = Agent('m')\n    def setup(self):\n"
    source += marked("@self.agent.tool", indent="        ")
    assert flagged(source) == []


@pytest.mark.parametrize(
    "annotation",
    ["FastMCP", '"FastMCP"', "Optional[FastMCP]", "FastMCP | None", '"FastMCP | None"', "FastMCP[AppContext]", "Annotated[FastMCP, 'doc']"],
)
def test_annotated_parameter_is_a_server(annotation: str) -> None:
    source = "from typing import Annotated, Optional\nfrom fastmcp import FastMCP\n"
    source += f"def register(mcp: {annotation}) -> None:\n" + marked("@mcp.tool()", indent="    ")
    assert flagged(source) == ["t"]


def test_string_annotation_imported_only_for_type_checking() -> None:
    source = "from __future__ import annotations\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from mcp.server.fastmcp import FastMCP\n"
    source += "def register(server: FastMCP) -> None:\n" + marked("@server.tool()", indent="    ")
    assert flagged(source) == ["t"]


def test_parameter_annotated_with_a_non_server_class_is_not_a_server() -> None:
    source = "from fastmcp import FastMCP\nfrom pydantic_ai import Agent\nmcp = FastMCP('x')\n"
    source += "def register(agent: Agent) -> None:\n" + marked("@agent.tool", indent="    ")
    assert flagged(source) == []


def test_parameter_shadows_a_module_level_non_server() -> None:
    source = "from fastmcp import FastMCP\nfrom pydantic_ai import Agent\nagent = Agent('m')\n"
    source += "def register(agent: FastMCP) -> None:\n" + marked("@agent.tool", indent="    ")
    assert flagged(source) == ["t"]


def test_server_built_inside_a_function() -> None:
    source = "from fastmcp import FastMCP\ndef build():\n    server = FastMCP('x')\n" + marked("@server.tool", indent="    ")
    assert flagged(source) == ["t"]


def test_awaited_proxy_server_inside_a_function() -> None:
    source = "from fastmcp import FastMCP\nasync def build():\n    server = await FastMCP.as_proxy('http://x')\n"
    source += marked("@server.tool", indent="    ")
    assert flagged(source) == ["t"]


def test_server_subclass_registers_its_own_methods_through_self() -> None:
    source = "from fastmcp import FastMCP\nclass Mine(FastMCP):\n    def setup(self):\n"
    source += marked("", name="find", indent="        ") + "        self.tool(find, name='find-things')\n"
    assert flagged(source) == ["find"]


def test_global_assigned_in_a_function_is_the_module_server() -> None:
    source = "from mcp.server.fastmcp import FastMCP\nmcp = None\ndef init():\n    global mcp\n    mcp = FastMCP('x')\n"
    source += marked("@mcp.tool()")
    assert flagged(source) == ["t"]


# -- registration forms ------------------------------------------------------------------------

FASTMCP = 'from fastmcp import FastMCP\nmcp = FastMCP("x")\n'


@pytest.mark.parametrize(
    "decorator", ["@mcp.tool", "@mcp.tool()", '@mcp.tool("lookup")', '@mcp.tool(name="lookup")', "@mcp.tool(description='d', tags={'a'})"]
)
def test_decorator_forms(decorator: str) -> None:
    assert flagged(FASTMCP + marked(decorator)) == ["t"]


@pytest.mark.parametrize(
    "call",
    ["mcp.add_tool(t)", "mcp.tool(t)", 'mcp.tool(t, name="lookup")', 'mcp.tool(name="lookup")(t)', "mcp.tool()(t)", 'mcp.add_tool(t, name="lookup")'],
)
def test_call_forms(call: str) -> None:
    assert flagged(FASTMCP + marked("") + call + "\n") == ["t"]


# The same forms on a pydantic-ai agent, in a file that also has an MCP server.
AGENT = FASTMCP + "from pydantic_ai import Agent\nagent = Agent('m')\n"


@pytest.mark.parametrize(
    "decorator", ["@agent.tool", "@agent.tool()", '@agent.tool("lookup")', '@agent.tool(name="lookup")', "@agent.tool(retries=2)"]
)
def test_decorator_forms_on_a_non_server(decorator: str) -> None:
    assert flagged(AGENT + marked(decorator)) == []


@pytest.mark.parametrize(
    "call",
    ["agent.add_tool(t)", "agent.tool(t)", 'agent.tool(t, name="lookup")', 'agent.tool(name="lookup")(t)', "agent.tool()(t)", 'agent.add_tool(t, name="lookup")'],
)
def test_call_forms_on_a_non_server(call: str) -> None:
    assert flagged(AGENT + marked("") + call + "\n") == []


@pytest.mark.parametrize(
    ("imports", "factory"),
    [
        ("from langchain_core.tools import StructuredTool", "StructuredTool"),
        ("from langchain.tools import Tool", "Tool"),
        ("from llama_index.core.tools import FunctionTool", "FunctionTool"),
        ("from mcp.types import Tool", "Tool"),
    ],
)
def test_from_function_of_other_libraries_is_not_a_tool(imports: str, factory: str) -> None:
    source = FASTMCP + imports + "\n" + marked("") + f"converted = {factory}.from_function(t)\n"
    assert flagged(source) == []


@pytest.mark.parametrize(
    ("imports", "factory"),
    [
        ("from mcp.server.fastmcp.tools import Tool", "Tool"),
        ("from mcp.server.fastmcp.tools.base import Tool", "Tool"),
        ("from mcp.server.mcpserver.tools import Tool", "Tool"),
        ("from fastmcp.tools import Tool", "Tool"),
        ("from fastmcp.tools import FunctionTool", "FunctionTool"),
        ("from fastmcp.tools.tool import Tool", "Tool"),
        ("from fastmcp.tools.function_tool import FunctionTool", "FunctionTool"),
        ("import fastmcp.tools", "fastmcp.tools.Tool"),
    ],
)
def test_tool_from_function_on_every_import_path(imports: str, factory: str) -> None:
    source = imports + "\n" + marked("") + f'mcp.add_tool({factory}.from_function(t, name="lookup"))\n'
    assert flagged(source) == ["t"]


def test_from_function_of_a_non_tool_class_is_not_a_tool() -> None:
    source = "from fastmcp import FastMCP\nfrom fastmcp.prompts import Prompt\nmcp = FastMCP('x')\n" + marked("")
    source += "mcp.add_prompt(Prompt.from_function(t))\n"
    assert flagged(source) == []


def test_constructor_tools_argument_with_plain_functions_and_tool_objects() -> None:
    source = "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.tools import Tool\n"
    source += marked("", name="a") + marked("", name="b") + marked("", name="unused")
    source += 'mcp = FastMCP("x", tools=[a, Tool.from_function(b)])\n'
    assert flagged(source) == ["a", "b"]


def test_constructor_tools_argument_from_a_module_level_list() -> None:
    source = "from mcp.server.mcpserver import MCPServer\n" + marked("", name="a") + "TOOLS = [a]\nmcp = MCPServer('x', tools=TOOLS)\n"
    assert flagged(source) == ["a"]


@pytest.mark.parametrize("module", ["fastmcp.tools", "fastmcp.tools.function_tool"])
def test_fastmcp_standalone_tool_decorator(module: str) -> None:
    source = f"from fastmcp import FastMCP\nfrom {module} import tool\nmcp = FastMCP('x')\n" + marked('@tool(name="lookup")')
    source += "mcp.add_tool(t)\n"
    assert flagged(source) == ["t"]


def test_mcp_mixin_tool_methods() -> None:
    source = "from fastmcp.contrib.mcp_mixin import MCPMixin, mcp_tool, mcp_resource\nclass Tools(MCPMixin):\n"
    source += marked("@mcp_tool(name='lookup')", name="t", indent="    ").replace("(x)", "(self, x)")
    source += marked("@mcp_resource(uri='res://r')", name="r", indent="    ").replace("(x)", "(self, x)")
    assert flagged(source) == ["t"]


LOOPS = [
    "for fn in [a, b]:\n    mcp.add_tool(fn)",
    "for fn in (a, b):\n    mcp.tool(fn)",
    "TOOLS = [a, b]\nfor fn in TOOLS:\n    mcp.tool(fn)",
    "TOOLS = {'tool-a': a, 'tool-b': b}\nfor name, fn in TOOLS.items():\n    mcp.tool(fn, name=name)",
    "TOOLS = {'tool-a': a, 'tool-b': b}\nfor fn in TOOLS.values():\n    mcp.add_tool(fn)",
    "for fn, name in [(a, 'tool-a'), (b, 'tool-b')]:\n    mcp.tool(name=name)(fn)",
    "GROUPS = [[a], [b]]\nfor group in GROUPS:\n    for fn in group:\n        mcp.add_tool(fn)",
    "[mcp.add_tool(fn) for fn in (a, b)]",
    "def setup():\n    for fn in [a, b]:\n        mcp.add_tool(fn)",
]


@pytest.mark.parametrize("loop", LOOPS)
def test_registration_in_loops(loop: str) -> None:
    source = FASTMCP + marked("", name="a") + marked("", name="b") + marked("", name="c") + loop + "\n"
    assert flagged(source) == ["a", "b"]


@pytest.mark.parametrize("loop", LOOPS)
def test_registration_in_loops_on_a_non_server(loop: str) -> None:
    source = AGENT + marked("", name="a") + marked("", name="b") + marked("", name="c") + loop.replace("mcp.", "agent.") + "\n"
    assert flagged(source) == []


def test_loop_over_a_list_of_non_functions_registers_nothing() -> None:
    source = FASTMCP + marked("", name="a") + "for fn in ['a', 'b']:\n    print(fn)\n"
    assert flagged(source) == []


def test_class_methods_registered_as_tools() -> None:
    source = FASTMCP + "class Service:\n    def __init__(self):\n        mcp.tool(self.t)\n        mcp.add_tool(Service.u)\n"
    source += marked("", name="t", indent="    ").replace("(x)", "(self, x)")
    source += marked("", name="u", indent="    ").replace("(x)", "(self, x)")
    source += marked("", name="v", indent="    ").replace("(x)", "(self, x)")
    assert flagged(source) == ["t", "u"]


def test_method_of_a_module_level_instance_registered_as_a_tool() -> None:
    source = FASTMCP + "class Service:\n" + marked("", indent="    ").replace("(x)", "(self, x)") + "service = Service()\nmcp.add_tool(service.t)\n"
    assert flagged(source) == ["t"]


def test_decorated_method_in_a_class_body() -> None:
    source = FASTMCP + "class Tools:\n" + marked("@mcp.tool()", indent="    ").replace("(x)", "(self, x)")
    assert flagged(source) == ["t"]


def test_nested_function_renamed_and_wrapped_before_registration() -> None:
    source = FASTMCP + "def setup(wrap):\n" + marked("", name="find", indent="    ")
    source += "    handler = find\n    handler = wrap(handler, retries=3)\n    mcp.tool(handler, name='find')\n"
    assert flagged(source) == ["find"]


def test_partial_of_a_function_is_that_function() -> None:
    source = "from functools import partial\n" + FASTMCP + marked("") + "mcp.add_tool(partial(t, x=1))\n"
    assert flagged(source) == ["t"]


def test_decorator_string_argument_is_not_a_function_reference() -> None:
    # `@mcp.tool(name)` passes a variable holding the tool name; `name` the function stays silent.
    source = FASTMCP + marked("", name="name") + "label = 'x'\n" + marked("@mcp.tool(label)")
    assert flagged(source) == ["t"]


# -- low-level servers -------------------------------------------------------------------------

LOWLEVEL_V1 = "from mcp.server.lowlevel import Server\nfrom mcp.shared.exceptions import McpError\nfrom mcp.types import ErrorData, INVALID_PARAMS\nimport mcp.types as types\nserver = Server('x')\n"
RAISE_V1 = '    if arguments:\n        raise McpError(ErrorData(code=INVALID_PARAMS, message="record 5 not found"))\n    return []\n'
LOWLEVEL_V2 = "from mcp.server.lowlevel import Server\nfrom mcp import MCPError\nfrom mcp.types import INVALID_PARAMS, CallToolRequestParams, ReadResourceRequestParams\n"
RAISE_V2 = '    if params:\n        raise MCPError(INVALID_PARAMS, "record 5 not found")\n    return []\n'


def test_lowlevel_v1_call_tool_decorator() -> None:
    source = LOWLEVEL_V1 + "@server.call_tool()\nasync def call(name, arguments):\n" + RAISE_V1
    assert flagged(source, "MCP001") == ["call"]
    assert "on the mcp 1.x low-level Server" in messages(source, "MCP001")[0]


def test_lowlevel_v1_curried_call_tool() -> None:
    source = LOWLEVEL_V1 + "async def call(name, arguments):\n" + RAISE_V1 + "server.call_tool()(call)\n"
    assert flagged(source, "MCP001") == ["call"]


def test_lowlevel_per_tool_functions_called_in_return_statements() -> None:
    source = LOWLEVEL_V1 + "@server.call_tool()\nasync def call(name, arguments):\n"
    source += "    if name == 'x':\n        return await handle_x(arguments)\n    return await handle_y(arguments)\n"
    source += "async def handle_x(arguments):\n" + RAISE_V1 + "async def handle_y(arguments):\n" + RAISE_V1
    source += "async def not_dispatched(arguments):\n" + RAISE_V1
    assert flagged(source, "MCP001") == ["handle_x", "handle_y"]


# A registry of handler objects: the dispatcher returns `handler.run_tool(arguments)` on a handler
# typed with the base class, and each subclass's override is one tool's code.
HANDLER_REGISTRY = """\
class ToolHandler:
    def __init__(self, name: str) -> None:
        self.name = name

    def run_tool(self, arguments: dict) -> list:
        raise NotImplementedError()


class GetNote(ToolHandler):
    def run_tool(self, arguments: dict) -> list:
        if "note_id" not in arguments:
            return [types.TextContent(type="text", text="Error: note_id is required")]
        return []


class ArchivedNote(GetNote):
    def run_tool(self, arguments: dict) -> list:
        if arguments.get("archived"):
            return [types.TextContent(type="text", text="Error: the note is not archived")]
        return []


class ListNotes(ToolHandler):
    pass


class Exporter:
    def run_tool(self, arguments: dict) -> list:
        return [types.TextContent(type="text", text="Error: export is not configured")]


HANDLERS: dict[str, ToolHandler] = {h.name: h for h in (GetNote("get_note"), ArchivedNote("archived"), ListNotes("list_notes"))}


def get_tool_handler(name: str) -> ToolHandler | None:
    return HANDLERS.get(name)


@server.call_tool()
async def call(name, arguments):
    handler = get_tool_handler(name)
    if handler is None:
        raise ValueError(f"Unknown tool: {name}")
    return handler.run_tool(arguments)
"""


def test_lowlevel_dispatch_to_the_overrides_of_a_handler_base_class() -> None:
    found = [f for f in lint_source(LOWLEVEL_V1 + HANDLER_REGISTRY, "server.py") if f.code == "MCP005"]
    assert [(f.location.row, f.message.split(" returns")[0]) for f in found] == [
        (17, "Tool 'GetNote'"),
        (24, "Tool 'ArchivedNote'"),
    ]


def test_dispatcher_try_around_a_per_tool_call_catches_its_helpers_raises() -> None:
    # The helper's text is caught by the dispatcher's `except` and re-raised there: one defect,
    # reported where the text finally leaves (the dispatcher), not also in the helper.
    source = LOWLEVEL_V1 + textwrap.dedent(
        """\
        import httpx

        def fetch(url):
            try:
                return httpx.get(url).text
            except httpx.HTTPError as e:
                raise RuntimeError(f"Request failed: {e}")

        async def handle_get(arguments):
            return [types.TextContent(type="text", text=fetch(arguments["url"]))]

        @server.call_tool()
        async def call(name, arguments):
            try:
                if name == "get":
                    return await handle_get(arguments)
                raise ValueError(f"Unknown tool: {name}")
            except Exception as e:
                raise RuntimeError(f"Tool {name} failed: {e}")
        """
    )
    found = [(f.location.row, f.context) for f in lint_source(source, "server.py") if f.code == "MCP002"]
    assert found == [(24, "call")]


def test_lowlevel_v1_raw_request_handler() -> None:
    source = LOWLEVEL_V1 + "async def handle(request):\n    arguments = request.params.arguments\n" + RAISE_V1
    source += "server.request_handlers[types.CallToolRequest] = handle\n"
    assert flagged(source, "MCP001") == ["handle"]


def test_lowlevel_v2_on_call_tool() -> None:
    source = LOWLEVEL_V2 + "async def handle(ctx, params):\n" + RAISE_V2 + "server = Server('x', on_call_tool=handle)\n"
    assert flagged(source, "MCP001") == ["handle"]
    assert "on the mcp 2.x low-level Server" in messages(source, "MCP001")[0]


def test_lowlevel_v2_add_request_handler() -> None:
    source = LOWLEVEL_V2 + "server = Server('x')\nasync def handle(ctx, params):\n" + RAISE_V2
    source += "server.add_request_handler('tools/call', CallToolRequestParams, handle)\n"
    assert flagged(source, "MCP001") == ["handle"]
    assert "on the mcp 2.x low-level Server" in messages(source, "MCP001")[0]


def test_lowlevel_v2_handler_defined_inside_the_factory() -> None:
    source = LOWLEVEL_V2 + "def build():\n    async def handle(ctx, params):\n" + RAISE_V2.replace("\n    ", "\n        ").replace("    if", "        if", 1)
    source += "    return Server('x', on_call_tool=handle)\n"
    assert flagged(source, "MCP001") == ["handle"]


def test_call_tool_on_a_non_mcp_server_class() -> None:
    source = LOWLEVEL_V1.replace("server = Server('x')", "from jsonrpc_kit import Server as RpcServer\nserver = RpcServer('x')")
    source += "@server.call_tool()\nasync def call(name, arguments):\n" + RAISE_V1
    assert flagged(source, "MCP001") == []


def test_raw_request_handler_for_another_request_is_not_a_dispatcher() -> None:
    source = LOWLEVEL_V1 + "async def handle(request):\n    arguments = request.params\n" + RAISE_V1
    source += "server.request_handlers[types.ListToolsRequest] = handle\n"
    assert flagged(source, "MCP001") == []


def test_lowlevel_v2_list_tools_handler_is_not_a_dispatcher() -> None:
    source = LOWLEVEL_V2 + "async def handle(ctx, params):\n" + RAISE_V2 + "server = Server('x', on_list_tools=handle)\n"
    assert flagged(source, "MCP001") == []


def test_lowlevel_v2_other_request_handler_is_not_a_dispatcher() -> None:
    source = LOWLEVEL_V2 + "server = Server('x')\nasync def handle(ctx, params):\n" + RAISE_V2
    source += "server.add_request_handler('tools/list', dict, handle)\n"
    assert flagged(source, "MCP001") == []


def test_on_call_tool_argument_of_a_non_mcp_class() -> None:
    source = LOWLEVEL_V2 + "from rpc import Dispatcher\nasync def handle(ctx, params):\n" + RAISE_V2 + "d = Dispatcher('x', on_call_tool=handle)\n"
    assert flagged(source, "MCP001") == []


# -- non-tool handlers: tool rules stay silent -------------------------------------------------

NON_TOOL_HANDLERS = {
    "resource": FASTMCP + marked('@mcp.resource("res://{x}")'),
    "prompt-bare": FASTMCP + marked("@mcp.prompt"),
    "prompt-called": "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n" + marked("@mcp.prompt()"),
    "completion": "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n" + marked("@mcp.completion()"),
    "custom-route": FASTMCP + marked('@mcp.custom_route("/health", methods=["GET"])'),
    "curried-resource": FASTMCP + marked("") + 'mcp.resource("res://x")(t)\n',
    "add-prompt": "from fastmcp import FastMCP\nfrom fastmcp.prompts import Prompt\nmcp = FastMCP('x')\n" + marked("") + "mcp.add_prompt(Prompt.from_function(t))\n",
    "mcpserver-resources-arg": "from mcp.server.mcpserver import MCPServer\n" + marked("") + "mcp = MCPServer('x', resources=[t])\n",
    "fastmcp-standalone-resource": "from fastmcp.resources import resource\n" + marked('@resource("res://x")'),
    "fastmcp-standalone-prompt": "from fastmcp.prompts import prompt\n" + marked("@prompt"),
    "lowlevel-read-resource": "from mcp.server.lowlevel import Server\nserver = Server('x')\n" + marked("@server.read_resource()"),
    "lowlevel-get-prompt": "from mcp.server.lowlevel import Server\nserver = Server('x')\n" + marked("@server.get_prompt()"),
    "lowlevel-list-tools": "from mcp.server.lowlevel import Server\nserver = Server('x')\n" + marked("@server.list_tools()"),
    "lowlevel-on-read-resource": "from mcp.server.lowlevel import Server\n" + marked("") + "server = Server('x', on_read_resource=t)\n",
    "lowlevel-resources-read-handler": "from mcp.server.lowlevel import Server\nfrom mcp.types import ReadResourceRequestParams\nserver = Server('x')\n"
    + marked("")
    + "server.add_request_handler('resources/read', ReadResourceRequestParams, t)\n",
    "lowlevel-raw-read-resource": "from mcp.server.lowlevel import Server\nimport mcp.types as types\nserver = Server('x')\n" + marked("")
    + "server.request_handlers[types.ReadResourceRequest] = t\n",
}


@pytest.mark.parametrize("source", NON_TOOL_HANDLERS.values(), ids=NON_TOOL_HANDLERS.keys())
def test_resource_and_prompt_handlers_are_not_tools(source: str) -> None:
    assert flagged(source) == []


def test_protocol_error_in_a_lowlevel_resource_handler_is_not_reported() -> None:
    source = LOWLEVEL_V1 + "@server.read_resource()\nasync def read(uri):\n    arguments = uri\n" + RAISE_V1
    assert flagged(source, "MCP001") == []


def test_helper_called_only_from_a_resource_is_silent_and_from_a_tool_is_reported() -> None:
    source = FASTMCP + marked("", name="helper")
    source += '@mcp.resource("res://x")\ndef read(x):\n    return helper(x)\n'
    assert flagged(source) == []
    assert flagged(source + "@mcp.tool\ndef t(x):\n    return helper(x)\n") == ["helper"]


# -- things named like tool registrations that are not MCP -----------------------------------

NOT_MCP = {
    "pydantic-ai-agent": "from pydantic_ai import Agent\nagent = Agent('openai:gpt-4o')\n" + marked("@agent.tool"),
    "pydantic-ai-agent-next-to-a-server": FASTMCP + "from pydantic_ai import Agent\nagent = Agent('openai:gpt-4o')\n" + marked("@agent.tool"),
    "pydantic-ai-tool-plain": FASTMCP + "from pydantic_ai import Agent\nagent = Agent('m')\n" + marked("@agent.tool_plain"),
    "pydantic-ai-agent-in-function": FASTMCP + "from pydantic_ai import Agent\ndef build():\n    agent = Agent('m')\n" + marked("@agent.tool", indent="    "),
    "langchain-tool": "from langchain_core.tools import tool\n" + marked("@tool"),
    "langchain-tool-next-to-a-server": FASTMCP + "from langchain.tools import tool\n" + marked('@tool("lookup")'),
    "crewai-tool": FASTMCP + "from crewai.tools import tool\n" + marked('@tool("lookup")'),
    "flask-route": "from flask import Flask\napp = Flask(__name__)\n" + marked('@app.route("/")'),
    "flask-route-next-to-a-server": FASTMCP + "from flask import Flask\napp = Flask(__name__)\n" + marked('@app.route("/")'),
    "no-framework-imported-module": "import something\n" + marked("@something.tool"),
    "no-framework-local-object": "registry = make_registry()\n" + marked("@registry.tool()"),
    "no-framework-add-tool": "from toolkit import Registry\nregistry = Registry()\n" + marked("") + "registry.add_tool(t)\n",
    "local-class-next-to-a-server": FASTMCP + "class Registry:\n    def tool(self, fn):\n        return fn\nregistry = Registry()\n" + marked("@registry.tool"),
    "framework-client-object": "from fastmcp import Client\nclient = Client('http://x')\n" + marked("@client.tool"),
    "server-class-not-instance": "from fastmcp import FastMCP\n" + marked("@FastMCP.tool"),
    "undecorated": FASTMCP + marked(""),
    "decorated-by-other-decorator": FASTMCP + "import functools\n" + marked("@functools.lru_cache()"),
}


@pytest.mark.parametrize("source", NOT_MCP.values(), ids=NOT_MCP.keys())
def test_non_mcp_registrations_are_not_tools(source: str) -> None:
    assert flagged(source) == []


# -- family and version shown in messages ------------------------------------------------------

PROTOCOL_ERROR_V1 = "from mcp.shared.exceptions import McpError\nfrom mcp.types import ErrorData, INVALID_PARAMS\n"
RAISE_IN_TOOL = '    if x:\n        raise McpError(ErrorData(code=INVALID_PARAMS, message="record 5 not found"))\n    return "ok"\n'


@pytest.mark.parametrize(
    ("setup", "target", "label"),
    [
        ('from mcp.server.fastmcp import FastMCP\nmcp = FastMCP("x")\n', None, "on mcp 1.x FastMCP"),
        ('from mcp.server import FastMCP\nmcp = FastMCP("x")\n', None, "on mcp 1.x FastMCP"),
        ('from mcp.server.mcpserver import MCPServer\nmcp = MCPServer("x")\n', None, "on mcp 2.x MCPServer"),
        ('from fastmcp import FastMCP\nmcp = FastMCP("x")\n', "fastmcp>=4", "on fastmcp 4.x"),
        ('from fastmcp import FastMCP\nmcp = FastMCP("x")\n', "fastmcp>=3,<4", "wrapped into 'Error calling tool 't'"),
        ('from fastmcp import FastMCP\nclass Mine(FastMCP):\n    pass\nmcp = Mine("x")\n', "fastmcp>=4", "on fastmcp 4.x"),
        ('from fastmcp import FastMCP\ndef register(mcp: FastMCP):\n    pass\n', "fastmcp>=4", "on fastmcp 4.x"),
    ],
)
def test_family_and_version_appear_in_the_message(setup: str, target: str | None, label: str) -> None:
    source = PROTOCOL_ERROR_V1 + setup + "@mcp.tool()\ndef t(x):\n" + RAISE_IN_TOOL
    found = messages(source, "MCP001", target=target)
    assert len(found) == 1 and label in found[0], found


def test_fastmcp_4_names_the_v1_constructor_crash() -> None:
    source = PROTOCOL_ERROR_V1 + 'from fastmcp import FastMCP\nmcp = FastMCP("x")\n@mcp.tool\ndef t(x):\n' + RAISE_IN_TOOL
    (message,) = messages(source, "MCP001", target="fastmcp>=4")
    # fastmcp 4 runs on mcp 2.x, whose package has no McpError: the import itself fails.
    assert "the mcp package has no McpError (mcp 2.x names it MCPError): the import fails" in message


@pytest.mark.parametrize(
    ("imports", "label"),
    [
        ("from mcp.server.mcpserver.tools import Tool", "on mcp 2.x MCPServer"),
        ("from mcp.server.fastmcp.tools import Tool", "on mcp 1.x FastMCP"),
    ],
)
def test_family_of_a_tool_object_comes_from_its_import_path(imports: str, label: str) -> None:
    source = PROTOCOL_ERROR_V1 + imports + "\ndef t(x):\n" + RAISE_IN_TOOL + "tool = Tool.from_function(t)\n"
    (message,) = messages(source, "MCP001")
    assert label in message


def test_fastmcp_standalone_tool_is_a_fastmcp_tool() -> None:
    source = PROTOCOL_ERROR_V1 + "from fastmcp.tools import tool\n@tool\ndef t(x):\n" + RAISE_IN_TOOL
    (message,) = messages(source, "MCP001", target="fastmcp>=4")
    assert "on fastmcp 4.x" in message


# -- wrapper decorators under the registration ---------------------------------------------------

# A decorator whose wrapper turns every failure into a normal result (MCP005 in the wrapper).
WRAPPER = """\
import functools

def handle_errors(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        try:
            return await fn(*args, **kwargs)
        except ValueError:
            return "Error: the request was rejected"
    return wrapper

def handle_errors_with(prefix):
    def decorate(fn):
        async def inner(*args, **kwargs):
            try:
                return await fn(*args, **kwargs)
            except ValueError:
                return "Error: the request was rejected"
        return inner
    return decorate
"""


@pytest.mark.parametrize(
    ("decorators", "function", "row"),
    [("@mcp.tool()\n@handle_errors", "wrapper", 11), ("@mcp.tool\n@handle_errors_with('items')", "inner", 20), ("@handle_errors", "wrapper", 11)],
    ids=["decorator", "decorator-factory", "registered-by-call"],
)
def test_wrapper_decorator_under_the_registration_runs_as_tool_code(decorators: str, function: str, row: int) -> None:
    source = FASTMCP + WRAPPER + decorators + "\nasync def lookup(item_id):\n    return item_id\n"
    if not decorators.startswith("@mcp"):
        source += "mcp.add_tool(lookup)\n"
    found = [f for f in lint_source(source, "server.py") if f.code == "MCP005"]
    assert [(f.context, f.location.row) for f in found] == [(function, row)]
    assert "'lookup'" in said(found[0])


def test_wrapper_decorator_above_the_registration_or_on_a_resource_is_not_tool_code() -> None:
    above = FASTMCP + WRAPPER + "@handle_errors\n@mcp.tool()\nasync def lookup(item_id):\n    return item_id\n"
    resource = FASTMCP + WRAPPER + "@mcp.resource('res://{item_id}')\n@handle_errors\nasync def read(item_id):\n    return item_id\n"
    assert flagged(above) == []
    assert flagged(resource) == []


# -- project decorators that register what they decorate ----------------------------------------

# `@tool(...)` / `@register` defined by the project: the decorator calls the server's own
# registration on the function it is given (often only when a setting enables that tool).
REGISTERING_DECORATORS = {
    "factory-with-filter": """\
ENABLED = None

def tool(annotations=None):
    def decorator(func):
        if ENABLED is None or func.__name__ in ENABLED:
            if annotations:
                return mcp.tool(annotations=annotations)(func)
            return mcp.tool()(func)
        return func
    return decorator
""",
    "bare-decorator": "def register(func):\n    mcp.tool()(func)\n    return func\n",
    "add-tool": "def register(fn):\n    mcp.add_tool(fn)\n    return fn\n",
}
USES = {"factory-with-filter": "@tool(annotations={'readOnlyHint': True})", "bare-decorator": "@register", "add-tool": "@register"}


@pytest.mark.parametrize("form", REGISTERING_DECORATORS)
def test_project_decorator_that_registers_what_it_decorates(form: str) -> None:
    source = FASTMCP + REGISTERING_DECORATORS[form] + marked(USES[form], name="lookup") + marked("", name="helper")
    found = [f for f in lint_source(source, "server.py") if f.code == "MCP005"]
    assert [f.context for f in found] == ["lookup"]
    assert found[0].message.startswith("Tool 'lookup' returns a failure")


@pytest.mark.parametrize(
    "decorator",
    [
        "def register(func):\n    agent.tool()(func)\n    return func\n",  # a non-MCP object's registration
        "def register(func):\n    mcp.resource('res://x')(func)\n    return func\n",  # a resource
        "def register(func):\n    print(func.__name__)\n    return func\n",  # registers nothing
        "def register(name, func=None):\n    mcp.tool()(func)\n    return func\n",  # not the decorated function
    ],
    ids=["non-server", "resource", "no-registration", "second-parameter"],
)
def test_project_decorator_that_registers_nothing_as_a_tool(decorator: str) -> None:
    source = FASTMCP + "from pydantic_ai import Agent\nagent = Agent('m')\n" + decorator + marked("@register", name="lookup")
    assert flagged(source) == []


# A decorator that registers its own wrapper in the decorated function's name: the decorated
# body is the tool's code, and the wrapper runs around it.
WRAPPING_REGISTRAR = """\
import functools


def tool(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        try:
            return await func(*args, **kwargs)
        except KeyError:
            return "Error: no such record"

    mcp.tool()(wrapper)
    return wrapper


@tool
async def lookup(item_id):
    if not item_id:
        return "Error: item_id is required"
    return item_id
"""


def test_project_decorator_that_registers_its_wrapper_makes_the_decorated_function_a_tool() -> None:
    found = [f for f in lint_source(FASTMCP + WRAPPING_REGISTRAR, "server.py") if f.code == "MCP005"]
    assert [(f.location.row, f.message.split(" returns")[0]) for f in found] == [
        (12, "Helper 'wrapper'"),
        (21, "Tool 'lookup'"),
    ]


def test_a_function_registered_inside_a_register_function_stays_the_tool() -> None:
    # Nothing is decorated with `register`: the nested function is the tool, as written.
    source = FASTMCP + "def register(server):\n" + marked("@mcp.tool()", name="lookup", indent="    ") + "register(mcp)\n"
    assert flagged(source) == ["lookup"]


def test_module_level_alias_of_a_method_of_a_module_level_object() -> None:
    source = FASTMCP + "class Service:\n" + marked("", name="find", indent="    ").replace("(x)", "(self, x)")
    source += marked("", name="other", indent="    ").replace("(x)", "(self, x)")
    source += "service = Service()\nfind_items = service.find\nsettings = load()\nlimit = settings.limit\n"
    source += "def setup():\n    mcp.add_tool(find_items, name='find-items')\n    mcp.add_tool(limit)\n"
    assert flagged(source) == ["find"]


# -- a later `def` of the same name --------------------------------------------------------------


@pytest.mark.parametrize(
    "later",
    ['@mcp.prompt()\ndef t(x):\n    return f"Look up {x}"\n', '@mcp.resource("res://{x}")\ndef t(x):\n    return x\n', "def t(x):\n    return x\n"],
    ids=["prompt", "resource", "plain-function"],
)
def test_a_later_def_of_the_same_name_does_not_replace_the_tool(later: str) -> None:
    source = FASTMCP + marked("@mcp.tool()") + later
    findings = [f for f in lint_source(source, "server.py") if f.code == "MCP005"]
    assert [(f.context, f.location.row) for f in findings] == [("t", 6)]


def test_a_tool_defined_after_a_function_of_the_same_name_is_its_own_body() -> None:
    source = FASTMCP + "def t(x):\n    return x\n" + marked("@mcp.tool()")
    findings = [f for f in lint_source(source, "server.py") if f.code == "MCP005"]
    assert [(f.context, f.location.row) for f in findings] == [("t", 8)]


def test_a_prompt_after_a_tool_of_the_same_name_stays_silent() -> None:
    source = FASTMCP + '@mcp.tool()\ndef t(x):\n    return x\n' + marked("@mcp.prompt()")
    assert flagged(source) == []


def test_the_body_after_overload_stubs_is_what_calls_reach() -> None:
    source = "from typing import overload\n" + FASTMCP
    source += "@overload\ndef helper(x: int) -> str: ...\n@overload\ndef helper(x: str) -> str: ...\n" + marked("", name="helper")
    source += "@mcp.tool()\ndef t(x):\n    return helper(x)\n"
    assert flagged(source) == ["helper"]


# -- low-level dispatch tables -------------------------------------------------------------------

# Per-tool functions that report a protocol error for a missing record (MCP001 in a tool).
PER_TOOL = (
    "async def handle_add(arguments):\n" + RAISE_V1 + "async def handle_sub(arguments):\n" + RAISE_V1
    + "async def not_in_table(arguments):\n" + RAISE_V1
)
TABLE = "HANDLERS = {'add': handle_add, 'sub': handle_sub}\n"

DISPATCHERS = {
    "subscript": "    return await HANDLERS[name](arguments)\n",
    "get-called": "    return await HANDLERS.get(name)(arguments)\n",
    "get-then-call": "    handler = HANDLERS.get(name)\n    if handler is None:\n        raise ValueError(name)\n    return await handler(arguments)\n",
    "subscript-local": "    handler = HANDLERS[name]\n    return await handler(arguments)\n",
    "to-thread": "    return await asyncio.to_thread(HANDLERS[name], arguments)\n",
}


@pytest.mark.parametrize("body", DISPATCHERS.values(), ids=DISPATCHERS.keys())
def test_lowlevel_dispatch_through_a_table_of_functions(body: str) -> None:
    source = "import asyncio\n" + LOWLEVEL_V1 + PER_TOOL + TABLE + "@server.call_tool()\nasync def call(name, arguments):\n" + body
    assert flagged(source, "MCP001") == ["handle_add", "handle_sub"]


# A registry of rows, each keeping its function beside the tool's metadata.
ROW_TABLE = (
    "TOOL_REGISTRY = {\n"
    "    'add': {'description': 'Add two numbers', 'function': handle_add},\n"
    "    'sub': {'description': 'Subtract', 'function': handle_sub},\n"
    "}\n"
)

ROW_DISPATCHERS = {
    "row-subscript": "    return await TOOL_REGISTRY[name]['function'](arguments)\n",
    "row-local": "    tool = TOOL_REGISTRY[name]\n    return await tool['function'](arguments)\n",
    "row-get": "    tool = TOOL_REGISTRY.get(name)\n    if tool is None:\n        raise ValueError(name)\n    return await tool.get('function')(arguments)\n",
    "row-function-local": "    run = TOOL_REGISTRY[name]['function']\n    return await run(arguments)\n",
}


@pytest.mark.parametrize("body", ROW_DISPATCHERS.values(), ids=ROW_DISPATCHERS.keys())
def test_lowlevel_dispatch_through_a_registry_of_rows(body: str) -> None:
    source = LOWLEVEL_V1 + PER_TOOL + ROW_TABLE + "@server.call_tool()\nasync def call(name, arguments):\n" + body
    assert flagged(source, "MCP001") == ["handle_add", "handle_sub"]


def test_a_registry_of_rows_read_for_its_metadata_only_is_not_dispatch() -> None:
    body = "    tool = TOOL_REGISTRY[name]\n    print(tool['description'])\n    return []\n"
    source = LOWLEVEL_V1 + PER_TOOL + ROW_TABLE + "@server.call_tool()\nasync def call(name, arguments):\n" + body
    assert flagged(source, "MCP001") == []


def test_rows_without_a_function_are_no_table() -> None:
    table = "LIMITS = {'add': {'timeout': 3, 'function': 'handle_add'}}\n"
    body = "    return await LIMITS[name]['function'](arguments)\n"
    source = LOWLEVEL_V1 + PER_TOOL + table + "@server.call_tool()\nasync def call(name, arguments):\n" + body
    assert flagged(source, "MCP001") == []


def test_a_table_looked_up_by_a_literal_key_or_never_called_is_not_dispatch() -> None:
    body = "    handler = HANDLERS['add']\n    print(HANDLERS.get(name))\n    return []\n"
    source = LOWLEVEL_V1 + PER_TOOL + TABLE + "@server.call_tool()\nasync def call(name, arguments):\n" + body
    assert flagged(source, "MCP001") == []


def test_a_registry_of_methods_built_by_a_function_on_mcp2_on_call_tool() -> None:
    source = LOWLEVEL_V2 + "import asyncio\n\nTOOL_NAMES = ('get_price', 'get_news')\n\n"
    source += "class Finance:\n" + "".join(
        f"    def {name}(self, params):\n" + RAISE_V2.replace("\n    ", "\n        ").replace("    if", "        if", 1) for name in ("get_price", "get_news", "internal")
    )
    source += "def build_registry(api: Finance) -> dict:\n    return {name: getattr(api, name) for name in TOOL_NAMES}\n\n"
    source += "async def run_tool(registry, params):\n    return await asyncio.to_thread(registry[params.name], params)\n\n"
    source += "def serve():\n    registry = build_registry(Finance())\n\n"
    source += "    async def call_tool(ctx, params):\n        return await run_tool(registry, params)\n\n"
    source += "    return Server('x', on_call_tool=call_tool)\n"
    assert flagged(source, "MCP001") == ["get_news", "get_price"]


def test_getattr_dispatch_to_prefixed_methods() -> None:
    source = LOWLEVEL_V1 + "class Tools:\n"
    for name in ("_tool_add", "_tool_sub", "helper"):
        source += f"    async def {name}(self, arguments):\n" + RAISE_V1.replace("\n    ", "\n        ").replace("    if", "        if", 1)
    source += "    async def dispatch(self, name, arguments):\n        return await getattr(self, f'_tool_{name}')(arguments)\n"
    source += "tools = Tools()\n@server.call_tool()\nasync def call(name, arguments):\n    return await tools.dispatch(name, arguments)\n"
    assert flagged(source, "MCP001") == ["_tool_add", "_tool_sub"]
