"""Files named on the command line (pre-commit, editors) and stdin are linted in their project.

A tool in `pkg/server.py` that returns `load(item_id)` makes `pkg/helpers.py`'s failures reach the
model; `mcp-lint check pkg/helpers.py` must know that, although `server.py` was not named.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import mcp_lint
from mcp_lint.cli import cli
from mcp_lint.discovery import project_root
from mcp_lint.module_names import ModuleName
from mcp_lint.prefilter import imported_modules, importers

PACKAGE_ROOT = Path(mcp_lint.__file__).resolve().parents[1]

PYPROJECT = '[project]\nname = "items"\ndependencies = ["mcp>=1.9"]\n'
SERVER = '''\
from mcp.server.fastmcp import FastMCP

from pkg.helpers import load

mcp = FastMCP("items")


@mcp.tool()
def get_item(item_id: str) -> str:
    """Fetch one item."""
    return load(item_id)


@mcp.tool()
def delete_item(item_id: str) -> str:
    """Delete one item."""
    if not item_id:
        return "Error: item_id is required"
    return "deleted"
'''
HELPERS = '''\
import httpx
from mcp.server.fastmcp.exceptions import ToolError


def load(item_id: str) -> str:
    try:
        return httpx.get(f"https://items.example/{item_id}").text
    except httpx.HTTPError as e:
        raise ToolError(f"could not load {item_id}: {e}")
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {"pyproject.toml": PYPROJECT, "pkg/__init__.py": "", "pkg/server.py": SERVER, "pkg/helpers.py": HELPERS}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return tmp_path


def check(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["check", "--output-format", "concise", *args], input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def finding_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if ": MCP" in line]


# --- explicit files -------------------------------------------------------------------------------


@pytest.mark.parametrize("cache", [["--no-cache"], []], ids=["no-cache", "cache"])
def test_a_named_helper_is_reported_through_the_tool_of_another_module(project: Path, cache: list[str]) -> None:
    for _ in range(2):  # the second run with a cache is a warm one
        code, out, _ = check(*cache, "pkg/helpers.py")
        lines = finding_lines(out)
        assert code == 1
        assert len(lines) == 1
        assert lines[0].startswith("pkg/helpers.py:9:15: MCP002 Helper 'load'")


def test_findings_in_files_that_were_not_named_are_not_shown(project: Path) -> None:
    _, whole, _ = check("--no-cache", ".")
    assert {line.split(":")[0] for line in finding_lines(whole)} == {"pkg/helpers.py", "pkg/server.py"}
    code, out, _ = check("--no-cache", "pkg/server.py")
    assert code == 1
    assert [line.split(" ")[:2] for line in finding_lines(out)] == [["pkg/server.py:18:9:", "MCP005"]]


def test_a_named_helper_is_found_from_a_subdirectory_and_by_absolute_path(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = check("--no-cache", str(project / "pkg" / "helpers.py"))
    assert code == 1 and finding_lines(out)[0].startswith(f"{project / 'pkg' / 'helpers.py'}:9:15: MCP002")
    monkeypatch.chdir(project / "pkg")
    code, out, _ = check("--no-cache", "helpers.py")
    assert code == 1 and finding_lines(out)[0].startswith("helpers.py:9:15: MCP002")


def test_a_helper_no_tool_imports_stays_clean(project: Path) -> None:
    (project / "pkg" / "server.py").write_text(SERVER.replace("from pkg.helpers import load\n", "load = len\n"))
    code, out, _ = check("--no-cache", "pkg/helpers.py")
    assert (code, finding_lines(out)) == (0, [])


def test_a_file_outside_any_marked_project_is_linted_as_a_walk_of_the_working_directory_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No pyproject.toml, setup.cfg or .git above (an unpacked wheel, a scratch checkout): the
    # working directory is the context, as `check .` would give it.
    (tmp_path / "server.py").write_text(SERVER.replace("pkg.helpers", "helpers"))
    (tmp_path / "helpers.py").write_text(HELPERS)
    monkeypatch.chdir(tmp_path)
    _, walked, _ = check("--no-cache", ".")
    code, out, err = check("--no-cache", "helpers.py")
    assert code == 1, err
    assert finding_lines(out) == [line for line in finding_lines(walked) if line.startswith("helpers.py:")]
    assert [line.split(" ")[:2] for line in finding_lines(out)] == [["helpers.py:9:15:", "MCP002"]]
    stdin_code, stdin_out, _ = check("--no-cache", "--stdin-filename", "helpers.py", "-", stdin=HELPERS)
    assert (stdin_code, finding_lines(stdin_out)) == (1, finding_lines(out))


def test_a_file_outside_any_project_and_the_working_directory_is_linted_alone_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lone = tmp_path / "lone"
    lone.mkdir()
    (lone / "server.py").write_text(SERVER.replace("pkg.helpers", "helpers"))
    (lone / "helpers.py").write_text(HELPERS)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, out, err = check("--no-cache", "../lone/helpers.py")
    assert finding_lines(out) == []
    assert code == 2
    assert err.splitlines()[0] == (
        "mcp-lint: warning: ../lone/helpers.py is in no project (no pyproject.toml, setup.cfg or .git above it) "
        "and not below the working directory: linted alone, without the other modules whose tools may reach it"
    )


def test_an_excluded_project_file_is_not_context_and_the_named_file_still_reported(project: Path) -> None:
    (project / "pyproject.toml").write_text(PYPROJECT + '\n[tool.mcp-lint]\nexclude = ["pkg/server.py"]\n')
    code, out, err = check("--no-cache", "pkg/helpers.py")
    # The project's only tool module is excluded: nothing reaches the helper, nothing was checked.
    assert err.startswith("mcp-lint: warning: 1 file linted, but no MCP server or tool was found in it"), err
    assert (code, finding_lines(out)) == (2, [])


# --- stdin -------------------------------------------------------------------------------------------


def test_stdin_named_as_a_project_file_is_linted_in_its_project(project: Path) -> None:
    (project / "pkg" / "helpers.py").write_text("def load(item_id):\n    return item_id\n")  # the saved text is clean
    code, out, _ = check("--no-cache", "--stdin-filename", "pkg/helpers.py", "-", stdin=HELPERS)
    assert code == 1
    assert [line.split(" ")[:2] for line in finding_lines(out)] == [["pkg/helpers.py:9:15:", "MCP002"]]


def test_stdin_filename_without_a_dash_reads_stdin_and_touches_no_file(project: Path) -> None:
    before = {path: path.read_text() for path in project.rglob("*.py")}
    code, out, err = check("--no-cache", "--stdin-filename", "other.py", "--fix", "--unsafe-fixes", stdin="x = 1\n")
    assert (code, out) == (0, "x = 1\n")
    assert {path: path.read_text() for path in project.rglob("*.py")} == before


def test_stdin_filename_ignores_other_paths_with_a_warning(project: Path) -> None:
    code, out, err = check("--no-cache", "--stdin-filename", "other.py", "pkg", stdin="x = 1\n")
    assert code == 0
    assert "ignoring pkg in favour of standard input" in err
    assert finding_lines(out) == []


def test_a_dash_with_other_paths_is_a_usage_error(project: Path) -> None:
    code, out, err = check("-", "pkg/helpers.py", stdin="x = 1\n")
    assert code == 2
    assert err.strip() == "mcp-lint: error: `-` (read stdin) cannot be combined with other paths"
    assert out == ""


def test_stdin_filename_without_a_dash_in_a_real_process(project: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "mcp_lint", "check", "--no-cache", "--output-format", "concise", "--stdin-filename", "pkg/helpers.py"],
        input=HELPERS,
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    assert finding_lines(result.stdout)[0].startswith("pkg/helpers.py:9:15: MCP002")


# --- the parts ---------------------------------------------------------------------------------------


def test_project_root_is_the_nearest_directory_with_a_marker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    (tmp_path / "a" / ".git").mkdir()
    assert project_root(Path("a/b/c/x.py")) == Path("a")
    (tmp_path / "a" / "b" / "setup.cfg").write_text("")
    assert project_root(Path("a/b/c/x.py")) == Path("a/b")
    (tmp_path / "a" / "b" / "c" / "pyproject.toml").write_text("")
    assert project_root(Path("a/b/c/x.py")) == Path("a/b/c")
    assert project_root(Path("elsewhere.py")) is None


def test_the_home_directory_is_never_a_project_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".git").mkdir()  # a dotfiles repository
    (tmp_path / "scripts").mkdir()
    assert project_root(tmp_path / "scripts" / "tool.py") is None


def test_imported_modules_read_every_import_form() -> None:
    text = b"from .store import (\n    load as get,\n    save,\n)\nimport app.db.session as s, cfg\nif x:\n    from pkg import *\n"
    assert imported_modules(text, ModuleName("proj.tools.items", False)) == {
        "proj.tools.store",
        "proj.tools.store.load",
        "proj.tools.store.save",
        "app",
        "app.db",
        "app.db.session",
        "cfg",
        "pkg",
    }
    assert imported_modules(b"x = 'no imports here'\nimportant = 1\n", ModuleName("m", False)) == set()


def test_relative_imports_resolve_against_the_importing_module() -> None:
    assert imported_modules(b"from . import a\nfrom ..b import c\n", ModuleName("p.q", True)) == {"p.q", "p.q.a", "p.b", "p.b.c"}
    # More dots than the name has packages: the path is kept from where the name runs out.
    assert imported_modules(b"from ...x import y\n", ModuleName("top", False)) == {"x", "x.y"}


def test_a_module_named_like_a_library_package_is_not_imported_by_that_package() -> None:
    names = [ModuleName(n, False) for n in ("app.server", "app.tools", "app.other_tools")]
    texts = [
        b"import os\n",
        b"from mcp.server.fastmcp import FastMCP\nfrom mcp import server\n",  # the library's server, not app.server
        b"from app.server import settings\n",
    ]
    assert importers(texts, names, [0]) == {0, 2}


def test_an_import_root_placed_differently_still_matches_by_dotted_suffix() -> None:
    names = [ModuleName(n, False) for n in ("src_tree.app.helpers", "tool", "unrelated")]
    texts = [b"", b"from app.helpers import load\n", b"from other.helpers import load\n"]
    assert importers(texts, names, [0]) == {0, 1}


def test_importers_follow_chains_and_leave_unrelated_modules_out() -> None:
    names = [ModuleName(n, n.endswith("pkg")) for n in ("pkg.server", "pkg.service", "pkg.helpers", "pkg.other", "pkg")]
    texts = [
        b"from pkg.service import Service\n",  # server -> service
        b"from . import helpers\n",  # service -> helpers
        b"import json\n",
        b"from pkg.server import mcp\n",  # other -> server, never -> helpers' importers below it
        b"from .helpers import load\n",  # the package re-exports a helper
    ]
    assert importers(texts, names, [2]) == {0, 1, 2, 3, 4}
    assert importers(texts, names, [1]) == {0, 1, 3}
    assert importers(texts, names, [3]) == {3}
