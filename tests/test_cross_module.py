"""Servers, tools and helpers spread over several modules of one project."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli
from mcp_lint.config import SettingsResolver
from mcp_lint.pipeline import lint_paths
from rules._support import said

# A failure returned as a normal result: MCP005 inside a tool, silent elsewhere.
FAIL = '    if x:\n        return "Error: something failed"\n    return "ok"\n'
# A protocol error for a domain failure: MCP001 inside a tool; the message names the framework.
RAISE = (
    "from mcp.shared.exceptions import McpError\nfrom mcp.types import ErrorData, INVALID_PARAMS\n"
    "{header}def {name}(x):\n"
    '    if x:\n        raise McpError(ErrorData(code=INVALID_PARAMS, message="record 5 not found"))\n    return "ok"\n'
)


def write_package(root: Path, files: dict[str, str]) -> list[Path]:
    """Write `files` under root/pkg (a package) and return every Python file written."""
    package = root / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent(files.pop("__init__.py", "")), encoding="utf-8")
    for name, text in files.items():
        (package / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return sorted(package.rglob("*.py"))


def findings(root: Path, files: dict[str, str], code: str = "MCP005", target: str | None = None) -> list[tuple[str, str]]:
    """(file name, function) of every `code` finding in the package."""
    overrides = {"target": target} if target else None
    result = lint_paths(write_package(root, files), SettingsResolver(isolated=True, overrides=overrides))
    assert result.internal_errors == []
    return sorted((Path(f.filename).name, f.context) for f in result.findings if f.code == code)


def messages(root: Path, files: dict[str, str], code: str, target: str | None = None) -> list[str]:
    overrides = {"target": target} if target else None
    result = lint_paths(write_package(root, files), SettingsResolver(isolated=True, overrides=overrides))
    return [said(f) for f in result.findings if f.code == code]


APP_V1 = "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n"
APP_V2 = "from mcp.server.mcpserver import MCPServer\nmcp = MCPServer('x')\n"


# -- servers imported from another module ------------------------------------------------------


@pytest.mark.parametrize(
    ("imports", "decorator"),
    [
        ("from .app import mcp", "@mcp.tool()"),
        ("from pkg.app import mcp", "@mcp.tool()"),
        ("from .app import mcp as server", "@server.tool()"),
        ("from pkg import mcp", "@mcp.tool()"),  # re-exported by pkg/__init__.py
        ("from . import mcp", "@mcp.tool()"),
        ("import pkg.app as app", "@app.mcp.tool()"),
        ("from pkg import app", "@app.mcp.tool()"),
        ("import pkg.app", "@pkg.app.mcp.tool()"),
        ("from .app import mcp\nserver = mcp", "@server.tool()"),
    ],
)
def test_tool_on_a_server_of_another_module(tmp_path: Path, imports: str, decorator: str) -> None:
    files = {"__init__.py": "from .app import mcp\n", "app.py": APP_V1, "tools.py": f"{imports}\n\n{decorator}\ndef t(x):\n{FAIL}"}
    assert findings(tmp_path, files) == [("tools.py", "t")]


@pytest.mark.parametrize(("app", "label"), [(APP_V1, "on mcp 1.x FastMCP"), (APP_V2, "on mcp 2.x MCPServer")])
def test_family_of_an_imported_server_comes_from_its_module(tmp_path: Path, app: str, label: str) -> None:
    files = {"app.py": app, "tools.py": "from .app import mcp\n" + RAISE.format(header="@mcp.tool()\n", name="t")}
    (message,) = messages(tmp_path, files, "MCP001")
    assert label in message


def test_function_registered_by_call_in_another_module(tmp_path: Path) -> None:
    files = {
        "app.py": APP_V1 + "from .impl import search, fetch\nfrom mcp.server.fastmcp.tools import Tool\n"
        "mcp.add_tool(search)\ntool = Tool.from_function(fetch)\n",
        "impl.py": f"def search(x):\n{FAIL}\ndef fetch(x):\n{FAIL}\ndef unused(x):\n{FAIL}",
    }
    assert findings(tmp_path, files) == [("impl.py", "fetch"), ("impl.py", "search")]


def test_server_subclass_defined_in_another_module(tmp_path: Path) -> None:
    files = {
        "base.py": "from fastmcp import FastMCP\n\nclass Mine(FastMCP):\n    pass\n",
        "tools.py": "from .base import Mine\nmcp = Mine('x')\n" + RAISE.format(header="@mcp.tool\n", name="t"),
    }
    (message,) = messages(tmp_path, files, "MCP001", target="fastmcp>=4")
    assert "on fastmcp 4.x" in message


def test_server_factory_defined_in_another_module(tmp_path: Path) -> None:
    files = {
        "factory.py": "from fastmcp import FastMCP\n\ndef create() -> FastMCP:\n    return FastMCP('x')\n",
        "tools.py": f"from .factory import create\nmcp = create()\n\n@mcp.tool\ndef t(x):\n{FAIL}",
    }
    assert findings(tmp_path, files) == [("tools.py", "t")]


def test_register_function_taking_the_server_as_an_annotated_parameter(tmp_path: Path) -> None:
    files = {
        "app.py": APP_V1 + "from .tools import register\nregister(mcp)\n",
        "tools.py": """\
            from mcp.server.fastmcp import FastMCP

            def register(mcp: FastMCP) -> None:
                @mcp.tool()
                def t(x):
                    if x:
                        return "Error: something failed"
                    return "ok"
            """,
    }
    assert findings(tmp_path, files) == [("tools.py", "t")]


# -- helpers and dispatch across modules --------------------------------------------------------


def test_helper_in_another_module_is_reported_with_the_tool_that_reaches_it(tmp_path: Path) -> None:
    files = {
        "app.py": APP_V1 + "from .helpers import helper\n\n@mcp.tool()\ndef lookup(x):\n    return helper(x)\n",
        "helpers.py": f"def helper(x):\n{FAIL}",
    }
    result = lint_paths(write_package(tmp_path, files), SettingsResolver(isolated=True))
    (finding,) = [f for f in result.findings if f.code == "MCP005"]
    assert Path(finding.filename).name == "helpers.py"
    assert finding.message.startswith("Helper 'helper' returns a failure")


def test_helper_reached_only_from_a_resource_is_silent(tmp_path: Path) -> None:
    files = {
        "app.py": APP_V1 + "from .helpers import helper\n\n@mcp.resource('res://{x}')\ndef read(x):\n    return helper(x)\n",
        "helpers.py": f"def helper(x):\n{FAIL}",
    }
    assert findings(tmp_path, files) == []


HANDLERS = """\
from mcp.shared.exceptions import McpError
from mcp.types import ErrorData, INVALID_PARAMS


async def handle_search(arguments):
    if arguments:
        raise McpError(ErrorData(code=INVALID_PARAMS, message="record 5 not found"))
    return []


async def not_dispatched(arguments):
    raise McpError(ErrorData(code=INVALID_PARAMS, message="record 5 not found"))
"""


def test_lowlevel_dispatcher_calling_per_tool_functions_of_another_module(tmp_path: Path) -> None:
    files = {
        "server.py": "from mcp.server.lowlevel import Server\nfrom .handlers import handle_search\nserver = Server('x')\n\n"
        "@server.call_tool()\nasync def call(name, arguments):\n    if name == 'search':\n        return await handle_search(arguments)\n    return []\n",
        "handlers.py": HANDLERS,
    }
    result = lint_paths(write_package(tmp_path, files), SettingsResolver(isolated=True))
    (finding,) = [f for f in result.findings if f.code == "MCP001"]
    assert (Path(finding.filename).name, finding.context) == ("handlers.py", "handle_search")
    assert "on the mcp 1.x low-level Server it arrives as plain tool-result text" in said(finding)


# -- negatives -------------------------------------------------------------------------------------


def test_pydantic_ai_agent_from_another_module_is_not_a_server(tmp_path: Path) -> None:
    files = {
        "ai.py": "from pydantic_ai import Agent\nagent = Agent('openai:gpt-4o')\n",
        "tools.py": f"from .ai import agent\n\n@agent.tool\ndef t(x):\n{FAIL}",
    }
    assert findings(tmp_path, files) == []


def test_registry_object_of_a_project_without_mcp_is_not_a_server(tmp_path: Path) -> None:
    files = {
        "registry.py": "class Registry:\n    def tool(self, fn):\n        return fn\nregistry = Registry()\n",
        "tools.py": f"from .registry import registry\n\n@registry.tool\ndef t(x):\n{FAIL}",
    }
    assert findings(tmp_path, files) == []


def test_same_name_in_another_module_is_not_confused_with_the_server(tmp_path: Path) -> None:
    files = {
        "app.py": APP_V1,
        "other.py": "from flask import Flask\nmcp = Flask('web')\n",
        "tools.py": f"from .other import mcp\n\n@mcp.route('/x')\ndef t(x):\n{FAIL}",
    }
    assert findings(tmp_path, files) == []


# -- through the command line ------------------------------------------------------------------


def test_check_reports_tools_of_every_module_and_exits_1(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "__init__.py": "from .app import mcp\n",
            "app.py": APP_V1,
            "a.py": f"from .app import mcp\n\n@mcp.tool()\ndef a(x):\n{FAIL}",
            "b.py": f"from pkg import mcp\n\ndef b(x):\n{FAIL}\nmcp.add_tool(b)\n",
            "c.py": f"from pydantic_ai import Agent\nagent = Agent('m')\n\n@agent.tool\ndef c(x):\n{FAIL}",
        },
    )
    result = CliRunner().invoke(
        cli, ["check", str(tmp_path), "--isolated", "--no-cache", "--select", "MCP005", "--output-format", "concise", "-q"]
    )
    lines = result.output.splitlines()
    assert result.exit_code == 1
    assert [line.split(": MCP005 ")[0].replace(str(tmp_path), "") for line in lines] == ["/pkg/a.py:6:9", "/pkg/b.py:5:9"]
    assert lines[0].endswith("MCP005 Tool 'a' returns a failure string as a normal result")


def test_check_of_a_project_without_mcp_is_clean(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "agents.py": f"from pydantic_ai import Agent\nagent = Agent('m')\n\n@agent.tool\ndef a(x):\n{FAIL}",
            "web.py": f"from flask import Flask\napp = Flask('w')\n\n@app.route('/')\ndef b(x):\n{FAIL}",
            "lc.py": f"from langchain_core.tools import tool\n\n@tool\ndef c(x):\n{FAIL}",
        },
    )
    # Nothing MCP: no finding, and a warning that nothing was checked (exit 2), not a pass.
    result = CliRunner().invoke(cli, ["check", str(tmp_path), "--isolated", "--no-cache", "--output-format", "concise", "-q"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("mcp-lint: warning: 4 files linted, but no MCP server or tool was found in them")
    accepted = CliRunner().invoke(
        cli, ["check", str(tmp_path), "--isolated", "--config", "require-tools = false", "--no-cache", "--output-format", "concise", "-q"]
    )
    assert (accepted.exit_code, accepted.output) == (0, "")


# -- register functions taking the server as an unannotated parameter ----------------------------

# A module that does not import any framework: only its callers say what `server` is.
REGISTER = f"""\
def register_tools(server, store):
    @server.tool()
    def t(x):
{textwrap.indent(FAIL, "    ")}
class Tools:
    def register(self, server):
        server.add_tool(self.u)

    def u(self, x):
{textwrap.indent(FAIL, "    ")}"""


@pytest.mark.parametrize(
    "caller",
    [
        "from .app import mcp\nfrom .registry import register_tools\n\nregister_tools(mcp, store=None)\n",
        "from fastmcp import FastMCP\nfrom . import registry\n\ndef build():\n    server = FastMCP('x')\n    registry.register_tools(server, None)\n    return server\n",
        "from .app import mcp\nfrom .registry import register_tools\n\nregister_tools(server=mcp, store=None)\n",
    ],
    ids=["module-level-server", "server-made-in-a-factory", "keyword"],
)
def test_register_function_with_an_unannotated_server_parameter(tmp_path: Path, caller: str) -> None:
    files = {"app.py": APP_V1, "registry.py": REGISTER, "main.py": caller}
    assert findings(tmp_path, files) == [("registry.py", "t")]


def test_register_method_with_an_unannotated_server_parameter(tmp_path: Path) -> None:
    caller = "from .app import mcp\nfrom .registry import Tools\n\nTools().register(mcp)\n"
    files = {"app.py": APP_V1, "registry.py": REGISTER, "main.py": caller}
    assert findings(tmp_path, files) == [("registry.py", "u")]


@pytest.mark.parametrize(
    "caller",
    [
        "from .registry import register_tools\nfrom pydantic_ai import Agent\n\nagent = Agent('m')\nregister_tools(agent, None)\n",
        "from .app import mcp\nfrom .registry import register_tools\n\nregister_tools(None, mcp)\n",
        "from .registry import register_tools\n\nregister_tools(make_registry(), None)\n",
    ],
    ids=["non-server-object", "server-in-another-parameter", "unknown-object"],
)
def test_register_function_called_without_a_server_registers_nothing(tmp_path: Path, caller: str) -> None:
    files = {"app.py": APP_V1, "registry.py": REGISTER, "main.py": caller}
    assert findings(tmp_path, files) == []


@pytest.mark.parametrize(
    ("imports", "annotation"),
    [("from typing import Any\n", "Any"), ("import typing\n", "typing.Any"), ("", "object")],
    ids=["Any", "typing.Any", "object"],
)
def test_register_function_whose_server_parameter_is_annotated_any(tmp_path: Path, imports: str, annotation: str) -> None:
    # `def register_tools(mcp_server: Any, container)`: the annotation says nothing, so the
    # callers decide, as for an unannotated parameter; a local import in main() passes the server.
    registry = imports + REGISTER.replace("(server, store)", f"(server: {annotation}, store: {annotation})")
    caller = "from .app import mcp\n\ndef main():\n    from .registry import register_tools\n\n    register_tools(mcp, None)\n    mcp.run()\n"
    files = {"app.py": APP_V1, "registry.py": registry, "main.py": caller}
    assert findings(tmp_path, files) == [("registry.py", "t")]


def test_register_function_with_an_any_parameter_filled_by_a_non_server_registers_nothing(tmp_path: Path) -> None:
    registry = "from typing import Any\n" + REGISTER.replace("(server, store)", "(server: Any, store: Any)")
    caller = "from .registry import register_tools\nfrom pydantic_ai import Agent\n\nagent = Agent('m')\nregister_tools(agent, None)\n"
    files = {"app.py": APP_V1, "registry.py": registry, "main.py": caller}
    assert findings(tmp_path, files) == []


def test_project_tool_decorator_imported_from_the_server_module(tmp_path: Path) -> None:
    # app.py defines `@tool(...)`, which registers on its server what it decorates; the tools
    # live in another module that imports the decorator (and nothing of the framework).
    decorator = "def tool(title=None):\n    def decorator(func):\n        return mcp.tool(title=title)(func)\n    return decorator\n"
    tools = f"from .app import tool\n\n@tool(title='Lookup')\ndef lookup(x):\n{FAIL}\ndef helper(x):\n{FAIL}"
    files = {"app.py": APP_V1 + decorator, "tools.py": tools}
    assert findings(tmp_path, files) == [("tools.py", "lookup")]


def test_same_named_decorator_of_another_module_registers_nothing(tmp_path: Path) -> None:
    # Only the decorator that registers makes tools: `tool` of utils.py merely times the call.
    timing = "def tool(title=None):\n    def decorator(func):\n        return func\n    return decorator\n"
    registering = "def tool(title=None):\n    def decorator(func):\n        return mcp.tool(title=title)(func)\n    return decorator\n"
    tools = f"from .utils import tool\n\n@tool(title='Lookup')\ndef lookup(x):\n{FAIL}"
    files = {"app.py": APP_V1 + registering, "utils.py": timing, "tools.py": tools}
    assert findings(tmp_path, files) == []


# -- tool tables of another module -----------------------------------------------------------------

TABLES = f"""\
def a(x):
{FAIL}
def b(x):
{FAIL}
def unlisted(x):
{FAIL}
TOOL_LIST = [a, b]
TOOL_MAP = {{"tool-a": a, "tool-b": b}}
"""


@pytest.mark.parametrize(
    "loop",
    [
        "from .tables import TOOL_LIST\n\nfor fn in TOOL_LIST:\n    mcp.tool()(fn)\n",
        "from .tables import TOOL_MAP\n\nfor name, fn in TOOL_MAP.items():\n    mcp.tool(name=name)(fn)\n",
        "from .tables import TOOL_MAP\n\nfor fn in TOOL_MAP.values():\n    mcp.add_tool(fn)\n",
        "from . import tables\nfrom .tables import TOOL_LIST as TOOLS\n\n[mcp.add_tool(fn) for fn in TOOLS]\n",
    ],
    ids=["list", "dict-items", "dict-values", "comprehension"],
)
def test_registration_loop_over_a_table_of_another_module(tmp_path: Path, loop: str) -> None:
    files = {"app.py": APP_V1 + loop, "tables.py": TABLES}
    assert findings(tmp_path, files) == [("tables.py", "a"), ("tables.py", "b")]


def test_loop_over_an_imported_table_on_a_non_server_registers_nothing(tmp_path: Path) -> None:
    loop = "from pydantic_ai import Agent\nfrom .tables import TOOL_LIST\n\nagent = Agent('m')\nfor fn in TOOL_LIST:\n    agent.tool(fn)\n"
    files = {"app.py": loop, "tables.py": TABLES}
    assert findings(tmp_path, files) == []


def test_register_function_reached_through_another_register_function(tmp_path: Path) -> None:
    # main.py -> register_all(mcp) -> register_tools(server, None): the server is passed on.
    files = {
        "app.py": APP_V1,
        "registry.py": REGISTER,
        "wiring.py": "from .registry import register_tools\n\ndef register_all(server):\n    register_tools(server, None)\n",
        "main.py": "from .app import mcp\nfrom .wiring import register_all\n\nregister_all(mcp)\n",
    }
    assert findings(tmp_path, files) == [("registry.py", "t")]


def test_register_function_passed_on_a_parameter_nobody_fills_with_a_server(tmp_path: Path) -> None:
    files = {
        "registry.py": REGISTER,
        "wiring.py": "from .registry import register_tools\n\ndef register_all(server):\n    register_tools(server, None)\n",
        "main.py": "from .wiring import register_all\n\nregister_all(make_registry())\n",
    }
    assert findings(tmp_path, files) == []


PLUGIN = f"""\
def register(server):
    @server.tool()
    def {{name}}(x):
{textwrap.indent(FAIL, "    ")}"""


@pytest.mark.parametrize(
    "wiring",
    [
        "from . import notes, tasks\n\nPLUGINS = [notes, tasks]\n\ndef register_all(server):\n    for plugin in PLUGINS:\n        plugin.register(server)\n",
        "from . import notes, tasks\n\ndef register_all(server):\n    for plugin in (notes, tasks):\n        plugin.register(server)\n",
    ],
    ids=["module-list", "literal-tuple"],
)
def test_register_functions_of_a_plugin_list_get_the_server_the_loop_hands_them(tmp_path: Path, wiring: str) -> None:
    # `for plugin in PLUGINS: plugin.register(server)`: each listed module's register() is handed
    # the server, so the tools it registers are checked (they went unchecked before).
    files = {
        "app.py": APP_V1,
        "notes.py": PLUGIN.format(name="add_note"),
        "tasks.py": PLUGIN.format(name="add_task"),
        "wiring.py": wiring,
        "main.py": "from .app import mcp\nfrom .wiring import register_all\n\nregister_all(mcp)\n",
    }
    assert findings(tmp_path, files) == [("notes.py", "add_note"), ("tasks.py", "add_task")]


def test_a_plugin_list_handed_something_else_registers_nothing(tmp_path: Path) -> None:
    files = {
        "notes.py": PLUGIN.format(name="add_note"),
        "wiring.py": "from . import notes\n\nPLUGINS = [notes]\n\ndef register_all(server):\n    for plugin in PLUGINS:\n        plugin.register(server)\n",
        "main.py": "from .wiring import register_all\n\nregister_all(make_registry())\n",
    }
    assert findings(tmp_path, files) == []
