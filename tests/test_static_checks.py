"""The package passes the static checks .ci/run runs: `ruff check --select F,B` and vulture with
its whitelist (.ci/vulture_whitelist.py) at 60% confidence."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def run_tool(module: str, *args: str) -> subprocess.CompletedProcess:
    pytest.importorskip(module, reason=f"{module} is not installed (pip install -e '.[test]')")
    return subprocess.run([sys.executable, "-m", module, *args], cwd=REPO, capture_output=True, text=True, timeout=300)


def test_ruff_pyflakes_and_bugbear_find_nothing_in_the_package() -> None:
    done = run_tool("ruff", "check", "--select", "F,B", "--output-format", "concise", "--no-cache", "mcp_lint/")
    assert done.returncode == 0, done.stdout


def test_vulture_finds_no_dead_code_in_the_package() -> None:
    # The rule classes are loaded by the name their registry line gives (.ci/rule_classes.py).
    classes = subprocess.run([sys.executable, ".ci/rule_classes.py"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    assert "ProtocolErrorInTool" in classes.split(",")
    done = run_tool("vulture", "mcp_lint/", ".ci/vulture_whitelist.py", "--min-confidence", "60", "--ignore-names", classes)
    assert done.returncode == 0, done.stdout
