"""Fixtures for the probe tests that start real servers: cached server venvs and a CLI runner."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from .venvs import FASTMCP, MCP1, TIME_SERVER, server_python

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
BROKEN_SERVER = Path(__file__).resolve().parent / "servers" / "broken_stdio.py"
# Generous: two cores shared with other work, and a probe makes dozens of calls.
CLI_TIMEOUT = 600


@dataclass
class ProbeRun:
    code: int
    stdout: str
    stderr: str

    @property
    def findings(self) -> list[dict]:
        return json.loads(self.stdout)

    def pairs(self) -> set[tuple[str | None, int]]:
        return {(f["tool"], f["check"]) for f in self.findings}

    def finding(self, tool: str | None, check: int) -> dict:
        (found,) = [f for f in self.findings if (f["tool"], f["check"]) == (tool, check)]
        return found


def run_cli(*args: str, env: dict[str, str] | None = None) -> ProbeRun:
    """`mcp-lint probe ARGS` as a user runs it, from the repository root."""
    import os

    completed = subprocess.run(
        [sys.executable, "-m", "mcp_lint", "probe", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
        env={**os.environ, **(env or {})},
    )
    return ProbeRun(completed.returncode, completed.stdout, completed.stderr)


@pytest.fixture(scope="session")
def needs_mcp_client() -> None:
    pytest.importorskip("mcp.client.stdio", reason='the probe needs the [probe] extra: pip install -e ".[test]"')


@pytest.fixture(scope="session")
def mcp1_python(needs_mcp_client: None) -> str:
    return str(server_python("mcp1", MCP1))


@pytest.fixture(scope="session")
def fastmcp_python(needs_mcp_client: None) -> str:
    return str(server_python("fastmcp", FASTMCP))


@pytest.fixture(scope="session")
def time_server_python(needs_mcp_client: None) -> str:
    return str(server_python("time", TIME_SERVER))
