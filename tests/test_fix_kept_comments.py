"""A fix rewriting a statement keeps the author's comments written inside it (fix review 10, rows
28, 30, 32: `return {\n "error": "..."  # noqa: E501\n}` became a raise without its `noqa`). The
comments go to the end of the rewritten statement; a comment after the statement stays where it
was; nothing is added where the new text keeps the comment itself. Made-up servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write

PYPROJECT = '[project]\nname = "notes"\ndependencies = ["mcp>=1.20,<2"]\n'

HEAD = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
TOKEN = ""


@mcp.tool()
def list_notes() -> dict:
    \"\"\"List the notes.\"\"\"
    if not TOKEN:
"""
FIXED_HEAD = HEAD.replace("from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n")
TAIL = '    return {"notes": []}\n'


def _fixed(root: Path, statement: str) -> str:
    write(root / "pyproject.toml", PYPROJECT)
    write(root / "notes/__init__.py", "")
    (root / "notes/server.py").write_text(HEAD + statement + TAIL)
    run("--fix", "--unsafe-fixes")
    return (root / "notes/server.py").read_text()


@pytest.mark.parametrize(
    ("statement", "kept"),
    [
        # a comment inside a dict spread over lines (review 10's shape)
        (
            '        return {\n            "error": "NOTES_TOKEN is not set: add it to the server\'s environment before listing"  # noqa: E501\n        }\n',
            '        raise ToolError("NOTES_TOKEN is not set: add it to the server\'s environment before listing")  # noqa: E501\n',
        ),
        # comments on the opening line and on an item, in that order
        (
            '        return {  # pragma: no cover\n            "error": "NOTES_TOKEN is not set",  # type: ignore[dict-item]\n        }\n',
            '        raise ToolError("NOTES_TOKEN is not set")  # pragma: no cover  # type: ignore[dict-item]\n',
        ),
    ],
)
def test_a_comment_inside_the_rewritten_statement_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, statement: str, kept: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert _fixed(tmp_path, statement) == FIXED_HEAD + kept + TAIL


def test_a_comment_after_the_statement_stays_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    statement = '        return {"error": "NOTES_TOKEN is not set"}  # noqa: E501\n'
    assert _fixed(tmp_path, statement) == FIXED_HEAD + '        raise ToolError("NOTES_TOKEN is not set")  # noqa: E501\n' + TAIL


def test_a_statement_without_comments_gets_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    statement = '        return {\n            "error": "NOTES_TOKEN is not set",\n        }\n'
    assert _fixed(tmp_path, statement) == FIXED_HEAD + '        raise ToolError("NOTES_TOKEN is not set")\n' + TAIL


def test_a_comment_the_new_text_keeps_is_not_repeated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The parenthesised message keeps its layout (only `return (` is rewritten): its comment stays inside.
    monkeypatch.chdir(tmp_path)
    statement = '        return (\n            "Error: NOTES_TOKEN is not set"  # set it first\n        )\n'
    fixed = _fixed(tmp_path, statement)
    assert fixed.count("# set it first") == 1, fixed
    assert "raise ToolError(" in fixed, fixed
