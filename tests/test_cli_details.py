"""Small command-line promises: statistics as JSON, no silent pass, readable long lines and
literals, CPython's own limits, and the `[*]` marker under the current flags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli
from mcp_lint.pipeline import lint_source
from rules._support import said

SERVER = '''\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(name: str) -> str:
    """Return one note."""
    if name not in NOTES:
        return f"Error: no note named {name}"
    return NOTES[name]


@mcp.tool()
def count_notes() -> int:
    """How many notes there are."""
    return len(NOTES)  # noqa: MCP003
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "server.py").write_text(SERVER)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return tmp_path


def check(*args: str):
    return CliRunner().invoke(cli, ["check", "--no-cache", *args], catch_exceptions=False)


def test_statistics_honour_the_json_format(project: Path) -> None:
    result = check("--statistics", "--output-format", "json", "--extend-select", "MCP100", ".")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == [
        {"code": "MCP005", "name": "error-returned-as-success", "count": 1, "fixable": False},
        {"code": "MCP100", "name": "unused-noqa", "count": 1, "fixable": True},
    ]
    unsafe = check("--statistics", "--output-format", "json", "--unsafe-fixes", ".")
    assert json.loads(unsafe.stdout)[0]["fixable"] is True


def test_a_run_that_finds_no_python_file_says_so(project: Path) -> None:
    (project / "docs").mkdir()
    (project / "docs" / "index.md").write_text("# docs\n")
    result = check("docs")
    assert result.exit_code == 0
    assert result.stderr == "mcp-lint: warning: no Python files found under the given paths\n"
    assert "All checks passed!" not in result.stdout


def test_writing_a_baseline_is_not_reported_as_a_pass(project: Path) -> None:
    result = check("--write-baseline", "baseline.json", ".")
    assert result.exit_code == 0
    assert "All checks passed!" not in result.stdout
    assert result.stderr == "Wrote 1 finding to the baseline baseline.json.\n"


@pytest.mark.parametrize("fmt", ["concise", "full"])
def test_the_fix_marker_follows_the_current_flags(project: Path, fmt: str) -> None:
    plain = check("--output-format", fmt, ".").stdout
    unsafe = check("--output-format", fmt, "--unsafe-fixes", ".").stdout
    assert "server.py:12:9: MCP005 Tool 'read_note'" in plain  # an unsafe fix: no marker by default
    assert "server.py:12:9: MCP005 [*] Tool 'read_note'" in unsafe
    assert "[*] 1 fixable with the `--fix` option." in unsafe


def test_the_full_format_shows_at_most_about_200_characters_of_a_long_line(project: Path) -> None:
    padding = "x" * 5000
    source = SERVER.replace('        return f"Error: no note named {name}"', f'        _ = "{padding}"; return f"Error: no note named {{name}}"')
    (project / "server.py").write_text(source)
    result = check("--output-format", "full", ".")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines[1:]) <= 260
    flagged = next(line for line in lines if line.startswith("12 |"))
    assert flagged.startswith("12 | …") and flagged.endswith('return f"Error: no note named {name}"')
    caret = lines[lines.index(flagged) + 1]
    assert caret.index("^") == flagged.index('return f"Error')


def test_a_file_cpython_refuses_is_mcp000_at_the_line_of_the_expression(project: Path) -> None:
    nested = "(" * 250 + "1" + ")" * 250
    (project / "deep.py").write_text(f"import os\n\nVALUE = {nested}\n")
    result = check("--output-format", "concise", "deep.py")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("deep.py:3:")
    assert "MCP000 CPython cannot compile this file: too many nested parentheses" in result.stdout


def test_a_quoted_literal_cut_short_ends_with_an_ellipsis() -> None:
    long = "Something went wrong, please try again later; we are sorry for the trouble this caused you and your team"
    source = (
        "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\n"
        f"def sync(name: str) -> str:\n    raise ValueError({long!r})\n"
    )
    [finding] = [f for f in lint_source(source) if f.code == "MCP003"]
    # A retry invitation is quoted in a note ("the message: '...'"), cut at a word when long.
    quoted = finding.notes[0].split("'", 1)[1].rsplit("'", 1)[0]
    assert quoted.endswith("…") and long.startswith(quoted[:-1].rstrip())
    short = source.replace(long, "Something went wrong")
    [finding] = [f for f in lint_source(short) if f.code == "MCP003"]
    assert "'Something went wrong'," in said(finding)
