"""MCP009 error-middleware-hides-tool-errors: fastmcp's ErrorHandlingMiddleware with
transform_errors on, on a server with tools.

Sources mark expected findings with `# expect: MCPnnn`; `check` asserts the exact set of every
rule's findings.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from mcp_lint.fixing.apply import fix_source
from mcp_lint.pipeline import lint_source

from ._support import said, check, lint_tree, only, write_tree

ADDED = """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware

mcp = FastMCP("orders")
mcp.add_middleware(ErrorHandlingMiddleware())  # expect: MCP009
ORDERS: dict[int, str] = {}


@mcp.tool
def get_order(order_id: int) -> str:
    if order_id not in ORDERS:
        raise ToolError(f"Order {order_id} not found; call list_orders")
    return ORDERS[order_id]
"""

CONSTRUCTOR = """\
import logging

from fastmcp import FastMCP
from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware, RetryMiddleware

mcp = FastMCP(
    "billing",
    middleware=[
        RetryMiddleware(),
        ErrorHandlingMiddleware(logger=logging.getLogger("billing"), include_traceback=True),  # expect: MCP009
    ],
)


@mcp.tool
def refund(invoice_id: str) -> str:
    return f"refunded {invoice_id}"
"""


def test_fastmcp4_every_tool_failure_becomes_a_protocol_error() -> None:
    finding = only(ADDED, target="fastmcp>=4,<5")
    assert finding.location.column == 20
    assert finding.message == "ErrorHandlingMiddleware rewrites the failures of tool 'get_order'"
    assert finding.notes[0] == "the middleware runs with transform_errors on by default"
    assert "on fastmcp 4.x (from [tool.mcp-lint] target) every tool failure becomes a JSON-RPC error the model never sees" in said(finding)
    assert "-32603 'Internal error: ...'" in said(finding)
    assert "2.x/3.x" not in said(finding)
    assert finding.help == "Pass transform_errors=False" == finding.fix.message


def test_fastmcp3_texts_get_protocol_style_prefixes() -> None:
    finding = only(ADDED, target="fastmcp>=3,<4")
    assert "on fastmcp 2.x/3.x (from [tool.mcp-lint] target) the model reads every tool failure behind a protocol-style prefix" in said(finding)
    assert "JSON-RPC" not in said(finding)


def test_unknown_version_states_both_outcomes() -> None:
    finding = only(ADDED)
    assert "on fastmcp 4.x every tool failure becomes a JSON-RPC error" in said(finding)
    assert "on fastmcp 2.x/3.x the model reads every tool failure behind a protocol-style prefix" in said(finding)
    assert "(version not pinned, both assumed)" in said(finding)


def test_constructor_argument_is_flagged_at_the_middleware() -> None:
    finding = only(CONSTRUCTOR, target="fastmcp>=4")
    assert "tool 'refund'" in said(finding)


def test_explicit_true_is_flagged_false_is_not() -> None:
    explicit = ADDED.replace("ErrorHandlingMiddleware()", "ErrorHandlingMiddleware(transform_errors=True)")
    finding = only(explicit)
    assert finding.notes[0] == "the middleware runs with transform_errors=True"
    off = ADDED.replace("ErrorHandlingMiddleware()  # expect: MCP009", "ErrorHandlingMiddleware(transform_errors=False)")
    check(off)
    positional_off = ADDED.replace("ErrorHandlingMiddleware()  # expect: MCP009", "ErrorHandlingMiddleware(None, False, None, False)")
    check(positional_off)


def test_unreadable_or_other_middleware_is_not_flagged() -> None:
    check(
        """\
        from fastmcp import FastMCP
        from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware, RetryMiddleware

        from .settings import MIDDLEWARE_OPTIONS, TRANSFORM

        mcp = FastMCP("orders")
        mcp.add_middleware(ErrorHandlingMiddleware(**MIDDLEWARE_OPTIONS))
        mcp.add_middleware(ErrorHandlingMiddleware(transform_errors=TRANSFORM))
        mcp.add_middleware(RetryMiddleware())


        class ErrorHandlingMiddleware2:
            pass


        @mcp.tool
        def ping() -> str:
            return "pong"
        """
    )


def test_a_server_without_tools_is_not_flagged() -> None:
    check(
        """\
        from fastmcp import FastMCP
        from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware

        docs = FastMCP("docs")
        docs.add_middleware(ErrorHandlingMiddleware())
        tools = FastMCP("tools")


        @docs.resource("doc://{name}")
        def doc(name: str) -> str:
            return name


        @tools.tool
        def ping() -> str:
            return "pong"
        """
    )


def test_factory_function_server() -> None:
    check(
        """\
        from fastmcp import FastMCP
        from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware


        def create_server() -> FastMCP:
            server = FastMCP("inventory")
            server.add_middleware(ErrorHandlingMiddleware(include_traceback=True))  # expect: MCP009

            @server.tool
            def stock(sku: str) -> int:
                return 3

            return server
        """
    )


def test_tools_registered_in_another_module(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "inv"\nversion = "1"\ndependencies = ["fastmcp>=3.2,<4"]\n',
            "inv/__init__.py": "",
            "inv/app.py": """\
                from fastmcp import FastMCP
                from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware

                mcp = FastMCP("inventory")
                mcp.add_middleware(ErrorHandlingMiddleware())
                """,
            "inv/tools.py": """\
                from inv.app import mcp


                @mcp.tool
                def stock(sku: str) -> int:
                    return 3


                @mcp.tool
                def reorder(sku: str) -> str:
                    return "ok"
                """,
        },
    )
    found = [f for f in lint_tree(tmp_path) if f.code == "MCP009"]
    assert [(Path(f.filename).name, f.location.row) for f in found] == [("app.py", 5)]
    assert "the server's tools 'reorder', 'stock'" in found[0].notes
    assert "on fastmcp 2.x/3.x (from " in said(found[0])


def test_noqa_suppresses_it() -> None:
    check(ADDED.replace("# expect: MCP009", "# noqa: MCP009"))


# -- fix ------------------------------------------------------------------------------------


def _fixed(source: str, target: str | None = None) -> str:
    text = textwrap.dedent(source)
    lint = lambda t: [f for f in lint_source(t, target=target) if f.code == "MCP009"]  # noqa: E731
    outcome = fix_source(text, lint, unsafe=True)
    assert outcome.error is None
    assert fix_source(outcome.fixed, lint, unsafe=True).fixed == outcome.fixed  # a second run changes nothing
    return outcome.fixed


def test_fix_turns_transform_errors_off() -> None:
    assert "mcp.add_middleware(ErrorHandlingMiddleware(transform_errors=False))" in _fixed(ADDED)
    after = _fixed(CONSTRUCTOR)
    assert 'include_traceback=True, transform_errors=False),' in after
    explicit = _fixed(ADDED.replace("ErrorHandlingMiddleware()", "ErrorHandlingMiddleware(\n    transform_errors=True,\n)"))
    assert "ErrorHandlingMiddleware(\n    transform_errors=False,\n)" in explicit


def test_fix_is_unsafe_only() -> None:
    text = ADDED
    outcome = fix_source(text, lambda t: [f for f in lint_source(t) if f.code == "MCP009"], unsafe=False)
    assert outcome.fixed == text


def test_module_list_and_server_kept_on_self() -> None:
    check(
        """\
        from fastmcp import FastMCP
        from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware

        MIDDLEWARE = [ErrorHandlingMiddleware(include_traceback=True)]  # expect: MCP009
        mcp = FastMCP("catalog", middleware=MIDDLEWARE)


        class LookupService:
            def __init__(self) -> None:
                self.mcp = FastMCP("lookup")
                self.mcp.add_middleware(ErrorHandlingMiddleware())  # expect: MCP009
                self.mcp.tool(self.lookup)

            def lookup(self, key: str) -> str:
                return key


        @mcp.tool
        def ping() -> str:
            return "pong"
        """
    )


# -- where the class begins: the rows' `error_middleware` (None before fastmcp 2.9) -------------


def test_a_range_reaching_2_9_reports_what_2_9_and_later_do() -> None:
    finding = only(ADDED, target="fastmcp>=2.3,<3")
    assert finding.location.row == 6
    assert "on fastmcp 2.x/3.x (from [tool.mcp-lint] target) the model reads every tool failure behind a protocol-style prefix" in said(finding)
    assert "JSON-RPC" not in said(finding)


def test_releases_before_the_class_existed_are_not_reported() -> None:
    # fastmcp 2.3-2.8 have no ErrorHandlingMiddleware: the import fails, there is nothing to transform.
    check(ADDED.replace("  # expect: MCP009", ""), target="fastmcp>=2.3,<2.9")
    check(ADDED.replace("  # expect: MCP009", ""), target="fastmcp==2.8.1")
    assert only(ADDED, target="fastmcp==2.9.0").message.startswith("ErrorHandlingMiddleware rewrites the failures")


# -- what the model reads behind the prefix: fastmcp 2.9-2.13 wrap every exception first -----------
def test_on_fastmcp_2_9_to_2_13_every_exception_reads_internal_error() -> None:
    # The tool manager turns the ValueError into ToolError("Error calling tool 'x': ...") before the
    # middleware sees it (run on 2.9.2, 2.12.5, 2.13.3 by tests/semantics).
    finding = only(ADDED, target="fastmcp>=2.9,<2.14")
    assert "ToolError('...') as 'Internal error: ...', any other exception as 'Internal error: Error calling tool ...: ...'" in said(finding)
    assert "Invalid params" not in said(finding)


def test_from_fastmcp_2_14_the_prefix_names_the_exception_class() -> None:
    finding = only(ADDED, target="fastmcp>=2.14,<4")
    assert "a ValueError as 'Invalid params: ...', a KeyError as 'Not found: ...'" in said(finding)
    assert "Error calling tool" not in said(finding)
    both = only(ADDED, target="fastmcp>=2.9,<3")
    assert "a ValueError as 'Invalid params: ...', a KeyError as 'Not found: ...' (fastmcp 2.9–2.13: any other exception as" in said(both)
