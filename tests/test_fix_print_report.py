"""A handler that already reports the failure with `print(...)` (fix review 14): MCP002's fix
turns the return into a raise and adds no logger line beside the author's print, which would
report the one failure twice. A print that does not read the exception is no report of it: there
the fix still logs the exception. Made-up server; each case with the code written."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write

PYPROJECT = '[project]\nname = "items"\ndependencies = ["mcp>=1.20,<2", "httpx"]\n'

SERVER = '''\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("items")


@mcp.tool()
def get_item(item_id: str) -> str:
    """Fetch one item."""
    try:
        reply = httpx.get(f"https://items.invalid/items/{item_id}")
        reply.raise_for_status()
        return reply.text
    except Exception as e:
        PRINT
        return f"Error fetching item: {e}"
'''


def _fixed(root: Path, print_line: str) -> str:
    write(root / "pyproject.toml", PYPROJECT)
    (root / "server.py").write_text(textwrap.dedent(SERVER).replace("PRINT", print_line))
    run("--fix", "--unsafe-fixes")
    return (root / "server.py").read_text()


def test_a_print_of_the_exception_is_the_authors_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    fixed = _fixed(tmp_path, 'print(f"Error fetching item {item_id}: {e}")')
    assert fixed.endswith(
        '    except Exception as e:\n'
        '        print(f"Error fetching item {item_id}: {e}")\n'
        '        raise ToolError("Error fetching item") from e\n'
    ), fixed
    assert "import logging" not in fixed
    assert "logger" not in fixed
    listed = run("--unsafe-fixes")
    assert "MCP002" not in listed.output and "MCP005" not in listed.output


def test_the_help_line_offers_no_log_call_beside_the_print(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", PYPROJECT)
    (tmp_path / "server.py").write_text(SERVER.replace("PRINT", 'print("fetch failed:", e, file=sys.stderr)').replace("import httpx\n", "import sys\n\nimport httpx\n"))
    assert '= help: Raise ToolError("Error fetching item") from e' in run().output


def test_a_print_that_does_not_read_the_exception_is_no_report_of_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    fixed = _fixed(tmp_path, 'print("fetching failed")')
    assert fixed.endswith(
        '    except Exception as e:\n'
        '        print("fetching failed")\n'
        '        logger.exception("Error fetching item")\n'
        '        raise ToolError("Error fetching item") from e\n'
    ), fixed
    assert "logger = logging.getLogger(__name__)" in fixed
