"""Findings read at a glance (issue 24): one-line messages, the fix as `help`, the evidence as notes.

bench/message_length.py measures the public corpus; here the same computation is checked, and the
rule pages' examples (every python block the page tests run) go through every output format: their
messages and help keep the limits, and each format shows what it promises of help, notes and
related locations.
"""

from __future__ import annotations

import functools
import io
import json
import xml.etree.ElementTree as ET
from dataclasses import replace
from types import ModuleType

import pytest

from mcp_lint import registry
from mcp_lint.findings import Applicability, Finding, Location
from mcp_lint.output import FORMATS, write_report
from mcp_lint.pipeline import lint_source
from sarif_support import schema_errors
from script_support import load_script
from test_rule_docs import Block, _all_blocks


@functools.cache
def _bench() -> ModuleType:
    return load_script("bench/message_length.py", "bench_message_length")


def _finding(code: str, message: str, help_text: str = "") -> dict:
    return {"code": code, "message": message, "help": help_text}


# -- the computation of bench/message_length.py ------------------------------------------------


def test_percentile_is_the_nearest_rank() -> None:
    bench = _bench()
    assert bench.percentile([10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 0.9) == 90
    assert bench.percentile([5, 1, 3], 0.9) == 5
    assert bench.percentile([7], 0.5) == 7


def test_table_reports_each_rule_then_all_with_a_verdict() -> None:
    bench = _bench()
    findings = [
        _finding("MCP002", "x" * 80, "h" * 40),
        _finding("MCP002", "x" * 100, "h" * 60),
        _finding("MCP005", "x" * 60),
        _finding("MCP005", "x" * 121),  # one message over 120: the rule and the whole run fail
        _finding("MCP005", "x" * 70, "h" * 101),  # help over 100
    ]
    rows = {row.rule: row for row in bench.table(findings)}
    assert list(rows) == ["MCP002", "MCP005", "all"]
    assert (rows["MCP002"].findings, rows["MCP002"].median, rows["MCP002"].p90, rows["MCP002"].longest) == (2, 90.0, 100, 100)
    assert rows["MCP002"].help_longest == 60 and rows["MCP002"].passed
    assert (rows["MCP005"].median, rows["MCP005"].longest, rows["MCP005"].help_longest) == (70.0, 121, 101)
    assert not rows["MCP005"].passed and not rows["all"].passed
    assert rows["all"].findings == 5 and rows["all"].median == 80.0


def test_a_median_over_90_fails_even_when_every_message_fits() -> None:
    rows = _bench().table([_finding("MCP001", "x" * 95), _finding("MCP001", "x" * 95), _finding("MCP001", "x" * 20)])
    assert rows[0].longest <= 120 and rows[0].median == 95.0 and not rows[0].passed


def test_the_table_says_pass_or_fail_per_rule() -> None:
    bench = _bench()
    text = bench.render(bench.table([_finding("MCP001", "x" * 50), _finding("MCP003", "x" * 130)]))
    assert "| MCP001 | 1 | 50 | 50 | 50 | 0 | PASS |" in text
    assert "| MCP003 | 1 | 130 | 130 | 130 | 0 | FAIL |" in text
    assert "| all | 2 | 90 | 130 | 130 | 0 | FAIL |" in text


# -- the rule pages' examples through every format ---------------------------------------------


@functools.cache
def _page_findings() -> tuple[tuple[Finding, ...], dict[str, str]]:
    """The findings of every python block of the rule pages (the known-wrong ones left out), each
    block's file named after the block so that reports can show its source."""
    findings: list[Finding] = []
    sources: dict[str, str] = {}
    for block in _all_blocks():
        if block.lang != "python" or "xfail" in block.options:
            continue
        name = f"{block.id}.py"
        sources[name] = block.text
        for finding in _lint(block):
            related = tuple(replace(r, filename=name) if r.filename == "server.py" else r for r in finding.related)
            findings.append(replace(finding, filename=name, related=related))
    findings.sort(key=Finding.sort_key)
    return tuple(findings), sources


def _lint(block: Block) -> list[Finding]:
    return lint_source(
        block.text, filename="server.py", target=block.options.get("target"), select=("MCP0", block.code), env_files=block.env_files()
    )


def test_page_examples_keep_the_length_limits() -> None:
    findings, _ = _page_findings()
    as_json = [{"code": f.code, "message": f.message, "help": f.help} for f in findings if f.code != "MCP000"]
    rows = _bench().table(as_json)
    failing = [row for row in rows if not row.passed]
    assert not failing, _bench().render(rows)
    # The examples exercise what the formats must show.
    assert any(f.related for f in findings) and any(f.notes for f in findings) and any(f.help for f in findings)
    assert {f.code for f in findings} >= {"MCP001", "MCP002", "MCP003", "MCP004", "MCP005", "MCP006", "MCP007", "MCP008", "MCP009"}


def _report(fmt: str) -> str:
    findings, sources = _page_findings()
    out = io.StringIO()
    write_report(findings, fmt, out, read_source=sources.get)
    return out.getvalue()


def _fixable(finding: Finding) -> bool:
    return finding.fix is not None and finding.fix.applicability is Applicability.SAFE


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_renders_the_page_examples(fmt: str) -> None:
    findings, _ = _page_findings()
    text = _report(fmt)
    if fmt == "full":
        for finding in findings:
            assert f"{finding.filename}:{finding.location.row}:{finding.location.column}: {finding.code} " in text
            if finding.help:
                assert f"= help: {finding.help}\n" in text
            for note in finding.notes:
                assert f"= note: {note}\n" in text
            for related in finding.related:
                where = f"::: {related.filename}:{related.location.row}:{related.location.column}: {related.message}\n"
                assert where in text
    elif fmt == "concise":
        # The message alone: no help, no notes.
        assert text.splitlines() == [
            f"{f.filename}:{f.location.row}:{f.location.column}: {f.code} {'[*] ' if _fixable(f) else ''}{f.message}" for f in findings
        ]
    elif fmt == "json":
        report = json.loads(text)
        assert [(item["message"], item["help"], item["notes"]) for item in report] == [
            (f.message, f.help or (f.fix.message if f.fix else None), list(f.notes)) for f in findings
        ]
        assert [[(r["location"]["row"], r["message"]) for r in item["related"]] for item in report] == [
            [(r.location.row, r.message) for r in f.related] for f in findings
        ]
    elif fmt == "json-lines":
        # One line per finding, each the object the `json` format lists.
        assert [json.loads(line) for line in text.splitlines()] == json.loads(_report("json"))
        assert len(text.splitlines()) == len(findings)
    elif fmt == "sarif":
        report = json.loads(text)
        assert schema_errors(report) == []
        results = report["runs"][0]["results"]
        assert [result["message"]["text"] for result in results] == [f.message for f in findings]
        assert [len(result.get("relatedLocations", [])) for result in results] == [len(f.related) for f in findings]
        for result, finding in zip(results, findings):
            if "fixes" in result:
                assert result["fixes"][0]["description"]["text"] == (finding.help or finding.fix.message)
        # A helper's finding and MCP007's each carry related locations.
        assert any(r["ruleId"] == "MCP007" and r.get("relatedLocations") for r in results)
        assert any(r["ruleId"] != "MCP007" and r.get("relatedLocations") for r in results)
    elif fmt == "github":
        lines = text.splitlines()
        assert len(lines) == len(findings)
        for line, finding in zip(lines, findings):
            name = registry.get_rule(finding.code).name
            assert line.startswith(f"::error title={finding.code} {name},")
            assert line.endswith(f"::{finding.code} {finding.message}".replace("%", "%25"))
    elif fmt == "gitlab":
        assert [issue["description"] for issue in json.loads(text)] == [f"{f.code} {f.message}" for f in findings]
    elif fmt == "junit":
        failures = ET.fromstring(text).iter("failure")
        assert [failure.get("message") for failure in failures] == [f.message for f in findings]
    else:  # a new format must say here what it shows of a finding
        pytest.fail(f"no check for the {fmt} format")


def test_a_helper_finding_names_the_tools_that_reach_it_at_their_definitions() -> None:
    source = (
        "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('notes')\nNOTES = {}\n\n\n"
        "def load(note_id: str) -> str:\n"
        "    if note_id not in NOTES:\n"
        "        return f'Error: note {note_id} not found'\n"
        "    return NOTES[note_id]\n\n\n"
        "@mcp.tool()\ndef read_note(note_id: str) -> str:\n    return load(note_id)\n\n\n"
        "@mcp.tool()\ndef show_note(note_id: str) -> str:\n    return load(note_id)\n"
    )
    (finding,) = lint_source(source, filename="server.py")
    assert finding.message == "Helper 'load' returns a failure string as a normal result"
    assert finding.notes[0] == "reached from tools 'read_note', 'show_note'"
    # Where the tools return the helper's value (the rest of its flow), then their definitions.
    assert [(r.location, r.end_location, r.message) for r in finding.related] == [
        (Location(15, 12), Location(15, 25), "returned on by `read_note()`"),
        (Location(20, 12), Location(20, 25), "returned on by `show_note()`"),
        (Location(14, 5), Location(14, 14), "tool 'read_note' reaches this helper"),
        (Location(19, 5), Location(19, 14), "tool 'show_note' reaches this helper"),
    ]
