"""`mcp-lint check --output-format X` end to end, on one small server, and `check -` (stdin).

Golden files live in tests/golden/cli/; after an intended change (a rule's message, a format),
regenerate them with `MCP_LINT_UPDATE_GOLDEN=1 pytest tests/test_cli_output.py` and review the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import mcp_lint
from mcp_lint import registry
from mcp_lint.cli import cli
from mcp_lint.output import FORMATS
from mcp_lint.output import sarif as sarif_writer
from sarif_support import golden_form, schema_errors

GOLDEN_DIR = Path(__file__).parent / "golden" / "cli"
UPDATE_GOLDEN = os.environ.get("MCP_LINT_UPDATE_GOLDEN") == "1"
PACKAGE_ROOT = Path(mcp_lint.__file__).resolve().parents[1]

SERVER = '''\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(name: str) -> str:
    """Return the text of one note."""
    if name not in NOTES:
        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"No note named {name}"))
    return NOTES[name]


@mcp.tool()
async def import_note(url: str) -> str:
    """Fetch a note from a URL."""
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(url)
    except Exception as e:
        return f"Error: {e}"
    NOTES[url] = response.text
    return "imported"


@mcp.tool()
def count_notes() -> int:
    """How many notes there are."""
    return len(NOTES)  # noqa: MCP003
'''
# MCP100 is off by default; selecting it puts a finding with a safe fix into every report.
CHECK = ["check", "--no-cache", "--isolated", "--extend-select", "MCP100", "server.py"]
FAKE_DOC = "# {code}\n\n## What it does\nThe rule page of {code}, as a test stands it in.\n"


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    # The reports must not change with the rule pages (written separately) or the release number.
    monkeypatch.setattr(registry, "rule_doc", lambda code: FAKE_DOC.format(code=code))
    monkeypatch.setattr(sarif_writer, "__version__", "0.0.0-test")
    return tmp_path


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def assert_matches_golden(text: str, name: str) -> None:
    golden = GOLDEN_DIR / name
    if UPDATE_GOLDEN:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8", newline="")
    assert text == golden.read_bytes().decode("utf-8").replace("\r\n", "\n")


def normalise(text: str, root: Path) -> str:
    return text.replace(root.as_uri(), "file:///ROOT").replace(str(root), "/ROOT")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_matches_its_golden_report(fmt: str, server: Path) -> None:
    code, output = run_cli(*CHECK, "--output-format", fmt)
    assert code == 1
    text = normalise(output, server)
    # SARIF's rule list is checked against the registry, not held in the golden file.
    assert_matches_golden(golden_form(text) if fmt == "sarif" else text, f"server.{fmt}.txt")


def test_output_file_holds_the_same_report_as_stdout(server: Path) -> None:
    _, printed = run_cli(*CHECK, "--output-format", "sarif")
    code, output = run_cli(*CHECK, "--output-format", "sarif", "-o", "report.sarif")
    assert code == 1
    assert output == ""
    assert (server / "report.sarif").read_text(encoding="utf-8") == printed


def test_sarif_report_is_valid_against_the_schema(server: Path) -> None:
    _, output = run_cli(*CHECK, "--output-format", "sarif")
    report = json.loads(output)
    assert schema_errors(report) == []
    results = report["runs"][0]["results"]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results] == ["server.py"] * 4
    # Only the safe MCP100 fix and the unsafe fixes are offered; every result points at its rule.
    # The `return f"Error: {e}"` statement carries MCP005 and MCP002: each rule reports its own.
    assert [r["ruleId"] for r in results] == ["MCP001", "MCP005", "MCP002", "MCP100"]


def test_junit_report_is_well_formed_xml_with_one_failure_per_finding(server: Path) -> None:
    _, output = run_cli(*CHECK, "--output-format", "junit")
    suites = ET.fromstring(output)
    assert suites.get("failures") == "4"
    assert [case.get("name") for case in suites.iter("testcase")] == [
        "org.mcp_lint.MCP001",
        "org.mcp_lint.MCP005",
        "org.mcp_lint.MCP002",
        "org.mcp_lint.MCP100",
    ]


def test_clean_server_gives_empty_machine_reports_and_exit_zero(server: Path) -> None:
    # (A server with no tool at all checks nothing and exits 2: tests/test_empty_servers.py.)
    clean = "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\ndef ping() -> str:\n    return 'pong'\n"
    (server / "server.py").write_text(clean, encoding="utf-8")
    assert run_cli(*CHECK, "--output-format", "github") == (0, "")
    assert run_cli(*CHECK, "--output-format", "gitlab") == (0, "[]\n")
    assert run_cli(*CHECK, "--output-format", "json") == (0, "[]\n")


# --- stdin (editors) -----------------------------------------------------------------------------


def run_stdin(text: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(PACKAGE_ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "mcp_lint", "check", "--no-cache", "--isolated", *args, "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
    )


def test_stdin_is_reported_under_the_stdin_filename(tmp_path: Path) -> None:
    result = run_stdin(SERVER, "--stdin-filename", "app/notes.py", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    # Line 25 returns a caught exception's text as a success: MCP005 (channel) and MCP002 (content,
    # whose fix is the one offered for the statement).
    assert [line.split(" ")[0] for line in lines[:3]] == ["app/notes.py:14:9:", "app/notes.py:25:9:", "app/notes.py:25:16:"]
    assert [line.split(" ")[1] for line in lines[:3]] == ["MCP001", "MCP005", "MCP002"]
    assert lines[3:] == ["Found 3 errors.", "3 more fixes available with `--fix --unsafe-fixes`."]  # one fix mends MCP005 and MCP002
    assert result.stderr == ""


def test_stdin_fix_writes_the_fixed_code_to_stdout_and_what_remains_to_stderr(tmp_path: Path) -> None:
    result = run_stdin(SERVER, "--stdin-filename", "notes.py", "--extend-select", "MCP100", "--fix", cwd=tmp_path)
    # The safe fix (the unused suppression) is applied; the unsafe ones are not.
    assert result.stdout == SERVER.replace("return len(NOTES)  # noqa: MCP003", "return len(NOTES)")
    assert [line.split(" ")[:2] for line in result.stderr.splitlines()] == [
        ["notes.py:14:9:", "MCP001"],
        ["notes.py:25:9:", "MCP005"],
        ["notes.py:25:16:", "MCP002"],
    ]
    assert result.returncode == 1
    assert list(tmp_path.iterdir()) == []  # nothing written to disk


def test_stdin_fix_of_clean_code_echoes_it_and_exits_zero(tmp_path: Path) -> None:
    clean = "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\ndef ping() -> str:\n    return 'pong'\n"
    result = run_stdin(clean, "--stdin-filename", "clean.py", "--fix", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, clean, "")
