"""The seed's four contract tests for the notes server, written with mcp-lint's pytest plugin.

    pip install "mcp-lint[probe]"
    pytest examples/contract_tests --mcp-server-command "python examples/notes_server_fixed/server.py"

Each test starts the server in a fresh directory (`mcp_server_cwd`) and talks to it over stdio.
Against examples/notes_server (the defective twin) three of the four fail, each with what a
client really received.
"""

from mcp_lint.probe.testing import assert_no_leak, assert_protocol_error, assert_tool_error, assert_unchanged


def test_a_missing_note_is_a_tool_error(mcp_session):
    # 1. A valid id that names no note: the model must read the failure (isError: true).
    result = mcp_session.call_tool("delete_note", {"note_id": 424242})
    assert_tool_error(result, matches="Note 424242 not found")


def test_an_upstream_failure_leaks_nothing(mcp_session):
    # 2. Nothing listens on port 9 of this machine: a real upstream failure, reported cleanly.
    result = mcp_session.call_tool("import_note", {"url": "http://127.0.0.1:9/note.txt"})
    assert_no_leak(assert_tool_error(result, matches="127.0.0.1:9"))


def test_a_malformed_request_is_a_protocol_error(mcp_raw_session):
    # 3. tools/call without a tool name cannot be served at all: a JSON-RPC error, not a result.
    reply = mcp_raw_session.request({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"arguments": {}}})
    assert_protocol_error(reply)


def test_a_rejected_rename_changes_nothing(mcp_session, mcp_server_cwd):
    # 4. The server made notes.db when it started; a rejected call must leave it as it was.
    with assert_unchanged(mcp_server_cwd / "notes.db"):
        result = mcp_session.call_tool("rename_note", {"note_id": 1, "title": "   "})
    assert_tool_error(result, matches="title must not be empty")
