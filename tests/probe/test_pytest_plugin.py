"""The pytest plugin, through the documented example: examples/contract_tests against the notes servers."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import REPO

EXAMPLE = "examples/contract_tests"


def run_example(server_python: str, server: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", EXAMPLE, "--mcp-server-command", f"{server_python} {server}", "-rA"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_example_contract_tests_pass_on_the_fixed_server(mcp1_python: str) -> None:
    completed = run_example(mcp1_python, "examples/notes_server_fixed/server.py")
    assert completed.returncode == 0, completed.stdout[-3000:]
    assert "4 passed" in completed.stdout


def test_the_example_contract_tests_fail_on_the_bad_server_with_what_the_client_got(mcp1_python: str) -> None:
    completed = run_example(mcp1_python, "examples/notes_server/server.py")
    assert completed.returncode == 1
    out = completed.stdout
    assert "3 failed, 1 passed" in out  # the malformed-request test passes: the SDK handles it
    assert "AssertionError: expected isError: true, got a success (isError: false) although its text reads as a failure: 'Note 424242 not found'" in out
    assert "AssertionError: the call changed " in out and "notes.db (modified)" in out


def test_without_a_command_the_fixture_says_what_to_set(needs_mcp_client: None) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", EXAMPLE, "-k", "missing_note"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert completed.returncode == 1
    assert "no MCP server to start: pass --mcp-server-command" in completed.stdout


def test_assertions_accept_raw_replies_and_sdk_errors() -> None:
    from mcp_lint.probe.testing import assert_no_leak, assert_protocol_error, assert_tool_error

    assert assert_protocol_error({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "bad"}}, code=-32602)["message"] == "bad"
    with pytest.raises(AssertionError, match="expected JSON-RPC error code -32601, got -32602"):
        assert_protocol_error({"id": 1, "error": {"code": -32602, "message": "bad"}}, code=-32601)
    with pytest.raises(AssertionError, match="got a result"):
        assert_protocol_error({"id": 1, "result": {}})
    with pytest.raises(AssertionError, match="got a JSON-RPC error -32602"):
        assert_tool_error({"error": {"code": -32602, "message": "Order 7 not found"}})
    assert assert_tool_error({"content": [{"type": "text", "text": "Order 7 not found"}], "isError": True}, matches="Order 7") == "Order 7 not found"
    with pytest.raises(AssertionError, match="a stack trace"):
        assert_no_leak('Traceback (most recent call last):\n  File "x.py", line 1, in <module>')
