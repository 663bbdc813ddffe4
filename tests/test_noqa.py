"""Suppression comments: `# noqa[: codes]` on a statement, `# mcp-lint: noqa[: codes]` for a file,
and MCP100 for suppressions that suppress nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli
from mcp_lint.noqa import is_suppressed, parse_noqa

HEADER = """\
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}
"""
READ = '''

@mcp.tool()
def read_note(name: str) -> str:
    """Return a note."""
    if name not in NOTES:
        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"No note {name}")){comment}
    return NOTES[name]
'''
DELETE = '''

@mcp.tool()
def delete_note(name: str) -> str:
    """Delete a note."""
    if name not in NOTES:
        raise McpError(
            ErrorData(code=INVALID_PARAMS, message=f"No note {name}"),{comment}
        )
    del NOTES[name]
    return "deleted"
'''
READ_ROW, DELETE_ROW = 13, 21  # where the two McpError statements start


def server(read_comment: str = "", delete_comment: str = "", top: str = "") -> str:
    return top + HEADER + READ.replace("{comment}", read_comment) + DELETE.replace("{comment}", delete_comment)


def check(tmp_path: Path, source: str, *args: str) -> tuple[int, list[str]]:
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        ["check", "--isolated", "--no-cache", "--output-format", "concise", "-q", *args, str(tmp_path / "server.py")],
        catch_exceptions=False,
    )
    # "path:row:col: CODE" of each finding; the messages belong to the rules' tests.
    return result.exit_code, [" ".join(line.replace(str(tmp_path) + "/", "").split(" ")[:2]) for line in result.output.splitlines()]


# --- parsing -------------------------------------------------------------------------------------


def test_parse_line_directives() -> None:
    source = (
        "a = 1  # noqa\n"
        "b = 2  # noqa: mcp001,MCP003 the reason\n"
        "c = 3  # type: ignore  # NOQA:MCP002 E501\n"
        "d = 4  # noqanything\n"
        'e = "# noqa: MCP001"\n'
        "f = 5  # see the noqa docs\n"
    )
    lines, file_codes, has_file = parse_noqa(source)
    assert lines == {1: None, 2: frozenset({"MCP001", "MCP003"}), 3: frozenset({"MCP002", "E501"})}
    assert (file_codes, has_file) == (frozenset(), False)


def test_parse_file_directives_collects_codes_of_every_directive() -> None:
    source = "# mcp-lint: noqa: MCP001\nx = 1\n    # MCP-LINT: NOQA: mcp003, MCP005\n"
    assert parse_noqa(source) == ({}, frozenset({"MCP001", "MCP003", "MCP005"}), True)
    assert parse_noqa("# mcp-lint: noqa\n# mcp-lint: noqa: MCP001\n") == ({}, None, True)


def test_file_directive_after_code_only_covers_its_line() -> None:
    source = "x = 1  # mcp-lint: noqa: MCP001\ny = 2  # mcp-lint: noqa\n"
    assert parse_noqa(source) == ({1: frozenset({"MCP001"}), 2: None}, frozenset(), False)


def test_parse_survives_a_file_the_tokenizer_cannot_finish() -> None:
    assert parse_noqa("x = 1  # noqa: MCP001\ny = (\n") == ({1: frozenset({"MCP001"})}, frozenset(), False)


@pytest.mark.parametrize(
    ("code", "rows", "expected"),
    [
        ("MCP001", (1, 1), 1),
        ("MCP002", (1, 1), None),
        ("MCP002", (1, 3), 3),  # any line of the statement
        ("MCP002", (4, 9), None),
    ],
)
def test_is_suppressed_by_a_line_of_the_statement(code: str, rows: tuple[int, int], expected: int | None) -> None:
    lines = {1: frozenset({"MCP001"}), 3: None}
    assert is_suppressed(code, rows, lines, frozenset(), False) == expected


def test_is_suppressed_by_the_file_directive_first() -> None:
    assert is_suppressed("MCP003", (1, 1), {1: None}, frozenset({"MCP003"}), True) == 0
    assert is_suppressed("MCP004", (2, 2), {}, frozenset({"MCP003"}), True) is None
    assert is_suppressed("MCP004", (2, 2), {}, None, True) == 0


# --- the CLI -------------------------------------------------------------------------------------


def test_without_suppressions_both_findings_are_reported(tmp_path: Path) -> None:
    assert check(tmp_path, server()) == (1, [f"server.py:{READ_ROW}:9: MCP001", f"server.py:{DELETE_ROW}:9: MCP001"])


def test_line_directive_on_any_line_of_the_statement(tmp_path: Path) -> None:
    source = server(read_comment="  # noqa: MCP001", delete_comment="  # noqa")
    assert check(tmp_path, source) == (0, [])


def test_line_directive_for_another_code_does_not_suppress(tmp_path: Path) -> None:
    source = server(read_comment="  # noqa: MCP003", delete_comment="  # noqa: E501")
    assert check(tmp_path, source) == (1, [f"server.py:{READ_ROW}:9: MCP001", f"server.py:{DELETE_ROW}:9: MCP001"])


def test_file_directive_suppresses_everywhere(tmp_path: Path) -> None:
    assert check(tmp_path, server(top="# mcp-lint: noqa\n")) == (0, [])
    assert check(tmp_path, server(top="# mcp-lint: noqa: MCP001\n")) == (0, [])


def test_file_directive_with_other_codes_suppresses_nothing_here(tmp_path: Path) -> None:
    exit_code, findings = check(tmp_path, server(top="# mcp-lint: noqa: MCP002, MCP003\n"))
    assert (exit_code, findings) == (1, [f"server.py:{READ_ROW + 1}:9: MCP001", f"server.py:{DELETE_ROW + 1}:9: MCP001"])


def test_trailing_file_directive_suppresses_only_its_statement(tmp_path: Path) -> None:
    source = server(read_comment="  # mcp-lint: noqa: MCP001")
    assert check(tmp_path, source) == (1, [f"server.py:{DELETE_ROW}:9: MCP001"])


def test_unused_suppression_is_reported_only_when_mcp100_is_selected(tmp_path: Path) -> None:
    source = server(read_comment="  # noqa: MCP001", delete_comment="  # noqa: MCP001, MCP003, E501").replace(
        "    return NOTES[name]\n", "    return NOTES[name]  # noqa: MCP002\n"
    )
    assert check(tmp_path, source) == (0, [])
    exit_code, findings = check(tmp_path, source, "--extend-select", "MCP100")
    # The used MCP001 directives stay; the codes that suppress nothing are reported (not E501,
    # which belongs to another linter).
    assert (exit_code, findings) == (1, [f"server.py:{READ_ROW + 1}:25: MCP100", f"server.py:{DELETE_ROW + 1}:73: MCP100"])


def test_bare_noqa_is_never_reported_as_unused(tmp_path: Path) -> None:
    source = server(read_comment="  # noqa: MCP001", delete_comment="  # noqa: MCP001") + "\nX = 1  # noqa\n"
    assert check(tmp_path, source, "--extend-select", "MCP100") == (0, [])


def test_fix_removes_unused_codes_and_keeps_used_and_foreign_ones(tmp_path: Path) -> None:
    source = server(read_comment="  # noqa: MCP001", delete_comment="  # noqa: MCP001, MCP003, E501").replace(
        "    return NOTES[name]\n", "    return NOTES[name]  # noqa: MCP002\n"
    )
    assert check(tmp_path, source, "--extend-select", "MCP100", "--fix") == (0, [])
    fixed = (tmp_path / "server.py").read_text(encoding="utf-8")
    assert fixed == server(read_comment="  # noqa: MCP001", delete_comment="  # noqa: E501, MCP001")


def test_noqa_inside_a_string_suppresses_nothing(tmp_path: Path) -> None:
    source = server().replace('message=f"No note {name}"))', 'message=f"No note {name} # noqa"))', 1)
    assert check(tmp_path, source)[1][0] == f"server.py:{READ_ROW}:9: MCP001"


@pytest.mark.parametrize(
    "source",
    [
        "x = 1\n",
        "x = 1  # noqa: E501\n",
        "x = 1  # noqa:E501,W291 a reason\n",
        "x = 1  # noqa\n",
        "x = 1  # NOQA: mcp002\n",
        "x = 1  # noqa: E501, MCP003\n",
        "x = 1  # noqa : E501\n",  # not a code list: a bare noqa
        "x = 1  # noqa: not-a-code\n",
        "# mcp-lint: noqa\nx = 1\n",
        "# mcp-lint: noqa: MCP001\n",
        's = "# noqa"\n',
        's = """\n# noqa\n"""\n',
        "def f():\n    return 1  # noqa: B008\n",
    ],
)
def test_may_suppress_never_misses_a_directive_of_ours(source: str) -> None:
    from mcp_lint.noqa import may_suppress, parse_noqa

    lines, file_codes, has_file = parse_noqa(source)
    ours = has_file or any(codes is None or any(c.startswith("MCP") for c in codes) for codes in lines.values())
    if ours:
        assert may_suppress(source)
    if not may_suppress(source):
        assert not ours


def test_a_file_with_only_foreign_directives_is_not_tokenized(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp_lint import noqa
    from mcp_lint.pipeline import lint_source

    def refuse(source: str):
        raise AssertionError("tokenized")

    monkeypatch.setattr(noqa, "comment_tokens", refuse)
    source = (
        "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\n"
        "def read(path: str) -> str:  # noqa: D401, E501\n"
        "    try:\n        return open(path).read()\n    except OSError as e:\n"
        "        raise ValueError(f'cannot read: {e}')  # noqa: B904\n"
    )
    assert [(f.code, f.location.row) for f in lint_source(source)] == [("MCP002", 11)]


@pytest.mark.parametrize(
    ("line", "fixed"),
    [
        # The same directive inside a string literal earlier on the line is program data.
        ('    return "ok # noqa: MCP003 here"  # noqa: MCP003\n', '    return "ok # noqa: MCP003 here"\n'),
        ("    return 'a#noqa:MCP003'  # noqa: MCP003, E501\n", "    return 'a#noqa:MCP003'  # noqa: E501\n"),
        ('    return "x"  # keep: # noqa: MCP003 reason\n', '    return "x"  # keep: reason\n'),
    ],
)
def test_unused_noqa_fix_edits_only_the_comment(tmp_path: Path, line: str, fixed: str) -> None:
    head = "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\ndef ping() -> str:\n"
    (tmp_path / "server.py").write_text(head + line, encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["check", "--no-cache", "--extend-select", "MCP100", "--fix", str(tmp_path / "server.py")], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "server.py").read_text(encoding="utf-8") == head + fixed
    second = CliRunner().invoke(cli, ["check", "--no-cache", "--extend-select", "MCP100", "--fix", str(tmp_path / "server.py")])
    assert second.exit_code == 0 and (tmp_path / "server.py").read_text(encoding="utf-8") == head + fixed
