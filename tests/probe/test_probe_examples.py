"""`mcp-lint probe` on the example servers, bad and fixed, on mcp 1.x and on fastmcp 4."""

from __future__ import annotations

import pytest

from .conftest import ProbeRun, run_cli

# What the bad twins do wrong at run time, by (tool, check):
MCP1_DEFECTS = {
    ("import_note", 1),  # returns "Error: <traceback>" as a success
    ("import_note", 2),  # ... and that text is a traceback with the server's paths
    ("rename_note", 4),  # commits the new title, then rejects the empty one
    ("delete_note", 1),  # returns "Note ... not found" as a success
}
# read_note's McpError is a tool error on mcp 1.x (not a protocol error): check 1 passes there.
# On fastmcp the twin returns {"error": ...} instead, a success.
FASTMCP_DEFECTS = MCP1_DEFECTS | {("read_note", 1)}


@pytest.fixture(scope="module")
def mcp1_bad(mcp1_python: str) -> ProbeRun:
    return run_cli("--output-format", "json", "--", mcp1_python, "examples/notes_server/server.py")


@pytest.fixture(scope="module")
def fastmcp_bad(fastmcp_python: str) -> ProbeRun:
    return run_cli("--output-format", "json", "--", fastmcp_python, "examples/notes_server_fastmcp/server.py")


@pytest.mark.parametrize(("run", "defects"), [("mcp1_bad", MCP1_DEFECTS), ("fastmcp_bad", FASTMCP_DEFECTS)])
def test_bad_example_fails_checks_1_2_and_4_on_its_defective_tools(run: str, defects: set, request: pytest.FixtureRequest) -> None:
    result: ProbeRun = request.getfixturevalue(run)
    assert result.code == 1, result.stderr
    assert result.pairs() == defects


def test_findings_say_what_the_client_received(mcp1_bad: ProbeRun) -> None:
    success = mcp1_bad.finding("delete_note", 1)
    assert success["message"] == "answered isError: false but its text reads as a failure: 'Note 987654321 not found'"
    assert success["request"] == {"method": "tools/call", "params": {"name": "delete_note", "arguments": {"note_id": 987654321}}}
    assert success["response"]["result"]["isError"] is False
    assert success["repeats"] == 4  # the unlikely id, then zero, -1 and a huge id: the same defect

    leak = mcp1_bad.finding("import_note", 2)
    assert leak["message"].startswith("the error text carries a stack trace: 'Traceback (most recent call last)'; an absolute path: ")

    mutation = mcp1_bad.finding("rename_note", 4)
    assert mutation["message"] == "the call ended in an error but changed files first: notes.db (modified)"
    assert mutation["case"] == "title = an empty string"
    assert mutation["request"]["params"]["arguments"] == {"note_id": 1, "title": ""}
    assert "title must not be empty" in mutation["response"]["result"]["content"][0]["text"]


def test_fastmcp_structured_error_is_read_as_a_failure(fastmcp_bad: ProbeRun) -> None:
    assert fastmcp_bad.finding("read_note", 1)["message"].startswith('answered isError: false but its structured content has "error"')


@pytest.mark.parametrize(
    ("python", "directory"),
    [("mcp1_python", "examples/notes_server_fixed"), ("fastmcp_python", "examples/notes_server_fastmcp_fixed")],
)
def test_fixed_example_passes_every_check(python: str, directory: str, request: pytest.FixtureRequest) -> None:
    result = run_cli("--", request.getfixturevalue(python), f"{directory}/server.py")
    assert result.code == 0, result.stdout + result.stderr
    assert "All checks passed" in result.stdout
    # The SDK drops unparseable JSON instead of answering -32700: noted, not failed.
    assert "note [malformed JSON]: no response (JSON-RPC asks for a -32700 parse error)" in result.stdout


def test_full_report_groups_by_tool_with_request_and_response(mcp1_python: str) -> None:
    result = run_cli("--tool", "rename_note", "--check", "4", "--", mcp1_python, "examples/notes_server/server.py")
    assert result.code == 1
    lines = result.stdout.splitlines()
    start = lines.index("rename_note: 1 failed, 2 pass, 6 inconclusive")
    assert lines[start + 1] == "  FAIL check 4 [title = an empty string]: the call ended in an error but changed files first: notes.db (modified) (and 1 more call(s) the same way)"
    assert lines[start + 2] == '    request:  {"method": "tools/call", "params": {"name": "rename_note", "arguments": {"note_id": 1, "title": ""}}}'
    assert lines[start + 3].startswith('    response: {"result": {"content": [{"type": "text", "text": "Error executing tool rename_note: title must not be empty"}]')
    assert lines[-1] == "1 failed check(s) (check 4: 1); 1 tool(s) probed, 0 skipped."
    assert "(server) check 3" not in result.stdout  # --check 4 only


def test_watch_and_cwd_options(mcp1_python: str, tmp_path) -> None:
    # The server runs in --cwd; the database is watched explicitly (a path outside the cwd works the same).
    result = run_cli(
        "--cwd", str(tmp_path), "--watch", str(tmp_path / "notes.db"), "--tool", "rename_note", "--check", "4",
        "--output-format", "json", "--", mcp1_python, "examples/notes_server/server.py",
    )
    assert (tmp_path / "notes.db").is_file()
    assert result.pairs() == {("rename_note", 4)}
    assert result.finding("rename_note", 4)["message"].endswith("notes.db (modified)")
