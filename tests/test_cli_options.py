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


def test_config_extend_select_adds_a_rule(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nextend-select = ["MCP100"]\n')
    result = check("-n", "--output-format", "concise", ".")
    assert codes(result.stdout) == ["MCP005", "MCP100"]
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nselect = ["MCP005"]\nextend-select = ["MCP100"]\n')
    assert codes(check("-n", "--output-format", "concise", ".").stdout) == ["MCP005", "MCP100"]


def test_unfixable_rule_is_neither_offered_nor_fixed(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nextend-select = ["MCP100"]\nunfixable = ["MCP100"]\n')
    shown = check("-n", "--output-format", "concise", ".")
    assert "server.py:19:24: MCP100 Unused" in shown.stdout  # no [*]
    assert "fixable with the `--fix` option" not in shown.stdout
    assert [f["fix"] for f in json.loads(check("-n", "--output-format", "json", ".").stdout) if f["code"] == "MCP100"] == [None]
    fixed = check("-n", "--fix", ".")
    assert "# noqa: MCP003" in (project / "server.py").read_text()
    assert "fixed" not in fixed.stdout


def test_fixable_limits_fixes_to_the_rules_it_names(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nextend-select = ["MCP100"]\nfixable = ["MCP100"]\n')
    check("-n", "--fix", "--unsafe-fixes", ".")
    text = (project / "server.py").read_text()
    assert "# noqa" not in text  # MCP100 fixed
    assert 'return f"Error: no note named {name}"' in text  # MCP005's unsafe fix not applied
    # The more specific selector decides: unfixable MCP1 yet fixable MCP100.
    (project / "server.py").write_text(SERVER)
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nextend-select = ["MCP100"]\nfixable = ["MCP100"]\nunfixable = ["MCP1"]\n')
    check("-n", "--fix", ".")
    assert "# noqa" not in (project / "server.py").read_text()


def test_extend_reads_the_base_configuration_first(project: Path) -> None:
    (project / "shared").mkdir()
    (project / "shared" / "base.toml").write_text('[tool.mcp-lint]\nselect = ["MCP0"]\nextend-select = ["MCP100"]\nunfixable = ["MCP100"]\n')
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nextend = "shared/base.toml"\nignore = ["MCP005"]\n')
    result = check("-n", "--output-format", "concise", ".")
    assert codes(result.stdout) == ["MCP100"]  # the base's selection, this file's ignore
    assert "[*]" not in result.stdout  # the base's unfixable
    # This file's own select replaces the base's selection, its extend-select included.
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nextend = "shared/base.toml"\nselect = ["MCP005"]\n')
    assert codes(check("-n", "--output-format", "concise", ".").stdout) == ["MCP005"]


def test_extend_errors_name_the_file(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nextend = "missing.toml"\n')
    missing = check("-n", ".")
    assert missing.exit_code == 2
    assert "pyproject.toml: [tool.mcp-lint] extend: no such file 'missing.toml'" in missing.stderr
    (project / "a.toml").write_text('[tool.mcp-lint]\nextend = "pyproject.toml"\n')
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nextend = "a.toml"\n')
    cycle = check("-n", ".")
    assert cycle.exit_code == 2 and "(a cycle)" in cycle.stderr


def test_show_settings_shows_the_fix_keys(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\nfix = true\nunfixable = ["MCP1"]\n')
    lines = check("--show-settings", ".").stdout.splitlines()
    assert "fix = true" in lines and 'fixable = ["ALL"]' in lines and 'unfixable = ["MCP1"]' in lines
    assert "# noqa: MCP003" in (project / "server.py").read_text()  # showing settings fixes nothing
