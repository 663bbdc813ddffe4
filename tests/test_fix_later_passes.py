"""What `--fix --unsafe-fixes` applies in a later pass is said before it is applied (issue 23).

Masking turned on in the server module (MCP007) hides a helper's ValueError in another module,
so a later pass of the fix loop turns it into ToolError (MCP008): a fix the first lint could not
offer. `check --unsafe-fixes` says how many such fixes follow, by rule and file, and `--diff`
follows every pass in memory, so its diff is exactly what `--fix` writes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mcp_lint.cli import cli


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", *args], catch_exceptions=False)


BOOKS = """\
BOOKS: dict = {}


def lookup(book_id: str) -> dict:
    if book_id not in BOOKS:
        raise ValueError(f"No book with id {book_id}; call list_books for the ids")
    return BOOKS[book_id]
"""

SERVER = """\
import httpx
from fastmcp import FastMCP

from books import lookup

mcp = FastMCP("library")


@mcp.tool
def get_book(book_id: str) -> dict:
    return lookup(book_id)


@mcp.tool
def fetch_cover(book_id: str) -> str:
    return httpx.get(f"https://covers.example/{book_id}").text
"""


def _project(root: Path, books: str = BOOKS) -> None:
    (root / "pyproject.toml").write_text('[project]\nname = "library"\ndependencies = ["fastmcp>=2.5,<3"]\n')
    (root / "books.py").write_text(textwrap.dedent(books))
    (root / "server.py").write_text(textwrap.dedent(SERVER))


def test_check_says_which_fixes_a_later_pass_adds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    listed = run("--unsafe-fixes", "--output-format", "concise")
    assert listed.output == (
        "server.py:6:7: MCP007 [*] Server 'mcp' forwards raw exception text to the model; 1 tool does I/O outside any try\n"
        "Found 1 error.\n"
        "[*] 1 fixable with the `--fix` option.\n"
        "Applying these fixes makes 1 more fix necessary in a later pass (MCP008 in books.py); "
        "`--diff --unsafe-fixes` shows every edit `--fix --unsafe-fixes` writes.\n"
    )
    assert (tmp_path / "books.py").read_text() == BOOKS  # listing writes nothing


def test_diff_shows_what_fix_writes_every_pass_included(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    diff = run("--unsafe-fixes", "--diff")
    assert diff.output == (
        "--- a/server.py\n"
        "+++ b/server.py\n"
        "@@ -3,7 +3,7 @@\n"
        " \n"
        " from books import lookup\n"
        " \n"
        '-mcp = FastMCP("library")\n'
        '+mcp = FastMCP("library", mask_error_details=True)\n'
        " \n"
        " \n"
        " @mcp.tool\n"
        "--- a/books.py\n"
        "+++ b/books.py\n"
        "@@ -1,7 +1,9 @@\n"
        "+from fastmcp.exceptions import ToolError\n"
        "+\n"
        " BOOKS: dict = {}\n"
        " \n"
        " \n"
        " def lookup(book_id: str) -> dict:\n"
        "     if book_id not in BOOKS:\n"
        '-        raise ValueError(f"No book with id {book_id}; call list_books for the ids")\n'
        '+        raise ToolError(f"No book with id {book_id}; call list_books for the ids")\n'
        "     return BOOKS[book_id]\n"
        "Would fix 2 errors.\n"
    )
    assert diff.exit_code == 1
    assert (tmp_path / "books.py").read_text() == BOOKS and (tmp_path / "server.py").read_text() == SERVER
    fixed = run("--fix", "--unsafe-fixes", "--output-format", "concise")
    # Ruff's way: the loop runs to a fixed point, and it says what each pass applied, naming the
    # fix no listing showed (file, line, help).
    assert fixed.output == (
        "Found 2 errors (2 fixed, 0 remaining).\n"
        "Pass 1 applied 1 listed fix (MCP007 in server.py).\n"
        "Pass 2 applied 1 fix an earlier pass made necessary, not in the listing:\n"
        "  books.py:6: MCP008 Raise ToolError instead of ValueError, with the same text\n"
    )
    assert "raise ToolError(" in (tmp_path / "books.py").read_text()


def test_fix_only_says_what_each_pass_applied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    fixed = run("--fix-only", "--unsafe-fixes")
    assert fixed.output == (
        "Fixed 2 errors.\n"
        "Pass 1 applied 1 listed fix (MCP007 in server.py).\n"
        "Pass 2 applied 1 fix an earlier pass made necessary, not in the listing:\n"
        "  books.py:6: MCP008 Raise ToolError instead of ValueError, with the same text\n"
    )
    assert fixed.exit_code == 0


def test_one_pass_no_pass_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every fix applied in the first pass was listed: the summary is ruff's alone.
    _project(tmp_path, BOOKS.replace('        raise ValueError(f"No book with id {book_id}; call list_books for the ids")\n', "        return {}\n"))
    monkeypatch.chdir(tmp_path)
    fixed = run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert fixed.output == "Found 1 error (1 fixed, 0 remaining).\n"


def test_no_later_pass_no_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The helper's message is the library's business alone (no raise of its own): masking hides
    # nothing the author wrote, so no later pass adds a fix and the summary says nothing more.
    _project(tmp_path, BOOKS.replace('        raise ValueError(f"No book with id {book_id}; call list_books for the ids")\n', "        return {}\n"))
    monkeypatch.chdir(tmp_path)
    listed = run("--unsafe-fixes", "--output-format", "concise")
    assert listed.output.endswith("Found 1 error.\n[*] 1 fixable with the `--fix` option.\n"), listed.output
    assert "later pass" not in listed.output
