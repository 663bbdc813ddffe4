"""`mcp-lint check --watch` (issue 22): lint, lint again when a Python file or pyproject.toml
changes (screen cleared, a timestamped header), Ctrl-C ends it with exit 0; options that cannot
work on a rerun are a one-line usage error."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

pytest.importorskip("watchfiles")

CLEAN = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(name: str) -> str:
    return NOTES.get(name, "")
'''

DEFECT = '''

@mcp.tool()
def delete_note(name: str) -> str:
    if name not in NOTES:
        return f"Error: no note named {name}"
    del NOTES[name]
    return "deleted"
'''

HEADER = re.compile(r"\x1b\[2J\x1b\[3J\x1b\[H\[\d\d:\d\d:\d\d\] (Starting linter in watch mode|File change detected)\.\.\.")


class Watched:
    """`mcp-lint check --watch` in a subprocess, its stdout read line by line in a thread."""

    def __init__(self, project: Path, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("MCP_LINT_")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mcp_lint", "check", "--watch", "-n", "--output-format", "concise", *(args or (".",))],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def until(self, text: str, timeout: float = 60) -> list[str]:
        """The lines printed until one containing `text` (fails after `timeout` seconds)."""
        start = len(self.seen)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            self.seen.append(line)
            if text in line:
                return self.seen[start:]
        self.process.kill()
        raise AssertionError(f"no {text!r} within {timeout}s; printed: {''.join(self.seen)!r}")

    def interrupt(self) -> int:
        self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=30)


def test_a_change_is_linted_again_and_ctrl_c_exits_0(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "notes"\ndependencies = ["mcp>=1.9,<2"]\n')
    server = tmp_path / "server.py"
    server.write_text(CLEAN)
    watched = Watched(tmp_path)
    first = watched.until("Watching for file changes.")
    assert HEADER.match(first[0]) and "Starting linter in watch mode" in first[0]
    assert "All checks passed!\n" in first
    time.sleep(0.5)  # the watcher is up once the first run has printed; let it settle
    server.write_text(CLEAN + DEFECT)
    second = watched.until("Watching for file changes.")
    assert HEADER.match(second[0]) and "File change detected" in second[0]
    assert "server.py:15:9: MCP005 Tool 'delete_note' returns a failure string as a normal result\n" in second
    assert "Found 1 error.\n" in second
    # A changed configuration is read again: this one ignores the rule.
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "notes"\ndependencies = ["mcp>=1.9,<2"]\n\n[tool.mcp-lint]\nignore = ["MCP005"]\n'
    )
    third = watched.until("Watching for file changes.")
    assert "All checks passed!\n" in third
    assert watched.interrupt() == 0


def test_a_named_file_is_watched_with_its_projects_settings(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "notes"\ndependencies = ["mcp>=1.9,<2"]\n')
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "server.py").write_text(CLEAN + DEFECT)
    watched = Watched(tmp_path / "app", "server.py")
    first = watched.until("Watching for file changes.")
    assert "Found 1 error.\n" in first
    time.sleep(0.5)
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "notes"\ndependencies = ["mcp>=1.9,<2"]\n\n[tool.mcp-lint]\nignore = ["MCP005"]\n'
    )
    second = watched.until("Watching for file changes.")
    assert "File change detected" in second[0]
    assert "All checks passed!\n" in second
    assert watched.interrupt() == 0


@pytest.mark.parametrize(
    "args, named",
    [
        (["-"], "`-` (standard input)"),
        (["--stdin-filename", "server.py"], "`-` (standard input)"),
        (["--add-noqa", "."], "--add-noqa"),
        (["--write-baseline", "base.json", "."], "--write-baseline"),
        (["--output-format", "json", "."], "--output-format json"),
        (["-o", "report.txt", "."], "--output-file"),
        (["--show-settings", "."], "--show-settings"),
        (["-s", "."], "--silent"),
    ],
)
def test_options_a_rerun_cannot_serve_are_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], named: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--watch", *args], input="", catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr == f"mcp-lint: error: --watch cannot be combined with {named}\n"
    assert not (tmp_path / "base.json").exists() and not (tmp_path / "report.txt").exists()


def test_a_missing_path_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--watch", "gone"], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr == "mcp-lint: error: --watch: gone: no such file or directory\n"
