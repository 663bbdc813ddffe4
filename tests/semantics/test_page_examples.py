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

from mcp_lint.pipeline import lint_source

from .claims import claims, failed, is_protocol_error, is_result, text_of
from .pages import Call, Example, Expect, examples
from .venvs import Release

pytestmark = pytest.mark.semantics

EXAMPLES = examples()


_FINDINGS: dict[tuple[str, str], list] = {}


def findings(example: Example, rel: Release) -> list:
    """The page rule's findings on the block, with the release as `--target` (linted once: the
    batch needs the rows, each call's test the messages)."""
    key = (example.id, rel.pin)
    if key not in _FINDINGS:
        found = lint_source(
            example.block.text, filename="server.py", target=rel.pin, select=("MCP0", example.code), env_files=example.block.env_files()
        )
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
    """Does the report match the call's `-> EXPECT` (or `default` kind when it has none)?"""
    expect = call.expect or (Expect(default) if default else None)
    if expect is None:
        return True, ""
    kinds = {
        "tool-error": lambda: is_result(report, True),
        "success": lambda: is_result(report, False),
        "protocol-error": lambda: is_protocol_error(report) and expect.code in (None, report["error"]["code"]),
    }
    ok = kinds[expect.kind]() and (expect.text is None or expect.text in text_of(report))
    code = f" {expect.code}" if expect.code is not None else ""
    text = f" containing {expect.text!r}" if expect.text else ""
    return ok, f"expected {expect.kind}{code}{text}"


@pytest.mark.parametrize(("example", "rel", "number"), _params())
def test_example_on_the_real_framework(example: Example, rel: Release, number: int, batches) -> None:
    where = f"{example.block.where} line {example.block.line} ({example.id}) under {rel.pin}"
    report = batches.reports("pages", rel, _jobs)[example.id]
    assert "setup_error" not in report, f"{where}: the example does not load:\n{report.get('setup_error')}"
    call = example.calls[number]
    outcome = report["calls"][number]
    assert "crash" not in outcome, f"{where}: {call.describe()} failed in the client:\n{outcome['crash']}"
    if example.invalid:
        _check_claims(example, rel, call, outcome, where)
    else:
        ours = findings(example, rel)
        assert not ours, f"{where}: a 'Use instead' block is flagged: {[f.message for f in ours]}"
    for era, wire in _eras(outcome):
        ok, wanted = _expectation_holds(call, wire, None if example.invalid else "tool-error")
        assert ok, f"{where}: {call.describe()} received {_show(wire)}{era}; {wanted}"


def _check_claims(example: Example, rel: Release, call: Call, outcome: dict[str, Any], where: str) -> None:
    """The findings this call is about (the flagged statements it went through, else those naming
    the tool) exist, and what their messages claim about the wire is what the client received."""
    ours = findings(example, rel)
    hit = [f for f in ours if f.location.row in outcome["hits"]]
    # A server-level finding names its tools in its notes and related places (issue 24).
    relevant = hit or [f for f in ours if f"'{call.tool}'" in "\n".join([f.message, *f.notes, *(r.message for r in f.related)])]
    assert relevant, f"{where}: {example.code} reports nothing this call goes through (findings: {[f.message for f in ours]})"
    for finding in relevant:
        # Since issue 24 the claim about the wire is the finding's evidence, in its notes: what
        # the `full` output says of it is checked (message, help and notes).
        text = "\n".join([finding.message, finding.help, *finding.notes])
        stated = claims(text)
        assert stated, f"{where}: no claim about the wire recognised in the finding (add its phrase to tests/semantics/claims.py): {text}"
        for era, wire in _eras(outcome):
            wrong = failed(stated, wire)
            said = " / ".join(repr(c.phrase) for c in wrong)
            assert not wrong, f"{where}: {call.describe()} received {_show(wire)}{era}, but line {finding.location.row} says {said}: {text}"


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
