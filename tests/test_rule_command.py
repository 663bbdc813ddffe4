"""`mcp-lint rule`: a rule's page, the list of every rule, and the pages shipped in the wheel."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from network_support import index_reachable

import mcp_lint
from mcp_lint import registry
from mcp_lint.cli import cli

REPO_ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((REPO_ROOT / "rules").glob("*.md"))
PAGE = """# MCP001 protocol-error-in-tool

## What it does
Flags a **protocol error** raised by a tool.

```python
raise McpError(data)
```
"""


def run_cli(*args: str) -> tuple[int, str]:
    # `output` has stdout and stderr together on every click version.
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A rule-page directory holding only a page for MCP001."""
    (tmp_path / "MCP001.md").write_text(PAGE, encoding="utf-8")
    monkeypatch.setattr(registry, "docs_dir", lambda: tmp_path)
    return tmp_path


def test_rule_prints_the_page_verbatim_when_not_on_a_terminal(docs: Path) -> None:
    assert run_cli("rule", "MCP001") == (0, PAGE)
    assert run_cli("rule", "mcp001") == (0, PAGE)  # codes are case-insensitive


def test_rule_without_a_page_prints_its_name_and_summary(docs: Path) -> None:
    info = registry.get_rule("MCP100")
    assert run_cli("rule", "MCP100") == (0, f"# MCP100 unused-noqa\n\n{info.summary}\n")


def test_unknown_rule_is_an_error() -> None:
    assert run_cli("rule", "MCP999") == (2, "mcp-lint: error: unknown rule code 'MCP999' (try `mcp-lint rule --all`)\n")


def test_rule_renders_markdown_on_a_terminal(docs: Path) -> None:
    pty = pytest.importorskip("pty", reason="needs a POSIX pseudo-terminal")
    # A real pseudo-terminal, so that stdout.isatty() is true in the child as for a user.
    env = {**os.environ, "PYTHONPATH": str(Path(mcp_lint.__file__).resolve().parents[1]), "COLUMNS": "100", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    script = (
        "import sys; from pathlib import Path; from mcp_lint import registry; from mcp_lint.cli import main\n"
        f"registry.docs_dir = lambda: Path({str(docs)!r})\n"
        "sys.argv = ['mcp-lint', 'rule', 'MCP001']; main()\n"
    )
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", script], stdout=follower, stderr=follower, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait(timeout=60) == 0
    styled = b"".join(chunks).decode("utf-8", "replace")
    shown = re.sub(r"\x1b\[[0-9;]*m", "", styled)
    assert shown != styled
    assert "What it does" in shown and "## What it does" not in shown  # headings rendered
    assert "**protocol error**" not in shown and "protocol error" in shown
    assert "```" not in shown and "raise McpError(data)" in shown  # the code block without fences


def test_rule_json_describes_one_rule() -> None:
    code, output = run_cli("rule", "MCP100", "--output-format", "json")
    assert code == 0
    assert json.loads(output) == {
        "id": "MCP100",
        "code": "MCP100",
        "name": "unused-noqa",
        "summary": "A `# noqa: MCPxxx` comment suppresses nothing.",
        "severity": "minor",
        "fix": {"availability": "always", "applicability": "safe"},
        "frameworks": [],
        "default_enabled": False,
    }


def test_rule_all_json_lists_every_rule_with_its_metadata() -> None:
    code, output = run_cli("rule", "--all", "--output-format", "json")
    assert code == 0
    rules = json.loads(output)
    assert [rule["code"] for rule in rules] == [info.code for info in registry.RULES]
    for rule, info in zip(rules, registry.RULES):
        assert rule == {
            "id": info.code,
            "code": info.code,
            "name": info.name,
            "summary": info.summary,
            "severity": info.severity.value,
            "fix": {"availability": info.fix_availability, "applicability": info.fix_applicability or None},
            "frameworks": list(info.frameworks),
            "default_enabled": info.default_enabled,
        }
    assert rules[0]["fix"] == {"availability": "none", "applicability": None}
    assert "fastmcp 3.x" in rules[1]["frameworks"]


def test_rule_all_text_has_one_line_per_rule() -> None:
    code, output = run_cli("rule", "--all")
    assert code == 0
    assert output.splitlines() == [f"{info.code}  {info.name}  {info.summary}" for info in registry.RULES]


def test_every_rule_page_in_the_repository_is_what_rule_prints() -> None:
    assert registry.docs_dir().resolve() == (REPO_ROOT / "rules").resolve()
    codes = {info.code for info in registry.RULES}
    for page in PAGES:
        assert page.stem in codes, f"{page.name} belongs to no rule"
        assert run_cli("rule", page.stem) == (0, page.read_text(encoding="utf-8"))


def test_the_wheel_ships_every_rule_page_and_rule_reads_it(tmp_path: Path) -> None:
    if not index_reachable():
        pytest.skip("the package index cannot be reached; building the wheel needs hatchling from it")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(REPO_ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("mcp_lint-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = sorted(n for n in archive.namelist() if n.startswith("mcp_lint/rule_docs/"))
        assert shipped == [f"mcp_lint/rule_docs/{page.name}" for page in PAGES]
        archive.extractall(tmp_path / "site")
    # The unpacked wheel first on the path: `rule` must find the pages inside the package.
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    for page in PAGES:
        shown = subprocess.run(
            [sys.executable, "-m", "mcp_lint", "rule", page.stem], capture_output=True, text=True, env=env, cwd=tmp_path, check=True
        )
        assert shown.stdout == page.read_text(encoding="utf-8")
    where = subprocess.run(
        [sys.executable, "-c", "from mcp_lint.registry import docs_dir; print(docs_dir())"],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=True,
    )
    assert Path(where.stdout.strip()) == tmp_path / "site" / "mcp_lint" / "rule_docs"
