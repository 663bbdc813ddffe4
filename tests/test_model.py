"""The server model of one module: servers, tool registrations, pending and non-tool handlers."""

from __future__ import annotations

import textwrap

import libcst as cst

from mcp_lint.model.frameworks import Family
from mcp_lint.model.module_model import ModuleModel
from mcp_lint.model.module_walk import build_model
from mcp_lint.model.summary import ToolRegistration


def model(source: str, module: str = "pkg.mod", is_package: bool = False) -> ModuleModel:
    return build_model(cst.parse_module(textwrap.dedent(source)), module, is_package)


def tools(source: str, module: str = "pkg.mod") -> list[ToolRegistration]:
    return sorted(model(source, module).tools, key=lambda t: (t.function, t.tool_name))


# -- servers ---------------------------------------------------------------------------------


def test_servers_are_keyed_by_qualified_name_with_their_family() -> None:
    m = model(
        """
        from mcp.server.fastmcp import FastMCP
        from mcp.server.mcpserver import MCPServer
        from mcp.server.lowlevel import Server
        import fastmcp

        one = FastMCP("a")
        two = MCPServer("b")
        low = Server("c")
        four = fastmcp.FastMCP("d")

        class Service:
            def __init__(self):
                self.mcp = FastMCP("e")
        """
    )
    assert m.servers == {
        "pkg.mod.one": Family.MCP_FASTMCP,
        "pkg.mod.two": Family.MCP_SERVER,
        "pkg.mod.low": Family.MCP_LOWLEVEL,
        "pkg.mod.four": Family.FASTMCP,
        "pkg.mod.Service.mcp": Family.MCP_FASTMCP,
    }


def test_server_subclasses_and_factories_are_recorded_for_other_modules() -> None:
    m = model(
        """
        from fastmcp import FastMCP

        class Base(FastMCP):
            pass

        class Derived(Base):
            pass

        class Plain:
            pass

        def create() -> "FastMCP":
            ...

        def build():
            return Derived("x")

        def other():
            return Plain()
        """
    )
    assert m.servers == {
        "pkg.mod.Base": Family.FASTMCP,
        "pkg.mod.Derived": Family.FASTMCP,
        "pkg.mod.create": Family.FASTMCP,
        "pkg.mod.build": Family.FASTMCP,
    }


def test_names_bound_to_non_servers_and_to_project_callables() -> None:
    m = model(
        """
        from fastmcp import FastMCP, Client
        from pydantic_ai import Agent
        from pkg.factory import make_server
        from .base import MyServer

        agent = Agent("m")
        client = Client("http://x")
        mcp = make_server()
        app = MyServer()
        """
    )
    assert m.non_servers == {"pkg.mod.agent", "pkg.mod.client"}
    assert m.server_sources == {"pkg.mod.mcp": "pkg.factory.make_server", "pkg.mod.app": "pkg.base.MyServer"}
    assert m.servers == {}


def test_a_name_once_bound_to_a_server_stays_a_server() -> None:
    m = model(
        """
        from fastmcp import FastMCP
        from pydantic_ai import Agent
        if debug:
            mcp = FastMCP("x")
        else:
            mcp = Agent("m")
        """
    )
    assert m.servers == {"pkg.mod.mcp": Family.FASTMCP}
    assert m.non_servers == set()


# -- tool registrations ------------------------------------------------------------------------


def test_tool_names_come_from_every_naming_form() -> None:
    found = tools(
        """
        from fastmcp import FastMCP
        from fastmcp.tools import Tool
        mcp = FastMCP("x")

        @mcp.tool
        def bare(): ...

        @mcp.tool("positional")
        def a(): ...

        @mcp.tool(name="keyword")
        def b(): ...

        def c(): ...
        def d(): ...
        def e(): ...
        def f(): ...
        mcp.add_tool(c, name="added")
        mcp.tool(name="curried")(d)
        mcp.add_tool(Tool.from_function(e, name="from-function"))
        mcp.tool(f)
        """
    )
    assert [(t.function, t.tool_name) for t in found] == [
        ("pkg.mod.a", "positional"),
        ("pkg.mod.b", "keyword"),
        ("pkg.mod.bare", "bare"),
        ("pkg.mod.c", "added"),
        ("pkg.mod.d", "curried"),
        ("pkg.mod.e", "from-function"),
        ("pkg.mod.f", "f"),
    ]
    assert {(t.family, t.kind) for t in found} == {(Family.FASTMCP, "tool")}
    assert {t.server for t in found if t.function != "pkg.mod.e"} == {"pkg.mod.mcp"}


def test_tool_factory_family_follows_the_import_path() -> None:
    found = tools(
        """
        from mcp.server.fastmcp.tools import Tool as V1Tool
        from mcp.server.mcpserver.tools import Tool as V2Tool
        from fastmcp.tools.function_tool import FunctionTool
        def a(): ...
        def b(): ...
        def c(): ...
        tools = [V1Tool.from_function(a), V2Tool.from_function(b), FunctionTool.from_function(c)]
        """
    )
    assert [(t.function, t.family) for t in found] == [
        ("pkg.mod.a", Family.MCP_FASTMCP),
        ("pkg.mod.b", Family.MCP_SERVER),
        ("pkg.mod.c", Family.FASTMCP),
    ]


def test_lowlevel_dispatchers_carry_their_api_major_version() -> None:
    v1 = model(
        """
        from mcp.server.lowlevel import Server
        server = Server("x")
        @server.call_tool()
        async def call(name, arguments): ...
        """
    )
    assert v1.tools == [ToolRegistration("pkg.mod.call", "call", Family.MCP_LOWLEVEL, "pkg.mod.server", "dispatch", 1)]
    assert v1.lowlevel_major_hint == 1

    v2 = model(
        """
        from mcp.server import Server
        async def handle(ctx, params): ...
        async def listing(ctx, params): ...
        server = Server("x", on_call_tool=handle, on_list_tools=listing)
        """
    )
    assert v2.tools == [ToolRegistration("pkg.mod.handle", "handle", Family.MCP_LOWLEVEL, None, "dispatch", 2)]
    assert v2.non_tool == {"pkg.mod.listing"}
    assert v2.lowlevel_major_hint == 2


def test_lowlevel_v1_list_tools_alone_hints_the_v1_api() -> None:
    m = model(
        """
        from mcp.server.lowlevel import Server
        server = Server("x")
        @server.list_tools()
        async def listing(): ...
        """
    )
    assert m.tools == []
    assert m.non_tool == {"pkg.mod.listing"}
    assert m.lowlevel_major_hint == 1


def test_mcp_2_add_request_handler_dispatcher_and_resource_handler() -> None:
    m = model(
        """
        from mcp.server.lowlevel import Server
        from mcp.types import CallToolRequestParams, ReadResourceRequestParams
        server = Server("x")
        async def call(ctx, params): ...
        async def read(ctx, params): ...
        server.add_request_handler("tools/call", CallToolRequestParams, handler=call)
        server.add_request_handler("resources/read", ReadResourceRequestParams, read)
        """
    )
    assert m.tools == [ToolRegistration("pkg.mod.call", "call", Family.MCP_LOWLEVEL, "pkg.mod.server", "dispatch", 2)]
    assert m.non_tool == {"pkg.mod.read"}


def test_add_request_handler_of_an_unrelated_object_is_ignored() -> None:
    m = model(
        """
        from http_router import Router
        router = Router()
        def call(request): ...
        router.add_request_handler("tools/call", dict, call)
        """
    )
    assert m.tools == [] and m.pending == []


def test_lowlevel_dispatch_kind_is_not_given_to_high_level_servers() -> None:
    m = model(
        """
        from fastmcp import FastMCP
        mcp = FastMCP("x")
        @mcp.call_tool()
        async def call(name, arguments): ...
        """
    )
    assert m.tools == []


def test_methods_and_nested_functions_have_qualified_names() -> None:
    found = tools(
        """
        from fastmcp import FastMCP
        mcp = FastMCP("x")

        class Service:
            def __init__(self):
                mcp.tool(self.search)
            def search(self): ...

        def register():
            @mcp.tool
            def inner(): ...

            class Local:
                @mcp.tool
                def method(self): ...
        """
    )
    assert [t.function for t in found] == ["pkg.mod.Service.search", "pkg.mod.register.Local.method", "pkg.mod.register.inner"]


def test_standalone_and_mixin_decorators() -> None:
    m = model(
        """
        from fastmcp.tools import tool
        from fastmcp.resources import resource
        from fastmcp.contrib.mcp_mixin import MCPMixin, mcp_tool, mcp_prompt

        @tool(name="lookup")
        def a(): ...

        @resource("res://x")
        def r(): ...

        class Mixin(MCPMixin):
            @mcp_tool()
            def b(self): ...
            @mcp_prompt()
            def p(self): ...
        """
    )
    assert [(t.function, t.tool_name, t.family) for t in m.tools] == [
        ("pkg.mod.a", "lookup", Family.FASTMCP),
        ("pkg.mod.Mixin.b", "b", Family.FASTMCP),
    ]
    assert m.non_tool == {"pkg.mod.r", "pkg.mod.Mixin.p"}


# -- pending: registrations the linker resolves ------------------------------------------------


def test_registration_on_an_imported_server_is_pending_with_its_qualified_name() -> None:
    m = model(
        """
        from .app import mcp
        from . import other

        @mcp.tool()
        def a(): ...

        @other.server.tool(name="bee")
        def b(): ...
        """,
        module="pkg.tools",
    )
    assert m.tools == []
    assert m.pending == [("pkg.tools.a", "pkg.app.mcp", "a"), ("pkg.tools.b", "pkg.other.server", "bee")]


def test_relative_import_in_a_package_init_resolves_against_the_package() -> None:
    m = model("from .app import mcp\n@mcp.tool()\ndef a(): ...\n", module="pkg", is_package=True)
    assert m.pending == [("pkg.a", "pkg.app.mcp", "a")]


def test_instance_of_a_project_class_is_pending_on_that_class() -> None:
    m = model(
        """
        from fastmcp import Context
        from pkg.servers import CustomServer
        mcp = CustomServer("x")

        @mcp.tool
        def a(ctx: Context): ...
        """
    )
    assert m.pending == [("pkg.mod.a", "pkg.servers.CustomServer", "a")]


def test_unannotated_parameter_is_pending_only_in_a_module_that_imports_a_framework() -> None:
    source = "def register(mcp):\n    @mcp.tool()\n    def a(): ...\n"
    assert model(source).pending == []
    assert model("from fastmcp import Context\n" + source).pending == [("pkg.mod.register.a", "", "a")]


def test_certain_non_servers_are_never_pending() -> None:
    m = model(
        """
        from fastmcp import FastMCP
        from pydantic_ai import Agent
        agent = Agent("m")

        @agent.tool
        def a(): ...

        @FastMCP.tool
        def b(): ...

        def register(helper: Agent):
            @helper.tool
            def c(): ...
        """
    )
    assert m.tools == [] and m.pending == []


# -- non-tool handlers -------------------------------------------------------------------------


def test_resource_and_prompt_handlers_are_non_tool() -> None:
    m = model(
        """
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.prompts import Prompt
        mcp = FastMCP("x")

        @mcp.resource("res://{name}")
        def res(name): ...

        @mcp.prompt()
        def pro(): ...

        def pro2(): ...
        mcp.add_prompt(Prompt.from_function(pro2))

        @mcp.completion()
        async def comp(ref, argument): ...
        """
    )
    assert m.tools == []
    assert m.non_tool == {"pkg.mod.res", "pkg.mod.pro", "pkg.mod.pro2", "pkg.mod.comp"}


def test_resource_decorator_of_an_unrelated_object_is_not_recorded() -> None:
    m = model(
        """
        from flask_restful import Api
        api = Api()
        @api.resource("/x")
        def res(): ...
        """
    )
    assert m.non_tool == set()


# -- module tables -----------------------------------------------------------------------------


def test_module_lists_and_dicts_are_remembered() -> None:
    m = model(
        """
        import logging
        TOOLS = [a, b]
        TABLE = {"x": c}
        log = logging.getLogger(__name__)
        """
    )
    assert sorted(m.module_lists) == ["TABLE", "TOOLS"]
    assert [cst.Module([]).code_for_node(v) for v in m.module_lists["TOOLS"]] == ["a", "b"]
    assert [(k.value, v.value) for k, v in m.module_dicts["TABLE"]] == [('"x"', "c")]
    assert m.logger_name == "log"


def test_imports_inside_if_elif_else_and_try_are_seen_before_use() -> None:
    m = model(
        """
        @mcp.tool()
        def early(): ...
        try:
            from fastmcp import FastMCP
        except ImportError:
            from mcp.server.fastmcp import FastMCP
        if sys.version_info >= (3, 11):
            import tomllib
        elif True:
            from mcp.server.lowlevel import Server
        else:
            import tomli
        mcp = FastMCP("x")
        """
    )
    assert m.aliases.aliases["Server"] == "mcp.server.lowlevel.Server"
    assert m.aliases.aliases["tomli"] == "tomli"
    assert m.pending == [("pkg.mod.early", "", "early")]
