"""ruff's command-line conveniences: --show-settings, --show-files, --extend-exclude,
--config KEY=VALUE, and `mcp-lint rule NAME`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint import registry
from mcp_lint.cli import cli

SERVER = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(name: str) -> str:
    """Return one note."""
    if name not in NOTES:
        return f"Error: no note named {name}"
    return NOTES[name]
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("app/server.py", "app/gen/api_pb2.py", "build/out.py", "legacy/old.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(SERVER)
    (tmp_path / "pyproject.toml").write_text('[tool.mcp-lint]\nexclude = ["legacy/"]\nignore = ["MCP003"]\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_show_files_lists_what_a_check_would_lint(project: Path) -> None:
    result = run("check", "--show-files", ".")
    assert (result.exit_code, result.stdout) == (0, "app/gen/api_pb2.py\napp/server.py\n")  # build/ and legacy/ are skipped


def test_extend_exclude_adds_patterns_relative_to_the_working_directory(project: Path) -> None:
    result = run("check", "--show-files", "--extend-exclude", "*_pb2.py,nothing/", ".")
    assert (result.exit_code, result.stdout) == (0, "app/server.py\n")
    checked = run("check", "--no-cache", "--output-format", "concise", "--extend-exclude", "app/", ".")
    assert checked.exit_code == 0 and ": MCP" not in checked.stdout


def test_show_settings_prints_the_resolved_settings_of_a_file(project: Path) -> None:
    result = run("check", "--show-settings", "--target", "mcp>=1.9", "--extend-exclude", "gen/", "app/server.py")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:3] == ['Resolved settings for: "app/server.py"', f'Settings path: "{project / "pyproject.toml"}"', 'Project root: "."']
    assert 'ignore = ["MCP003"]' in lines
    enabled = [rule.code for rule in registry.RULES if rule.default_enabled and rule.code != "MCP003"]
    assert "enabled = " + json.dumps(enabled) in lines
    assert 'exclude = ["legacy/"]' in lines and 'extend-exclude = ["gen/"]' in lines
    assert 'target = "mcp>=1.9"' in lines and 'target-from = "--target"' in lines


def test_config_key_value_overrides_the_file_and_is_validated(project: Path) -> None:
    result = run("check", "--no-cache", "--output-format", "concise", "--config", 'select = ["MCP001"]', "app/server.py")
    assert (result.exit_code, result.stdout) == (0, "All checks passed!\n")
    shown = run("check", "--show-settings", "--config", 'ignore = ["MCP005"]', "--config", 'target = "fastmcp>=3"', "app")
    assert 'ignore = ["MCP005"]' in shown.stdout.splitlines()
    assert 'target-from = "--config target"' in shown.stdout.splitlines()
    bad = run("check", "--config", 'select = ["NOPE"]', ".")
    assert bad.exit_code == 2
    assert bad.stderr.startswith("mcp-lint: error: --config 'select = [\"NOPE\"]': select: unknown rule code or prefix 'NOPE'")
    unknown = run("check", "--config", "colour=1", ".")
    assert (unknown.exit_code, unknown.stderr.splitlines()[0][:52]) == (2, "mcp-lint: error: --config 'colour=1': unknown key 'c")


def test_config_path_still_names_a_pyproject(project: Path) -> None:
    (project / "strict.toml").write_text('[tool.mcp-lint]\nselect = ["MCP001"]\n')
    result = run("check", "--no-cache", "--config", "strict.toml", "--config", 'select = ["MCP005"]', "--output-format", "concise", "app/server.py")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("app/server.py:11:9: MCP005 ")


@pytest.mark.parametrize("name", ["raw-exception-text", "RAW_EXCEPTION_TEXT", "MCP002", "mcp002"])
def test_rule_by_code_or_name(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("rule", name)
    assert result.exit_code == 0
    assert result.stdout.startswith("# MCP002 raw-exception-text")


def test_unknown_rule_name_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("rule", "raw-text")
    assert (result.exit_code, result.stderr) == (2, "mcp-lint: error: unknown rule name 'raw-text' (try `mcp-lint rule --all`)\n")
