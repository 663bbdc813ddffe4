"""`mcp-lint probe` on a deliberately broken stdio server: check 3 fails, and the CLI's edges."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

from .conftest import BROKEN_SERVER, ProbeRun, run_cli

SECRET = "tok-91d2f0a7c3"


@pytest.fixture(scope="module")
def broken(needs_mcp_client: None) -> ProbeRun:
    return run_cli("--output-format", "json", "--timeout", "5", "--", sys.executable, str(BROKEN_SERVER), env={"BROKEN_API_TOKEN": SECRET})


def test_check_3_fails_on_malformed_requests_answered_with_results(broken: ProbeRun) -> None:
    check3 = [f for f in broken.findings if f["check"] == 3]
    assert [(f["tool"], f["case"], f["message"]) for f in check3] == [
        (None, "an unknown method", "an unknown method got a result, not a JSON-RPC error"),
        (None, "tools/call without a name", "tools/call without a name got a result, not a JSON-RPC error"),
        (None, "tools/call with parameters of the wrong type", "tools/call with parameters of the wrong type got a result, not a JSON-RPC error"),
    ]
    assert check3[1]["request"] == {"jsonrpc": "2.0", "id": check3[1]["request"]["id"], "method": "tools/call", "params": {"arguments": {}}}
    assert "result" in check3[1]["response"]


def test_a_json_rpc_error_for_a_missing_record_fails_check_1(broken: ProbeRun) -> None:
    finding = broken.finding("get_order", 1)
    assert finding["message"].startswith("answered with a JSON-RPC error (-32602: Order mcp-lint-probe-missing-7f3a9c not found)")
    assert finding["response"] == {"error": {"code": -32602, "message": "Order mcp-lint-probe-missing-7f3a9c not found"}}


def test_a_secret_of_the_environment_in_an_error_fails_check_2(broken: ProbeRun) -> None:
    message = broken.finding("find_user", 2)["message"]
    assert "a value of the server's environment: 'tok********'" in message
    assert SECRET not in message  # the report does not repeat the secret
    assert "an absolute path" in message  # the server's working directory


def test_a_call_that_never_answers_times_out(broken: ProbeRun) -> None:
    assert broken.finding("wait", 1)["message"] == "no answer within 5 s"
    assert broken.finding("wait", 1)["response"] == {"timeout": True}


def test_destructive_tools_are_skipped_unless_asked(broken: ProbeRun, needs_mcp_client: None) -> None:
    assert not [f for f in broken.findings if f["tool"] == "purge"]
    included = run_cli("--include-destructive", "--tool", "purge", "--output-format", "json", "--", sys.executable, str(BROKEN_SERVER))
    mutation = included.finding("purge", 4)
    assert mutation["message"] == "the call ended in an error but changed files first: purged.txt (created)"


def test_skip_and_unknown_tool(needs_mcp_client: None) -> None:
    skipped = run_cli("--skip", "wait", "--skip", "get_order", "--check", "1", "--", sys.executable, str(BROKEN_SERVER))
    assert "wait: skipped (--skip)" in skipped.stdout
    assert "get_order" not in skipped.stdout.split("purge: skipped")[0].split("working directory")[1].replace("get_order: skipped", "")
    unknown = run_cli("--tool", "no_such_tool", "--", sys.executable, str(BROKEN_SERVER))
    expected = "mcp-lint: error: no tool named no_such_tool (the server lists: find_user, get_order, wait, purge)\n"
    assert (unknown.code, unknown.stdout, unknown.stderr) == (2, "", expected)


def test_a_usage_error_prints_no_report_in_a_machine_format(needs_mcp_client: None) -> None:
    for output_format in ("json", "sarif"):
        unknown = run_cli("--tool", "no_such_tool", "--output-format", output_format, "--", sys.executable, str(BROKEN_SERVER))
        assert (unknown.code, unknown.stdout) == (2, "")
        assert unknown.stderr.startswith("mcp-lint: error: no tool named no_such_tool") and unknown.stderr.count("\n") == 1


def test_every_tool_skipped_is_not_a_pass(needs_mcp_client: None) -> None:
    skips = ("--skip", "find_user", "--skip", "get_order", "--skip", "wait")
    result = run_cli(*skips, "--check", "1", "--", sys.executable, str(BROKEN_SERVER))
    assert result.code == 2
    assert "No tool was probed (4 listed, 4 skipped): nothing was checked." in result.stdout
    assert "mcp-lint: warning: no tool was probed (4 skipped)" in result.stderr
    machine = run_cli(*skips, "--check", "1", "--output-format", "json", "--", sys.executable, str(BROKEN_SERVER))
    # Not `[]`, which a clean server prints too: the report itself says nothing was checked.
    assert machine.code == 2
    assert machine.findings == [
        {"tool": None, "check": None, "case": "run", "message": "no tool was probed (4 listed, 4 skipped): nothing was checked", "error": True, "stderr": ""}
    ]
    sarif = run_cli(*skips, "--check", "1", "--output-format", "sarif", "--", sys.executable, str(BROKEN_SERVER))
    (invocation,) = json.loads(sarif.stdout)["runs"][0]["invocations"]
    assert (sarif.code, invocation["executionSuccessful"]) == (2, False)
    assert invocation["toolExecutionNotifications"][0]["message"]["text"] == "no tool was probed (4 listed, 4 skipped): nothing was checked"
    # Check 3 alone calls no tool: nothing to skip, a pass is a pass.
    protocol_only = run_cli(*skips, "--check", "3", "--output-format", "json", "--", sys.executable, str(BROKEN_SERVER))
    assert protocol_only.code == 1  # the broken server fails check 3


def test_a_server_that_cannot_start_exits_2_with_its_stderr(needs_mcp_client: None) -> None:
    result = run_cli("--", sys.executable, str(BROKEN_SERVER), "--fail-start")
    assert result.code == 2
    assert "error: the server could not be started or initialised" in result.stdout
    assert "  | broken: cannot read config.toml: no such file" in result.stdout
    machine = run_cli("--output-format", "json", "--", sys.executable, str(BROKEN_SERVER), "--fail-start")
    # Not `[]`: an empty list reads as a clean server. The report says the run failed and why.
    assert machine.code == 2
    (failed,) = machine.findings
    assert (failed["check"], failed["error"]) == (None, True)
    assert failed["message"] == "the server could not be started or initialised: server exited with status 1 before answering initialize"
    assert failed["stderr"] == "broken: cannot read config.toml: no such file"
    assert "broken: cannot read config.toml: no such file" in machine.stderr


def test_a_command_that_does_not_exist_exits_2(needs_mcp_client: None, tmp_path: Path) -> None:
    result = run_cli("--", str(tmp_path / "no-such-server"))
    assert result.code == 2
    assert "error: the server could not be started or initialised" in result.stdout


def test_without_the_mcp_client_the_command_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("mcp", "mcp.client", "mcp.client.stdio"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    result = CliRunner().invoke(cli, ["probe", "--", "python", "server.py"])
    assert result.exit_code == 2
    assert 'mcp-lint probe needs the official MCP client: pip install "mcp-lint[probe]"' in result.output


def test_env_values_given_to_the_server_and_strict_jsonrpc(needs_mcp_client: None) -> None:
    result = run_cli(
        "--env", "BROKEN_API_TOKEN=given-on-the-command-line", "--strict-jsonrpc", "--tool", "find_user",
        "--check", "2", "--check", "3", "--output-format", "json", "--", sys.executable, str(BROKEN_SERVER),
    )
    assert "a value of the server's environment: 'giv********'" in result.finding("find_user", 2)["message"]
    malformed = [f for f in result.findings if f["case"] == "malformed JSON"]
    assert [f["message"] for f in malformed] == ["malformed JSON got no JSON-RPC error (-32700)"]
