"""No run shows a false green: a broken configuration yields no passing report in any format."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli
from mcp_lint.output import FORMATS

BROKEN = '[tool.mcp-lint]\nselect = ["NOPE"]\n'
ERROR = "mcp-lint: error: sub/pyproject.toml: [tool.mcp-lint] select: unknown rule code or prefix 'NOPE'"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "sub").mkdir()
    (tmp_path / "app.py").write_text("x = 1\n")
    (tmp_path / "sub" / "tool.py").write_text("y = 2\n")
    (tmp_path / "sub" / "pyproject.toml").write_text(BROKEN)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, ["check", "--no-cache", *args], input=stdin, catch_exceptions=False)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("target", [".", "sub/tool.py", "sub"])
def test_a_broken_configuration_gives_exit_2_and_no_report(project: Path, fmt: str, target: str) -> None:
    result = check("--output-format", fmt, target)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert [line[: len(ERROR)] for line in result.stderr.splitlines()] == [ERROR]


@pytest.mark.parametrize("fmt", ["json", "junit", "sarif", "gitlab"])
def test_a_broken_configuration_writes_no_report_file(project: Path, fmt: str) -> None:
    result = check("--output-format", fmt, "-o", "report.out", ".")
    assert result.exit_code == 2
    assert not (project / "report.out").exists()


@pytest.mark.parametrize("extra", [["--statistics"], ["--fix"], ["--diff"], ["--write-baseline", "base.json"]])
def test_no_mode_turns_a_broken_configuration_into_a_pass(project: Path, extra: list[str]) -> None:
    result = check(*extra, ".")
    assert result.exit_code == 2
    assert "All checks passed!" not in result.stdout
    assert not (project / "base.json").exists()


def test_stdin_under_a_broken_configuration_is_an_error(project: Path) -> None:
    result = check("--stdin-filename", "sub/tool.py", stdin="y = 2\n")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(ERROR)
