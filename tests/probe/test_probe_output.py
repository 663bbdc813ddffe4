"""The probe's machine formats: JSON keys, SARIF 2.1.0 (schema-valid), JUnit XML."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET

from mcp_lint.probe.findings import CallRecord, ProbeFinding, ProbeReport
from mcp_lint.probe.output import write
from sarif_support import schema_errors


def report() -> ProbeReport:
    request = {"method": "tools/call", "params": {"name": "delete_note", "arguments": {"note_id": 987654321}}}
    response = {"result": {"content": [{"type": "text", "text": "Note 987654321 not found"}], "isError": False}}
    result = ProbeReport(command=["python", "server.py"], cwd="/tmp/probe", tools=["delete_note", "list_notes"], probed=["delete_note", "list_notes"])
    result.findings.append(ProbeFinding("delete_note", 1, "answered isError: false but its text reads as a failure", request, response, "a value that names nothing existing"))
    result.findings.append(ProbeFinding(None, 3, "an unknown method got a result, not a JSON-RPC error", {"id": 1}, {"id": 1, "result": {}}, "an unknown method"))
    result.calls.append(CallRecord(None, 3, "an unknown method", "fail", "result"))
    return result


def render(fmt: str, value: ProbeReport | None = None) -> str:
    out = io.StringIO()
    write(value or report(), fmt, out)
    return out.getvalue()


def test_the_command_offers_every_writer() -> None:
    from mcp_lint.probe import command, output

    assert command.FORMATS == tuple(output.WRITERS) == output.FORMATS


def test_json_has_the_documented_keys() -> None:
    findings = json.loads(render("json"))
    assert [sorted(f) for f in findings] == [["case", "check", "message", "repeats", "request", "response", "tool"]] * 2
    assert findings[0]["tool"] == "delete_note" and findings[1]["tool"] is None


def test_sarif_is_valid_and_names_the_tool() -> None:
    log = json.loads(render("sarif"))
    assert schema_errors(log) == []  # the schema vendored in tests/data
    results = log["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["PROBE1", "PROBE3"]
    assert results[0]["locations"][0]["logicalLocations"][0]["name"] == "delete_note"


def test_junit_has_a_test_per_tool_and_check() -> None:
    root = ET.fromstring(render("junit"))
    assert (root.get("tests"), root.get("failures")) == ("7", "2")
    cases = {(c.get("classname"), c.get("name")): c.find("failure") is not None for c in root.iter("testcase")}
    assert cases[("delete_note", "check 1: an error reaches the model as isError: true")] is True
    assert cases[("list_notes", "check 4: a failed call mutates nothing")] is False
    assert cases[("(server)", "check 3: malformed JSON-RPC gets a JSON-RPC error")] is True


def test_junit_reports_a_start_failure_as_an_error() -> None:
    failed = ProbeReport(command=["python", "server.py"], cwd="/tmp/probe", error="the server could not be started", stderr="boom")
    root = ET.fromstring(render("junit", failed))
    assert root.find("testsuite/testcase/error").get("message") == "the server could not be started"
