"""MCP005 error-returned-as-success: failures returned as normal results (isError: false).

Each source marks the lines where a finding is expected with `# expect: MCPnnn`; the test asserts
the exact set of (code, row) for the whole snippet, so a finding of another rule fails it too.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.fixing.apply import apply_edits
from mcp_lint.pipeline import lint_paths, lint_source

from ._support import said, check as _check, only as _only


MCP1 = """\
import json
from datetime import datetime

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}
"""

MCP2 = MCP1.replace("mcp.server.fastmcp", "mcp.server.mcpserver").replace(
    "FastMCP", "MCPServer"
)
FASTMCP = MCP1.replace(
    "from mcp.server.fastmcp import FastMCP", "from fastmcp import FastMCP"
)


def _src(header: str, body: str) -> str:
    return header + "\n" + textwrap.dedent(body)


# -- recall: every failure shape ---------------------------------------------------------------

FAILURES = [
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def read_note(note_id: str) -> str:
            if note_id not in NOTES:
                return f"Error: note {note_id} not found"  # expect: MCP005
            return NOTES[note_id]
        """,
        "the string 'Error: note … not found'",
        id="error-prefix",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def export_note(note_id: str) -> str:
            if not NOTES:
                return "Failed to export: the notebook is empty"  # expect: MCP005
            return json.dumps(NOTES)
        """,
        "the string 'Failed to export: the notebook is empty'",
        id="failed-to",
    ),
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        def share_note(note_id: str, email: str) -> str:
            if "@" not in email:
                return f"Could not share note {note_id}: {email!r} is not an email address"  # expect: MCP005
            return "shared"
        """,
        "the string 'Could not share note …: … is not an email address'",
        id="could-not",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def delete_note(note_id: str) -> str:
            if note_id not in NOTES:
                return f"Note {note_id} not found"  # expect: MCP005
            del NOTES[note_id]
            return "deleted"
        """,
        "the string 'Note … not found'",
        id="not-found",
    ),
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        def rename_note(note_id: str, title: str) -> dict:
            if not title:
                return {"error": "title must not be empty"}  # expect: MCP005
            return {"renamed": note_id}
        """,
        'a dict with an "error" key',
        id="error-dict",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def close_ticket(ticket_id: int) -> dict:
            if ticket_id not in NOTES:
                return {"success": False, "message": f"Ticket {ticket_id} does not exist"}  # expect: MCP005
            return {"success": True}
        """,
        'a dict with "success": False',
        id="success-false",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def archive(note_id: str) -> dict:
            if note_id not in NOTES:
                return {"status": "error", "message": "unknown note id; call list_notes"}  # expect: MCP005
            return {"status": "archived"}
        """,
        'a dict with "status": "error"',
        id="status-error",
    ),
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        def note_json(note_id: str) -> str:
            if note_id not in NOTES:
                return json.dumps({"error": f"note {note_id} not found"})  # expect: MCP005
            return json.dumps({"text": NOTES[note_id]})
        """,
        'a dict with an "error" key',
        id="json-dumps",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def tag(note_id: str, label: str) -> dict:
            if not label.isalnum():
                return dict(error="label must be alphanumeric")  # expect: MCP005
            return dict(tagged=note_id)
        """,
        'a dict with an "error" key',
        id="dict-call",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def word_count(note_id: str) -> list[TextContent]:
            if note_id not in NOTES:
                return [TextContent(type="text", text="Error: unknown note id")]  # expect: MCP005
            return [TextContent(type="text", text=str(len(NOTES[note_id].split())))]
        """,
        "a TextContent 'Error: unknown note id'",
        id="textcontent-list",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def summarize(note_id: str) -> CallToolResult:
            if note_id not in NOTES:
                return CallToolResult(content=[TextContent(type="text", text="Could not summarize: unknown note id")])  # expect: MCP005
            return CallToolResult(content=[TextContent(type="text", text=NOTES[note_id][:80])])
        """,
        "a CallToolResult without isError ('Could not summarize: unknown note id')",
        id="calltoolresult-without-iserror",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def schedule(day: str) -> str:
            try:
                when = datetime.strptime(day, "%Y-%m-%d")
            except ValueError:
                return "Failed to parse the day; expected YYYY-MM-DD"  # expect: MCP005
            return when.isoformat()
        """,
        "the string 'Failed to parse the day; expected YYYY-MM-DD'",
        id="in-except-clause",
    ),
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        def export_all() -> str:
            return "Error: exports are disabled on this server"  # expect: MCP005
        """,
        "the string 'Error: exports are disabled on this server'",
        id="unconditional-error-prefix",
    ),
]


@pytest.mark.parametrize(("header", "body", "shape"), FAILURES)
def test_failure_returned_as_success_is_flagged(
    header: str, body: str, shape: str
) -> None:
    finding = _only(_src(header, body))
    assert finding.message.endswith(" as a normal result")
    assert f"the failure: {shape}" in finding.notes
    assert any("the wire says isError: false" in note for note in finding.notes)


def test_message_names_tool_wire_flag_and_fix() -> None:
    finding = _only(_src(MCP1, FAILURES[0].values[1]))
    assert finding.message == "Tool 'read_note' returns a failure string as a normal result"
    assert finding.notes == (
        "the failure: the string 'Error: note … not found'",
        "on mcp 1.x FastMCP the wire says isError: false, so client and model take it for an answer",
    )
    assert finding.help == 'Raise ToolError(f"Note {note_id} not found") instead' == finding.fix.message
    assert finding.fix is not None
    assert [
        e.content for e in finding.fix.edits if e.location.row == finding.location.row
    ] == ['raise ToolError(f"Note {note_id} not found")']
    fixed = apply_edits(_src(MCP1, FAILURES[0].values[1]), finding.fix.edits)
    assert "from mcp.server.fastmcp.exceptions import ToolError" in fixed
    assert lint_source(fixed, filename="server.py") == []


def test_fastmcp_3_4_message_offers_tool_result() -> None:
    finding = _only(_src(FASTMCP, FAILURES[4].values[1]), target="fastmcp>=3.4")
    assert finding.fix is not None and finding.help == finding.fix.message  # the fix's title fits


LOWLEVEL1 = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("notes")
NOTES: dict[str, str] = {}

@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    note_id = arguments.get("note_id", "")
    if note_id not in NOTES:
        return [types.TextContent(type="text", text=f"Note {note_id} not found")]  # expect: MCP005
    return [types.TextContent(type="text", text=NOTES[note_id])]
"""


def test_mcp2_lowlevel_result_without_is_error() -> None:
    source = """\
    from mcp.server.lowlevel import Server
    from mcp.types import CallToolResult, TextContent

    NOTES: dict[str, str] = {}

    async def handle_call_tool(ctx, params) -> CallToolResult:
        note_id = (params.arguments or {}).get("note_id", "")
        if note_id not in NOTES:
            return CallToolResult(content=[TextContent(type="text", text=f"Error: note {note_id} not found")])  # expect: MCP005
        return CallToolResult(content=[TextContent(type="text", text=NOTES[note_id])])

    server = Server("notes", on_call_tool=handle_call_tool)
    """
    finding = _only(source)
    assert finding.message == "Tool 'handle_call_tool' returns a CallToolResult without isError as a normal result"
    assert finding.help == "Return an error result (isError=True)" == finding.fix.message


def test_lowlevel_message_before_mcp_1_19_offers_raising() -> None:
    finding = _only(LOWLEVEL1)
    assert finding.message == "Tool 'call_tool' returns a failure TextContent as a normal result"
    assert "the failure: a TextContent 'Note … not found'" in finding.notes
    assert finding.help == "Raise an ordinary exception with the message instead"
    assert finding.notes[-1] == (
        "the mcp 1.x low-level Server turns a raised exception into isError: true with its text; "
        "a returned CallToolResult(..., isError=True) works only from mcp 1.19"
    )


def test_lowlevel_message_from_mcp_1_19_offers_an_error_result() -> None:
    finding = _only(LOWLEVEL1, target="mcp>=1.19,<2")
    assert finding.help == "Return an error result (isError=True)" == finding.fix.message


@pytest.mark.parametrize(
    "tool_body",
    [
        pytest.param("return find(note_id)", id="return-helper"),
        pytest.param(
            "result = find(note_id)\n    return result", id="assign-then-return"
        ),
    ],
)
def test_helper_whose_value_the_tool_returns(tool_body: str) -> None:
    source = MCP1 + textwrap.dedent(
        """
        def find(note_id: str) -> str:
            if note_id not in NOTES:
                return f"Error: note {note_id} not found"  # expect: MCP005
            return NOTES[note_id]

        @mcp.tool()
        def read_note(note_id: str) -> str:
            BODY
        """
    ).replace("BODY", tool_body)
    finding = _only(source)
    assert finding.message.startswith("Helper 'find' returns a failure")
    assert finding.notes[0] == "reached from tool 'read_note'"


def test_helper_in_another_module_reached_by_several_tools(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "__init__.py").write_text("")
    (tmp_path / "notes" / "store.py").write_text(
        textwrap.dedent(
            """\
            NOTES: dict[str, str] = {}


            def fetch(note_id: str) -> dict:
                if note_id not in NOTES:
                    return {"success": False, "message": f"Note {note_id} does not exist"}
                return {"success": True, "text": NOTES[note_id]}
            """
        )
    )
    (tmp_path / "notes" / "server.py").write_text(
        textwrap.dedent(
            """\
            from fastmcp import FastMCP

            from . import store

            mcp = FastMCP("notes")


            @mcp.tool
            def read_note(note_id: str) -> dict:
                return store.fetch(note_id)


            @mcp.tool
            def preview_note(note_id: str) -> dict:
                result = store.fetch(note_id)
                return result
            """
        )
    )
    resolver = SettingsResolver()
    findings = lint_paths(discover([tmp_path], resolver), resolver).findings
    assert [(Path(f.filename).name, f.code, f.location.row) for f in findings] == [
        ("store.py", "MCP005", 6)
    ]
    assert findings[0].message.startswith(
        "Helper 'fetch'"
    )


# -- precision ---------------------------------------------------------------------------------

SILENT = [
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def search_notes(query: str) -> str:
            hits = [n for n in NOTES.values() if query in n]
            if not hits:
                return "No results found"
            return "\\n".join(hits)
        """,
        id="empty-result",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def check_health() -> dict:
            if not NOTES:
                return {"status": "error", "detail": "the note store is empty"}
            return {"status": "ok"}

        @mcp.tool()
        def get_status() -> str:
            if not NOTES:
                return "Error: the note store is empty"
            return "ok"
        """,
        id="status-and-health-tools",
    ),
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        def validate_note(text: str) -> dict:
            if not text.strip():
                return {"valid": False, "errors": ["text is empty"]}
            return {"valid": True, "errors": []}
        """,
        id="validate-tool",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def read_many(ids: list[str]) -> list[dict]:
            results = []
            for note_id in ids:
                if note_id not in NOTES:
                    results.append({"id": note_id, "error": "not found"})
                else:
                    results.append({"id": note_id, "text": NOTES[note_id]})
            return results
        """,
        id="batch-with-per-item-errors",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def lint_notes(fix: bool) -> str:
            if fix:
                return "Fixed 3 errors in 2 notes"
            return "Found 3 errors in 2 notes; call lint_notes(fix=True) to fix them"
        """,
        id="success-mentioning-errors",
    ),
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        def purge(ids: list[str]) -> str:
            gone = [i for i in ids if NOTES.pop(i, None) is not None]
            return f"Deleted {len(gone)} notes; {len(ids) - len(gone)} could not be found and were skipped"
        """,
        id="string-outside-a-failure-branch",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def read_note(note_id: str) -> dict:
            if note_id in NOTES:
                return {"error": None, "text": NOTES[note_id]}
            return {"error": None, "text": ""}
        """,
        id="empty-error-field",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.resource("note://{note_id}")
        def note(note_id: str) -> str:
            if note_id not in NOTES:
                return "Error: note not found"
            return NOTES[note_id]

        @mcp.prompt()
        def review(note_id: str) -> str:
            if note_id not in NOTES:
                return f"Could not find note {note_id}"
            return f"Review this note: {NOTES[note_id]}"
        """,
        id="resource-and-prompt",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def read_note(note_id: str) -> CallToolResult:
            if note_id not in NOTES:
                return CallToolResult(content=[TextContent(type="text", text=f"Note {note_id} not found")], is_error=True)
            return CallToolResult(content=[TextContent(type="text", text=NOTES[note_id])])
        """,
        id="error-result-mcp2",
    ),
    pytest.param(
        MCP1,
        """\
        def legacy(note_id: str) -> str:
            return f"Error: note {note_id} not found"

        @mcp.tool()
        def count() -> int:
            return len(NOTES)
        """,
        id="not-reached",
    ),
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        def sync(dry_run: bool) -> dict:
            if dry_run:
                return {"ok": True, "errors": [], "error_count": 0}
            return {"ok": True}
        """,
        id="empty-errors-list",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def diagnose_connection(host: str) -> str:
            if not host:
                return "Failed: no host configured"
            return f"{host} is reachable"

        @mcp.tool()
        def ping() -> str:
            if not NOTES:
                return "Error: store not loaded"
            return "pong"
        """,
        id="diagnose-and-ping-tools",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def render(note_id: str) -> str:
            message = NOTES.get(note_id, "")
            if not message:
                return message
            return message.upper()
        """,
        id="returned-variable",
    ),
    pytest.param(
        FASTMCP,
        """\
        def find(note_id: str) -> str:
            if note_id not in NOTES:
                return f"Error: note {note_id} not found"
            return NOTES[note_id]

        @mcp.tool
        def touch(note_id: str) -> str:
            status = find(note_id)
            print(status)
            return "touched"
        """,
        id="helper-value-not-returned",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def find_invoices(customer: str) -> str:
            hits = [k for k in NOTES if k.startswith(customer)]
            if not hits:
                return f"No invoices matched customer {customer!r}"
            return ", ".join(hits)
        """,
        id="no-matches",
    ),
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        def refresh(note_id: str) -> dict:
            if note_id in NOTES:
                return {"status": "ok", "text": NOTES[note_id]}
            return {"status": "created", "text": ""}
        """,
        id="status-ok",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def dedupe(notebook: str) -> dict:
            if not NOTES:
                return {"success": True, "message": "Could not find any duplicates"}
            return {"success": True, "message": f"Removed duplicates from {notebook}"}
        """,
        id="success-true-with-could-not",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def list_notes(prefix: str) -> list[str]:
            hits = [k for k in NOTES if k.startswith(prefix)]
            if not hits:
                return []
            return sorted(hits)
        """,
        id="empty-list",
    ),
]


@pytest.mark.parametrize(("header", "body"), SILENT)
def test_non_failures_are_silent(header: str, body: str) -> None:
    _check(_src(header, body))


def test_lowlevel_error_result_is_silent() -> None:
    source = """\
    from mcp.server.lowlevel import Server
    from mcp.types import CallToolResult, TextContent

    NOTES: dict[str, str] = {}

    async def handle_call_tool(ctx, params) -> CallToolResult:
        note_id = (params.arguments or {}).get("note_id", "")
        if note_id not in NOTES:
            return CallToolResult(content=[TextContent(type="text", text=f"Note {note_id} not found")], isError=True)
        return CallToolResult(content=[TextContent(type="text", text=NOTES[note_id])])

    server = Server("notes", on_call_tool=handle_call_tool)
    """
    _check(source)


# -- known gaps (the rule disagrees with the catalogue) -----------------------------------------


def test_helper_message_names_only_tools_that_return_its_value() -> None:
    source = MCP1 + textwrap.dedent(
        """
        def find(note_id: str) -> str:
            if note_id not in NOTES:
                return f"Error: note {note_id} not found"  # expect: MCP005
            return NOTES[note_id]

        @mcp.tool()
        def read_note(note_id: str) -> str:
            return find(note_id)

        @mcp.tool()
        def touch_note(note_id: str) -> str:
            status = find(note_id)
            print(status)
            return "touched"
        """
    )
    finding = _only(source)
    assert finding.message.startswith("Helper 'find'")


def test_success_message_starting_with_error_is_silent() -> None:
    source = MCP1 + textwrap.dedent(
        """
        LOG: list[str] = []

        @mcp.tool()
        def clear_log(confirm: bool) -> str:
            if confirm:
                LOG.clear()
                return "Error log cleared"
            return "Nothing cleared; pass confirm=True"
        """
    )
    _check(source)


def test_result_envelope_with_an_error_slot_outside_failure_branches_is_silent() -> None:
    _check(
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("jobs")


        @mcp.tool()
        def job_result(job_id: str) -> dict:
            job = JOBS[job_id]
            return {"result": job.output, "error": job.error}
        """
    )


def test_search_that_could_not_find_anything_is_an_empty_result() -> None:
    _check(
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("docs")


        @mcp.tool()
        def search_docs(query: str) -> str:
            hits = INDEX.search(query)
            if not hits:
                return f"Could not find any documents matching {query!r}"
            return "\\n".join(hits)
        """
    )


def test_a_search_that_found_nothing_related_to_the_query_in_chinese_is_an_empty_result() -> None:
    _check(
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("docs")


        @mcp.tool()
        def search_docs(query: str) -> str:
            hits = INDEX.search(query)
            if not hits:
                return f"📭 未找到与「{query}」相关的结果"
            return "\\n".join(hits)


        @mcp.tool()
        def read_doc(doc_id: str) -> str:
            doc = DOCS.get(doc_id)
            if doc is None:
                return f"未找到文档「{doc_id}」"  # expect: MCP005
            return doc
        """
    )


def test_could_not_find_a_named_record_is_a_failure() -> None:
    _check(
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("docs")


        @mcp.tool()
        def read_doc(doc_id: str) -> str:
            doc = DOCS.get(doc_id)
            if doc is None:
                return f"Could not find document {doc_id}"  # expect: MCP005
            return doc
        """
    )


def test_error_text_wrapped_by_a_formatting_helper_is_reported_where_returned(tmp_path) -> None:
    # One helper builds every error response of the server; every return of its result is a
    # failure the wire calls a success (the builder's own return is each of those, not another).
    source = """\
    from mcp.server.fastmcp import FastMCP
    from mcp.types import TextContent

    mcp = FastMCP("db")


    def format_text_response(text: str) -> list[TextContent]:
        return [TextContent(type="text", text=text)]


    def format_error_response(error: str) -> list[TextContent]:
        return format_text_response(f"Error: {error}")


    @mcp.tool()
    def list_tables(schema: str) -> list[TextContent]:
        if schema not in SCHEMAS:
            return format_error_response(f"Unknown schema {schema!r}")  # expect: MCP005
        return format_text_response(", ".join(SCHEMAS[schema]))


    @mcp.tool()
    def drop_table(name: str) -> list[TextContent]:
        if name not in TABLES:
            return format_error_response(f"No table {name!r}")  # expect: MCP005
        return format_text_response("dropped")
    """
    findings = _check(source)
    assert [f.location.row for f in findings] == [18, 25]
    call = next(f for f in findings if f.location.row == 18)
    assert call.message == "Tool 'list_tables' returns a failure response as a normal result"
    assert call.notes[0].startswith("the failure: the error text format_error_response(...) builds")
    assert call.fix is not None
    assert any(edit.content.startswith('raise ToolError(f"Unknown schema') for edit in call.fix.edits)


def test_helper_formatting_the_exception_object_is_mcp002_and_mcp005() -> None:
    # Content (raw exception text) and channel (a failure returned as a success) are two defects,
    # both built in the helper from the exception the tool hands in: reported there.
    _check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("web")


        def format_error(error):
            return f"Error: {error}"  # expect: MCP002,MCP005


        @mcp.tool()
        def fetch(url: str) -> str:
            try:
                return httpx.get(url).text
            except Exception as error:
                return format_error(error)
        """
    )


def test_a_failure_built_in_a_branch_names_the_return_that_sends_it() -> None:
    # The finding sits where the failure string is assigned; the `return` that sends it to the
    # model is a related location in the same file, not a line number in the message.
    source = _src(
        MCP1,
        """\
        @mcp.tool()
        def read_note(note_id: str) -> str:
            if note_id in NOTES:
                answer = NOTES[note_id]
            else:
                answer = f"Error: note {note_id} not found"  # expect: MCP005
            return answer
        """,
    )
    finding = _only(source)
    row = source.splitlines().index("    return answer") + 1
    assert [(r.filename, r.location.row, r.location.column, r.message) for r in finding.related] == [
        (finding.filename, row, 5, "the value is returned here")
    ]
    assert "line" not in finding.message


def test_a_failure_returned_where_it_is_built_has_no_related_location() -> None:
    finding = _only(_src(MCP1, FAILURES[0].values[1]))
    assert finding.related == ()
