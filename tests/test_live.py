"""Linting an editor's unsaved buffer in its project: `runner.lint_buffer` and `live.LiveProject`.

The buffer replaces the file's text on disk; the project's other files are its context, so a tool
of another module that reaches a helper counts, as for `mcp-lint check FILE`. A LiveProject keeps
the analyses of unchanged files between edits: an edit re-analyses the edited file only.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint import per_file
from mcp_lint.cli import cli
from mcp_lint.config import SettingsResolver
from mcp_lint.live import LiveProject
from mcp_lint.runner import TolerantResolver, lint_buffer

PYPROJECT = '[project]\nname = "items"\ndependencies = ["mcp>=1.9,<2"]\n'
SERVER = '''\
import sqlite3

from mcp.server.fastmcp import FastMCP

from pkg.helpers import check_title, load

mcp = FastMCP("items")
db = sqlite3.connect("items.db")


@mcp.tool()
def rename_item(item_id: int, title: str) -> str:
    """Give an item a new title."""
    db.execute("UPDATE items SET title = ? WHERE id = ?", (title, item_id))
    db.commit()
    check_title(title)
    return "renamed"


@mcp.tool()
def get_item(item_id: str) -> str:
    """Fetch one item."""
    return load(item_id)
'''
HELPERS = '''\
import httpx
from mcp.server.fastmcp.exceptions import ToolError


def check_title(title: str) -> None:
    if not title.strip():
        raise ValueError("title must not be empty")


def load(item_id: str) -> str:
    try:
        return httpx.get(f"https://items.example/{item_id}").text
    except httpx.HTTPError as e:
        raise ToolError(f"could not load {item_id}: {e}")
'''
# The helper once its validation no longer rejects anything: the tool's MCP004 goes away.
HELPERS_WITHOUT_CHECK = HELPERS.replace('''    if not title.strip():
        raise ValueError("title must not be empty")''', "    print(title)")
# A tool that no longer returns the helper's text: the helper's MCP002 has no tool to reach.
SERVER_WITHOUT_LOAD = SERVER.replace("    return load(item_id)", "    return item_id")
OTHER_TOOL = '''

@mcp.tool()
def fetch_item(item_id: str) -> str:
    """Fetch one item."""
    return load(item_id)
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {"pyproject.toml": PYPROJECT, "pkg/__init__.py": "", "pkg/server.py": SERVER, "pkg/helpers.py": HELPERS}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def told(finding) -> str:
    """The message of a finding with those of its related locations (the tools that reach a
    helper are named there)."""
    return " ".join([finding.message, *(related.message for related in finding.related)])


def codes_at(findings) -> list[tuple[str, str, int]]:
    return sorted((f.filename, f.code, f.location.row) for f in findings)


def check_file(path: str) -> list[tuple[str, str, int]]:
    """What `mcp-lint check PATH` reports: (file, code, row)."""
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", path], catch_exceptions=False)
    out = []
    for line in result.stdout.splitlines():
        if ": MCP" in line:
            filename, row, _, rest = line.split(":", 3)
            out.append((filename, rest.split()[0], int(row)))
    return sorted(out)


def test_a_helper_buffer_is_linted_with_the_tools_of_other_modules(project: Path) -> None:
    findings = lint_buffer(Path("pkg/helpers.py"), HELPERS)
    assert codes_at(findings) == [("pkg/helpers.py", "MCP002", 14)]
    assert "'get_item'" in told(findings[0])  # the tool that reaches it
    assert codes_at(findings) == check_file("pkg/helpers.py")


def test_the_buffer_replaces_the_text_on_disk(project: Path) -> None:
    edited = "# a new first line\n" + HELPERS
    assert codes_at(lint_buffer(Path("pkg/helpers.py"), edited)) == [("pkg/helpers.py", "MCP002", 15)]
    assert (project / "pkg/helpers.py").read_text(encoding="utf-8") == HELPERS  # nothing written


def test_a_tool_module_buffer_matches_check_once_saved(project: Path) -> None:
    findings = lint_buffer(Path("pkg/server.py"), SERVER)
    assert ("pkg/server.py", "MCP004", 14) in codes_at(findings)
    assert codes_at(findings) == check_file("pkg/server.py")


def test_an_unsaved_tool_module_changes_the_helper_findings(project: Path) -> None:
    live = LiveProject(Path("."), TolerantResolver(SettingsResolver()))
    helpers = os.path.abspath("pkg/helpers.py")
    assert codes_at(live.lint([Path("pkg/helpers.py")])) == [("pkg/helpers.py", "MCP002", 14)]
    server = os.path.abspath("pkg/server.py")
    assert live.lint([Path("pkg/helpers.py")], {server: SERVER_WITHOUT_LOAD}) == []
    assert codes_at(live.lint([Path(helpers)])) == [("pkg/helpers.py", "MCP002", 14)]  # saved text again


def test_an_unsaved_helper_changes_the_findings_of_the_tool_module(project: Path) -> None:
    live = LiveProject(Path("."), TolerantResolver(SettingsResolver()))
    server = Path("pkg/server.py")
    assert ("pkg/server.py", "MCP004", 14) in codes_at(live.lint([server]))
    edited = {os.path.abspath("pkg/helpers.py"): HELPERS_WITHOUT_CHECK}
    assert ("pkg/server.py", "MCP004", 14) not in codes_at(live.lint([server], edited))


def test_an_edit_analyses_only_the_edited_file(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = LiveProject(Path("."), TolerantResolver(SettingsResolver()))
    server = os.path.abspath("pkg/server.py")
    live.lint([Path("pkg/server.py")])
    analysed: list[str] = []
    real = per_file.analyze_path

    def counting(path_text: str, *args, **kwargs):
        analysed.append(path_text)
        return real(path_text, *args, **kwargs)

    monkeypatch.setattr(per_file, "analyze_path", counting)
    findings = live.lint([Path("pkg/server.py")], {server: "\n" + SERVER})
    assert analysed == ["pkg/server.py"]
    assert ("pkg/server.py", "MCP004", 15) in codes_at(findings)  # the buffer's rows
    analysed.clear()
    live.lint([Path("pkg/server.py")], {server: "\n" + SERVER})
    assert analysed == []  # the same text again: nothing to analyse


def test_new_files_are_seen_after_forget_files(project: Path) -> None:
    live = LiveProject(Path("."), TolerantResolver(SettingsResolver()))
    assert "'fetch_item'" not in told(live.lint([Path("pkg/helpers.py")])[0])
    other = SERVER_WITHOUT_LOAD.replace('"items"', '"other"') + OTHER_TOOL
    (project / "pkg/other.py").write_text(other, encoding="utf-8")
    assert "'fetch_item'" not in told(live.lint([Path("pkg/helpers.py")])[0])  # the file list is kept
    live.forget_files()
    assert "'fetch_item'" in told(live.lint([Path("pkg/helpers.py")])[0])


def test_a_lone_file_is_linted_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = SERVER.replace("from pkg.helpers import check_title, load\n", "")
    findings = lint_buffer(Path("lone.py"), text)
    assert [f.code for f in findings if f.code == "MCP007"] == ["MCP007"]
    assert all(f.filename == "lone.py" for f in findings)


def test_lint_alone_answers_first_and_lint_then_adds_what_the_project_changes(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = LiveProject(Path("."), TolerantResolver(SettingsResolver()))
    assert not live.linted
    alone = codes_at(live.lint_alone([Path("pkg/server.py")]))
    # By itself the tool module cannot see that check_title rejects the call after the UPDATE.
    assert ("pkg/server.py", "MCP004", 14) not in alone
    assert alone == [f for f in check_file("pkg/server.py") if f[1] != "MCP004"]
    assert not live.linted  # the first project-aware lint is still to come
    analysed: list[str] = []
    real = per_file.analyze_path

    def counting(path_text: str, *args, **kwargs):
        analysed.append(path_text)
        return real(path_text, *args, **kwargs)

    monkeypatch.setattr(per_file, "analyze_path", counting)
    found = codes_at(live.lint([Path("pkg/server.py")]))
    assert analysed == ["pkg/helpers.py"]  # lint_alone's analysis of the tool module is reused
    assert live.linted
    assert found == check_file("pkg/server.py")


def test_an_edit_inside_one_function_changes_that_functions_findings(project: Path) -> None:
    live = LiveProject(Path("."), TolerantResolver(SettingsResolver()))
    server = Path("pkg/server.py")
    before = codes_at(live.lint([server]))
    assert ("pkg/server.py", "MCP004", 14) in before
    # The title is checked before the UPDATE now: rename_item's finding goes, nothing else moves.
    edited = SERVER.replace(
        '    db.execute("UPDATE items SET title = ? WHERE id = ?", (title, item_id))\n    db.commit()\n    check_title(title)\n',
        '    check_title(title)\n    db.execute("UPDATE items SET title = ? WHERE id = ?", (title, item_id))\n    db.commit()\n',
    )
    assert edited != SERVER
    after = codes_at(live.lint([server], {os.path.abspath(server): edited}))
    assert after == [f for f in before if f != ("pkg/server.py", "MCP004", 14)]
    (project / "pkg/server.py").write_text(edited, encoding="utf-8")
    assert after == check_file("pkg/server.py")
    (project / "pkg/server.py").write_text(SERVER, encoding="utf-8")
    assert codes_at(live.lint([server])) == before  # the saved text again
