"""`--write-baseline` / `--baseline`: accept today's findings, report only new ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

SERVER = '''\
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(name: str) -> str:
    """Return a note."""
    if name not in NOTES:
        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"No note {name}"))
    return NOTES[name]
'''
FLAGGED = '        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"No note {name}"))\n'
# The same defect once more, in the same function: two identical findings.
TWICE = SERVER.replace("    return NOTES[name]\n", "    if not name:\n" + FLAGGED + "    return NOTES[name]\n")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", "--isolated", "--no-cache", *args], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "server.py").write_text(SERVER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def rows(output: str) -> list[str]:
    return [line.split(" ")[0] for line in output.splitlines() if " MCP" in line]


def test_writing_a_baseline_accepts_every_finding(project: Path) -> None:
    code, output = run("--output-format", "concise", "src")
    assert (code, rows(output)) == (1, ["src/server.py:13:9:"])
    code, output = run("--write-baseline", "baseline.json", "src")
    assert (code, output) == (0, "Wrote 1 finding to the baseline baseline.json.\n1 baselined finding not shown.\n")
    assert run("--baseline", "baseline.json", "src") == (0, "All checks passed!\n1 baselined finding not shown.\n")


def test_baseline_file_is_versioned_sorted_and_relative_to_its_own_directory(project: Path) -> None:
    (project / "src" / "other.py").write_text(SERVER.replace("read_note", "get_note"), encoding="utf-8")
    (project / "ci").mkdir()
    run("--write-baseline", "ci/baseline.json", "src")
    text = (project / "ci" / "baseline.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["version"] == 1
    assert [(e["file"], e["code"], e["context"], e["count"]) for e in data["findings"]] == [
        ("../src/other.py", "MCP001", "get_note", 1),
        ("../src/server.py", "MCP001", "read_note", 1),
    ]
    assert [len(e["statement_sha256"]) for e in data["findings"]] == [16, 16]
    # Same statement, same hash: the key does not depend on the function's name or the line.
    assert data["findings"][0]["statement_sha256"] == data["findings"][1]["statement_sha256"]
    # One entry per line, so that a diff of the baseline shows one line per finding.
    assert text.splitlines()[:3] == ["{", '  "version": 1,', '  "findings": [']
    assert text.count("\n") == 7
    # Writing again is byte-identical.
    run("--write-baseline", "ci/baseline.json", "src")
    assert (project / "ci" / "baseline.json").read_text(encoding="utf-8") == text


def test_baseline_still_holds_after_an_unrelated_edit_above_the_finding(project: Path) -> None:
    run("--write-baseline", "baseline.json", "src")
    server = project / "src" / "server.py"
    edited = SERVER.replace('NOTES: dict[str, str] = {}\n', 'NOTES: dict[str, str] = {}\n\n\ndef helper() -> int:\n    return 1\n')
    server.write_text(edited, encoding="utf-8")
    assert run("--output-format", "concise", "src")[0] == 1  # the finding moved down by four lines
    assert run("--baseline", "baseline.json", "--output-format", "concise", "src") == (
        0,
        "All checks passed!\n1 baselined finding not shown.\n",
    )


def test_editing_the_flagged_statement_reports_it_again(project: Path) -> None:
    run("--write-baseline", "baseline.json", "src")
    server = project / "src" / "server.py"
    server.write_text(SERVER.replace('f"No note {name}"', 'f"Unknown note {name}"'), encoding="utf-8")
    code, output = run("--baseline", "baseline.json", "--output-format", "concise", "src")
    assert (code, rows(output)) == (1, ["src/server.py:13:9:"])


def test_a_new_finding_in_another_function_is_reported(project: Path) -> None:
    run("--write-baseline", "baseline.json", "src")
    server = project / "src" / "server.py"
    server.write_text(SERVER + "\n\n" + SERVER.split("\n\n\n", 1)[1].replace("read_note", "peek_note"), encoding="utf-8")
    code, output = run("--baseline", "baseline.json", "--output-format", "concise", "src")
    assert (code, rows(output)) == (1, ["src/server.py:21:9:"])


def test_baseline_counts_identical_findings(project: Path) -> None:
    run("--write-baseline", "baseline.json", "src")
    server = project / "src" / "server.py"
    server.write_text(TWICE, encoding="utf-8")
    # One entry accepts one of the two identical findings; the other is new.
    code, output = run("--baseline", "baseline.json", "--output-format", "concise", "src")
    assert (code, len(rows(output))) == (1, 1)
    run("--write-baseline", "baseline.json", "src")
    assert [e["count"] for e in json.loads(Path("baseline.json").read_text(encoding="utf-8"))["findings"]] == [2]
    assert run("--baseline", "baseline.json", "src")[0] == 0


def test_baseline_works_from_another_working_directory(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run("--write-baseline", "baseline.json", "src")
    monkeypatch.chdir(project / "src")
    assert run("--baseline", "../baseline.json", "server.py")[0] == 0


def test_machine_formats_leave_baselined_findings_out(project: Path) -> None:
    run("--write-baseline", "baseline.json", "src")
    assert run("--baseline", "baseline.json", "--output-format", "json", "src") == (0, "[]\n")


def test_unreadable_files_are_never_baselined(project: Path) -> None:
    # A tool module (a directory walk skips the files no tool can reach) that does not parse.
    (project / "src" / "broken.py").write_text("@mcp.tool()\ndef broken(:\n", encoding="utf-8")
    code, output = run("--write-baseline", "baseline.json", "--output-format", "concise", "src")
    assert code == 1
    assert [row.split(":")[0] for row in rows(output)] == ["src/broken.py"]
    assert [e["file"] for e in json.loads(Path("baseline.json").read_text(encoding="utf-8"))["findings"]] == ["src/server.py"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "baseline.json: cannot read the baseline: No such file or directory"),
        ("{", "baseline.json: not a baseline file (invalid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"),
        ("[]", "baseline.json: not a baseline file (expected a JSON object with a `version`)"),
        ('{"version": 2, "findings": []}', "baseline.json: unsupported baseline version 2 (this mcp-lint reads version 1)"),
        ('{"version": 1, "findings": {}}', "baseline.json: `findings` must be a list"),
        ('{"version": 1, "findings": [{"file": "a.py"}]}', "baseline.json: entry 1 needs the string fields file, code, context, statement_sha256"),
        (
            '{"version": 1, "findings": [{"file": "a.py", "code": "MCP001", "context": "", "statement_sha256": "", "count": 0}]}',
            "baseline.json: entry 1: `count` must be a positive integer",
        ),
    ],
)
def test_a_bad_baseline_is_one_clear_error(project: Path, content: str | None, message: str) -> None:
    if content is not None:
        Path("baseline.json").write_text(content, encoding="utf-8")
    code, output = run("--baseline", "baseline.json", "src")
    assert code == 2
    assert output.endswith(f"mcp-lint: error: {message}\n")
