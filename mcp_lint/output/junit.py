"""`junit`: JUnit XML, which most CI systems (Jenkins, GitLab, Azure) show as a test report."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import groupby
from typing import Sequence, TextIO

from mcp_lint.findings import Finding
from mcp_lint.output import ReportOptions

_SUITES_NAME = "mcp-lint"


def write(findings: Sequence[Finding], out: TextIO, options: ReportOptions) -> None:
    tests = str(max(len(findings), 1))
    root = ET.Element("testsuites", name=_SUITES_NAME, tests=tests, failures=str(len(findings)))
    if findings:
        # Findings arrive sorted by file, so each file's findings are one run.
        for filename, group in groupby(findings, key=lambda finding: finding.filename):
            _add_suite(root, filename, list(group))
    else:
        # An empty report must still hold a test, or CI shows "no tests ran" instead of a pass.
        suite = ET.SubElement(root, "testsuite", name=_SUITES_NAME, tests="1", failures="0")
        ET.SubElement(suite, "testcase", name="No errors found", classname=_SUITES_NAME)
    ET.indent(root)
    # The declaration is written by hand: serialising to text, ElementTree would declare the
    # locale's encoding, so the same report would claim different encodings on different machines.
    # UTF-8 is XML's default; whoever writes the report to a file must encode it as UTF-8.
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(root, encoding="unicode"))
    out.write("\n")


def _add_suite(root: ET.Element, filename: str, findings: list[Finding]) -> None:
    count = str(len(findings))
    suite = ET.SubElement(root, "testsuite", name=filename, tests=count, failures=count)
    for finding in findings:
        case = ET.SubElement(
            suite,
            "testcase",
            name=f"org.mcp_lint.{finding.code}",
            classname=filename,
            line=str(finding.location.row),
        )
        failure = ET.SubElement(case, "failure", message=finding.message)
        position = f"{filename}:{finding.location.row}:{finding.location.column}"
        failure.text = f"{position}: {finding.message}"
