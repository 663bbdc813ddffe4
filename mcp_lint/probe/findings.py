"""What the probe reports: findings (a failed check), and the record of every call for the report."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from mcp_lint.vocabulary import ERROR_KEYS, FAILURE_STATUS_WORDS, SUCCESS_KEYS, WIRE_FAILURE_ANYWHERE, WIRE_FAILURE_OPENING

CHECK_TITLES = {
    1: "an error reaches the model as isError: true",
    2: "error texts leak nothing",
    3: "malformed JSON-RPC gets a JSON-RPC error",
    4: "a failed call mutates nothing",
}


@dataclass
class ProbeFinding:
    """One failed check. `tool` is None for the server-wide protocol check (3)."""

    tool: str | None
    check: int
    message: str
    request: Any
    response: Any
    case: str = ""
    repeats: int = 1  # calls of this tool that failed the same way (this one included)
    key: str = field(default="", repr=False, compare=False)  # what "the same way" means

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "check": self.check,
            "case": self.case,
            "message": self.message,
            "request": self.request,
            "response": self.response,
            "repeats": self.repeats,
        }


@dataclass
class CallRecord:
    """One call the probe made and its verdict ("pass", "fail", "inconclusive", "note")."""

    tool: str | None
    check: int
    case: str
    verdict: str
    detail: str


@dataclass
class ProbeReport:
    command: list[str]
    cwd: str
    server: dict[str, Any] = field(default_factory=dict)
    tools: list[str] = field(default_factory=list)  # every tool the server lists
    probed: list[str] = field(default_factory=list)  # the ones called (selected, not skipped)
    skipped: dict[str, str] = field(default_factory=dict)
    findings: list[ProbeFinding] = field(default_factory=list)
    calls: list[CallRecord] = field(default_factory=list)
    error: str | None = None
    stderr: str = ""
    # The error is the user's (a --tool the server does not list): no report, only the error.
    usage_error: bool = False
    tool_checks: bool = True  # checks 1, 2 or 4 were selected: they need a tool to call

    @property
    def nothing_probed(self) -> bool:
        """Tool checks were asked for but no tool was called (all skipped, or none listed): the
        run checked nothing it was asked to, which is no pass."""
        return self.error is None and self.tool_checks and not self.probed

    def add(self, finding: ProbeFinding) -> None:
        """Add a finding, folding a repeat of the same failure of the same tool into the first one
        (five edge values that all get the same traceback are one defect, not five)."""
        for existing in self.findings:
            if (existing.tool, existing.check, existing.key) == (finding.tool, finding.check, finding.key):
                existing.repeats += 1
                return
        self.findings.append(finding)

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return 2
        if self.findings:
            return 1
        return 2 if self.nothing_probed else 0


def reads_as_failure(result: Mapping[str, Any], text: str) -> str | None:
    """Why a successful result reads as a failure (its structured content, or its text), else None.
    A text that is a JSON object is read as structured content: `{"error": null}` is no failure."""
    structured = result.get("structuredContent")
    if structured is None and text.lstrip().startswith("{"):
        try:
            structured = json.loads(text)
        except ValueError:
            structured = None
        else:
            text = ""
    if isinstance(structured, Mapping):
        reason = _structured_failure(structured)
        if reason:
            return reason
    if WIRE_FAILURE_OPENING.search(text) or WIRE_FAILURE_ANYWHERE.search(text):
        return "its text reads as a failure"
    return None


def _structured_failure(content: Mapping[str, Any]) -> str | None:
    for key in ERROR_KEYS:
        if content.get(key):
            return f'its structured content has "{key}"'
    for key in SUCCESS_KEYS:
        if content.get(key) is False:
            return f'its structured content says "{key}": false'
    status = content.get("status")
    if isinstance(status, str) and status.lower() in FAILURE_STATUS_WORDS:
        return f'its structured content says "status": "{status}"'
    result = content.get("result")
    if isinstance(result, Mapping):
        return _structured_failure(result)
    return None


def excerpt(text: str, limit: int = 300) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."
