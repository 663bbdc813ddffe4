"""When a success reads as a failure (check 1), and how repeats are folded."""

from __future__ import annotations

import pytest

from mcp_lint.probe.findings import ProbeFinding, ProbeReport, reads_as_failure


@pytest.mark.parametrize(
    "text",
    [
        "Error: note 7 does not exist",
        "Failed to fetch https://example.com",
        "Note 987654321 not found",
        "Could not connect to the database",
        "No such file: report.csv",
        "error: HTTP 500",
        "Error executing tool get_order: boom",
        "failed",
    ],
)
def test_texts_that_read_as_failures(text: str) -> None:
    assert reads_as_failure({}, text) == "its text reads as a failure"


@pytest.mark.parametrize("text", ["No results found for 'x'", "Deleted note 7", "[]", "renamed", "Error codes reference (docs/errors.md)", "Failures: 0"])
def test_ordinary_successes(text: str) -> None:
    assert reads_as_failure({}, text) is None


@pytest.mark.parametrize(
    ("structured", "reason"),
    [
        ({"error": "not found"}, 'its structured content has "error"'),
        ({"success": False, "message": "nope"}, 'its structured content says "success": false'),
        ({"status": "failed"}, 'its structured content says "status": "failed"'),
        ({"result": {"ok": False}}, 'its structured content says "ok": false'),
    ],
)
def test_structured_content_that_reads_as_a_failure(structured: dict, reason: str) -> None:
    assert reads_as_failure({"structuredContent": structured}, "") == reason


def test_a_json_text_is_read_like_structured_content() -> None:
    assert reads_as_failure({}, '{"error": null, "success": false}') == 'its structured content says "success": false'
    assert reads_as_failure({}, '{"error": null, "items": []}') is None


def test_the_same_failure_of_a_tool_is_reported_once_with_a_count() -> None:
    report = ProbeReport(command=["server"], cwd="/tmp/x")
    for case in ("zero", "a negative number"):
        report.add(ProbeFinding("delete_note", 1, "not found as a success", {}, {}, case, key="success-failure"))
    report.add(ProbeFinding("delete_note", 2, "leak", {}, {}, "zero", key="a stack trace"))
    assert [(f.check, f.case, f.repeats) for f in report.findings] == [(1, "zero", 2), (2, "zero", 1)]
    assert report.exit_code == 1
