"""Module names and imports across folders without `__init__.py` (PEP 420), src layouts and
several import roots in one run."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from cli_support import invoke_in
from mcp_lint.config import SettingsResolver
from mcp_lint.pipeline import lint_paths
from mcp_lint.module_names import module_name

SERVER = "from fastmcp import FastMCP\n\nmcp = FastMCP('notes')\n"
# A tool that returns a failure as a normal result (MCP005), registered on an imported server.
TOOL = """\
{imports}


@mcp.tool()
def read_note(note_id: str) -> str:
    note = load(note_id)
    if note is None:
        return "Error: note not found"
    return note
"""
# A helper whose failure text the tool returns (MCP005 reported in the helper).
HELPER = """\
def load_or_error(note_id):
    if not note_id:
        return {"error": "note id is empty"}
    return {"text": note_id}
"""
HELPER_TOOL = """\
{imports}


@mcp.tool()
def read_note(note_id: str) -> dict:
    return load_or_error(note_id)
"""


def write_tree(root: Path, files: dict[str, str]) -> list[Path]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return sorted(p for p in root.rglob("*.py"))


def findings(root: Path, files: dict[str, str], code: str = "MCP005") -> list[tuple[str, int]]:
    """(path relative to root, line) of every `code` finding when linting every file."""
    result = lint_paths(write_tree(root, files), SettingsResolver(isolated=True))
    assert result.internal_errors == []
    return sorted((Path(f.filename).relative_to(root).as_posix(), f.location.row) for f in result.findings if f.code == code)


def walk(root: Path, *args: str) -> list[str]:
    """`mcp-lint check` run from `root` (a directory walk: the prefilter decides what is read)."""
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--output-format", "concise", "-q", *args])
    return sorted(line.split(": ")[0] + " " + line.split(": ")[1].split()[0] for line in result.output.splitlines() if ": MCP" in line)


# -- names ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("marker", "relative", "dotted", "alias"),
    [
        ("pyproject.toml", "pkg/tools/cache.py", "pkg.tools.cache", "cache"),
        ("setup.py", "pkg/tools/cache.py", "pkg.tools.cache", "cache"),
        ("pkg-1.0.dist-info/METADATA", "pkg/tools/cache.py", "pkg.tools.cache", "cache"),
        ("pyproject.toml", "src/pkg/tools/cache.py", "pkg.tools.cache", "cache"),
        ("pyproject.toml", "server.py", "server", ""),
    ],
)
def test_namespace_folders_up_to_the_import_root_are_part_of_the_name(
    tmp_path: Path, marker: str, relative: str, dotted: str, alias: str
) -> None:
    write_tree(tmp_path, {marker: "", relative: ""})
    name = module_name(tmp_path / relative)
    assert (name.dotted, name.alias) == (dotted, alias)


def test_a_namespace_folder_inside_a_regular_package_keeps_the_package_name(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/index/advisor.py": ""})
    name = module_name(tmp_path / "pkg/index/advisor.py")
    assert (name.dotted, name.alias) == ("pkg.index.advisor", "advisor")


def test_without_an_import_root_only_the_init_chain_names_a_module(tmp_path: Path) -> None:
    # A loose folder of scripts (no project file above): `python scripts/run.py` imports siblings.
    write_tree(tmp_path, {"scripts/run.py": "", "pkg/__init__.py": "", "pkg/mod.py": ""})
    assert module_name(tmp_path / "scripts/run.py").dotted == "run"
    assert module_name(tmp_path / "pkg/mod.py").dotted == "pkg.mod"


def test_a_folder_name_that_is_not_an_identifier_stops_the_namespace(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": "", "my-tools/cache.py": ""})
    assert module_name(tmp_path / "my-tools/cache.py").dotted == "cache"


# -- imports between namespace folders --------------------------------------------------------------

NAMESPACE_IMPORTS = {
    "absolute": "from pkg.common.server import mcp\nfrom pkg.common.store import load",
    "relative": "from ..common.server import mcp\nfrom ..common.store import load",
    "module-attribute": "import pkg.common.server as server\nfrom pkg.common import store\nmcp = server.mcp\nload = store.load",
}


@pytest.mark.parametrize("imports", NAMESPACE_IMPORTS.values(), ids=NAMESPACE_IMPORTS.keys())
@pytest.mark.parametrize("layout", ["", "src/"])
def test_tool_on_a_server_of_a_namespace_package(tmp_path: Path, imports: str, layout: str) -> None:
    files = {
        "pyproject.toml": "[project]\nname = 'notes'\n",
        f"{layout}pkg/common/server.py": SERVER,
        f"{layout}pkg/common/store.py": "def load(note_id):\n    return None\n",
        f"{layout}pkg/tools/notes.py": TOOL.format(imports=imports),
    }
    failure_line = imports.count("\n") + 8  # `return "Error: note not found"`
    assert findings(tmp_path, files) == [(f"{layout}pkg/tools/notes.py", failure_line)]


def test_helper_in_a_namespace_folder_of_a_regular_package(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": "",
        "pkg/__init__.py": "",
        "pkg/server.py": SERVER + HELPER_TOOL.format(imports="from .index.helpers import load_or_error"),
        "pkg/index/helpers.py": HELPER,
    }
    assert findings(tmp_path, files) == [("pkg/index/helpers.py", 3)]
    assert walk(tmp_path) == ["pkg/index/helpers.py:3:9 MCP005"]


def test_two_projects_with_src_layouts_in_one_run(tmp_path: Path) -> None:
    # packages/api/src/api/... uses a helper of packages/core/src/core/... (a monorepo).
    files = {
        "packages/core/pyproject.toml": "",
        "packages/core/src/core/__init__.py": "",
        "packages/core/src/core/results.py": HELPER,
        "packages/api/pyproject.toml": "",
        "packages/api/src/api/__init__.py": "",
        "packages/api/src/api/server.py": SERVER + HELPER_TOOL.format(imports="from core.results import load_or_error"),
    }
    assert findings(tmp_path, files) == [("packages/core/src/core/results.py", 3)]
    assert walk(tmp_path, "packages/api", "packages/core") == ["packages/core/src/core/results.py:3:9 MCP005"]


def test_a_folder_named_src_with_an_init_is_a_package_not_an_import_root(tmp_path: Path) -> None:
    # `src/__init__.py` makes `src` itself the top package: its namespace subfolders are
    # `src.tools`, `src.server` (imported as `from src.tools.notes import ...`), not `tools`.
    write_tree(tmp_path, {"pyproject.toml": "", "src/__init__.py": "", "src/tools/notes.py": ""})
    assert module_name(tmp_path / "src/tools/notes.py").dotted == "src.tools.notes"
    # Without the `__init__.py` the folder is a src layout's root, as before.
    write_tree(tmp_path / "layout", {"pyproject.toml": "", "src/tools/notes.py": ""})
    assert module_name(tmp_path / "layout/src/tools/notes.py").dotted == "tools.notes"


@pytest.mark.parametrize("src_init", [True, False], ids=["package-named-src", "src-layout"])
def test_tools_imported_from_namespace_folders_of_a_package_named_src(tmp_path: Path, src_init: bool) -> None:
    # The server module registers functions of another namespace folder of the same `src`
    # package; with `src/__init__.py` the import names them, without it nothing resolves
    # `src.tools.notes` (a src layout has no package named `src`) and the tool is not linted.
    files = {
        "pyproject.toml": "",
        "src/tools/notes.py": "def read_note(note_id: str) -> str:\n    if not note_id:\n        return 'Error: note id is empty'\n    return note_id\n",
        "src/server/app.py": (
            "from mcp.server.fastmcp import FastMCP\n"
            "from src.tools.notes import read_note\n\n"
            "def create():\n    mcp = FastMCP('notes')\n    mcp.tool(description='Read')(read_note)\n    return mcp\n"
        ),
    }
    if src_init:
        files["src/__init__.py"] = ""
    assert findings(tmp_path, files) == ([("src/tools/notes.py", 3)] if src_init else [])


def test_a_script_importing_a_sibling_under_a_project_root(tmp_path: Path) -> None:
    # `python tools/server.py` puts tools/ on sys.path: `from helpers import ...` is tools/helpers.py.
    files = {
        "pyproject.toml": "",
        "tools/server.py": SERVER + HELPER_TOOL.format(imports="from helpers import load_or_error"),
        "tools/helpers.py": HELPER,
    }
    assert findings(tmp_path, files) == [("tools/helpers.py", 3)]
    assert walk(tmp_path) == ["tools/helpers.py:3:9 MCP005"]


def test_a_real_module_wins_over_a_namespace_alias(tmp_path: Path) -> None:
    # `helpers` is the top-level helpers.py, not tools/helpers.py (whose alias is also `helpers`).
    files = {
        "pyproject.toml": "",
        "helpers.py": "def load_or_error(note_id):\n    return {'text': note_id}\n",
        "tools/helpers.py": HELPER,
        "server.py": SERVER + HELPER_TOOL.format(imports="from helpers import load_or_error"),
    }
    assert findings(tmp_path, files) == []


def test_a_package_with_a_setup_module_is_not_an_import_root(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/setup.py": "", "pkg/tools/cache.py": ""})
    assert module_name(tmp_path / "pkg/tools/cache.py").dotted == "pkg.tools.cache"
