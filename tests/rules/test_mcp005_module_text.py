"""MCP005: a failure text the module keeps in a constant (`_NOT_READY = "Error: ..."` at module
level) and a tool or helper returns by name says what its text says; the fix raises the constant."""

from __future__ import annotations

import textwrap

from mcp_lint.fixing.apply import fix_source
from mcp_lint.pipeline import lint_source

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kiln")
FIRING: dict[str, int] = {}

_NOT_HEATED = (
    "Firing failed: the kiln is not heated. "
    "Run start_kiln first."
)
_DONE = "Firing started."
"""

TOOL = """

@mcp.tool()
def fire(batch: str) -> str:
    if not FIRING:
        return _NOT_HEATED  # expect: MCP005
    FIRING[batch] = 1
    return _DONE
"""


def test_a_failure_text_kept_in_a_module_constant_is_reported_where_it_is_returned() -> None:
    (finding,) = check(HEADER + TOOL)
    assert finding.message == "Tool 'fire' returns a failure string as a normal result"


def test_a_helpers_failure_constant_is_reported_in_the_helper() -> None:
    source = HEADER + """

def heated_or_reason() -> str | None:
    if not FIRING:
        return _NOT_HEATED  # expect: MCP005
    return None


@mcp.tool()
def fire(batch: str) -> str:
    reason = heated_or_reason()
    if reason:
        return reason
    FIRING[batch] = 1
    return _DONE
"""
    check(source)


def test_the_fix_raises_the_constant_itself() -> None:
    text = textwrap.dedent(HEADER + TOOL)
    outcome = fix_source(text, lambda s: lint_source(s, filename="server.py", select=("MCP005",)), unsafe=True)
    assert outcome.error is None, outcome.error
    assert "        raise ToolError(_NOT_HEATED)  # expect: MCP005\n" in outcome.fixed
    assert "Firing failed" in outcome.fixed and outcome.fixed.count("Firing failed") == 1


def test_a_constant_of_ordinary_text_a_reassigned_name_or_a_local_is_not_a_failure_text() -> None:
    # "Firing started." reads as a result; a name assigned twice at module level may hold either text.
    check(HEADER + TOOL.replace("return _NOT_HEATED  # expect: MCP005", "return _DONE"))
    check(HEADER + '_NOT_HEATED = "Kiln ready."\n' + TOOL.replace("  # expect: MCP005", ""))
    # A local of the same name holds what the function put there.
    local = TOOL.replace("    if not FIRING:\n", '    _NOT_HEATED = f"Batch {batch} queued."\n    if not FIRING:\n')
    check(HEADER + local.replace("  # expect: MCP005", ""))
