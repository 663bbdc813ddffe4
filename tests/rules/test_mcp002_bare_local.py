"""MCP002, a local that holds only the caught exception's text (issue 20 item 5): `detail = str(e)`
builds no text for the model; the finding sits where the local first goes into a message
(`return f"Failed: {detail}"`, `{"error": detail}`, `msg = f"...{detail}"`), LABELING.md's
"where e is interpolated", with the local a related location. A local sent whole (`return
detail`, `ToolError(detail)`), one sent by several statements, and a local with words of its own
stay where they are. The fix rewrites the same statement as before."""

from __future__ import annotations

from mcp_lint.fixing.apply import fix_source
from mcp_lint.pipeline import lint_source

HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("desk")


@mcp.tool()
def get_ticket(ticket_id: str) -> str:
    \"\"\"Fetch one ticket.\"\"\"
    try:
        reply = httpx.get(f"https://desk.invalid/tickets/{ticket_id}")
        reply.raise_for_status()
        return reply.text
    except httpx.HTTPError as e:
"""


def _found(handler: str) -> list[tuple[int, list[int]]]:
    """(row, rows of its related steps) of each MCP002 finding; the handler starts at row 16."""
    return [
        (f.location.row, [r.location.row for r in f.related])
        for f in lint_source(HEADER + handler, filename="server.py")
        if f.code == "MCP002"
    ]


def test_a_bare_text_local_interpolated_into_the_returned_text_is_reported_at_the_return() -> None:
    found = _found('        detail = str(e)\n        return f"Could not fetch ticket {ticket_id}: {detail}"\n')
    assert found == [(17, [16])]


def test_a_bare_text_local_in_a_returned_dict_is_reported_at_the_return() -> None:
    assert _found('        detail = repr(e)\n        return {"error": detail}\n') == [(17, [16])]


def test_a_bare_text_local_built_into_a_message_local_is_reported_at_that_build() -> None:
    found = _found(
        '        detail = e.args[0]\n'
        '        message = f"Could not fetch ticket {ticket_id}: {detail}"\n'
        '        return message\n'
    )
    assert [row for row, _ in found] == [17]
    assert 16 in found[0][1]


def test_a_bare_text_local_returned_whole_stays_at_the_local() -> None:
    assert [row for row, _ in _found("        detail = str(e)\n        return detail\n")] == [16]


def test_a_bare_text_local_raised_whole_stays_at_the_local() -> None:
    assert [row for row, _ in _found("        detail = str(e)\n        raise ToolError(detail) from e\n")] == [16]


def test_a_local_with_words_of_its_own_stays_at_the_local() -> None:
    found = _found('        detail = f"fetch failed: {e}"\n        return f"Ticket {ticket_id}: {detail}"\n')
    assert [row for row, _ in found] == [16]


def test_a_bare_text_local_also_logged_stays_at_the_local() -> None:
    """Read by another statement too (a log line, an `if detail:`): not only one message's part."""
    found = _found(
        "        detail = str(e)\n"
        "        print(detail)\n"
        '        return f"Could not fetch ticket {ticket_id}: {detail}"\n'
    )
    assert [row for row, _ in found] == [16]


def test_a_bare_text_local_sent_by_two_statements_stays_at_the_local() -> None:
    found = _found(
        "        detail = str(e)\n"
        "        if ticket_id:\n"
        '            return f"Ticket {ticket_id}: {detail}"\n'
        '        return f"No ticket: {detail}"\n'
    )
    assert [row for row, _ in found] == [16]


def test_the_fix_still_rewrites_the_returning_statement() -> None:
    source = HEADER + '        detail = str(e)\n        return f"Could not fetch ticket {ticket_id}: {detail}"\n'
    outcome = fix_source(source, lambda text: lint_source(text), unsafe=True)
    assert outcome.error is None
    assert outcome.fixed.endswith(
        "    except httpx.HTTPError as e:\n"
        '        logger.exception("Could not fetch ticket %s", ticket_id)\n'
        '        raise ToolError(f"Could not fetch ticket {ticket_id}") from e\n'
    )
