"""`--target` is validated like the config key, warns when it cannot apply, and is credited as such."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

SERVER = '''\
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = MCPServer("notes")
NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(name: str) -> str:
    """Return one note."""
    if name not in NOTES:
        raise MCPError(ErrorData(code=INVALID_PARAMS, message=f"No note named {name}"))
    return NOTES[name]
'''


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "server.py").write_text(SERVER)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(*args: str):
    return CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", *args, "server.py"], catch_exceptions=False)


@pytest.mark.parametrize("target", ["mcp>=1.9,<1.9", "mcp>2.1,<=2.1", "fastmcp==3.*,!=3.*"])
def test_an_empty_range_is_an_error(server: Path, target: str) -> None:
    result = check("--target", target)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip() == (
        f"mcp-lint: error: --target: '{target}' admits no version at all (an empty range); "
        'give a version range such as "fastmcp>=3.4,<4"'
    )


def test_an_empty_range_in_the_config_is_an_error_naming_the_file(server: Path) -> None:
    (server / "pyproject.toml").write_text('[tool.mcp-lint]\ntarget = "mcp>=2,<2"\n')
    result = check()
    assert result.exit_code == 2
    assert result.stderr.startswith("mcp-lint: error: pyproject.toml: [tool.mcp-lint] target: 'mcp>=2,<2' admits no version")


@pytest.mark.parametrize("target", ["mcp>=1.9,<1.10", "mcp<1", "mcp>2,<2.0.1", "mcp", "mcp==2.1.0"])
def test_ranges_that_hold_a_version_are_accepted(server: Path, target: str) -> None:
    assert check("--target", target).exit_code == 1


def test_a_version_no_known_release_matches_is_a_clear_warning(server: Path) -> None:
    result = check("--target", "mcp>=20")
    assert "mcp-lint: warning: 'mcp>=20' (from --target) matches no mcp release mcp-lint knows (mcp 1.x, 2.x)" in result.stderr


def test_a_framework_no_file_imports_is_a_clear_warning(server: Path) -> None:
    result = check("--target", "fastmcp>=3")
    assert "mcp-lint: warning: 'fastmcp>=3' (from --target) names fastmcp, which no linted file imports" in result.stderr
    assert "warning" not in check("--target", "mcp>=2.1").stderr


def test_messages_credit_the_command_line_target_not_the_config(server: Path) -> None:
    # The release and where it came from are a finding's notes: the `full` output shows them.
    result = check("--target", "mcp>=2.1", "--output-format", "full")
    assert result.exit_code == 1
    assert "(from --target)" in result.stdout
    assert "[tool.mcp-lint] target" not in result.stdout
    (server / "pyproject.toml").write_text('[tool.mcp-lint]\ntarget = "mcp>=2.1"\n')
    from_config = check("--output-format", "full")
    assert "(from [tool.mcp-lint] target)" in from_config.stdout
