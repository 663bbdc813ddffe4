from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover


def write(root: Path, files: dict[str, str]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


def found(*paths: str, force_exclude: bool = False, resolver: SettingsResolver | None = None) -> list[str]:
    result = discover([Path(p) for p in paths], resolver or SettingsResolver(), force_exclude=force_exclude)
    return [p.as_posix() for p in result]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_paths_are_spelled_relative_to_what_was_given(project: Path) -> None:
    write(project, {"server.py": "", "src/pkg/tools.py": "", "src/pkg/__init__.py": "", "README.md": ""})
    assert found(".") == ["server.py", "src/pkg/__init__.py", "src/pkg/tools.py"]
    assert found("src") == ["src/pkg/__init__.py", "src/pkg/tools.py"]
    assert found("./src/") == ["src/pkg/__init__.py", "src/pkg/tools.py"]
    assert discover([project / "src"], SettingsResolver()) == [
        project / "src" / "pkg" / "__init__.py",
        project / "src" / "pkg" / "tools.py",
    ]


def test_results_are_sorted_and_deduplicated(project: Path) -> None:
    write(project, {"b.py": "", "a/z.py": "", "a/b.py": ""})
    assert found("b.py", "a", "a/b.py", ".", "./a/z.py") == ["a/b.py", "a/z.py", "b.py"]


def test_only_python_sources_are_collected_from_directories(project: Path) -> None:
    write(project, {"a.py": "", "a.pyi": "", "a.pyc": "", "a.py.bak": "", "notes.txt": "", "pkg.py/inner.py": ""})
    assert found(".") == ["a.py", "pkg.py/inner.py"]


def test_gitignore_in_the_walked_tree_with_nested_negation(project: Path) -> None:
    write(
        project,
        {
            ".gitignore": "generated/\n*_pb2.py\n/scratch.py\n",
            "keep.py": "",
            "scratch.py": "",
            "generated/api.py": "",
            "proto/msg_pb2.py": "",
            "sub/scratch.py": "",  # "/scratch.py" is anchored to the top
            "sub/.gitignore": "!special_pb2.py\n",
            "sub/special_pb2.py": "",
            "sub/other_pb2.py": "",
        },
    )
    assert found(".") == ["keep.py", "sub/scratch.py", "sub/special_pb2.py"]


def test_repository_gitignore_above_the_walked_root_applies(project: Path) -> None:
    (project / ".git" / "info").mkdir(parents=True)
    write(
        project,
        {
            ".git/info/exclude": "local_*.py\n",
            ".gitignore": "src/app/cache/\nsrc/app/skip.py\n",
            "src/.gitignore": "*.gen.py\n",
            "src/app/server.py": "",
            "src/app/skip.py": "",
            "src/app/local_notes.py": "",
            "src/app/cache/x.py": "",
            "src/app/models.gen.py": "",
        },
    )
    assert found("src/app") == ["src/app/server.py"]


def test_gitignore_above_the_root_is_ignored_outside_a_repository(project: Path) -> None:
    write(project, {".gitignore": "app/skip.py\n", "app/skip.py": "", "app/server.py": ""})
    assert found("app") == ["app/server.py", "app/skip.py"]
    # The walked tree's own .gitignore applies without a repository.
    assert found(".") == ["app/server.py"]


def test_a_nested_repository_is_not_governed_by_the_outer_gitignore(project: Path) -> None:
    (project / ".git").mkdir()
    (project / "vendor" / "lib" / ".git").mkdir(parents=True)
    write(project, {".gitignore": "*.py\n!/top.py\n", "top.py": "", "other.py": "", "vendor/lib/mod.py": ""})
    assert found(".") == ["top.py", "vendor/lib/mod.py"]


def test_an_explicitly_named_ignored_directory_is_walked(project: Path) -> None:
    (project / ".git").mkdir()
    write(project, {".gitignore": "experiments/\n", "experiments/try.py": "", "experiments/.gitignore": "old.py\n"})
    write(project, {"experiments/old.py": ""})
    assert found(".") == []
    assert found("experiments") == ["experiments/try.py"]


def test_virtual_environments_caches_and_build_output_are_skipped(project: Path) -> None:
    write(
        project,
        {
            "app.py": "",
            "myenv/pyvenv.cfg": "home = /usr/bin\n",
            "myenv/lib/site.py": "",
            "env/pyvenv.cfg": "",
            "env/x.py": "",
            "environment/settings.py": "",  # a package named like a venv, but not one
            ".venv/a.py": "",
            "venv/a.py": "",
            ".tox/py/a.py": "",
            ".nox/a.py": "",
            "__pycache__/a.py": "",
            "build/lib/a.py": "",
            "dist/a.py": "",
            "node_modules/pkg/a.py": "",
            "lib/site-packages/a.py": "",
            "mcp_lint.egg-info/a.py": "",
            ".mypy_cache/a.py": "",
            ".mcp_lint_cache/a.py": "",
            ".hg/a.py": "",
            ".git/hooks/a.py": "",
            ".github/scripts/release.py": "",
        },
    )
    assert found(".") == [".github/scripts/release.py", "app.py", "environment/settings.py"]
    # Named explicitly, a skipped directory is the user's choice.
    assert found("build") == ["build/lib/a.py"]


def test_settings_exclude_prunes_relative_to_each_config(project: Path) -> None:
    write(
        project,
        {
            "pyproject.toml": '[tool.mcp-lint]\nexclude = ["migrations/", "legacy"]\n',
            "app/server.py": "",
            "app/migrations/0001.py": "",
            "legacy/old.py": "",
            "svc/pyproject.toml": '[tool.mcp-lint]\nexclude = ["/gen"]\n',
            "svc/gen/api.py": "",
            "svc/migrations/0001.py": "",  # svc's own settings do not exclude migrations
            "svc/main.py": "",
        },
    )
    assert found(".") == ["app/server.py", "svc/main.py", "svc/migrations/0001.py"]


def test_explicit_files_are_always_returned(project: Path) -> None:
    write(
        project,
        {
            "pyproject.toml": '[tool.mcp-lint]\nexclude = ["gen/"]\n',
            ".gitignore": "ignored.py\n",
            "gen/api.py": "",
            "ignored.py": "",
            "script": "#!/usr/bin/env python\n",
        },
    )
    assert found("gen/api.py", "ignored.py", "script", "missing.py") == [
        "gen/api.py",
        "ignored.py",
        "missing.py",
        "script",
    ]


def test_force_exclude_applies_exclude_but_not_gitignore_to_explicit_paths(project: Path) -> None:
    write(
        project,
        {
            "pyproject.toml": '[tool.mcp-lint]\nexclude = ["gen/", "*_test.py"]\n',
            ".gitignore": "ignored.py\n",
            "gen/deep/api.py": "",
            "unit_test.py": "",
            "ignored.py": "",
            "server.py": "",
        },
    )
    paths = ("gen/deep/api.py", "unit_test.py", "ignored.py", "server.py", "gen")
    assert found(*paths, force_exclude=True) == ["ignored.py", "server.py"]


def test_missing_path_is_returned_for_the_linter_to_report(project: Path) -> None:
    assert found("no/such/dir", "gone.py") == ["gone.py", "no/such/dir"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlinked_directories_are_not_followed_and_loops_end(project: Path) -> None:
    write(project, {"pkg/real.py": "", "outside/secret.py": ""})
    try:
        os.symlink(project, project / "pkg" / "loop", target_is_directory=True)
        os.symlink(project / "outside", project / "pkg" / "linked", target_is_directory=True)
        os.symlink(project / "pkg" / "real.py", project / "pkg" / "alias.py")
        os.symlink(project / "pkg" / "nowhere.py", project / "pkg" / "dangling.py")
    except OSError:
        pytest.skip("symlinks not permitted here")
    assert found("pkg") == ["pkg/alias.py", "pkg/real.py"]


def test_ten_thousand_files_with_nested_gitignores_are_all_discovered(project: Path) -> None:
    write(project, {".gitignore": "*_skip.py\nbuild/\n", "pyproject.toml": '[tool.mcp-lint]\nexclude = ["x*/"]\n'})
    for package in range(100):
        directory = project / f"pkg{package}" / "sub"
        directory.mkdir(parents=True)
        (directory.parent / ".gitignore").write_text("!keep_skip.py\n")
        for module in range(100):
            (directory / f"m{module}.py").touch()
        (directory / "drop_skip.py").touch()
        (directory / "keep_skip.py").touch()
    # Its speed is a row of bench/run.py (a timed assertion here fails under load, not on a defect).
    result = found(".")
    assert len(result) == 100 * 101
    assert "pkg7/sub/keep_skip.py" in result and "pkg7/sub/drop_skip.py" not in result


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_symlink_loop_is_skipped_with_one_warning_and_the_rest_is_linted(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project, {"pkg/real.py": ""})
    try:
        os.symlink("loop.py", project / "pkg" / "loop.py")  # points at itself
        os.symlink(project / "pkg" / "nowhere.py", project / "pkg" / ".#real.py")  # an editor's lock file
    except OSError:
        pytest.skip("symlinks not permitted here")
    assert found("pkg") == ["pkg/real.py"]
    err = capsys.readouterr().err
    assert err.splitlines() == ["mcp-lint: warning: skipping pkg/loop.py: Too many levels of symbolic links"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_symlink_loop_in_the_tree_does_not_stop_the_report(project: Path) -> None:
    from click.testing import CliRunner

    from mcp_lint.cli import cli

    server = (
        "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\n"
        "def fetch(url: str) -> str:\n    if not url:\n        return 'Error: url is required'\n    return url\n"
    )
    write(project, {"server.py": server})
    try:
        os.symlink("loop.py", project / "loop.py")
    except OSError:
        pytest.skip("symlinks not permitted here")
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", "."], catch_exceptions=False)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("server.py:9:9: MCP005 ")
    assert "skipping loop.py: Too many levels of symbolic links" in result.stderr
