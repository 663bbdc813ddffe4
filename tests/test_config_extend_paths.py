"""`extend` reads an extended file's paths as ruff does: relative to the file that declares them
(issue 22), not to the file that extends it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

SERVER = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("{name}")
NOTES: dict[str, str] = {{}}


@mcp.tool()
def read_{name}(name: str) -> str:
    if name not in NOTES:
        return f"Error: no note named {{name}}"
    return NOTES[name]
'''

# The shared settings at the top of a repository; the service's own file extends them.
BASE = """\
[tool.mcp-lint]
exclude = ["svc/generated/"]
per-file-ignores = { "svc/legacy/*.py" = ["MCP005"], "other/*.py" = ["MCP005"] }
cache-dir = ".shared_cache"
"""


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(BASE)
    (tmp_path / "svc").mkdir()
    (tmp_path / "svc" / "pyproject.toml").write_text('[project]\nname = "svc"\n\n[tool.mcp-lint]\nextend = "../pyproject.toml"\n')
    for name in ("legacy", "other", "generated"):
        (tmp_path / "svc" / name).mkdir()
        (tmp_path / "svc" / name / f"{name}_server.py").write_text(SERVER.format(name=name))
    monkeypatch.chdir(tmp_path / "svc")
    return tmp_path


def check(*args: str):
    return CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)


def test_patterns_of_an_extended_file_are_relative_to_that_file(repository: Path) -> None:
    result = check("-n", "--output-format", "concise", ".")
    # `svc/legacy/*.py` and `svc/generated/` name the service's folders from the top of the
    # repository; `other/*.py` names a top-level folder the service does not have.
    assert [line.split(":")[0] for line in result.stdout.splitlines() if ": MCP" in line] == ["other/other_server.py"]
    assert result.exit_code == 1


def test_show_settings_restates_them_relative_to_the_extending_file(repository: Path) -> None:
    shown = check("--show-settings", "legacy/legacy_server.py").stdout
    assert 'exclude = ["/generated/"]' in shown
    assert 'per-file-ignores = {"/legacy/*.py": ["MCP005"]}' in shown


def test_the_cache_directory_of_an_extended_file_is_beside_it(repository: Path) -> None:
    check(".")
    assert (repository / ".shared_cache").is_dir()
    assert not (repository / "svc" / ".shared_cache").exists()
