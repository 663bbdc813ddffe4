"""The pre-commit hooks, run by the real pre-commit against a snapshot of this checkout.

`pre-commit try-repo` installs mcp-lint from the repository into a fresh virtualenv (from PyPI, so
the test needs the network) and runs the hooks in a throwaway git repository, exactly as a user's
`.pre-commit-config.yaml` would.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install -e '.[test]')")

REPO_ROOT = Path(__file__).resolve().parents[1]
GIT_ENV = {
    "GIT_AUTHOR_NAME": "mcp-lint tests",
    "GIT_AUTHOR_EMAIL": "tests@mcp-lint.invalid",
    "GIT_COMMITTER_NAME": "mcp-lint tests",
    "GIT_COMMITTER_EMAIL": "tests@mcp-lint.invalid",
}
CONFIG = """\
[tool.mcp-lint]
select = ["MCP0", "MCP100"]
exclude = ["legacy/"]
"""
DEFECT = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("fetcher")


@mcp.tool()
def fetch(url: str) -> str:
    \"\"\"Fetch a page.\"\"\"
    try:
        return httpx.get(url).text
    except Exception as e:
        return f"Error: {e}"
"""
CLEAN = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("calculator")


@mcp.tool()
def add(a: int, b: int) -> int:
    \"\"\"Add two numbers.\"\"\"
    return a + b
"""
# A clean tool with a suppression that suppresses nothing: MCP100 has a safe fix removing it.
UNUSED_NOQA = CLEAN.replace("return a + b", "return a + b  # noqa: MCP002")


def _index_host() -> tuple[str, int]:
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple")
    parsed = urlparse(index)
    return parsed.hostname or "pypi.org", parsed.port or (443 if parsed.scheme == "https" else 80)


def _index_reachable() -> bool:
    try:
        with socket.create_connection(_index_host(), timeout=3):
            return True
    except OSError:
        return False


pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.skipif(
        not _index_reachable(),
        reason="the package index ({}:{}) cannot be reached; pre-commit must pip-install mcp-lint".format(*_index_host()),
    ),
]


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env={**os.environ, **GIT_ENV})


def snapshot_of_checkout(dest: Path) -> Path:
    """This checkout's files as they are on disk, committed in a new repository at ``dest``.

    try-repo on the checkout itself would test its last commit plus changes to tracked files only
    (it stages with `git add -u`): a new module that is not committed yet would be missing.
    """
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO_ROOT,
        capture_output=True,
    )
    if listed.returncode == 0:
        for name in listed.stdout.decode().split("\0"):
            source = REPO_ROOT / name
            if name and source.is_file():
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, dest / name)
    else:  # not a git checkout (e.g. an unpacked sdist): everything but build and cache output
        junk = shutil.ignore_patterns(".git", "__pycache__", "*.pyc", ".venv", "build", "dist", "*.egg-info", ".*_cache", ".hypothesis")
        shutil.copytree(REPO_ROOT, dest, ignore=junk, dirs_exist_ok=True)
    git("init", "-q", cwd=dest)
    git("add", "-A", cwd=dest)
    git("commit", "-q", "-m", "snapshot", cwd=dest)
    return dest


def project(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    git("init", "-q", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "project", cwd=root)
    return root


def try_repo(hooks_repo: Path, project_root: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hooks_repo), "--all-files", "--color", "never"],
        cwd=project_root,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


def hook_status(output: str, name: str) -> str:
    match = re.search(rf"^{re.escape(name)}\.+(Passed|Failed)$", output, re.MULTILINE)
    assert match, f"no status line for hook {name!r} in:\n{output}"
    return match.group(1)


@pytest.fixture(scope="module")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return snapshot_of_checkout(tmp_path_factory.mktemp("hooks-repo"))


def test_hooks_fail_on_defects_and_the_fix_hook_applies_safe_fixes(hooks_repo: Path, tmp_path: Path) -> None:
    root = project(
        tmp_path / "project",
        {"pyproject.toml": CONFIG, "server.py": DEFECT, "calculator.py": UNUSED_NOQA, "README.md": "not python\n"},
    )
    result = try_repo(hooks_repo, root, tmp_path)
    output = result.stdout + result.stderr

    assert result.returncode == 1, output
    assert hook_status(output, "mcp-lint") == "Failed"
    assert hook_status(output, "mcp-lint (fix)") == "Failed"
    # Which rule claims `return f"Error: {e}"` is the rules' business; that it is reported is ours.
    assert re.search(r"^server\.py:13:\d+: MCP00\d ", output, re.MULTILINE), output
    assert re.search(r"^calculator\.py:9:\d+: MCP100 ", output, re.MULTILINE), output
    # The fix hook removed the unused suppression (a safe fix) and left the unsafe fix alone.
    assert (root / "calculator.py").read_text(encoding="utf-8") == CLEAN
    assert (root / "server.py").read_text(encoding="utf-8") == DEFECT
    assert "- files were modified by this hook" in output


def test_hooks_pass_on_clean_code_and_respect_exclude_for_passed_paths(hooks_repo: Path, tmp_path: Path) -> None:
    # pre-commit passes legacy/old.py by name; `exclude` must still keep it out (--force-exclude).
    root = project(
        tmp_path / "project",
        {"pyproject.toml": CONFIG, "calculator.py": CLEAN, "legacy/old.py": DEFECT},
    )
    result = try_repo(hooks_repo, root, tmp_path)
    output = result.stdout + result.stderr

    assert result.returncode == 0, output
    assert hook_status(output, "mcp-lint") == "Passed"
    assert hook_status(output, "mcp-lint (fix)") == "Passed"
    assert (root / "legacy" / "old.py").read_text(encoding="utf-8") == DEFECT


def test_hook_manifest_declares_both_hooks_for_python_files() -> None:
    from pre_commit.clientlib import load_manifest

    hooks = {hook["id"]: hook for hook in load_manifest(str(REPO_ROOT / ".pre-commit-hooks.yaml"))}
    assert sorted(hooks) == ["mcp-lint", "mcp-lint-fix"]
    assert hooks["mcp-lint"]["entry"] == "mcp-lint check --force-exclude"
    assert hooks["mcp-lint-fix"]["entry"] == "mcp-lint check --fix --exit-non-zero-on-fix --force-exclude"
    for hook in hooks.values():
        assert hook["types"] == ["python"]
        assert hook["language"] == "python"
        assert hook["require_serial"] is True


SERVER_WITH_HELPER = """\
from mcp.server.fastmcp import FastMCP

from pkg.helpers import load

mcp = FastMCP("items")


@mcp.tool()
def get_item(item_id: str) -> str:
    \"\"\"Fetch one item.\"\"\"
    return load(item_id)
"""
HELPER_CLEAN = """\
import httpx
from mcp.server.fastmcp.exceptions import ToolError


def load(item_id: str) -> str:
    try:
        return httpx.get(f"https://items.example/{item_id}").text
    except httpx.HTTPError as e:
        raise ToolError(f"could not load item {item_id}; check the id and retry") from e
"""
HELPER_LEAKING = HELPER_CLEAN.replace("could not load item {item_id}; check the id and retry", "could not load {item_id}: {e}")


def test_a_commit_that_changes_only_a_helper_fails_the_hook(hooks_repo: Path, tmp_path: Path) -> None:
    # The hook is installed as a user installs it; the commit touches pkg/helpers.py alone, so
    # pre-commit passes only that file, and the tool that reaches it is in pkg/server.py.
    root = project(
        tmp_path / "project",
        {"pyproject.toml": '[project]\nname = "items"\n', "pkg/__init__.py": "", "pkg/server.py": SERVER_WITH_HELPER, "pkg/helpers.py": HELPER_CLEAN},
    )
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks_repo, capture_output=True, text=True, check=True).stdout.strip()
    config = f"repos:\n  - repo: {hooks_repo}\n    rev: {rev}\n    hooks:\n      - id: mcp-lint\n"
    (root / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=root, check=True, capture_output=True, env=env)
    git("add", ".pre-commit-config.yaml", cwd=root)
    subprocess.run(["git", "commit", "-q", "-m", "hooks"], cwd=root, check=True, capture_output=True, env=env, timeout=900)

    (root / "pkg" / "helpers.py").write_text(HELPER_LEAKING, encoding="utf-8")
    git("add", "pkg/helpers.py", cwd=root)
    result = subprocess.run(
        ["git", "commit", "-m", "leak the upstream error"], cwd=root, capture_output=True, text=True, env=env, timeout=900
    )
    output = result.stdout + result.stderr

    assert result.returncode != 0, output
    assert hook_status(output, "mcp-lint") == "Failed"
    assert re.search(r"^pkg/helpers\.py:9:\d+: MCP002 Helper 'load' puts ", output, re.MULTILINE), output
    # The tool in pkg/server.py is named as the related location that reaches the helper, and
    # reports no finding of its own.
    assert re.search(r"::: pkg/server\.py:\d+:\d+: tool 'get_item' reaches this helper$", output, re.MULTILINE), output
    assert not re.search(r"^pkg/server\.py:", output, re.MULTILINE), output
