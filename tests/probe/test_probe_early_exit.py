"""`mcp-lint probe` on servers that break the stdio channel: an early exit and a print() to stdout."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .conftest import run_cli

SERVERS = Path(__file__).resolve().parent / "servers"
EXITS_EARLY = SERVERS / "exits_early.py"
PRINTS = SERVERS / "prints_to_stdout.py"
EARLY_EXIT = "the server could not be started or initialised: server exited with status 3 before answering initialize"


def test_an_early_exit_is_named_with_its_status(needs_mcp_client: None) -> None:
    result = run_cli("--startup-timeout", "20", "--", sys.executable, str(EXITS_EARLY))
    assert result.code == 2
    assert f"error: {EARLY_EXIT}\n" in result.stdout
    assert "  | exits_early: settings file missing" in result.stdout


def test_an_early_exit_in_json_is_a_report_that_says_the_run_failed(needs_mcp_client: None) -> None:
    result = run_cli("--output-format", "json", "--startup-timeout", "20", "--", sys.executable, str(EXITS_EARLY))
    assert result.code == 2
    assert json.loads(result.stdout) == [
        {"tool": None, "check": None, "case": "run", "message": EARLY_EXIT, "error": True, "stderr": "exits_early: settings file missing"}
    ]
    assert result.stderr.startswith(f"mcp-lint: error: {EARLY_EXIT}\n")


def test_an_early_exit_in_sarif_is_an_unsuccessful_invocation(needs_mcp_client: None) -> None:
    result = run_cli("--output-format", "sarif", "--startup-timeout", "20", "--", sys.executable, str(EXITS_EARLY))
    assert result.code == 2
    (run,) = json.loads(result.stdout)["runs"]
    assert run["results"] == []
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    (notification,) = invocation["toolExecutionNotifications"]
    assert notification["message"]["text"] == EARLY_EXIT
    assert notification["properties"]["stderr"] == "exits_early: settings file missing"


def test_a_line_of_text_on_stdout_is_named_not_a_traceback(needs_mcp_client: None) -> None:
    result = run_cli("--timeout", "10", "--", sys.executable, str(PRINTS))
    assert result.code == 2
    banner = "Server ready, listening on stdio " + "=" * 84 + "..."  # 120 characters of a 233-character line
    assert f"error: the server wrote a line to stdout that is not JSON-RPC: '{banner}' (stdout carries MCP messages only; log to stderr)\n" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    assert "ValidationError" not in result.stdout + result.stderr


def test_a_line_of_text_on_stdout_in_json(needs_mcp_client: None) -> None:
    result = run_cli("--output-format", "json", "--timeout", "10", "--", sys.executable, str(PRINTS))
    assert result.code == 2
    (entry,) = [e for e in json.loads(result.stdout) if e.get("error")]
    assert entry["message"].startswith("the server wrote a line to stdout that is not JSON-RPC: 'Server ready, listening on stdio ===")
    assert "Traceback" not in result.stderr
