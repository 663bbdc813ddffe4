"""A fix that makes a function raise where a docstring says it answers (issue 23, review 12 #19).

A decorator wraps each tool and returns the setup error's text "instead of raising", as its
docstring says. The fix raises ToolError in the wrapper; it does not rewrite prose, but its help
says which docstring is now stale, and a note quotes the sentence.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mcp_lint.cli import cli


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", *args], catch_exceptions=False)


SOURCE = '''\
import functools
import os

from fastmcp import FastMCP

mcp = FastMCP("cards")


class SetupError(Exception):
    """Raised when the server is not configured."""


def _api_key() -> str:
    key = os.environ.get("CARDS_API_KEY")
    if not key:
        raise SetupError("CARDS_API_KEY is not set; add it to the server's environment")
    return key


def _guard(func):
    """Wrap a tool so setup problems surface cleanly.

    A tool call without a key returns a clear message instead of raising.
    """

    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        try:
            return await func(*args, **kwargs)
        except SetupError as exc:
            return str(exc)

    return wrapper


@mcp.tool()
@_guard
async def card_balance(card_id: str) -> str:
    key = _api_key()
    return f"{card_id}: {len(key)}"
'''


def test_the_help_names_the_docstring_the_fix_makes_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "server.py").write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    shown = run("--unsafe-fixes", "--output-format", "full")
    assert (
        "   = help: Raise ToolError(str(exc)) from exc instead; update _guard's docstring "
        '("A tool call without a…")\n'
    ) in shown.output, shown.output
    assert (
        "   = note: the docstring of _guard says the old behaviour the fix changes: 'A tool call without a key returns a clear "
        "message instead of raising.'; update it with the fix\n"
    ) in shown.output, shown.output
    applied = run("--fix", "--unsafe-fixes", "--show-fixes", "--output-format", "concise")
    # After fixing, the list of applied fixes says which sentence is left to reword (its start: the
    # help is one line; the note above quotes it whole).
    assert (
        "  server.py:31: MCP005 Raise ToolError(str(exc)) from exc instead; update _guard's docstring "
        '("A tool call without a…")\n'
    ) in applied.output, applied.output
    fixed = (tmp_path / "server.py").read_text()
    assert "            raise ToolError(str(exc)) from exc\n" in fixed
    assert "    A tool call without a key returns a clear message instead of raising.\n" in fixed  # prose is the author's


def test_a_docstring_that_says_nothing_of_raising_adds_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "server.py").write_text(SOURCE.replace("    A tool call without a key returns a clear message instead of raising.\n", "    Every tool of the server goes through it.\n"))
    monkeypatch.chdir(tmp_path)
    shown = run("--unsafe-fixes", "--output-format", "full")
    assert "   = help: Raise ToolError(str(exc)) from exc instead\n" in shown.output, shown.output
    assert "docstring of _guard" not in shown.output
