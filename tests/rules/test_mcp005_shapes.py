"""MCP005 on the failure wordings and return shapes real servers use (issue 9, causes 10-12).

Each source marks the lines where a finding is expected with `# expect: MCPnnn`; the test asserts
the exact set of (code, row) for the whole snippet.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ._support import said, check, lint_tree, only, write_tree

HEADER = """\
import json

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}
"""


def _src(body: str) -> str:
    return HEADER + "\n" + textwrap.dedent(body)


# -- cause 10: failure wording ------------------------------------------------------------------

WORDINGS = [
    "Deleting {note_id} is not permitted for archived notes",
    "A note with id {note_id} already exists",
    "Unknown notebook {note_id!r}",
    "Encountered an error while saving {note_id}",
    "Markdown export is not supported for {note_id}",
    "note_id must be a UUID, got {note_id!r}",
    "Upload failed: {note_id} is larger than 1 MB",
    "Database error: {note_id} is locked",
    "<error>{note_id} is locked</error>",
    # Chinese, Japanese, Spanish, German, French, Portuguese
    "错误：笔记 {note_id} 未找到",
    "笔记 {note_id} 不存在",
    "ノート {note_id} が見つかりません",
    "エラー: {note_id}",
    "La nota {note_id} no existe",
    "Error: nota {note_id} no encontrada",
    "Fehler: Notiz {note_id} nicht gefunden",
    "Speichern fehlgeschlagen: {note_id}",
    "La note {note_id} est introuvable",
    "Erreur : la note {note_id} n'existe pas",
    "Erro: nota {note_id} não encontrada",
    "Export of {note_id} timed out after 30 seconds",
    "Sync of {note_id} timed out.",
    # Refusals that name what is accepted instead, or the state that refuses the call.
    "Only plain-text notes are supported; convert {note_id} first",
    "Only the note's owner is allowed to archive {note_id}",
    "Note {note_id} is excluded from this workspace",
    "Notebook {note_id} is not connected. Connected notebooks: {NOTES}",
    "Paragraph {note_id} is out of range. The note has {len(NOTES)} paragraphs.",
]


@pytest.mark.parametrize("wording", WORDINGS)
def test_failure_wordings_in_a_branch_are_failures(wording: str) -> None:
    finding = only(
        _src(
            f"""\
            @mcp.tool()
            def archive_note(note_id: str) -> str:
                if note_id not in NOTES:
                    return f"{wording}"  # expect: MCP005
                return "archived"
            """
        )
    )
    assert "the failure: the string" in said(finding)


@pytest.mark.parametrize(
    "text",
    [
        "Tests: 3 passed, 1 failed",
        "Error rate is {rate}%",
        "Found {count} errors in the log",
        "Processing error log entries",
        "Backup completed",
        "Standard error: {rate}",
        "Mean squared error: {rate}",
        "Only {count} errors since the last deploy",
        "{count} hosts are connected; alerting is enabled",
        "{count} readings, none out of range",
    ],
)
def test_success_reports_mentioning_errors_are_silent(text: str) -> None:
    check(
        _src(
            f"""\
            @mcp.tool()
            def summarize_log(rate: float, count: int) -> str:
                if count:
                    return f"{text}"
                return "nothing to report"
            """
        )
    )


@pytest.mark.parametrize(
    "text",
    ["Message deleted and user timed out for {minutes} minutes.", "Member {user_id} timed out for 1 hour", "User {user_id} timed out until {until}"],
)
def test_a_member_put_in_time_out_is_a_moderation_done_not_a_timeout(text: str) -> None:
    # Chat moderation tools "time out" a member for a while: the action succeeded.
    check(
        _src(
            f"""\
            @mcp.tool()
            async def moderate_member(user_id: str, minutes: int, until: str) -> str:
                if minutes > 0:
                    await NOTES.timeout(user_id, minutes)
                    return f"{text}"
                return "Member warned."
            """
        )
    )


def test_failure_after_an_early_success_return_is_conditional() -> None:
    # `if ok: return data` then a failure: the last return is reached only on the failure path.
    check(
        _src(
            """\
            @mcp.tool()
            def read_note(note_id: str) -> str:
                if note_id in NOTES:
                    return NOTES[note_id]
                return f"Could not find note {note_id}; call list_notes for ids"  # expect: MCP005


            @mcp.tool()
            def count_notes() -> str:
                if not NOTES:
                    return "0"
                return f"{len(NOTES)} notes, none invalid"
            """
        )
    )


def test_no_record_found_is_a_failure_for_a_lookup_of_one_id_only() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            def get_note(note_id: str) -> str:
                note = NOTES.get(note_id)
                if note is None:
                    return f"No note found with id {note_id}"  # expect: MCP005
                return note


            @mcp.tool()
            def search_notes(query: str) -> str:
                hits = [n for n in NOTES.values() if query in n]
                if not hits:
                    return f"No notes found for {query!r}"
                return "\\n".join(hits)


            @mcp.tool()
            def list_notes(tag: str) -> str:
                if not NOTES:
                    return "No notes found"
                return "\\n".join(NOTES)
            """
        )
    )


# -- cause 11: return shapes --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("statement", "shape"),
    [
        pytest.param('return str({"error": f"note {note_id} is locked"})', 'a dict with an "error" key', id="str-of-dict"),
        pytest.param(
            'return [TextContent(type="text", text=json.dumps({"error": f"note {note_id} is locked"}))]',
            'a TextContent holding a dict with an "error" key',
            id="textcontent-json-dumps",
        ),
        pytest.param(
            'return TextContent(type="text", text=f"Error: note {note_id} is locked")',
            "a TextContent 'Error: note … is locked'",
            id="bare-textcontent",
        ),
        pytest.param(
            'return [TextContent(type="text", text=f"note {note_id} is locked", error=True)]',
            "a TextContent 'note … is locked' whose error flag is not isError",
            id="textcontent-error-flag",
        ),
        pytest.param(
            'return Result(success=False, message=f"note {note_id} is locked")',
            'Result(...) with "success": False',
            id="result-object-success-false",
        ),
        pytest.param(
            'return NoteResponse(status="failed", detail=f"note {note_id} is locked")',
            "NoteResponse(...) with \"status\": \"failed\"",
            id="model-with-failed-status",
        ),
        pytest.param(
            'return {"isError": True, "content": [{"type": "text", "text": "note is locked"}]}',
            'a dict with "isError": True',
            id="dict-shaped-like-an-error-result",
        ),
        pytest.param(
            'return {"status": "not_found", "note_id": note_id}',
            'a dict with "status": "not_found"',
            id="not-found-status",
        ),
        pytest.param(
            'return [{"error": f"note {note_id} is locked"}]',
            'a list of one dict with an "error" key',
            id="list-of-one-error-dict",
        ),
        pytest.param(
            'return "<error>note is locked</error>"',
            "the string '<error>note is locked</error>'",
            id="xml-error",
        ),
    ],
)
def test_failure_return_shapes(statement: str, shape: str) -> None:
    finding = only(
        _src(
            f"""\
            @mcp.tool()
            def lock_note(note_id: str) -> str:
                if note_id in LOCKED:
                    {statement}  # expect: MCP005
                return "locked"
            """
        )
    )
    assert f"the failure: {shape}" in said(finding)


def test_a_list_of_rows_one_of_which_failed_is_a_partial_result() -> None:
    # A batch tool's rows each say how they went; a one-row list is a failure only in a
    # failure branch, and a row appended among others is the batch's answer.
    check(
        _src(
            """\
            @mcp.tool()
            def read_notes(note_ids: list[str]) -> list[dict]:
                rows = []
                for note_id in note_ids:
                    if note_id not in NOTES:
                        rows.append({"note_id": note_id, "error": "not found"})
                        continue
                    rows.append({"note_id": note_id, "text": NOTES[note_id]})
                return rows

            @mcp.tool()
            def first_note() -> list[dict]:
                return [{"note_id": "a", "error": None}]
            """
        )
    )


def test_error_result_helpers_are_reported_where_their_result_is_returned() -> None:
    findings = check(
        _src(
            """\
            def _fail(message: str) -> dict:
                return {"ok": False, "message": message}


            def _result(payload, error: bool = False) -> str:
                return json.dumps({"data": payload, "error": error})


            @mcp.tool()
            def rename_note(note_id: str, title: str) -> str:
                if note_id not in NOTES:
                    return _fail(f"note {note_id} does not exist")  # expect: MCP005
                if not title:
                    return _result("title is empty", error=True)  # expect: MCP005
                return "renamed"
            """
        )
    )
    assert "the error text _fail(...) builds" in said(findings[0])
    assert any(e.content == 'raise ToolError(f"note {note_id} does not exist")' for e in findings[0].fix.edits)


def test_an_error_builder_is_reported_where_its_result_is_returned_not_in_itself() -> None:
    # Builders return an error on every call by design; each caller that returns what one built
    # is the failure returned as a success, once.
    check(
        _src(
            """\
            def error_payload(exc: Exception, **context) -> dict:
                return {"error": type(exc).__name__, "hint": "see list_notes", **context}


            def tool_error(exc: Exception, **context) -> str:
                return json.dumps(error_payload(exc, **context), indent=2)


            def format_error_response(message: str) -> list:
                return [TextContent(type="text", text=f"Error: {message}")]


            @mcp.tool()
            def read_note(note_id: str) -> str:
                try:
                    return NOTES[note_id]
                except KeyError as e:
                    return tool_error(e, note_id=note_id)  # expect: MCP005


            @mcp.tool()
            def rename_note(note_id: str, title: str) -> list:
                if not title:
                    return format_error_response("title is empty")  # expect: MCP005
                return [TextContent(type="text", text="renamed")]
            """
        )
    )


def test_helpers_that_set_is_error_or_raise_are_the_right_channel() -> None:
    check(
        _src(
            """\
            from mcp.server.fastmcp.exceptions import ToolError


            def _error_result(message: str) -> CallToolResult:
                return CallToolResult(content=[TextContent(type="text", text=message)], isError=True)


            def _result(text: str, *, is_error: bool = False) -> CallToolResult:
                return CallToolResult(content=[TextContent(type="text", text=text)], isError=is_error)


            def _fail(message: str):
                raise ToolError(message)


            @mcp.tool()
            def rename_note(note_id: str, title: str) -> CallToolResult:
                if note_id not in NOTES:
                    return _error_result(f"note {note_id} does not exist")
                if not title:
                    return _result("title is empty", is_error=True)
                if len(title) > 80:
                    return _fail("title is longer than 80 characters")
                return _result("renamed")
            """
        )
    )


def test_error_helper_of_another_module_is_judged_by_what_it_builds(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "notes/__init__.py": "",
            "notes/responses.py": """\
                from mcp.types import CallToolResult, TextContent


                def error_response(message: str) -> dict:
                    return {"status": "error", "message": message}


                def error_result(message: str) -> CallToolResult:
                    return CallToolResult(content=[TextContent(type="text", text=message)], isError=True)
                """,
            "notes/server.py": """\
                from mcp.server.fastmcp import FastMCP

                from .responses import error_response, error_result

                mcp = FastMCP("notes")
                NOTES: dict[str, str] = {}


                @mcp.tool()
                def read_note(note_id: str):
                    if note_id not in NOTES:
                        return error_response(f"note {note_id} does not exist")
                    return NOTES[note_id]


                @mcp.tool()
                def delete_note(note_id: str):
                    if note_id not in NOTES:
                        return error_result(f"note {note_id} does not exist")
                    del NOTES[note_id]
                    return "deleted"
                """,
        },
    )
    findings = lint_tree(tmp_path)
    assert [(Path(f.filename).name, f.code, f.location.row) for f in findings] == [("server.py", "MCP005", 12)]


# -- cause 12: the caught exception's text, whatever its class ---------------------------------


@pytest.mark.parametrize(
    "statement",
    ["return str(e)", 'return f"{e}"', "return e.message", 'return [TextContent(type="text", text=str(e))]'],
)
def test_returning_the_text_of_an_own_exception_is_a_failure_report(statement: str) -> None:
    # The project's own exception class: curated text (so no MCP002), but still a failure that
    # the wire calls a success.
    finding = only(
        _src(
            f"""\
            class NotesError(Exception):
                message = "notes failure"


            def _load(note_id: str) -> str:
                if note_id not in NOTES:
                    raise NotesError(f"Note {{note_id}} does not exist")
                return NOTES[note_id]


            @mcp.tool()
            def read_note(note_id: str) -> str:
                try:
                    return _load(note_id)
                except NotesError as e:
                    {statement}  # expect: MCP005
            """
        )
    )
    assert "the text of the caught exception 'e'" in said(finding)
    assert finding.fix is not None


def test_handlers_that_return_a_value_without_the_exception_text_are_silent() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            def read_note(note_id: str) -> str:
                try:
                    return NOTES[note_id]
                except KeyError as e:
                    return ""


            @mcp.tool()
            def note_count(note_id: str) -> int:
                try:
                    return len(NOTES[note_id])
                except KeyError as e:
                    return len(e.args)
            """
        )
    )


def test_a_done_call_that_fell_back_to_a_default_is_not_a_failure() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            def add_paragraph(note_id: str, text: str, style: str) -> str:
                if style not in STYLES:
                    NOTES[note_id] += text
                    return f"Style '{style}' not found, paragraph added with the default style"
                NOTES[note_id] += STYLES[style](text)
                return "paragraph added"
            """
        )
    )


def test_a_status_tool_still_fails_on_bad_arguments_and_on_its_own_crash() -> None:
    # "unhealthy" is the answer of a health check; "invalid check name" and a crashed check are not.
    check(
        _src(
            """\
            @mcp.tool()
            def analyze_db_health(check: str = "all") -> str:
                if check not in CHECKS:
                    return f"Invalid health check {check!r}; pass one of {sorted(CHECKS)}"  # expect: MCP005
                try:
                    healthy = CHECKS[check]()
                except Exception as e:
                    return f"Could not run the {check} check"  # expect: MCP005
                if not healthy:
                    return "Database health: failed, 3 tables need a vacuum"
                return "Database health: ok"
            """
        )
    )


def test_functions_that_read_errors_or_build_no_failure_are_not_error_builders() -> None:
    check(
        _src(
            """\
            ERRORS: list[str] = []


            def get_last_error() -> str:
                return ERRORS[-1] if ERRORS else ""


            def error_summary(count: int) -> str:
                return f"{count} errors logged today"


            @mcp.tool()
            def last_error(verbose: bool = False) -> str:
                if verbose:
                    return error_summary(len(ERRORS))
                return get_last_error()
            """
        )
    )


def test_a_result_object_carrying_the_exception_text_is_a_failure_report() -> None:
    findings = check(
        _src(
            """\
            import httpx


            @mcp.tool()
            def search_docs(query: str) -> SearchResponse:
                try:
                    hits = httpx.get("https://docs.example.com/search", params={"q": query}).json()
                except httpx.HTTPError as e:
                    error_msg = f"Search failed: {e}"  # expect: MCP002
                    return SearchResponse(results=[SearchHit(title=error_msg, url="")])  # expect: MCP005
                except KeyError:
                    return SearchResponse(results=[])
                return SearchResponse(results=[SearchHit(**hit) for hit in hits])
            """
        )
    )
    (finding,) = [f for f in findings if f.code == "MCP005"]
    assert "an object carrying the text of the caught exception 'e'" in said(finding)
    assert finding.fix is None  # raw library text: MCP002's fix rewrites the message


def test_a_call_tool_result_without_is_error_carrying_the_exception_text() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            def read_note(note_id: str) -> CallToolResult:
                try:
                    text = STORE.read(note_id)
                except StoreError as e:
                    return CallToolResult(content=[TextContent(type="text", text=str(e))])  # expect: MCP005
                except NoteLockedError as e:
                    return CallToolResult(content=[TextContent(type="text", text=str(e))], isError=True)
                return CallToolResult(content=[TextContent(type="text", text=text)])
            """
        )
    )


def test_a_call_that_sends_a_failed_status_somewhere_is_not_an_envelope() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            def mark_build(build_id: str, broken: bool) -> str:
                ci = CiClient()
                if broken:
                    return ci.set_status(build_id, status="failed", error=True)
                return ci.set_status(build_id, status="passed")
            """
        )
    )


# -- the status-role exemption: the status tool itself, by whole tokens (issue 22) ---------------


def test_a_name_with_a_status_word_inside_it_is_not_a_status_tool() -> None:
    # `ping` and `Status` are words of these names, but the tools fetch an item: "not found" is
    # their failure, not a status they report.
    findings = check(
        _src(
            """\
            @mcp.tool()
            def get_ping_pong_item(item_id: str) -> str:
                if item_id not in NOTES:
                    return f"Error: item {item_id} not found"  # expect: MCP005
                return NOTES[item_id]

            @mcp.tool()
            def fetchStatusPageItem(item_id: str) -> str:
                if item_id not in NOTES:
                    return f"Error: item {item_id} not found"  # expect: MCP005
                return NOTES[item_id]
            """
        )
    )
    subjects = sorted(f.message.split("'")[1] for f in findings)
    assert subjects == ["fetchStatusPageItem", "get_ping_pong_item"]


@pytest.mark.parametrize("name", ["set_crate_status", "updatePalletStatus", "mark_health"])
def test_a_tool_that_writes_a_status_fails_on_a_refused_value(name: str) -> None:
    # The status is what the tool changes: refusing the new value is its failure, not a report.
    check(
        _src(
            f"""\
            @mcp.tool()
            def {name}(item_id: str, status: str) -> str:
                if status not in ("open", "done"):
                    return f"Error: invalid status {{status}}; use open or done"  # expect: MCP005
                NOTES[item_id] = status
                return "saved"
            """
        )
    )


@pytest.mark.parametrize("name", ["ping", "health_check", "get_status", "checkHealth", "server_status", "validate_config"])
def test_a_status_tool_reports_a_failed_status_as_its_answer(name: str) -> None:
    check(
        _src(
            f"""\
            @mcp.tool()
            def {name}() -> str:
                if not NOTES:
                    return "Error: the note store is not loaded"
                return "ok"
            """
        )
    )


def test_a_helper_shared_by_a_status_tool_and_other_tools_is_judged_for_the_others() -> None:
    finding = only(
        _src(
            """\
            def _load(note_id: str) -> str:
                if note_id not in NOTES:
                    return f"Error: note {note_id} not found"  # expect: MCP005
                return NOTES[note_id]

            @mcp.tool()
            def health_check(note_id: str = "probe") -> str:
                return _load(note_id)

            @mcp.tool()
            def read_note(note_id: str) -> str:
                return _load(note_id)
            """
        )
    )
    # Named for the other tool only: the status tool's exemption is its own.
    assert [related.message for related in finding.related] == ["returned on by `read_note()`", "tool 'read_note' reaches this helper"]


def test_a_helper_reached_only_from_status_tools_is_exempt() -> None:
    check(
        _src(
            """\
            def _probe_store() -> str:
                if not NOTES:
                    return "Error: the note store is not loaded"
                return "ok"

            @mcp.tool()
            def health_check() -> str:
                return _probe_store()

            @mcp.tool()
            def get_status() -> str:
                return _probe_store()
            """
        )
    )


def test_a_validator_helper_returns_its_complaint_to_the_caller_that_acts_on_it() -> None:
    check(
        _src(
            """\
            def _validate_name(name: str) -> str | None:
                if "/" in name:
                    return f"Error: names may not contain '/', got {name!r}"
                return None

            @mcp.tool()
            def rename_note(note_id: str, name: str) -> str:
                problem = _validate_name(name)
                if problem:
                    raise ValueError(problem)
                NOTES[name] = NOTES.pop(note_id)
                return "renamed"
            """
        )
    )
