"""The rule pages' examples, run under the real framework releases with the official client.

For each annotated block (README.md) and each release it names, the block is served by that
release and each of its `call:` lines is made. An "Example" block is linted with
`--target <release>`: the page's rule must flag the statements the call goes through (or, for a
finding outside the tool body such as a server constructor, name the tool), and what its message
claims about the wire (claims.py) must be what the client received. A "Use instead" block must not
be flagged, and the client must receive the failure as a tool error (or the call's `->`
expectation).
"""

from __future__ import annotations

from typing import Any

import pytest

from mcp_lint.linter import lint_source

from .claims import claims, failed, is_protocol_error, is_result, text_of
from .pages import Call, Example, examples
from .venvs import Release

pytestmark = pytest.mark.semantics

EXAMPLES = examples()


_FINDINGS: dict[tuple[str, str], list] = {}


def findings(example: Example, rel: Release) -> list:
    """The page rule's findings on the block, with the release as `--target` (linted once: the
    batch needs the rows, each call's test the messages)."""
    key = (example.id, rel.pin)
    if key not in _FINDINGS:
        found = lint_source(example.block.text, filename="server.py", target=rel.pin, select=("MCP0", example.code))
        _FINDINGS[key] = [f for f in found if f.code == example.code]
    return _FINDINGS[key]


def _jobs(rel: Release) -> list[dict[str, Any]]:
    jobs = []
    for example in EXAMPLES:
        if rel in example.releases:
            jobs.append(
                {
                    "id": example.id,
                    "source": example.block.text,
                    "given": example.given,
                    "env": example.env,
                    "rows": sorted({f.location.row for f in findings(example, rel)}),
                    "calls": [{"tool": c.tool, "server": c.server, "arguments": c.arguments} for c in example.calls],
                }
            )
    return jobs


def _params() -> list:
    params = []
    for example in EXAMPLES:
        for rel in example.releases:
            for number, call in enumerate(example.calls):
                params.append(pytest.param(example, rel, number, id=f"{example.id}-{rel.pin}-{number + 1}-{call.tool}"))
    return params


def _expectation_holds(call: Call, report: dict[str, Any], default: str | None) -> tuple[bool, str]:
    expect = call.expect
    kind = expect.kind if expect else default
    if kind is None:
        return True, ""
    ok = {
        "tool-error": lambda: is_result(report, True),
        "success": lambda: is_result(report, False),
        "protocol-error": lambda: is_protocol_error(report) and (expect is None or expect.code is None or report["error"]["code"] == expect.code),
    }[kind]()
    if ok and expect and expect.text is not None:
        ok = expect.text in text_of(report)
    return ok, f"expected {kind}{f' {expect.code}' if expect and expect.code is not None else ''}{f' containing {expect.text!r}' if expect and expect.text else ''}"


@pytest.mark.parametrize(("example", "rel", "number"), _params())
def test_example_on_the_real_framework(example: Example, rel: Release, number: int, batches) -> None:
    where = f"rules/{example.code}.md line {example.block.line} ({example.id}) under {rel.pin}"
    report = batches.reports("pages", rel, _jobs)[example.id]
    assert "setup_error" not in report, f"{where}: the example does not load:\n{report.get('setup_error')}"
    call = example.calls[number]
    outcome = report["calls"][number]
    assert "crash" not in outcome, f"{where}: {call.describe()} failed in the client:\n{outcome['crash']}"
    ours = findings(example, rel)
    if not example.invalid:
        assert not ours, f"{where}: a 'Use instead' block is flagged: {[f.message for f in ours]}"
        for era, wire in _eras(outcome):
            ok, wanted = _expectation_holds(call, wire, "tool-error")
            assert ok, f"{where}: {call.describe()} received {_show(wire)}{era}; {wanted}"
        return
    # The findings this call is about: the flagged statements it went through, else those naming the tool.
    hit = [f for f in ours if f.location.row in outcome["hits"]]
    relevant = hit or [f for f in ours if f"'{call.tool}'" in f.message]
    assert relevant, f"{where}: {example.code} reports nothing this call goes through under {rel.pin} (findings: {[f.message for f in ours]})"
    for finding in relevant:
        stated = claims(finding.message)
        assert stated, f"{where}: no claim about the wire recognised in the message (add its phrase to tests/semantics/claims.py): {finding.message}"
        for era, wire in _eras(outcome):
            wrong = failed(stated, wire)
            assert not wrong, f"{where}: {call.describe()} received {_show(wire)}{era}, but line {finding.location.row} says {' / '.join(repr(c.phrase) for c in wrong)}: {finding.message}"
    for era, wire in _eras(outcome):
        ok, wanted = _expectation_holds(call, wire, None)
        assert ok, f"{where}: {call.describe()} received {_show(wire)}{era}; {wanted}"


def _eras(outcome: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The report, and on mcp 2.x the same call on a handshake-era connection: a claim must hold on both."""
    found = [("", outcome)]
    if "legacy" in outcome:
        found.append((" on a handshake-era connection", outcome["legacy"]))
    return found


def _show(outcome: dict[str, Any]) -> str:
    if "error" in outcome:
        return f"JSON-RPC error {outcome['error'].get('code')} {outcome['error'].get('message')!r}"
    if "result" in outcome:
        return f"a result with isError: {str(bool(outcome['result'].get('isError'))).lower()}, text {text_of(outcome)!r}"
    return repr(outcome)
