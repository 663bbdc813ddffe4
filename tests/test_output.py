"""The report writers, checked on what a user or a CI system reads from them.

Golden files live in tests/golden/output/; after an intended change of a format, regenerate them
with `MCP_LINT_UPDATE_GOLDEN=1 pytest tests/test_output.py` and review the diff.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

import mcp_lint
from mcp_lint import __version__, registry
from mcp_lint.findings import Applicability, Edit, Finding, Fix, Location, Related
from mcp_lint.output import FORMATS, write_report
from mcp_lint.output import sarif as sarif_writer
from sarif_support import golden_form, schema_errors

GOLDEN_DIR = Path(__file__).parent / "golden" / "output"
UPDATE_GOLDEN = os.environ.get("MCP_LINT_UPDATE_GOLDEN") == "1"
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")

# Tab-indented on purpose: the `full` format must keep its underline under the flagged text.
SERVER_SOURCE = (
    "from mcp.server.fastmcp import FastMCP\n"
    "from mcp.shared.exceptions import McpError\n"
    "from mcp.types import INVALID_PARAMS, ErrorData\n"
    "\n"
    'mcp = FastMCP("notes")\n'
    "\n"
    "\n"
    "@mcp.tool()\n"
    "def read_note(name: str) -> str:\n"
    "\tif not name:\n"
    '\t\traise McpError(ErrorData(code=INVALID_PARAMS, message="Note name is empty"))\n'
    "\treturn NOTES[name]  # noqa: MCP003\n"
)
BROKEN_SOURCE = "def broken(:\n    pass\n"

PROTOCOL_ERROR = Finding(
    code="MCP001",
    message="Tool 'read_note' raises McpError for a bad argument",
    filename="server.py",
    location=Location(11, 9),
    end_location=Location(11, 79),
    fix=Fix(
        Applicability.UNSAFE,
        "Raise ToolError instead",
        (
            Edit(Location(1, 1), Location(1, 1), "from mcp.server.fastmcp.exceptions import ToolError\n"),
            Edit(Location(11, 9), Location(11, 79), 'ToolError("Note name is empty")'),
        ),
    ),
    context="read_note",
    statement='raise McpError(ErrorData(code=INVALID_PARAMS, message="Note name is empty"))',
    statement_rows=(11, 11),
    help="Raise ToolError instead",
    notes=("on mcp 1.x FastMCP (from pyproject.toml) the model gets 'Error executing tool read_note: Note name is empty'",),
    related=(Related("server.py", Location(9, 5), Location(9, 14), "tool 'read_note' reaches it"),),
)
UNUSED_NOQA = Finding(
    code="MCP100",
    message="Unused `noqa` directive (unused: `MCP003`)",
    filename="server.py",
    location=Location(12, 22),
    end_location=Location(12, 36),
    fix=Fix(
        Applicability.SAFE,
        "Remove unused `noqa` directive",
        (Edit(Location(12, 20), Location(12, 36), ""),),
    ),
    context="read_note",
    statement="return NOTES[name]",
    statement_rows=(12, 12),
)
UNREADABLE = Finding(
    code="MCP000",
    message="Failed to parse broken.py:1:12: invalid syntax",
    filename="broken.py",
    location=Location(1, 12),
    end_location=Location(1, 12),
)
# Sorted as the CLI hands them over: by file, then position.
FINDINGS = (UNREADABLE, PROTOCOL_ERROR, UNUSED_NOQA)

FAKE_MCP001_DOC = """# protocol-error-in-tool (MCP001)

## What it does
Flags a tool handler that raises a JSON-RPC
protocol error for a failure of its own execution.

A second paragraph that is not part of the description.

## Why is this bad?
The model never sees the message.
"""

RUFF_JSON_KEYS = ["cell", "code", "end_location", "filename", "fix", "location", "message", "noqa_row", "url"]
# ruff's keys in ruff's order, and where mcp-lint's own fall in that (alphabetical) order.
JSON_KEYS = [
    "cell", "code", "end_location", "filename", "fix", "help", "location", "message", "name", "noqa_row", "notes", "related", "severity", "url"
]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The linted files, in the working directory as when the CLI runs from a checkout's root."""
    (tmp_path / "server.py").write_text(SERVER_SOURCE, encoding="utf-8")
    (tmp_path / "broken.py").write_text(BROKEN_SOURCE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # Golden SARIF must not change with the rule pages or the release number.
    monkeypatch.setattr(registry, "rule_doc", lambda code: FAKE_MCP001_DOC if code == "MCP001" else None)
    monkeypatch.setattr(sarif_writer, "__version__", "0.0.0-test")
    return Path.cwd()


def read_source(filename: str) -> str | None:
    try:
        return Path(filename).read_text(encoding="utf-8")
    except OSError:
        return None


def render(findings, fmt: str, **options) -> str:
    out = io.StringIO()
    write_report(findings, fmt, out, read_source=options.pop("read_source", read_source), **options)
    return out.getvalue()


def normalise_paths(text: str, root: Path) -> str:
    """Replace the (per-run) working directory by a placeholder in paths and file URIs."""
    return text.replace(root.as_uri(), "file:///ROOT").replace(str(root), "/ROOT")


def assert_matches_golden(text: str, name: str) -> None:
    golden = GOLDEN_DIR / name
    if UPDATE_GOLDEN:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8", newline="")
    # Line endings are compared as LF, whatever a Windows checkout made of the file.
    assert text == golden.read_bytes().decode("utf-8").replace("\r\n", "\n")


# --- every format ------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_three_findings_match_golden_output(fmt: str, project: Path) -> None:
    text = normalise_paths(render(FINDINGS, fmt), project)
    # SARIF's rule list is checked against the registry, not held in the golden file.
    assert_matches_golden(golden_form(text) if fmt == "sarif" else text, f"three_findings.{fmt}.txt")


EMPTY_OUTPUT = {
    "full": "",
    "concise": "",
    "json": "[]\n",
    "json-lines": "",
    "github": "",
    "gitlab": "[]\n",
    "junit": textwrap.dedent(
        """\
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="mcp-lint" tests="1" failures="0">
          <testsuite name="mcp-lint" tests="1" failures="0">
            <testcase name="No errors found" classname="mcp-lint" />
          </testsuite>
        </testsuites>
        """
    ),
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_findings(fmt: str, project: Path) -> None:
    text = render([], fmt)
    if fmt == "sarif":
        run = json.loads(text)["runs"][0]
        assert run["results"] == []
        assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == [r.code for r in registry.RULES]
    else:
        assert text == EMPTY_OUTPUT[fmt]


def test_unknown_format_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"unknown output format 'xml'; expected one of: full, concise"):
        render(FINDINGS, "xml")


def test_only_the_full_format_imports_rich() -> None:
    # A fresh interpreter, since this test process has imported rich already; `full` goes last.
    script = textwrap.dedent(
        """
        import io, sys
        from mcp_lint.output import FORMATS, write_report
        for fmt in sorted(FORMATS, key=lambda fmt: fmt == "full"):
            write_report([], fmt, io.StringIO(), read_source=lambda name: None)
            print(fmt, "rich" in sys.modules)
        write_report([], "full", io.StringIO(), read_source=lambda name: None, color=True)
        print("full+color", "rich" in sys.modules)
        """
    )
    # The child must import this checkout's mcp_lint however the test run found it.
    package_root = str(Path(mcp_lint.__file__).resolve().parents[1])
    python_path = os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": python_path}
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
    )
    others = [fmt for fmt in FORMATS if fmt != "full"]
    # Without colour the full format writes plain text itself; rich comes in for colour only.
    assert result.stdout.splitlines() == [*(f"{fmt} False" for fmt in others), "full False", "full+color True"]


# --- full ----------------------------------------------------------------------------------------


def test_full_has_no_escape_codes_without_color(project: Path) -> None:
    assert "\x1b" not in render(FINDINGS, "full", color=False)


def test_full_colours_only_add_escape_codes(project: Path) -> None:
    colored = render(FINDINGS, "full", color=True)
    assert "\x1b[1;31mMCP001\x1b[0m" in colored  # the code, bold red
    assert ANSI_ESCAPE.sub("", colored) == render(FINDINGS, "full", color=False)


def caret_line_below(text: str, source_fragment: str) -> tuple[str, str]:
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if source_fragment in line)
    return lines[index], lines[index + 1]


def test_full_underline_stays_under_the_span_after_tabs(project: Path) -> None:
    shown, underline = caret_line_below(render([PROTOCOL_ERROR], "full"), "raise McpError")
    span = 'McpError(ErrorData(code=INVALID_PARAMS, message="Note name is empty"))'
    assert "\t" not in shown
    assert underline.index("^") == shown.index(span)
    assert underline.rstrip().endswith("^" * len(span))
    assert len(underline.rstrip()) == shown.index(span) + len(span)


def test_full_underline_counts_terminal_cells_of_wide_characters(tmp_path: Path) -> None:
    source = 'def f():\n    x = "日本"; raise McpError(data)\n'
    finding = Finding("MCP001", "m", "wide.py", Location(2, 21), Location(2, 35))
    shown, underline = caret_line_below(render([finding], "full", read_source=lambda _: source), "raise")
    # Each of the two CJK characters takes two cells, so the underline starts two cells later
    # than the character index of `McpError`.
    assert underline.index("^") == shown.index("McpError") + 2
    assert underline.count("^") == len("McpError(data)")


def test_full_multi_line_span_is_underlined_to_the_end_of_its_first_line() -> None:
    source = "def f():\n    raise McpError(\n        data,\n    )\n"
    finding = Finding("MCP001", "m", "multi.py", Location(2, 11), Location(4, 6))
    shown, underline = caret_line_below(render([finding], "full", read_source=lambda _: source), "raise")
    assert underline == "  |           " + "^" * len("McpError(")


def test_full_without_source_shows_header_help_notes_and_related_locations() -> None:
    text = render([PROTOCOL_ERROR], "full", read_source=lambda _: None)
    assert text == (
        "server.py:11:9: MCP001 Tool 'read_note' raises McpError for a bad argument\n"
        "help: Raise ToolError instead\n"
        "note: on mcp 1.x FastMCP (from pyproject.toml) the model gets 'Error executing tool read_note: Note name is empty'\n"
        "   ::: server.py:9:5: tool 'read_note' reaches it\n"
    )


def test_full_shows_help_then_notes_then_each_related_location_with_its_own_frame(project: Path) -> None:
    text = render([PROTOCOL_ERROR], "full")
    assert text.split("   |\n", 2)[2] == (
        "   = help: Raise ToolError instead\n"
        "   = note: on mcp 1.x FastMCP (from pyproject.toml) the model gets 'Error executing tool read_note: Note name is empty'\n"
        "   ::: server.py:9:5: tool 'read_note' reaches it\n"
        "   |\n"
        " 9 | def read_note(name: str) -> str:\n"
        "   |     ^^^^^^^^^\n"
        "   |\n"
    )


def test_full_falls_back_to_the_fix_title_when_a_finding_has_no_help(project: Path) -> None:
    text = render([replace(PROTOCOL_ERROR, help="", notes=(), related=())], "full")
    assert text.endswith("   |\n   = help: Raise ToolError instead\n")
    assert "note:" not in text and ":::" not in text


def test_full_does_not_pass_control_characters_of_the_source_to_the_terminal() -> None:
    source = 'def f():\n    return "\x1b[2J" + x\n'
    finding = Finding("MCP005", "m", "esc.py", Location(2, 5), Location(2, 22))
    text = render([finding], "full", read_source=lambda _: source)
    assert "\x1b" not in text
    assert '2 |     return "\ufffd[2J" + x\n' in text


# --- concise -------------------------------------------------------------------------------------


def test_concise_marks_only_safe_fixes_and_can_leave_the_marker_out(project: Path) -> None:
    assert render(FINDINGS, "concise").splitlines() == [
        "broken.py:1:12: MCP000 Failed to parse broken.py:1:12: invalid syntax",
        "server.py:11:9: MCP001 Tool 'read_note' raises McpError for a bad argument",
        "server.py:12:22: MCP100 [*] Unused `noqa` directive (unused: `MCP003`)",
    ]
    assert "[*]" not in render(FINDINGS, "concise", show_fixes_hint=False)
    assert "[*]" not in render(FINDINGS, "full", show_fixes_hint=False)


# --- json ----------------------------------------------------------------------------------------


def test_json_has_ruffs_keys_in_ruffs_order_and_help_notes_related(project: Path) -> None:
    report = json.loads(render(FINDINGS, "json"))
    assert [list(item) for item in report] == [JSON_KEYS] * 3
    assert [key for key in JSON_KEYS if key in RUFF_JSON_KEYS] == RUFF_JSON_KEYS
    unsafe = report[1]
    assert unsafe["filename"] == str(project / "server.py")
    assert list(unsafe["fix"]) == ["applicability", "edits", "message"]
    assert [list(edit) for edit in unsafe["fix"]["edits"]] == [["content", "end_location", "location"]] * 2
    assert list(unsafe["location"]) == ["column", "row"]
    assert unsafe["fix"]["applicability"] == "unsafe"
    assert report[2]["fix"]["applicability"] == "safe"
    assert report[0]["fix"] is None and report[0]["url"].endswith("/rules/MCP000.md")  # its page ships
    assert (unsafe["name"], unsafe["severity"]) == ("protocol-error-in-tool", "major")
    assert unsafe["url"] == "https://github.com/mcp-lint/mcp-lint/blob/main/rules/MCP001.md"
    assert unsafe["help"] == "Raise ToolError instead"
    assert unsafe["notes"] == list(PROTOCOL_ERROR.notes)
    assert unsafe["related"] == [
        {
            "end_location": {"column": 14, "row": 9},
            "filename": str(project / "server.py"),
            "location": {"column": 5, "row": 9},
            "message": "tool 'read_note' reaches it",
        }
    ]
    # Without help of its own, a finding's help is its fix's title; without either, null.
    assert report[2]["help"] == "Remove unused `noqa` directive" and report[0]["help"] is None
    assert report[0]["notes"] == [] and report[0]["related"] == []


# --- sarif ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("findings", [FINDINGS, ()], ids=["three findings", "no findings"])
def test_sarif_is_valid_against_the_sarif_2_1_0_schema(findings, project: Path) -> None:
    report = json.loads(render(findings, "sarif"))
    assert schema_errors(report) == []


def test_sarif_describes_every_rule_and_links_results_to_them(project: Path) -> None:
    run = json.loads(render(FINDINGS, "sarif"))["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [rule.code for rule in registry.RULES]
    by_id = {rule["id"]: rule for rule in rules}
    assert by_id["MCP001"]["fullDescription"]["text"] == (
        "Flags a tool handler that raises a JSON-RPC protocol error for a failure of its own execution."
    )
    # Without a rule page, the summary stands in.
    assert by_id["MCP002"]["fullDescription"]["text"] == registry.get_rule("MCP002").summary
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    assert [result["level"] for result in run["results"]] == ["error", "error", "warning"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.as_uri() + "/"


def test_sarif_results_carry_related_locations_and_the_help_as_fix_description(project: Path) -> None:
    report = json.loads(render(FINDINGS, "sarif"))
    assert schema_errors(report) == []
    run = report["runs"][0]
    result = run["results"][1]
    assert result["message"] == {"text": PROTOCOL_ERROR.message}
    assert result["relatedLocations"] == [
        {
            "id": 0,
            "physicalLocation": {
                "artifactLocation": {"uri": "server.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 9, "startColumn": 5, "endLine": 9, "endColumn": 14},
            },
            "message": {"text": "tool 'read_note' reaches it"},
        }
    ]
    assert result["fixes"][0]["description"] == {"text": "Raise ToolError instead"}
    assert "relatedLocations" not in run["results"][2]
    # The rule's help comes from its page.
    mcp001 = run["tool"]["driver"]["rules"][result["ruleIndex"]]
    assert mcp001["help"] == {"text": "The model never sees the message.", "markdown": FAKE_MCP001_DOC}


def test_github_annotation_title_names_the_rule(project: Path) -> None:
    lines = render(FINDINGS, "github").splitlines()
    assert [line.split("title=", 1)[1].split(",", 1)[0] for line in lines] == [
        "MCP000 unreadable-file",
        "MCP001 protocol-error-in-tool",
        "MCP100 unused-noqa",
    ]
    assert lines[1].endswith("::MCP001 Tool 'read_note' raises McpError for a bad argument")


def test_sarif_leaves_out_display_only_fixes(project: Path) -> None:
    display_only = Finding(
        "MCP003", "Vague", "server.py", Location(1, 1), Location(1, 2),
        fix=Fix(Applicability.DISPLAY_ONLY, "Say what failed", (Edit(Location(1, 1), Location(1, 2), "x"),)),
    )
    results = json.loads(render([display_only, UNUSED_NOQA], "sarif"))["runs"][0]["results"]
    assert ["fixes" in result for result in results] == [False, True]


def test_sarif_reports_the_installed_version(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # the `project` fixture pins the version for the golden file
    driver = json.loads(render([], "sarif"))["runs"][0]["tool"]["driver"]
    assert driver["version"] == __version__


# --- github --------------------------------------------------------------------------------------


def test_github_escapes_workflow_command_delimiters() -> None:
    message = "100% failed:\nsee log, then retry"
    finding = Finding("MCP005", message, "dir,a/b:c.py", Location(3, 1), Location(3, 9))
    assert render([finding], "github") == (
        "::error title=MCP005 error-returned-as-success,file=dir%2Ca/b%3Ac.py,line=3,col=1,endLine=3,endColumn=9"
        "::MCP005 100%25 failed:%0Asee log, then retry\n"
    )


# --- gitlab --------------------------------------------------------------------------------------


def gitlab_fingerprints(findings) -> list[str]:
    return [issue["fingerprint"] for issue in json.loads(render(findings, "gitlab"))]


def test_gitlab_fingerprint_survives_lines_added_above(project: Path) -> None:
    moved = replace(PROTOCOL_ERROR, location=Location(40, 9), end_location=Location(40, 79))
    assert gitlab_fingerprints([PROTOCOL_ERROR]) == gitlab_fingerprints([moved])
    assert re.fullmatch(r"[0-9a-f]{64}", gitlab_fingerprints([moved])[0])


def test_gitlab_fingerprint_changes_with_the_flagged_statement(project: Path) -> None:
    other = replace(PROTOCOL_ERROR, statement="raise McpError(ErrorData(code=1, message='x'))")
    assert gitlab_fingerprints([PROTOCOL_ERROR]) != gitlab_fingerprints([other])


def test_gitlab_fingerprints_are_unique_within_a_report(project: Path) -> None:
    twin = replace(PROTOCOL_ERROR, location=Location(30, 9), end_location=Location(30, 79))
    first, second = gitlab_fingerprints([PROTOCOL_ERROR, twin])
    assert first != second
    assert first == gitlab_fingerprints([PROTOCOL_ERROR])[0]


# --- junit ---------------------------------------------------------------------------------------


def test_junit_groups_findings_into_one_suite_per_file(project: Path) -> None:
    root = ET.fromstring(render(FINDINGS, "junit").encode("utf-8"))
    assert (root.get("tests"), root.get("failures")) == ("3", "3")
    suites = {suite.get("name"): [case.get("name") for case in suite] for suite in root}
    assert suites == {
        "broken.py": ["org.mcp_lint.MCP000"],
        "server.py": ["org.mcp_lint.MCP001", "org.mcp_lint.MCP100"],
    }
    failure = root.find("testsuite/testcase[@line='12']/failure")
    assert failure is not None
    assert failure.text == "server.py:12:22: Unused `noqa` directive (unused: `MCP003`)"
