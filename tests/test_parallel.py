"""Parallel analysis: the output does not depend on --jobs, and one file never starts a pool."""

from __future__ import annotations

import concurrent.futures
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli
from mcp_lint.pipeline import analyze_all

TOOLS = """\
from mcp.server.fastmcp import FastMCP

from shared import fetch

mcp = FastMCP("{name}")


@mcp.tool()
def get_{name}(key: str) -> str:
    try:
        return fetch(key)
    except KeyError as exc:
        return f"Error: {{exc}}"


@mcp.tool()
def put_{name}(key: str, value: str) -> str:
    if not key:
        raise ValueError("Invalid input")
    return value
"""
SHARED = """\
def fetch(key):
    try:
        with open(key) as handle:
            return handle.read()
    except OSError as exc:
        raise ValueError(f"cannot read: {exc}")
"""


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    for name in ("alpha", "beta", "gamma", "delta", "epsilon"):
        (root / f"{name}.py").write_text(TOOLS.format(name=name), encoding="utf-8")
    (root / "shared.py").write_text(SHARED, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", "--output-format", "concise", *args])
    return result.exit_code, result.output


def test_output_is_the_same_for_any_number_of_jobs(project: Path) -> None:
    serial = run(".", "--no-cache", "--jobs", "1")
    assert serial[0] == 1
    # 3 findings in each of the 5 tool modules (`return f"Error: {exc}"` is MCP002 and MCP005,
    # "Invalid input" MCP003), 1 in the helper they share, 2 summary lines.
    assert serial[1].count("\n") == 18
    assert "shared.py:6:15: MCP002 Helper 'fetch' " in serial[1]
    for jobs in ("2", "3", "8"):
        assert run(".", "--no-cache", "--jobs", jobs) == serial
    # And with the cache, cold then warm.
    assert run(".", "--jobs", "2") == serial
    assert run(".", "--jobs", "2") == serial
    assert run(".", "--jobs", "1") == serial


def test_outcomes_come_back_in_path_order(project: Path) -> None:
    paths = sorted(project.glob("*.py"))
    outcomes = analyze_all(paths, 2)
    assert [o.display for o in outcomes] == [str(p) for p in paths]
    assert all(o.summary is not None for o in outcomes)


class _NoPool:
    def __init__(self, *args, **kwargs) -> None:
        raise AssertionError("a process pool was started")


def test_one_file_is_analysed_without_a_pool(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _NoPool)
    code, output = run("alpha.py", "--no-cache", "--jobs", "4")
    assert code == 1
    assert output.startswith("alpha.py:")
    # A walk whose analyses all come from the cache does not start one either.
    monkeypatch.undo()
    monkeypatch.chdir(project)
    cold = run(".", "--jobs", "2")
    (project / "unrelated.py").write_text("x = 1\n", encoding="utf-8")  # misses the run entry only
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _NoPool)
    assert run(".", "--jobs", "4") == cold


def test_fixes_are_the_same_for_any_number_of_jobs(project: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(project, copy)
    serial = run(str(project), "--no-cache", "--fix", "--unsafe-fixes", "--jobs", "1")
    parallel = run(str(copy), "--no-cache", "--fix", "--unsafe-fixes", "--jobs", "2")
    assert parallel[0] == serial[0]
    assert parallel[1].replace(str(copy), str(project)) == serial[1]
    for path in sorted(project.glob("*.py")):
        assert (copy / path.name).read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    assert (project / "alpha.py").read_text(encoding="utf-8") != TOOLS.format(name="alpha")



def _dies_on_crash_py(path_text, source=None, codes=None, copies=()):  # module level: the pool pickles it by name
    import os

    from mcp_lint.analysis import analyze_source  # noqa: F401 - the real work below
    from mcp_lint.per_file import analyze_text, display_name
    from mcp_lint.fileio import read_source
    from pathlib import Path

    if path_text.endswith("crash.py"):
        os._exit(70)  # what a native stack overflow in the parser looks like to the pool
    path = Path(path_text)
    return analyze_text(source or read_source(path), path, display_name(path), codes, copies)


def test_a_worker_that_dies_costs_one_file_not_the_run(tmp_path, monkeypatch) -> None:
    from pathlib import Path

    from mcp_lint import per_file
    from mcp_lint.pipeline import analyze_all

    for name in ("a.py", "crash.py", "b.py"):
        (tmp_path / name).write_text("from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n", encoding="utf-8")
    monkeypatch.setattr(per_file, "analyze_path", _dies_on_crash_py)
    paths = sorted(Path(tmp_path).glob("*.py"))
    outcomes = analyze_all(paths, 2)
    by_name = {Path(o.display).name: o for o in outcomes}
    assert by_name["crash.py"].problem is not None
    assert by_name["crash.py"].problem.message == "the parser crashed on this file"
    assert by_name["a.py"].summary is not None and by_name["b.py"].summary is not None
