"""The ruff options users reach for, as `mcp-lint check` offers them: what each one changes in
the exit code, the output and the files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

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

CLEAN_SERVER = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


@mcp.tool()
def count_notes() -> int:
    """How many notes there are."""
    return 0
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "server.py").write_text(SERVER)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for name in [name for name in __import__("os").environ if name.startswith("MCP_LINT_")]:
        monkeypatch.delenv(name)
    return tmp_path


def check(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, ["check", *args], catch_exceptions=False, env=env)


def codes(report: str) -> list[str]:
    """The rule codes of a concise report, in order."""
    return [line.split()[1] for line in report.splitlines() if line.startswith("server.py:")]


def test_short_e_exits_zero_with_findings(project: Path) -> None:
    plain = check("--no-cache", ".")
    assert plain.exit_code == 1
    short = check("--no-cache", "-e", ".")
    assert short.exit_code == 0
    assert "MCP005" in short.stdout and "Found 1 error." in short.stdout


def test_short_n_leaves_no_cache_behind(project: Path) -> None:
    result = check("-n", ".")
    assert result.exit_code == 1 and "MCP005" in result.stdout
    assert not (project / ".mcp_lint_cache").exists()
    check(".")
    assert (project / ".mcp_lint_cache").exists()  # the test would pass for nothing otherwise


def test_quiet_prints_findings_without_the_summary(project: Path) -> None:
    result = check("-n", "-q", "--output-format", "concise", ".")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == ["server.py:12:9: MCP005 Tool 'read_note' returns a failure string as a normal result"]
    assert "Found" not in check("-n", "--quiet", ".").stdout


def test_silent_prints_nothing_and_keeps_the_exit_code(project: Path) -> None:
    result = check("-n", "-s", ".")
    assert result.exit_code == 1 and result.stdout == ""
    assert check("-n", "--silent", "--diff", "--unsafe-fixes", ".").stdout == ""
    (project / "server.py").write_text(CLEAN_SERVER)
    clean = check("-n", "--silent", ".")
    assert clean.exit_code == 0 and clean.stdout == ""


def test_silent_still_writes_the_output_file(project: Path) -> None:
    result = check("-n", "-s", "--output-format", "json", "-o", "report.json", ".")
    assert result.exit_code == 1 and result.stdout == ""
    assert [f["code"] for f in json.loads((project / "report.json").read_text())] == ["MCP005"]


def test_ignore_noqa_reports_what_a_noqa_comment_hides(project: Path) -> None:
    server = project / "server.py"
    server.write_text(SERVER.replace('return f"Error: no note named {name}"', 'return f"Error: no note named {name}"  # noqa: MCP005'))
    hidden = check("--output-format", "concise", "--extend-select", "MCP100", ".")
    assert codes(hidden.stdout) == ["MCP100"]  # MCP003's noqa is unused
    shown = check("--ignore-noqa", "--output-format", "concise", "--extend-select", "MCP100", ".")
    assert shown.exit_code == 1
    # The suppressed MCP005 is back; with every comment ignored none is "unused" (no MCP100).
    assert shown.stdout.splitlines()[0].startswith("server.py:12:9: MCP005 ")
    assert codes(shown.stdout) == ["MCP005"]
    # The run with the flag did not replace the stored findings of the plain run.
    again = check("--output-format", "concise", "--extend-select", "MCP100", ".")
    assert again.stdout == hidden.stdout


def test_fix_only_applies_fixes_and_reports_nothing_else(project: Path) -> None:
    result = check("-n", "--fix-only", "--extend-select", "MCP100", ".")
    assert result.exit_code == 0  # MCP005 remains, yet --fix-only passes
    assert result.stdout == "Fixed 1 error.\n"
    assert "# noqa" not in (project / "server.py").read_text()
    assert "return len(NOTES)\n" in (project / "server.py").read_text()
    nothing = check("-n", "--fix-only", "--extend-select", "MCP100", ".")
    assert nothing.exit_code == 0 and nothing.stdout == ""
    strict = check("-n", "--fix-only", "--exit-non-zero-on-fix", "--unsafe-fixes", ".")
    assert strict.exit_code == 1 and strict.stdout == "Fixed 1 error.\n"
    assert "raise ToolError(" in (project / "server.py").read_text()


def test_fix_only_still_fails_on_an_error(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.mcp-lint]\nselect = 3\n")
    result = check("-n", "--fix-only", ".")
    assert result.exit_code == 2
    assert "select must be an array of strings" in result.stderr


def test_config_fix_true_fixes_and_no_fix_overrides_it(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nfix = true\nselect = ["MCP0", "MCP100"]\n')
    kept = check("-n", "--no-fix", ".")
    assert kept.exit_code == 1
    assert "# noqa: MCP003" in (project / "server.py").read_text()
    assert "1 fixable with the `--fix` option" in kept.stdout
    fixed = check("-n", ".")
    assert "# noqa" not in (project / "server.py").read_text()
    assert "(1 fixed, 1 remaining)" in fixed.stdout
    assert fixed.exit_code == 1


def test_no_fix_with_fix_is_a_usage_error(project: Path) -> None:
    result = check("-n", "--fix", "--no-fix", ".")
    assert result.exit_code == 2 and "--no-fix cannot be combined with --fix" in result.stderr
    assert "# noqa: MCP003" in (project / "server.py").read_text()


def test_config_fix_must_be_a_boolean(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nfix = "yes"\n')
    result = check("-n", ".")
    assert result.exit_code == 2
    assert "fix must be true or false, got" in result.stderr


def test_json_lines_writes_one_json_object_per_finding(project: Path) -> None:
    result = check("-n", "--output-format", "json-lines", "--extend-select", "MCP100", ".")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2  # no summary: a machine format
    objects = [json.loads(line) for line in lines]
    assert [(o["code"], o["location"]["row"], o["name"]) for o in objects] == [
        ("MCP005", 12, "error-returned-as-success"),
        ("MCP100", 19, "unused-noqa"),
    ]
    # The same objects as the `json` format's list, in the same order.
    whole = check("-n", "--output-format", "json", "--extend-select", "MCP100", ".")
    assert objects == json.loads(whole.stdout)


def test_json_lines_without_findings_is_empty(project: Path) -> None:
    (project / "server.py").write_text(CLEAN_SERVER)
    result = check("-n", "--output-format", "json-lines", ".")
    assert result.exit_code == 0 and result.stdout == ""


def test_environment_variables_set_options(project: Path) -> None:
    result = check("--output-format", "concise", env={"MCP_LINT_NO_CACHE": "1"}, )
    assert result.exit_code == 1
    assert not (project / ".mcp_lint_cache").exists()
    from_env = check("-n", ".", env={"MCP_LINT_OUTPUT_FORMAT": "json-lines"})
    assert [json.loads(line)["code"] for line in from_env.stdout.splitlines()] == ["MCP005"]
    # The command line wins over the environment.
    flag = check("-n", "--output-format", "concise", ".", env={"MCP_LINT_OUTPUT_FORMAT": "json"})
    assert flag.stdout.startswith("server.py:12:9: MCP005 ")
    check(".", env={"MCP_LINT_CACHE_DIR": "elsewhere"})
    assert (project / "elsewhere").is_dir() and not (project / ".mcp_lint_cache").exists()


def test_a_bad_environment_value_is_a_usage_error(project: Path) -> None:
    result = check("-n", ".", env={"MCP_LINT_OUTPUT_FORMAT": "xml"})
    assert result.exit_code == 2
    assert "MCP_LINT_OUTPUT_FORMAT" in result.stderr or "'xml' is not one of" in result.stderr


def test_help_names_the_environment_variables(project: Path) -> None:
    text = check("--help").stdout
    for name in ("MCP_LINT_OUTPUT_FORMAT", "MCP_LINT_NO_CACHE", "MCP_LINT_CACHE_DIR"):
        assert name in text
    for option in ("-e, --exit-zero", "-n, --no-cache", "-s, --silent", "--ignore-noqa", "--fix-only", "--no-fix", "json-lines"):
        assert option in text
