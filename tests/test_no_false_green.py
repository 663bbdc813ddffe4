"""No run shows a false green: a broken configuration yields no passing report in any format."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli
from mcp_lint.output import FORMATS

BROKEN = '[tool.mcp-lint]\nselect = ["NOPE"]\n'
ERROR = "mcp-lint: error: sub/pyproject.toml: [tool.mcp-lint] select: unknown rule code or prefix 'NOPE'"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "sub").mkdir()
    (tmp_path / "app.py").write_text("x = 1\n")
    (tmp_path / "sub" / "tool.py").write_text("y = 2\n")
    (tmp_path / "sub" / "pyproject.toml").write_text(BROKEN)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, ["check", "--no-cache", *args], input=stdin, catch_exceptions=False)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("target", [".", "sub/tool.py", "sub"])
def test_a_broken_configuration_gives_exit_2_and_no_report(project: Path, fmt: str, target: str) -> None:
    result = check("--output-format", fmt, target)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert [line[: len(ERROR)] for line in result.stderr.splitlines()] == [ERROR]


@pytest.mark.parametrize("fmt", ["json", "junit", "sarif", "gitlab"])
def test_a_broken_configuration_writes_no_report_file(project: Path, fmt: str) -> None:
    result = check("--output-format", fmt, "-o", "report.out", ".")
    assert result.exit_code == 2
    assert not (project / "report.out").exists()


@pytest.mark.parametrize("extra", [["--statistics"], ["--fix"], ["--diff"], ["--write-baseline", "base.json"]])
def test_no_mode_turns_a_broken_configuration_into_a_pass(project: Path, extra: list[str]) -> None:
    result = check(*extra, ".")
    assert result.exit_code == 2
    assert "All checks passed!" not in result.stdout
    assert not (project / "base.json").exists()


def test_stdin_under_a_broken_configuration_is_an_error(project: Path) -> None:
    result = check("--stdin-filename", "sub/tool.py", stdin="y = 2\n")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(ERROR)


# -- a run says what it checked (issue 22) -------------------------------------------------------

PLANTED = '''
NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(note_id: str) -> str:
    if note_id not in NOTES:
        return f"Error: note {note_id} not found"
    return NOTES[note_id]
'''


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.mark.parametrize(
    "vendored, package",
    [
        ("app/_vendor/fastmcp", "app._vendor.fastmcp"),
        ("app/vendor/fastmcp", "app.vendor.fastmcp"),
    ],
)
def test_a_server_on_a_vendored_framework_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vendored: str, package: str) -> None:
    # The copied framework is recognised by the class it defines and the server built from it.
    _write(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'app'\n",
            "app/__init__.py": "",
            f"{vendored.rsplit('/', 1)[0]}/__init__.py": "",
            f"{vendored}/__init__.py": "from .server import FastMCP\nfrom .exceptions import ToolError\n",
            f"{vendored}/server.py": "class FastMCP:\n    def __init__(self, name):\n        self.name = name\n\n    def tool(self, fn=None):\n        return fn\n",
            f"{vendored}/exceptions.py": "class ToolError(Exception):\n    pass\n",
            "app/server.py": f"from {package} import FastMCP\n\nmcp = FastMCP('notes')\n" + PLANTED,
        },
    )
    monkeypatch.chdir(tmp_path)
    result = check("--output-format", "concise", ".")
    assert result.exit_code == 1, result.output
    assert "app/server.py:11:9: MCP005 Tool 'read_note' " in result.stdout


def test_a_vendored_copy_of_mcp_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'app'\n",
            "app/__init__.py": "",
            "app/vendor/__init__.py": "",
            "app/vendor/mcp/__init__.py": "",
            "app/vendor/mcp/server/__init__.py": "",
            "app/vendor/mcp/server/fastmcp/__init__.py": "class FastMCP:\n    def tool(self):\n        return lambda fn: fn\n",
            "app/vendor/mcp/server/fastmcp/exceptions.py": "class ToolError(Exception):\n    pass\n",
            "app/server.py": "from app.vendor.mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('notes')\n" + PLANTED,
        },
    )
    monkeypatch.chdir(tmp_path)
    result = check("--output-format", "concise", ".")
    assert result.exit_code == 1, result.output
    assert "app/server.py:11:9: MCP005 Tool 'read_note' " in result.stdout


NO_SERVER = {"pyproject.toml": "[project]\nname = 'app'\n", "app/util.py": "def add(a, b):\n    return a + b\n"}
NO_TOOL_WARNING = "mcp-lint: warning: 1 file linted, but no MCP server or tool was found in it: nothing was checked"


def test_files_without_any_server_or_tool_are_no_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, NO_SERVER)
    monkeypatch.chdir(tmp_path)
    result = check(".")
    assert result.exit_code == 2
    assert "All checks passed!" not in result.stdout
    assert result.stderr.startswith(NO_TOOL_WARNING)
    assert "require-tools = false" in result.stderr
    named = check("app/util.py")
    assert named.exit_code == 2 and named.stderr.startswith(NO_TOOL_WARNING)


def test_exit_zero_and_require_tools_false_accept_a_run_without_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, NO_SERVER)
    monkeypatch.chdir(tmp_path)
    zero = check("--exit-zero", ".")
    assert zero.exit_code == 0 and zero.stderr.startswith(NO_TOOL_WARNING)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'app'\n\n[tool.mcp-lint]\nrequire-tools = false\n")
    configured = check(".")
    assert configured.exit_code == 0
    assert configured.stderr == ""
    assert "All checks passed!" in configured.stdout


def test_verbose_names_the_framework_its_version_and_source_and_the_tools_per_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'app'\ndependencies = ['fastmcp>=2.10,<3']\n",
            "app/__init__.py": "",
            "app/server.py": "from fastmcp import FastMCP\n\nmcp = FastMCP('notes')\nadmin = FastMCP('admin')\n" + PLANTED
            + "\n\n@admin.tool\ndef purge() -> str:\n    return 'done'\n\n\n@admin.tool\ndef stats() -> str:\n    return 'ok'\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    result = check("-v", "--output-format", "concise", ".")
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("mcp-lint: ")]
    assert "mcp-lint: server app.server.admin (app/server.py): fastmcp, fastmcp>=2.10,<3 from pyproject.toml; 2 tools: purge, stats" in lines
    assert "mcp-lint: server app.server.mcp (app/server.py): fastmcp, fastmcp>=2.10,<3 from pyproject.toml; 1 tool: read_note" in lines
    quiet = check("--output-format", "concise", ".")
    assert "mcp-lint: server" not in quiet.stderr


# -- syntax errors are always reported (issue 22) -------------------------------------------------

SERVER_OK = "from fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool\ndef ping() -> str:\n    return 'pong'\n"


@pytest.mark.parametrize("selection", ["", "\n[tool.mcp-lint]\nselect = []\n", "\n[tool.mcp-lint]\nselect = ['MCP005']\n"])
def test_a_walk_reports_an_unparseable_file_that_does_not_mention_mcp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, selection: str
) -> None:
    _write(
        tmp_path,
        {"pyproject.toml": "[project]\nname = 'app'\n" + selection, "app/server.py": SERVER_OK, "app/util.py": "def broken(:\n    pass\n"},
    )
    monkeypatch.chdir(tmp_path)
    for _ in range(2):  # the second run is answered from the cache
        result = CliRunner().invoke(cli, ["check", "--output-format", "concise", "."], catch_exceptions=False)
        assert result.exit_code == 1, result.output
        assert result.stdout.splitlines()[0] == "app/util.py:1:12: MCP000 syntax error: invalid syntax"


# -- modules are keyed by their import root (issue 22) -------------------------------------------

REPO = Path(__file__).resolve().parents[1]


def _concise(*args: str) -> list[str]:
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", "-q", "--exit-zero", *args], catch_exceptions=False)
    return [line for line in result.stdout.splitlines() if ": MCP" in line]


def test_checking_the_examples_reports_what_checking_each_example_does(monkeypatch: pytest.MonkeyPatch) -> None:
    # Four servers, each a `server.py` module of its own import root.
    monkeypatch.chdir(REPO)
    together = _concise("examples")
    one_by_one = [line for folder in sorted((REPO / "examples").iterdir()) for line in _concise(f"examples/{folder.name}")]
    assert len(one_by_one) >= 14
    assert sorted(together) == sorted(one_by_one)


def test_two_projects_with_a_module_of_the_same_name_keep_both_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    helper = "def load(key):\n    if not key:\n        return f'Error: {key} not found'\n    return key\n"
    server = "from fastmcp import FastMCP\nfrom helpers import load\n\nmcp = FastMCP('x')\n\n\n@mcp.tool\ndef {name}(key: str) -> str:\n    return load(key)\n"
    _write(
        tmp_path,
        {
            "a/pyproject.toml": "[project]\nname = 'a'\n",
            "a/server.py": server.replace("{name}", "read_a"),
            "a/helpers.py": helper,
            "b/pyproject.toml": "[project]\nname = 'b'\n",
            "b/server.py": server.replace("{name}", "read_b"),
            "b/helpers.py": helper.replace("return key\n", "return key.upper()\n"),
        },
    )
    monkeypatch.chdir(tmp_path)
    both = _concise("a", "b")
    assert [line.split(" ")[:2] for line in both] == [["a/helpers.py:3:9:", "MCP005"], ["b/helpers.py:3:9:", "MCP005"]]
    assert sorted(both) == sorted(_concise("a") + _concise("b"))


def test_each_path_of_a_symlinked_file_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = "from fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool\ndef read(key: str) -> str:\n    if not key:\n        return f'Error: {key} not found'\n    return key\n"
    _write(tmp_path, {"pyproject.toml": "[project]\nname = 'a'\n", "pkg/server.py": server})
    (tmp_path / "pkg" / "alias.py").symlink_to("server.py")
    monkeypatch.chdir(tmp_path)
    found = [line.split(" ")[:2] for line in _concise(".")]
    assert found == [["pkg/alias.py:9:9:", "MCP005"], ["pkg/server.py:9:9:", "MCP005"]]


# -- output (issue 22) ------------------------------------------------------------------------------


def test_a_report_written_to_a_file_leaves_stdout_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, {"pyproject.toml": "[project]\nname = 'a'\n", "app/server.py": "from fastmcp import FastMCP\n\nmcp = FastMCP('x')\n" + PLANTED})
    monkeypatch.chdir(tmp_path)
    for fmt in ("full", "concise"):
        result = CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", fmt, "-o", "report.txt", "."], catch_exceptions=False)
        assert result.exit_code == 1
        assert result.stdout == ""
        assert "Found 1 error." in (tmp_path / "report.txt").read_text()


def test_json_names_the_rule_and_its_severity_and_mcp000_links_its_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from mcp_lint.registry import get_rule

    _write(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'a'\n",
            "app/server.py": "from fastmcp import FastMCP\n\nmcp = FastMCP('x')\n" + PLANTED,
            "app/broken.py": "def broken(:\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "json", "."], catch_exceptions=False)
    report = {item["code"]: item for item in json.loads(result.stdout)}
    assert report["MCP005"]["name"] == "error-returned-as-success"
    assert report["MCP005"]["severity"] == get_rule("MCP005").severity.value
    assert report["MCP000"]["name"] == get_rule("MCP000").name
    assert report["MCP000"]["url"].endswith("/MCP000.md")
