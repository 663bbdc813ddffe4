"""A module that registers tools on something mcp-lint cannot tie to an MCP server is named, with
why, and the run is no pass (the project brief: "a run never passes silently: when ... part of a
run was skipped, it says so and the exit code says so"). See linking/unrecognised.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

# Made-up libraries: one re-exports a framework's server class, one has agents with tools.
LIBRARY = "widgetkit"
AGENTS = "botkit"

SERVER = "from fastmcp import FastMCP\n\nmcp = FastMCP('main')\n\n\n@mcp.tool()\ndef ping() -> str:\n    return 'pong'\n"
REEXPORTED = f"from {LIBRARY}.fastmcp import FastMCP\n\nside = FastMCP('side')\n\n\n@side.tool()\ndef lookup(key: str) -> str:\n    return key\n"
# A module importing no framework: its callers decide what `app` is (a module that imports one
# takes `app` for a server of that framework).
REGISTER = (
    "def register(app):\n    @app.tool()\n    def lookup(key: str) -> str:\n        return key\n\n"
    "    @app.tool()\n    def store(key: str) -> str:\n        return key\n"
)
AGENT = f"from {AGENTS} import Agent\n\nagent = Agent('helper')\n\n\n@agent.tool\ndef search(query: str) -> str:\n    return query\n"

REEXPORT_WARNING = (
    "mcp-lint: warning: no MCP server recognised in pkg/side.py (1 tool not checked: lookup): FastMCP comes from "
    f"{LIBRARY}.fastmcp, which mcp-lint cannot resolve; it takes that class for the framework's only when the project's "
    "requirements name fastmcp or mcp, and none was found (pyproject.toml, setup.py, setup.cfg, requirements files, "
    "PKG-INFO or METADATA)"
)
REGISTER_WARNING = (
    "mcp-lint: warning: no MCP server recognised in pkg/extra.py (2 tools not checked: lookup, store): its tools are "
    "registered on parameter `app` of register(), to which no caller mcp-lint read hands a server it recognises"
)


def _project(root: Path, files: dict[str, str], requires: str = "") -> None:
    (root / "pyproject.toml").write_text(f"[project]\nname = 'pkg'\ndependencies = [{requires}]\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (root / "pkg" / name).write_text(text)


def _check(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str):
    monkeypatch.chdir(root)
    return CliRunner().invoke(cli, ["check", "--no-cache", *args], catch_exceptions=False)


def _warnings(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("mcp-lint: warning:")]


@pytest.mark.parametrize(
    ("name", "text", "requires", "warning"),
    [("side.py", REEXPORTED, "", REEXPORT_WARNING), ("extra.py", REGISTER, "'fastmcp>=2.10'", REGISTER_WARNING)],
)
def test_a_module_whose_tools_no_server_takes_is_named_and_the_run_is_no_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, requires: str, warning: str
) -> None:
    _project(tmp_path, {"server.py": SERVER, name: text}, requires)
    result = _check(tmp_path, monkeypatch, ".")
    assert _warnings(result) == [warning]
    assert "All checks passed!" not in result.stdout
    assert result.exit_code == 2


def test_the_warning_comes_with_findings_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    failing = SERVER.replace("def ping() -> str:\n", "def ping(x: str) -> str:\n    if not x:\n        return 'Error: x is required'\n")
    _project(tmp_path, {"server.py": failing, "side.py": REEXPORTED})
    result = _check(tmp_path, monkeypatch, "--output-format", "concise", ".")
    assert result.exit_code == 1
    assert result.stdout.startswith("pkg/server.py:9:9: MCP005 "), result.stdout
    assert _warnings(result) == [REEXPORT_WARNING]


def test_tools_of_a_library_class_of_another_name_are_not_mcp_and_not_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, {"server.py": SERVER, "agents.py": AGENT})
    result = _check(tmp_path, monkeypatch, ".")
    assert result.exit_code == 0, result.output
    assert _warnings(result) == []
    assert "All checks passed!" in result.stdout


def test_a_register_function_handed_the_server_is_not_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = SERVER + "\n\nfrom pkg.extra import register\n\nregister(mcp)\n"
    _project(tmp_path, {"server.py": server, "extra.py": REGISTER}, "'fastmcp>=2.10'")
    result = _check(tmp_path, monkeypatch, ".")
    assert _warnings(result) == []
    assert result.exit_code == 0, result.output


def test_exit_zero_keeps_the_warning_and_require_tools_false_accepts_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, {"server.py": SERVER, "side.py": REEXPORTED})
    zero = _check(tmp_path, monkeypatch, "--exit-zero", ".")
    assert zero.exit_code == 0
    assert _warnings(zero) == [REEXPORT_WARNING]
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'pkg'\n\n[tool.mcp-lint]\nrequire-tools = false\n")
    accepted = _check(tmp_path, monkeypatch, ".")
    assert accepted.exit_code == 0
    assert accepted.stderr == ""
    assert "All checks passed!" in accepted.stdout


def test_json_output_stays_a_list_of_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, {"server.py": SERVER, "side.py": REEXPORTED})
    result = _check(tmp_path, monkeypatch, "--output-format", "json", ".")
    assert json.loads(result.stdout) == []
    assert _warnings(result) == [REEXPORT_WARNING]
    assert result.exit_code == 2


def test_a_file_named_alone_is_warned_about_only_when_it_is_the_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The project is the context of a named file: only the named file's registrations are said.
    _project(tmp_path, {"server.py": SERVER, "side.py": REEXPORTED})
    other = _check(tmp_path, monkeypatch, "pkg/server.py")
    assert _warnings(other) == []
    assert other.exit_code == 0, other.output
    named = _check(tmp_path, monkeypatch, "pkg/side.py")
    assert REEXPORT_WARNING in _warnings(named)
    assert named.exit_code == 2


def test_a_stored_run_says_it_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, {"server.py": SERVER, "side.py": REEXPORTED})
    monkeypatch.chdir(tmp_path)
    for _ in range(2):  # the second run is answered from the cache
        result = CliRunner().invoke(cli, ["check", "--cache-dir", str(tmp_path / ".cache"), "."], catch_exceptions=False)
        assert _warnings(result) == [REEXPORT_WARNING]
        assert result.exit_code == 2


def test_a_register_function_no_caller_hands_a_server_is_not_named_outside_an_mcp_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Neither the module nor the project's requirements name an MCP framework: `app` may be anything.
    _project(tmp_path, {"server.py": SERVER, "extra.py": REGISTER})
    result = _check(tmp_path, monkeypatch, ".")
    assert _warnings(result) == []
    assert result.exit_code == 0, result.output


# Every mode says what it left unchecked, and exits 2 for it: fixing, diffing, adding noqa
# comments and linting an editor's buffer on stdin are runs too.
NOTHING_CHECKED = "mcp-lint: warning: 1 file linted, but no MCP server or tool was found in it: nothing was checked"
STDIN_WARNING = REEXPORT_WARNING.replace("pkg/side.py", "-")


@pytest.mark.parametrize("mode", [["--fix-only"], ["--diff"], ["--add-noqa"], ["--fix"]])
def test_each_mode_warns_about_unchecked_tools_and_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: list[str]) -> None:
    _project(tmp_path, {"side.py": REEXPORTED})
    result = _check(tmp_path, monkeypatch, *mode, "pkg/side.py")
    warnings = _warnings(result)
    assert warnings[0].startswith(NOTHING_CHECKED), warnings
    assert warnings[1:] == [REEXPORT_WARNING]
    assert "All checks passed!" not in result.stdout
    assert result.exit_code == 2
    assert (tmp_path / "pkg" / "side.py").read_text() == REEXPORTED  # nothing was written


@pytest.mark.parametrize("mode", [["--fix-only"], ["--diff"], ["--add-noqa"]])
def test_each_mode_accepts_the_run_under_exit_zero_and_passes_a_checked_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: list[str]
) -> None:
    _project(tmp_path, {"server.py": SERVER, "side.py": REEXPORTED})
    zero = _check(tmp_path, monkeypatch, *mode, "--exit-zero", "pkg/side.py")
    assert REEXPORT_WARNING in _warnings(zero)
    assert zero.exit_code == 0
    checked = _check(tmp_path, monkeypatch, *mode, "pkg/server.py")
    assert _warnings(checked) == []
    assert checked.exit_code == 0, checked.output


def test_stdin_warns_about_unchecked_tools_and_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "-"], input=REEXPORTED, catch_exceptions=False)
    warnings = _warnings(result)
    assert warnings[0].startswith(NOTHING_CHECKED), warnings
    assert warnings[1:] == [STDIN_WARNING]
    assert "All checks passed!" not in result.stdout
    assert result.exit_code == 2
    served = CliRunner().invoke(cli, ["check", "--no-cache", "-"], input=SERVER, catch_exceptions=False)
    assert _warnings(served) == []
    assert "All checks passed!" in served.stdout
    assert served.exit_code == 0


def test_stdin_with_a_filename_in_a_project_and_fix_prints_the_text_and_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, {"server.py": SERVER, "side.py": REEXPORTED})
    monkeypatch.chdir(tmp_path)
    args = ["check", "--no-cache", "--fix", "-", "--stdin-filename", "pkg/side.py"]
    result = CliRunner().invoke(cli, args, input=REEXPORTED, catch_exceptions=False)
    assert result.stdout == REEXPORTED  # the buffer comes back as it was
    assert REEXPORT_WARNING in _warnings(result)
    assert result.exit_code == 2


def test_a_helper_named_alone_whose_only_tools_are_unrecognised_was_not_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The tool module imports the helper, so it is read, but no server is recognised in it: no
    # tool reached the helper, and the run must not read as a pass for it.
    helper = "import json\n\n\ndef load(text: str) -> dict:\n    return json.loads(text)\n"
    side = REEXPORTED.replace("\n\nside =", "\nfrom pkg.helper import load\n\nside =").replace("return key", "return str(load(key))")
    _project(tmp_path, {"helper.py": helper, "side.py": side})
    result = _check(tmp_path, monkeypatch, "pkg/helper.py")
    assert _warnings(result)[0].startswith(NOTHING_CHECKED), result.stderr
    assert "All checks passed!" not in result.stdout
    assert result.exit_code == 2
    recognised = side.replace(f"from {LIBRARY}.fastmcp import FastMCP", "from fastmcp import FastMCP")
    (tmp_path / "pkg" / "side.py").write_text(recognised)
    passed = _check(tmp_path, monkeypatch, "pkg/helper.py")
    assert _warnings(passed) == []
    assert passed.exit_code == 0, passed.output


def test_a_module_with_recognised_tools_still_names_the_ones_it_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # One module, two servers: the framework's (checked) and a re-export nothing lets mcp-lint take.
    mixed = SERVER + REEXPORTED.replace("\n\nside =", "\nside =")
    _project(tmp_path, {"server.py": mixed})
    result = _check(tmp_path, monkeypatch, ".")
    partial = "some tools of pkg/server.py are on no MCP server mcp-lint recognises"
    assert _warnings(result) == [REEXPORT_WARNING.replace("no MCP server recognised in pkg/side.py", partial)]
    assert result.exit_code == 2
