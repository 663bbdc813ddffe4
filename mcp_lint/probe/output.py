"""The probe's report formats: `full` (people), `json`, `sarif`, `junit` (CI)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from itertools import groupby
from typing import Any, Callable, TextIO

from mcp_lint import __version__
from mcp_lint.probe.findings import CHECK_TITLES, ProbeFinding, ProbeReport

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/mcp-lint/mcp-lint"
SERVER = "(server)"  # how the server-wide protocol check is named where a tool name goes


def write(report: ProbeReport, output_format: str, out: TextIO) -> None:
    WRITERS[output_format](report, out)


def _subject(finding: ProbeFinding) -> str:
    return finding.tool if finding.tool is not None else SERVER


def _one_line(value: Any, limit: int = 400) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- full --------------------------------------------------------------------------------------------


def write_full(report: ProbeReport, out: TextIO) -> None:
    name = report.server.get("name") or report.command[0]
    version = report.server.get("version")
    out.write(f"mcp-lint probe: {name}{' ' + version if version else ''}  ({' '.join(report.command)})\n")
    out.write(f"working directory: {report.cwd}\n")
    if report.error is not None:
        out.write(f"\nerror: {report.error}\n")
        if report.stderr:
            out.write("server stderr (last lines):\n")
            out.write("".join(f"  | {line}\n" for line in report.stderr.splitlines()))
        return
    for tool in [*report.probed, None]:
        _write_subject(report, tool, out)
    for tool, reason in report.skipped.items():
        out.write(f"\n{tool}: skipped ({reason})\n")
    out.write("\n" + _summary(report) + "\n")


def _write_subject(report: ProbeReport, tool: str | None, out: TextIO) -> None:
    calls = [c for c in report.calls if c.tool == tool]
    findings = [f for f in report.findings if f.tool == tool]
    if not calls and not findings:
        return
    title = tool if tool is not None else f"{SERVER} check 3: malformed JSON-RPC"
    counts = {verdict: sum(1 for c in calls if c.verdict == verdict) for verdict in ("pass", "inconclusive", "note")}
    shown = ", ".join(f"{n} {verdict}" for verdict, n in counts.items() if n)
    out.write(f"\n{title}: {len(findings)} failed{', ' + shown if shown else ''}\n")
    for finding in findings:
        again = f" (and {finding.repeats - 1} more call(s) the same way)" if finding.repeats > 1 else ""
        out.write(f"  FAIL check {finding.check} [{finding.case}]: {finding.message}{again}\n")
        out.write(f"    request:  {_one_line(finding.request)}\n")
        out.write(f"    response: {_one_line(finding.response)}\n")
    for call in calls:
        if call.verdict == "note":
            out.write(f"  note [{call.case}]: {call.detail}\n")


def _summary(report: ProbeReport) -> str:
    probed = len(report.probed)
    if not report.findings and report.nothing_probed:
        text = _nothing_checked(report)
        return f"{text[0].upper()}{text[1:]}."
    if not report.findings:
        return f"All checks passed ({probed} tool(s) probed, {len(report.skipped)} skipped)."
    per_check = {check: sum(1 for f in report.findings if f.check == check) for check in CHECK_TITLES}
    parts = ", ".join(f"check {check}: {n}" for check, n in per_check.items() if n)
    return f"{len(report.findings)} failed check(s) ({parts}); {probed} tool(s) probed, {len(report.skipped)} skipped."


def _nothing_checked(report: ProbeReport) -> str:
    return f"no tool was probed ({len(report.tools)} listed, {len(report.skipped)} skipped): nothing was checked"


# -- json --------------------------------------------------------------------------------------------


def write_json(report: ProbeReport, out: TextIO) -> None:
    entries = [f.to_json() for f in report.findings]
    if report.error is not None:
        # A run that failed is said in the report itself: an empty list would read as a clean server.
        entries.append(_run_error(report))
    elif report.nothing_probed and not report.findings:
        entries.append({"tool": None, "check": None, "case": "run", "message": _nothing_checked(report), "error": True, "stderr": ""})
    out.write(json.dumps(entries, indent=2, ensure_ascii=False))
    out.write("\n")


def _run_error(report: ProbeReport) -> dict[str, Any]:
    """The entry for a run that could not check the server: no check, `error` true, the server's stderr."""
    return {"tool": None, "check": None, "case": "run", "message": report.error, "error": True, "stderr": report.stderr}


# -- sarif -------------------------------------------------------------------------------------------


def write_sarif(report: ProbeReport, out: TextIO) -> None:
    rules = [
        {"id": f"PROBE{check}", "name": f"probe-check-{check}", "shortDescription": {"text": title}}
        for check, title in CHECK_TITLES.items()
    ]
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "mcp-lint probe", "version": __version__, "informationUri": INFORMATION_URI, "rules": rules}},
        "results": [_sarif_result(f) for f in report.findings],
    }
    if report.nothing_probed and not report.findings:
        notice = {"level": "error", "message": {"text": _nothing_checked(report)}}
        run["invocations"] = [{"executionSuccessful": False, "toolExecutionNotifications": [notice]}]
    if report.error is not None:
        notification: dict[str, Any] = {"level": "error", "message": {"text": report.error}}
        if report.stderr:
            notification["properties"] = {"stderr": report.stderr}
        run["invocations"] = [{"executionSuccessful": False, "toolExecutionNotifications": [notification]}]
    out.write(json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2, ensure_ascii=False))
    out.write("\n")


def _sarif_result(finding: ProbeFinding) -> dict[str, Any]:
    # A probe finding has no source line: the tool is its logical location.
    return {
        "ruleId": f"PROBE{finding.check}",
        "ruleIndex": finding.check - 1,
        "level": "error",
        "message": {"text": f"{_subject(finding)}: {finding.message}"},
        "locations": [{"logicalLocations": [{"name": _subject(finding), "kind": "function"}]}],
        "properties": {"case": finding.case, "request": finding.request, "response": finding.response, "repeats": finding.repeats},
    }


# -- junit -------------------------------------------------------------------------------------------


def write_junit(report: ProbeReport, out: TextIO) -> None:
    root = ET.Element("testsuites", name="mcp-lint probe")
    by_subject = {key: list(group) for key, group in groupby(sorted(report.findings, key=_subject), key=_subject)}
    protocol_ran = SERVER in by_subject or any(c.tool is None for c in report.calls)
    subjects = [*report.probed, *([SERVER] if protocol_ran else [])]
    total = failures = 0
    for subject in subjects:
        checks = (3,) if subject == SERVER else (1, 2, 4)
        suite = ET.SubElement(root, "testsuite", name=subject)
        found = by_subject.get(subject, [])
        for check in checks:
            case = ET.SubElement(suite, "testcase", name=f"check {check}: {CHECK_TITLES[check]}", classname=subject)
            for finding in (f for f in found if f.check == check):
                failure = ET.SubElement(case, "failure", message=finding.message)
                failure.text = f"request: {_one_line(finding.request)}\nresponse: {_one_line(finding.response)}"
                failures += 1
            total += 1
        suite.set("tests", str(len(checks)))
        suite.set("failures", str(sum(1 for f in found)))
    if report.error is not None:
        suite = ET.SubElement(root, "testsuite", name="server", tests="1", errors="1")
        case = ET.SubElement(ET.SubElement(suite, "testcase", name="start and initialise", classname="server"), "error", message=report.error)
        case.text = report.stderr
        total += 1
    root.set("tests", str(total))
    root.set("failures", str(failures))
    ET.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(root, encoding="unicode"))
    out.write("\n")


WRITERS: dict[str, Callable[[ProbeReport, TextIO], None]] = {
    "full": write_full,
    "json": write_json,
    "sarif": write_sarif,
    "junit": write_junit,
}
FORMATS = tuple(WRITERS)
