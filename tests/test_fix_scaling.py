"""`--fix` in time proportional to the files it fixes (issue 22): each fixed file is re-linked
against the modules that can change its findings, not against the whole project, and what is
written is what re-linking the whole project would write."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint import project_links, relink
from mcp_lint.cli import cli
from script_support import load_script

generate = load_script("bench/fix_project.py", "bench_fix_project").generate


def fix(root: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> str:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(
        cli, ["check", "--isolated", "--no-cache", "--jobs", "1", "--fix", "--unsafe-fixes", *extra, "."], catch_exceptions=False
    )
    return result.output


def linked_modules(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """(module summaries every link step of one `--fix` run read, in all; files fixed)."""
    read = [0]
    original = project_links.Project.__init__

    def counting(self, summaries, *args, **kwargs):  # type: ignore[no-untyped-def]
        read[0] += len(summaries)
        original(self, summaries, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(project_links.Project, "__init__", counting)
        output = fix(root, patch)
    fixed = int(output.split("(")[1].split(" fixed")[0])
    return read[0], fixed


def test_link_work_per_fixed_file_does_not_grow_with_the_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small, large = tmp_path / "small", tmp_path / "large"
    generate(small, 12)
    generate(large, 48)
    small_work, small_fixed = linked_modules(small, monkeypatch)
    large_work, large_fixed = linked_modules(large, monkeypatch)
    assert (small_fixed, large_fixed) == (15, 60)
    # Re-linking the whole project for every fix makes this ratio 4 (four times the files).
    ratio = (large_work / large_fixed) / (small_work / small_fixed)
    assert ratio <= 1.5, (small_work, large_work)


def test_incremental_fix_writes_what_relinking_the_whole_project_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scoped, whole = tmp_path / "scoped", tmp_path / "whole"
    files = [path.relative_to(scoped) for path in generate(scoped, 20)]
    shutil.copytree(scoped, whole)
    scoped_output = fix(scoped, monkeypatch)
    with monkeypatch.context() as patch:
        patch.setattr(relink, "WHOLE_PROJECT", True)
        whole_output = fix(whole, patch)
    assert scoped_output == whole_output == "Found 25 errors (25 fixed, 0 remaining).\n"
    for name in files:
        assert (scoped / name).read_text(encoding="utf-8") == (whole / name).read_text(encoding="utf-8"), name
    assert (scoped / "app" / "store_0.py").read_text(encoding="utf-8").endswith(
        'from mcp.server.fastmcp.exceptions import ToolError\n\nITEMS_0: dict[str, str] = {}\n\n\n'
        "def load_0(item_id: str) -> str:\n    if item_id not in ITEMS_0:\n"
        '        raise ToolError(f"No item {item_id}")\n    return ITEMS_0[item_id]\n'
    )
    assert '        raise ToolError(f"Record {record_id} not found")\n' in (scoped / "app" / "tools_3.py").read_text(encoding="utf-8")


def test_diff_of_the_generated_project_shows_every_fixed_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "project"
    fixed = generate(root, 8)
    before = {path: path.read_bytes() for path in fixed}
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", "--isolated", "--no-cache", "--jobs", "1", "--diff", "--unsafe-fixes", "."])
    assert result.exit_code == 1
    assert sorted(line[6:] for line in result.output.splitlines() if line.startswith("+++ b/")) == sorted(
        str(path.relative_to(root)) for path in fixed
    )
    assert {path: path.read_bytes() for path in fixed} == before


SHELF = {
    "pyproject.toml": '[project]\nname = "shelf"\ndependencies = ["mcp>=1.2,<2"]\n',
    "shelf/__init__.py": "",
    "shelf/server.py": (
        "from mcp.server.fastmcp import FastMCP\n\nfrom .ops import load\n\nmcp = FastMCP(\"shelf\")\n\n\n"
        "@mcp.tool()\ndef read_item(item_id: str) -> str:\n    return load(item_id)\n"
    ),
    "shelf/ops/__init__.py": "from .store import load\n",
    "shelf/ops/store.py": (
        "ITEMS: dict[str, str] = {}\n\n\ndef load(item_id: str) -> str:\n"
        "    if item_id not in ITEMS:\n        return f\"Error: no item {item_id}\"\n    return ITEMS[item_id]\n"
    ),
}


def write_shelf(root: Path) -> None:
    for name, text in SHELF.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_a_narrow_re_link_scope_does_not_change_the_first_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Were the re-link scope ever too narrow to see the tool (here: forced to the file alone),
    # the first pass still applies the fix the project's whole link listed (fix review 12, #10:
    # a pass-through found through modules the re-link did not take had been left out).
    write_shelf(tmp_path)
    monkeypatch.setattr(relink.Relinker, "_scope", lambda self, index, outcomes: [index])
    output = fix(tmp_path, monkeypatch)
    assert output == "Found 1 error (1 fixed, 0 remaining).\n"
    assert '        raise ToolError(f"No item {item_id}")\n' in (tmp_path / "shelf/ops/store.py").read_text(encoding="utf-8")


def test_a_helper_reached_through_a_package_reexport_is_fixed_as_check_lists_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The tool module imports the helper through its package's `__init__.py` (`from .store
    # import load`): the re-link scope must see that `__init__` imports `.store` inside the
    # package, or the helper loses the tool that reaches it and --fix finds nothing to fix.
    write_shelf(tmp_path)
    monkeypatch.chdir(tmp_path)
    listed = CliRunner().invoke(cli, ["check", "--isolated", "--no-cache", "--jobs", "1", "--unsafe-fixes", "--output-format", "concise", "."])
    assert "shelf/ops/store.py:6:9: MCP005 [*]" in listed.output
    assert fix(tmp_path, monkeypatch) == "Found 1 error (1 fixed, 0 remaining).\n"
    assert '        raise ToolError(f"No item {item_id}")\n' in (tmp_path / "shelf/ops/store.py").read_text(encoding="utf-8")
