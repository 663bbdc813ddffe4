"""A module that puts a folder of the project on `sys.path` imports that folder's modules by the
end of their names (`import helpers` for `pkg/agents/helpers.py`): the helpers its tools call
are found there (linking/names.module_name_ends, prefilter.NextFiles._ends). Without such a
folder on the path, a bare import names a library, not the project's module."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

SERVER = (
    "import os\nimport sys\n\nfrom fastmcp import FastMCP\n\n"
    "sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'agents'))\n\n"
    "import helpers  # noqa: E402\n\nmcp = FastMCP('x')\n\n\n"
    "@mcp.tool()\ndef lookup(key: str) -> str:\n    return helpers.fetch(key)\n"
)
HELPERS = "def fetch(key: str) -> str:\n    if not key:\n        return 'Error: key is required'\n    return key\n"


def _project(root: Path, server: str) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'pkg'\ndependencies = ['fastmcp>=2.10']\n")
    (root / "pkg" / "agents").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "agents" / "__init__.py").write_text("")
    (root / "pkg" / "server.py").write_text(server)
    (root / "pkg" / "agents" / "helpers.py").write_text(HELPERS)


def _lines(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> list[str]:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--select", "MCP005", "--output-format", "concise", *args, "."], catch_exceptions=False)
    return [" ".join(line.split(" ")[:2]) for line in result.stdout.splitlines() if ": MCP" in line]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bare_import_of_a_folder_put_on_sys_path_reaches_the_projects_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str) -> None:
    _project(tmp_path, SERVER)
    assert _lines(tmp_path, monkeypatch, "--jobs", jobs) == ["pkg/agents/helpers.py:3:9: MCP005"]


def test_without_the_folder_on_sys_path_a_bare_import_is_a_librarys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, SERVER.replace("sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'agents'))\n\n", ""))
    assert _lines(tmp_path, monkeypatch) == []


def test_an_end_two_modules_share_names_neither(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, SERVER)
    (tmp_path / "pkg" / "other").mkdir()
    (tmp_path / "pkg" / "other" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "other" / "helpers.py").write_text(HELPERS)
    assert _lines(tmp_path, monkeypatch) == []


def _next_files(root: Path, server: str) -> tuple[object, dict]:
    from mcp_lint.per_file import read_inputs
    from mcp_lint.prefilter import NextFiles

    root.mkdir()
    _project(root, server)
    # A vendored copy whose dotted name ends like the framework's own module (`vendor.mcp.server`).
    (root / "pkg" / "vendor" / "mcp").mkdir(parents=True)
    for folder in (root / "pkg" / "vendor", root / "pkg" / "vendor" / "mcp"):
        (folder / "__init__.py").write_text("")
    (root / "pkg" / "vendor" / "mcp" / "server.py").write_text("def run() -> None:\n    pass\n")
    paths = sorted(root.rglob("*.py"))
    return NextFiles(read_inputs(paths)), {str(p.relative_to(root)): i for i, p in enumerate(paths)}


def test_a_name_end_asks_for_a_module_only_where_a_folder_is_put_on_sys_path(tmp_path: Path) -> None:
    # Without any `sys.path` change the link step never follows a name by its end, so the
    # prefilter does not analyse `pkg/vendor/mcp/server.py` for the framework's `mcp.server...`.
    plain, _ = _next_files(tmp_path / "plain", SERVER.replace("sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'agents'))\n\n", ""))
    assert plain.asked_for({"mcp.server.fastmcp.FastMCP"}, {}, set()) == set()
    extended, index = _next_files(tmp_path / "extended", SERVER)
    assert extended.asked_for({"mcp.server.fastmcp.FastMCP"}, {}, set()) == {index["pkg/vendor/mcp/server.py"]}
    assert extended.asked_for({"helpers.fetch"}, {}, set()) == {index["pkg/agents/helpers.py"]}
