"""MCP003 vague-error-message: boilerplate and untied retry invitations, never specific text.

Each source marks the lines where a finding is expected with `# expect: MCPnnn`; the test asserts
the exact set of (code, row) for the whole snippet, so a finding of another rule fails it too.
"""

from __future__ import annotations

import textwrap

import pytest


from ._support import said, check as _check, only as _only


MCP1 = """\
import logging

import httpx
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("svc")
"""

MCP2 = """\
import httpx
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("svc")
"""

FASTMCP = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("svc")
"""


def _tool(header: str, check: str, decorator: str = "@mcp.tool()") -> str:
    """A tool whose only failure is `check` (one statement, indented under `if amount <= 0:`)."""
    return header + textwrap.dedent(
        f"""
        {decorator}
        def refund(invoice_id: str, amount: float) -> str:
            if amount <= 0:
                {check}
            return f"refunded {{amount}} on {{invoice_id}}"
        """
    )


# -- recall: boilerplate and retry invitations, on every framework ----------------------------

VAGUE = [
    pytest.param(
        MCP1,
        'raise ToolError("An error occurred")  # expect: MCP003',
        id="an-error-occurred",
    ),
    pytest.param(
        MCP2,
        'raise ToolError("Something went wrong")  # expect: MCP003',
        id="something-went-wrong",
    ),
    pytest.param(
        FASTMCP,
        'raise ToolError("Operation failed.")  # expect: MCP003',
        id="operation-failed",
    ),
    pytest.param(
        MCP1, 'raise ToolError("Unknown error")  # expect: MCP003', id="unknown-error"
    ),
    pytest.param(MCP2, 'raise ToolError("Error")  # expect: MCP003', id="error"),
    pytest.param(
        FASTMCP,
        'raise ToolError("Oops! An unexpected error occurred. Please try again later.")  # expect: MCP003',
        id="oops",
    ),
    pytest.param(
        MCP1,
        'raise ToolError("Failed to issue the refund. Please try again.")  # expect: MCP003',
        id="retry-after-named-op",
    ),
    pytest.param(
        MCP2,
        'raise ToolError(f"Refund of {invoice_id} failed, retry later")  # expect: MCP003',
        id="retry-later-fstring",
    ),
    pytest.param(
        FASTMCP,
        'raise ToolError("The refund was not issued. Please check your input and try again.")  # expect: MCP003',
        id="retry-after-checking-nothing-named",
    ),
    pytest.param(
        MCP1,
        # Reaching the service worked: what failed is the refund itself, which a retry repeats.
        'return {"error": "refund_failed", "message": "Could not issue the refund. Retry later."}  # expect: MCP003, MCP005',
        id="retry-after-a-failure-that-is-not-connectivity",
    ),
    pytest.param(
        MCP1,
        'raise ValueError("The operation failed. Please try again.")  # expect: MCP003',
        id="valueerror-forwarded-mcp1",
    ),
    pytest.param(
        MCP2,
        'raise ToolError("Refund could not be saved. Please try again and contact support.")  # expect: MCP003',
        id="retry-before-an-unnamed-step",
    ),
    pytest.param(
        FASTMCP,
        'raise ToolError("Refund failed, please check your input and try again.")  # expect: MCP003',
        id="retry-after-checking-nothing-named",
    ),
    pytest.param(
        MCP1,
        'return "Operation failed"  # expect: MCP003, MCP005',
        id="returned-string",
    ),
    pytest.param(
        FASTMCP,
        'return {"error": "Something went wrong"}  # expect: MCP003, MCP005',
        id="returned-error-dict",
    ),
]


@pytest.mark.parametrize(("header", "check"), VAGUE)
def test_vague_message_is_flagged(header: str, check: str) -> None:
    decorator = "@mcp.tool" if header is FASTMCP else "@mcp.tool()"
    _check(_tool(header, check, decorator))


def test_mcp1_lowlevel_forwards_plain_exception_text() -> None:
    source = """\
    import mcp.types as types
    from mcp.server.lowlevel import Server

    server = Server("archive")

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
        if arguments.get("days", 0) > 3650:
            raise ValueError("Something went wrong, please try again")  # expect: MCP003
        return [types.TextContent(type="text", text="archived")]
    """
    finding = _only(source)
    assert finding.message.startswith(
        "Tool 'call_tool' fails with 'Something went wrong, please try again'"
    )


def test_generic_message_names_tool_and_next_step() -> None:
    finding = _only(
        _tool(MCP1, 'raise ToolError("An error occurred")  # expect: MCP003')
    )
    assert finding.message == "Tool 'refund' fails with 'An error occurred', which names no operation or cause"
    # The fix (a message template) is too long a title to be the help: the rule says it shortly.
    assert finding.help == "Say what failed, what was observed and what the next call can change"


def test_retry_message_names_tool_and_asks_for_the_transient_condition() -> None:
    finding = _only(
        _tool(
            MCP1,
            'raise ToolError("Failed to issue the refund. Please try again.")  # expect: MCP003',
        )
    )
    # The invitation (a sentence or two) is in the code frame and a note, not in the one-line message.
    assert finding.message == "Tool 'refund' invites a retry without naming a transient condition"
    assert finding.notes[0] == "the message: 'Failed to issue the refund. Please try again.'"
    assert finding.help == "Say what failed and what to change, or name the rate limit or timeout and when to retry"


def test_fix_is_a_template_naming_the_arguments() -> None:
    finding = _only(
        _tool(MCP2, 'raise ToolError("Something went wrong")  # expect: MCP003')
    )
    assert finding.fix is not None
    assert [e.content for e in finding.fix.edits] == [
        'f"refund failed for invoice_id={invoice_id!r}, amount={amount!r}: <what was observed>. '
        '<what the next call can change>; if it fails again, stop and report it."'
    ]


def test_generic_text_in_an_except_clause_without_the_exception() -> None:
    source = MCP1 + textwrap.dedent(
        """
        @mcp.tool()
        async def fetch(url: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    return (await client.get(url)).text
            except httpx.HTTPError:
                logger.exception("fetch failed")
                raise ToolError("An unexpected error occurred")  # expect: MCP003
        """
    )
    _check(source)


def test_helper_message_names_the_tools_that_reach_it() -> None:
    source = MCP2 + textwrap.dedent(
        """
        def fail() -> None:
            raise ToolError("Something went wrong, please try again")  # expect: MCP003

        @mcp.tool()
        def book(room: str) -> str:
            if room.startswith("x"):
                fail()
            return "booked"

        @mcp.tool()
        def cancel(room: str) -> str:
            if room.startswith("x"):
                fail()
            return "cancelled"
        """
    )
    finding = _only(source)
    assert finding.message.startswith(
        "Helper 'fail'"
    )


def test_vague_text_in_an_error_result_is_flagged() -> None:
    source = """\
    from mcp.server.lowlevel import Server
    from mcp.types import CallToolResult, TextContent

    async def handle_call_tool(ctx, params) -> CallToolResult:
        if not params.arguments:
            return CallToolResult(content=[TextContent(type="text", text="An error occurred")], is_error=True)  # expect: MCP003
        return CallToolResult(content=[TextContent(type="text", text="done")])

    server = Server("jobs", on_call_tool=handle_call_tool)
    """
    _check(source)


# -- precision ---------------------------------------------------------------------------------

SPECIFIC = [
    pytest.param(
        MCP1,
        'raise ToolError("The payment provider is rate limiting us (HTTP 429); retry in 30 seconds")',
        id="retry-after-429",
    ),
    pytest.param(
        MCP2,
        'raise ToolError("The refund service timed out after 10 s; try again with a smaller batch")',
        id="retry-after-timeout",
    ),
    pytest.param(
        FASTMCP,
        'raise ToolError("Billing is temporarily unavailable (503); retry later")',
        id="retry-after-503",
    ),
    pytest.param(
        MCP1,
        'raise ToolError("The invoice is locked by another refund; try again once it finishes")',
        id="retry-after-lock",
    ),
    pytest.param(
        MCP2,
        'raise ToolError(f"amount must be positive, got {amount}; pass the refund amount in EUR")',
        id="specific",
    ),
    pytest.param(
        FASTMCP,
        'raise ToolError(f"Invoice {invoice_id} not found; call list_invoices for valid ids")',
        id="specific-not-found",
    ),
    pytest.param(
        MCP1,
        'raise ToolError("Failed to parse the refund date: expected YYYY-MM-DD")',
        id="specific-failed-to",
    ),
    pytest.param(
        MCP2,
        'raise ToolError(f"Invoice {invoice_id} cannot be refunded: the payment is older than 180 days; issue a credit note instead")',
        id="specific-cannot",
    ),
    pytest.param(
        FASTMCP,
        'raise ToolError("Billing answered HTTP 429 (rate limited); retry after 60 seconds")',
        id="retry-after-rate-limit",
    ),
    pytest.param(
        MCP1,
        'raise ToolError(f"Refund of {invoice_id} failed: {amount} exceeds the invoice total")',
        id="failed-with-cause",
    ),
    pytest.param(MCP2, "raise ToolError(REFUND_RULES)", id="non-literal-message"),
    pytest.param(
        MCP1,
        'raise ToolError(f"A refund draft for {invoice_id} already exists. Delete or rename it and try again.")',
        id="retry-after-deleting-a-named-draft",
    ),
    pytest.param(
        FASTMCP,
        'raise ToolError("The billing CLI is not installed. Install billing-cli 2.x, then try again.")',
        id="retry-after-installing-a-named-tool",
    ),
    pytest.param(
        MCP1,
        'raise ToolError("The billing engine is not available. Make sure the ledger service is running and try again.")',
        id="retry-after-a-named-state",
    ),
    pytest.param(
        FASTMCP,
        'raise ToolError(f"Invoice {invoice_id} has no refundable lines. Please check the invoice id and try again.")',
        id="retry-after-a-named-correction",
    ),
    pytest.param(
        MCP1,
        'return {"error": "unreachable", "message": "Could not reach the billing API. Retry later."}  # expect: MCP005',
        id="retry-after-the-service-could-not-be-reached",
    ),
    pytest.param(
        MCP2,
        'raise ToolError("Unable to connect to the billing server; try again in a moment")',
        id="retry-after-a-failed-connection",
    ),
]


@pytest.mark.parametrize(("header", "check"), SPECIFIC)
def test_specific_or_transient_message_is_silent(header: str, check: str) -> None:
    decorator = "@mcp.tool" if header is FASTMCP else "@mcp.tool()"
    _check(_tool(header, check, decorator))


def test_only_exception_text_is_mcp002_not_mcp003() -> None:
    source = MCP1 + textwrap.dedent(
        """
        @mcp.tool()
        async def fetch(url: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    return (await client.get(url)).text
            except Exception as e:
                raise ToolError(f"An error occurred: {e}")  # expect: MCP002
        """
    )
    _check(source)


def test_log_messages_are_not_model_facing() -> None:
    source = MCP1 + textwrap.dedent(
        """
        @mcp.tool()
        async def refund(invoice_id: str, amount: float, ctx: Context) -> str:
            if amount <= 0:
                logger.error("Something went wrong")
                await ctx.error("An error occurred, please try again")
                print("Operation failed")
                raise ToolError(f"amount must be positive, got {amount}")
            return "refunded"
        """
    )
    _check(source)


def test_plain_exception_is_silent_on_mcp_2_1_which_masks_it() -> None:
    _check(_tool(MCP2, 'raise ValueError("Something went wrong")'), target="mcp>=2.1")


def test_plain_exception_is_silent_under_fastmcp_masking() -> None:
    header = FASTMCP.replace(
        'FastMCP("svc")', 'FastMCP("svc", mask_error_details=True)'
    )
    _check(
        _tool(
            header,
            'raise RuntimeError("Something went wrong, please try again")',
            "@mcp.tool",
        )
    )


def test_plain_exception_is_silent_in_resource_handlers() -> None:
    source = MCP1 + textwrap.dedent(
        """
        @mcp.resource("invoice://{invoice_id}")
        def invoice(invoice_id: str) -> str:
            if not invoice_id:
                raise ValueError("Something went wrong")
            return invoice_id
        """
    )
    _check(source)


def test_prompt_text_is_not_a_tool_failure() -> None:
    source = MCP1 + textwrap.dedent(
        """
        @mcp.prompt()
        def refund_prompt(invoice_id: str) -> str:
            if not invoice_id:
                return "Something went wrong"
            return f"Refund invoice {invoice_id}"
        """
    )
    _check(source)


def test_success_text_is_silent() -> None:
    source = MCP2 + textwrap.dedent(
        """
        @mcp.tool()
        def retry_failed_jobs(queue: str) -> str:
            return f"Retried 3 failed jobs in {queue}"
        """
    )
    _check(source)


# -- known gaps (the rule disagrees with the catalogue) -----------------------------------------


def test_the_word_retry_as_an_argument_name_is_not_an_invitation() -> None:
    _check(
        _tool(
            MCP1,
            'raise ToolError(f"Retry count must be between 0 and 5, got {amount}")',
        )
    )


def test_forwarded_plain_exception_message_names_the_framework_assumption() -> None:
    finding = _only(
        _tool(
            MCP1,
            'raise ValueError("The operation failed. Please try again.")  # expect: MCP003',
        )
    )
    assert "mcp 1.x FastMCP" in said(finding)


# -- McpError / MCPError messages are judged too (issue 9, cause 14) ----------------------------


def test_vague_message_of_a_protocol_error() -> None:
    findings = _check(
        """\
        from mcp import MCPError
        from mcp.server.mcpserver import MCPServer
        from mcp.shared.exceptions import McpError
        from mcp.types import INTERNAL_ERROR, ErrorData

        mcp = MCPServer("billing")


        @mcp.tool()
        def refund(invoice_id: str) -> str:
            if invoice_id in LOCKED:
                raise MCPError(INTERNAL_ERROR, "Something went wrong, please try again")  # expect: MCP001, MCP003
            if invoice_id in DISPUTED:
                raise McpError(ErrorData(code=INTERNAL_ERROR, message="An error occurred"))  # expect: MCP001, MCP003, MCP006
            if invoice_id in PAID_OUT:
                raise MCPError(INTERNAL_ERROR, f"Invoice {invoice_id} was already paid out; refunds need a credit note")  # expect: MCP001
            return "refunded"
        """
    )
    vague = [f for f in findings if f.code == "MCP003"]
    assert "fails with 'Something went wrong, please try again', which names no operation or cause" in said(vague[0])


def test_a_message_naming_absent_input_is_not_vague() -> None:
    # "Missing arguments" names the condition (nothing was sent); "Invalid input" names none.
    _check(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("billing")


        @mcp.tool()
        def refund(invoice_id: str = "", amount: float = 0) -> str:
            if not invoice_id:
                raise ToolError("Missing arguments")
            if amount <= 0:
                raise ToolError("Invalid input")  # expect: MCP003
            return "refunded"
        """
    )
