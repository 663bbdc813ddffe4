"""`--add-noqa`: suppress every current finding in the source, so a codebase can adopt mcp-lint."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.add_noqa import insert_noqa
from mcp_lint.cli import cli
from mcp_lint.findings import Finding, Location

HEADER = """\
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(name: str) -> str:
    \"\"\"Return a note.\"\"\"
    if name not in NOTES:
"""
TAIL = "    return NOTES[name]\n"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", "--isolated", "--no-cache", *args], catch_exceptions=False)
    return result.exit_code, result.output


def add_noqa_to(tmp_path: Path, flagged: str, *, newline: str = "\n") -> str:
    """Run `--add-noqa` on a server whose flagged statement is ``flagged``; the rewritten statement."""
    path = tmp_path / "server.py"
    path.write_bytes((HEADER + flagged + TAIL).replace("\n", newline).encode("utf-8"))
    code, output = run("--add-noqa", str(path))
    assert (code, output) == (0, "Added 1 noqa directive.\n")
    # The next check passes: the directive suppresses the finding.
    assert run("-q", str(path)) == (0, "")
    text = path.read_bytes().decode("utf-8")
    assert text.startswith(HEADER.replace("\n", newline)) and text.endswith(TAIL.replace("\n", newline))
    return text[len(HEADER.replace("\n", newline)) : -len(TAIL.replace("\n", newline))]


def test_directive_goes_on_the_flagged_line(tmp_path: Path) -> None:
    flagged = '        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"No note {name}"))\n'
    assert add_noqa_to(tmp_path, flagged) == flagged[:-1] + "  # noqa: MCP001\n"


def test_trailing_whitespace_is_not_kept_before_the_directive(tmp_path: Path) -> None:
    flagged = '        raise McpError(ErrorData(code=INVALID_PARAMS, message="No such note"))   \n'
    assert add_noqa_to(tmp_path, flagged) == flagged.rstrip() + "  # noqa: MCP001\n"


def test_directive_goes_on_the_first_line_of_a_multi_line_statement(tmp_path: Path) -> None:
    flagged = "        raise McpError(\n            ErrorData(code=INVALID_PARAMS, message=name)\n        )\n"
    assert add_noqa_to(tmp_path, flagged) == flagged.replace("McpError(\n", "McpError(  # noqa: MCP001\n")


def test_directive_never_goes_inside_a_multi_line_string(tmp_path: Path) -> None:
    flagged = '        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"""No note {name}.\nCall list_notes first."""))\n'
    expected = flagged.replace('first."""))\n', 'first."""))  # noqa: MCP001\n')
    assert add_noqa_to(tmp_path, flagged) == expected


def test_directive_never_follows_a_line_continuation(tmp_path: Path) -> None:
    flagged = '        raise McpError(ErrorData(code=INVALID_PARAMS, message="No note " + \\\n            name))\n'
    assert add_noqa_to(tmp_path, flagged) == flagged.replace("name))\n", "name))  # noqa: MCP001\n")


def test_codes_are_added_to_an_existing_directive(tmp_path: Path) -> None:
    flagged = '        raise McpError(ErrorData(code=INVALID_PARAMS, message="No such note"))  # noqa: E501 long message\n'
    expected = flagged.replace("# noqa: E501 long", "# noqa: E501, MCP001 long")
    assert add_noqa_to(tmp_path, flagged) == expected


def test_another_comment_is_kept_before_the_directive(tmp_path: Path) -> None:
    flagged = '        raise McpError(ErrorData(code=INVALID_PARAMS, message="No such note"))  # type: ignore[misc]\n'
    assert add_noqa_to(tmp_path, flagged) == flagged[:-1] + "  # noqa: MCP001\n"


def test_windows_line_endings_are_kept(tmp_path: Path) -> None:
    flagged = '        raise McpError(ErrorData(code=INVALID_PARAMS, message="No such note"))\r\n'
    assert add_noqa_to(tmp_path, flagged.replace("\r\n", "\n"), newline="\r\n") == flagged[:-2] + "  # noqa: MCP001\r\n"


def test_a_second_run_adds_nothing(tmp_path: Path) -> None:
    path = tmp_path / "server.py"
    path.write_text(HEADER + '        raise McpError(ErrorData(code=INVALID_PARAMS, message="x"))\n' + TAIL, encoding="utf-8")
    run("--add-noqa", str(path))
    text = path.read_text(encoding="utf-8")
    assert run("--add-noqa", str(path)) == (0, "Added 0 noqa directives.\n")
    assert path.read_text(encoding="utf-8") == text


def test_unreadable_files_are_listed_and_exit_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("broken.py").write_text("def broken(:\n", encoding="utf-8")
    code, output = run("--add-noqa", "broken.py")
    assert code == 1
    lines = output.splitlines()
    assert lines[0] == "Added 0 noqa directives."
    assert lines[1].startswith("broken.py:1:") and " MCP000 " in lines[1]
    assert lines[1].endswith(" (cannot be suppressed by a `# noqa` comment)")
    assert Path("broken.py").read_text(encoding="utf-8") == "def broken(:\n"


def test_baselined_findings_get_no_directive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    source = HEADER + '        raise McpError(ErrorData(code=INVALID_PARAMS, message="x"))\n' + TAIL
    Path("server.py").write_text(source, encoding="utf-8")
    run("--write-baseline", "baseline.json", "server.py")
    assert run("--add-noqa", "--baseline", "baseline.json", "server.py") == (0, "Added 0 noqa directives.\n")
    assert Path("server.py").read_text(encoding="utf-8") == source


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fix"], "--add-noqa cannot be combined with --fix"),
        (["--diff"], "--add-noqa cannot be combined with --diff"),
        (["--write-baseline", "b.json"], "--add-noqa cannot be combined with --write-baseline"),
    ],
)
def test_conflicting_options_are_refused(tmp_path: Path, args: list[str], message: str) -> None:
    assert run("--add-noqa", *args, str(tmp_path)) == (2, f"mcp-lint: error: {message}\n")


def test_stdin_is_refused() -> None:
    assert run("--add-noqa", "-") == (2, "mcp-lint: error: --add-noqa needs files, not stdin\n")
    assert run("--write-baseline", "b.json", "-") == (2, "mcp-lint: error: --write-baseline needs files, not stdin\n")


# --- insert_noqa on its own: findings the rules do not produce today --------------------------------


def finding(code: str, rows: tuple[int, int]) -> Finding:
    return Finding(code, "m", "x.py", Location(rows[0], 1), Location(rows[1], 2), statement_rows=rows)


def test_codes_of_one_line_are_merged_sorted() -> None:
    text, changed, unplaced = insert_noqa("x = f(a)\n", [finding("MCP005", (1, 1)), finding("MCP002", (1, 1))])
    assert (text, changed, unplaced) == ("x = f(a)  # noqa: MCP002, MCP005\n", 1, [])


def test_statement_without_a_line_that_can_take_a_comment_is_reported() -> None:
    # `x = 1` ends inside the string that the next statement on its line opens.
    source = 'x = 1; y = """a\nb"""\n'
    stuck = finding("MCP005", (1, 1))
    assert insert_noqa(source, [stuck]) == (source, 0, [stuck])


def test_unused_noqa_findings_get_no_directive() -> None:
    unused = finding("MCP100", (1, 1))
    assert insert_noqa("x = 1  # noqa: MCP001\n", [unused]) == ("x = 1  # noqa: MCP001\n", 0, [unused])


def test_own_line_file_directive_is_not_extended() -> None:
    source = "f(\n    # mcp-lint: noqa: MCP003\n    a,\n)\n"
    text, changed, unplaced = insert_noqa(source, [finding("MCP001", (2, 4))])
    assert (text, changed, unplaced) == (source.replace("a,\n", "a,  # noqa: MCP001\n"), 1, [])
