"""`--fix` applies what `check --unsafe-fixes` shows, plus the fixes those make necessary (issue 23).

A later pass of the fix loop lints code the user never saw. It may apply a fix that shows only once
an earlier fix is in when that fix made it necessary (masking hides a helper's message, so the
helper raises ToolError now), never one the first lint judged wrong. A fix that only another
offered fix makes possible (a tool's ToolError that a calling tool's `except` would have caught
until that tool's own fix lets ToolError through) is offered in the first lint already, so that
the list the user reads is what `--fix` does. Each test compares what `--fix` changed with the
rows of the fixes the JSON report offered on the original code.
"""

from __future__ import annotations

import difflib
import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mcp_lint.cli import cli


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", *args], catch_exceptions=False)


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def offered_rows(root: Path) -> dict[str, set[int]]:
    """Per file (relative), the rows the offered fixes' edits touch, with a row of context each side."""
    listed = run("--unsafe-fixes", "--output-format", "json", "--exit-zero")
    rows: dict[str, set[int]] = {}
    for finding in json.loads(listed.output):
        if finding["fix"] is None:
            continue
        name = str(Path(finding["filename"]).resolve().relative_to(root.resolve()))
        for edit in finding["fix"]["edits"]:
            rows.setdefault(name, set()).update(range(edit["location"]["row"] - 1, edit["end_location"]["row"] + 2))
    return rows


def changed_outside(root: Path, before: dict[str, str], offered: dict[str, set[int]]) -> list[str]:
    """The original rows `--fix` changed where no offered fix has an edit, as FILE:ROW."""
    outside = []
    for name, text in before.items():
        after = (root / name).read_text().splitlines()
        matcher = difflib.SequenceMatcher(None, text.splitlines(), after, autojunk=False)
        for tag, i1, i2, _, _ in matcher.get_opcodes():
            if tag != "equal" and not set(range(i1 + 1, max(i2, i1 + 1) + 1)) & offered.get(name, set()):
                outside.append(f"{name}:{i1 + 1}")
    return outside


# A helper reports a failed lookup as a result. The tool calls it inside `try ... except
# Exception:`, and a report script outside every tool branches on the result's "error" key: the
# helper must keep returning in every pass, even once the tool's fix lets ToolError through.
_STOCK = """\
import httpx


def stock_level(sku: str) -> dict:
    try:
        response = httpx.get(f"https://stock.example/{sku}")
        response.raise_for_status()
        return {"level": response.json()["level"]}
    except httpx.HTTPError as e:
        return {"error": f"Stock lookup failed: {e}"}
"""
_SHOP_SERVER = """\
from fastmcp import FastMCP

from .stock import stock_level

mcp = FastMCP("shop")


@mcp.tool
def check_stock(sku: str) -> str:
    try:
        if not sku.isalnum():
            return "Error: a SKU is letters and digits only"
        return str(stock_level(sku))
    except Exception as e:
        return f"Error: could not read the stock of {sku}"
"""
_REPORT = """\
from .stock import stock_level


def main(skus: list[str]) -> None:
    for sku in skus:
        result = stock_level(sku)
        if "error" in result:
            print("skipped", sku, result["error"])
            continue
        print(sku, result["level"])
"""


def test_a_helper_whose_script_caller_branches_on_its_result_never_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "shop"\ndependencies = ["fastmcp>=2.10"]\n')
    files = {"shop/__init__.py": "", "shop/stock.py": _STOCK, "shop/server.py": _SHOP_SERVER, "shop/report.py": _REPORT}
    for name, text in files.items():
        write(tmp_path / name, text)
    offered = offered_rows(tmp_path)
    first = run("--fix", "--unsafe-fixes")
    assert "error:" not in first.output, first.output
    assert changed_outside(tmp_path, files, offered) == []
    # Nor in a second run, which sees the tool fixed: the script still reads the helper's result.
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "shop/stock.py").read_text() == _STOCK
    assert (tmp_path / "shop/report.py").read_text() == _REPORT
    assert "raise ToolError(" in (tmp_path / "shop/server.py").read_text()


# Masking is offered for the server; once it masks, the helper's ValueError (a message for the
# model) would be hidden. Converting it to ToolError is what the masking makes necessary (nobody
# catches ValueError): the same `--fix` applies it, and a second run has nothing left.
_LIBRARY = """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("library")
BOOKS: dict = {}


def lookup(book_id: str) -> dict:
    if book_id not in BOOKS:
        raise ValueError(f"No book with id {book_id}; call list_books for the ids")
    return BOOKS[book_id]


@mcp.tool
def get_book(book_id: str) -> dict:
    return lookup(book_id)


@mcp.tool
def fetch_cover(book_id: str) -> str:
    return httpx.get(f"https://covers.example/{book_id}").text
"""


def test_a_fix_the_masking_makes_necessary_goes_in_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "library"\ndependencies = ["fastmcp>=2.5,<3"]\n')
    write(tmp_path / "server.py", _LIBRARY)
    assert offered_rows(tmp_path) == {"server.py": {3, 4, 5}}  # the masking only
    first = run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert "error:" not in first.output, first.output
    expected = (
        _LIBRARY.replace('FastMCP("library")', 'FastMCP("library", mask_error_details=True)')
        .replace("raise ValueError(", "raise ToolError(")
        .replace("from fastmcp import FastMCP\n", "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n")
    )
    assert (tmp_path / "server.py").read_text() == expected
    assert "fixed" not in run("--fix", "--unsafe-fixes", "--output-format", "concise").output


# Three tools: `manage_feeds` dispatches to the other two inside `try ... except Exception`, and
# refuses an unknown action there. Alone, the other tools' raises would be caught by that clause;
# with `manage_feeds`' own fix (`except ToolError: raise` before it) they go on. The first lint
# offers all of them, as `--fix` applies them in one pass.
_FEEDS = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("feeds")


@mcp.tool()
async def list_feeds(site: str) -> str:
    try:
        response = httpx.get(f"https://feeds.example/{site}")
        response.raise_for_status()
        return response.text
    except Exception as e:
        return f"Error listing feeds: {str(e)}"


@mcp.tool()
async def delete_feed(site: str, feed: str) -> str:
    try:
        response = httpx.delete(f"https://feeds.example/{site}/{feed}")
        response.raise_for_status()
        return f"Deleted {feed}"
    except Exception as e:
        return f"Error deleting feed: {str(e)}"


@mcp.tool()
async def manage_feeds(site: str, action: str, feed: str = "") -> str:
    try:
        if action not in ("list", "delete"):
            return f"Invalid action: {action}. Use one of: list, delete"
        if action == "list":
            return await list_feeds(site)
        return await delete_feed(site, feed)
    except Exception as e:
        return f"Error managing feeds: {str(e)}"
"""
_FEEDS_FIXED = """\
import logging

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)

mcp = FastMCP("feeds")


@mcp.tool()
async def list_feeds(site: str) -> str:
    try:
        response = httpx.get(f"https://feeds.example/{site}")
        response.raise_for_status()
        return response.text
    except httpx.HTTPStatusError as e:
        logger.exception("Error listing feeds (HTTP %s)", e.response.status_code)
        raise ToolError(f"Error listing feeds (HTTP {e.response.status_code})") from e
    except Exception as e:
        logger.exception("Error listing feeds")
        raise ToolError("Error listing feeds") from e


@mcp.tool()
async def delete_feed(site: str, feed: str) -> str:
    try:
        response = httpx.delete(f"https://feeds.example/{site}/{feed}")
        response.raise_for_status()
        return f"Deleted {feed}"
    except httpx.HTTPStatusError as e:
        logger.exception("Error deleting feed (HTTP %s)", e.response.status_code)
        raise ToolError(f"Error deleting feed (HTTP {e.response.status_code})") from e
    except Exception as e:
        logger.exception("Error deleting feed")
        raise ToolError("Error deleting feed") from e


@mcp.tool()
async def manage_feeds(site: str, action: str, feed: str = "") -> str:
    try:
        if action not in ("list", "delete"):
            raise ToolError(f"Invalid action: {action}. Use one of: list, delete")
        if action == "list":
            return await list_feeds(site)
        return await delete_feed(site, feed)
    except ToolError:
        raise
    except Exception as e:
        logger.exception("Error managing feeds")
        raise ToolError("Error managing feeds") from e
"""


def test_fixes_a_calling_tools_fix_makes_possible_are_offered_in_the_first_lint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "feeds"\ndependencies = ["mcp>=1.20,<2"]\n')
    write(tmp_path / "server.py", _FEEDS)
    listed = run("--unsafe-fixes", "--output-format", "concise")
    assert "[*] 7 fixable with the `--fix` option." in listed.output, listed.output
    offered = offered_rows(tmp_path)
    run("--fix", "--unsafe-fixes")
    assert changed_outside(tmp_path, {"server.py": _FEEDS}, offered) == []
    assert (tmp_path / "server.py").read_text() == _FEEDS_FIXED
    assert "fixed" not in run("--fix", "--unsafe-fixes", "--output-format", "concise").output


def test_without_the_calling_tools_own_fix_the_others_stay_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No refusal of its own inside the `try`: `manage_feeds`' fix adds no `except ToolError: raise`,
    # so its clause would catch the other tools' ToolError in every pass; they keep returning.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "feeds"\ndependencies = ["mcp>=1.20,<2"]\n')
    source = _FEEDS.replace('        if action not in ("list", "delete"):\n            return f"Invalid action: {action}. Use one of: list, delete"\n', "")
    write(tmp_path / "server.py", source)
    offered = offered_rows(tmp_path)
    run("--fix", "--unsafe-fixes")
    assert changed_outside(tmp_path, {"server.py": source}, offered) == []
    fixed = (tmp_path / "server.py").read_text()
    assert 'return f"Error listing feeds: {str(e)}"' in fixed
    assert 'raise ToolError("Error managing feeds") from e' in fixed
    assert "fixed" not in run("--fix", "--unsafe-fixes", "--output-format", "concise").output
