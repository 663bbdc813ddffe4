"""MCP002's fix of a broad clause whose `try` body raises, itself, a builtin class with one sentence
of the author's (`raise ValueError("page must be at least 1")` checking the tool's input): the
old `{e}` passed that sentence on, the rewritten clause would replace it with its own message.
The fix lets the class through before the clause (`except ValueError: raise`), as it did for a
message of two sentences (issue 23, review 10). A bare status line is no sentence to keep; a
sentence raised in a function the `try` calls is left to the summaries (unchanged here).
Made-up servers; each case with the code written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write

PYPROJECT = '[project]\nname = "pages"\ndependencies = ["mcp>=1.20,<2", "httpx"]\n'

HEAD = """\
import logging

import httpx
from mcp.server.fastmcp import FastMCP

logger = logging.getLogger(__name__)
mcp = FastMCP("pages")


@mcp.tool()
def get_page(page: int) -> str:
    \"\"\"Get a page.\"\"\"
    try:
        if page < 1:
            raise {cls}({message})
        return httpx.get(f"https://pages.invalid/p/{{page}}").text
    except Exception as e:
{clause}
"""


def _server(root: Path, cls: str, message: str, clause: str) -> str:
    write(root / "pyproject.toml", PYPROJECT)
    write(root / "pages/__init__.py", "")
    server = HEAD.format(cls=cls, message=message, clause=clause)
    write(root / "pages/server.py", server)
    return server


def _fixed(root: Path) -> str:
    run("--fix", "--unsafe-fixes")
    fixed = (root / "pages/server.py").read_text()
    assert "MCP002" not in run("--unsafe-fixes").output  # converged
    return fixed


TOOL_ERROR = "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n"


@pytest.mark.parametrize("cls", ["ValueError", "RuntimeError"])
def test_a_one_sentence_check_in_the_try_body_is_let_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cls: str) -> None:
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, cls, '"page must be at least 1"', '        return f"Error getting page: {e}"')
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert f'help: Log the exception and raise ToolError("Error getting page") from e; let {cls} through' in listed.output, listed.output
    assert _fixed(tmp_path) == server.replace(
        '    except Exception as e:\n        return f"Error getting page: {e}"\n',
        f"    except {cls}:\n        raise\n"
        '    except Exception as e:\n        logger.exception("Error getting page")\n        raise ToolError("Error getting page") from e\n',
    ).replace("from mcp.server.fastmcp import FastMCP\n", TOOL_ERROR)


def test_a_clause_raising_its_own_class_keeps_the_sentence_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `raise ValueError(f"...: {e}")` (B904): the new raise keeps its class and gets `from e`.
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, "ValueError", 'f"page {page} is out of range: use 1 or more"', '        raise ValueError(f"Error getting page: {e}")')
    assert _fixed(tmp_path) == server.replace(
        '    except Exception as e:\n        raise ValueError(f"Error getting page: {e}")\n',
        '    except ValueError:\n        raise\n    except Exception as e:\n        raise ValueError("Error getting page") from e\n',
    )


def test_a_status_line_raised_in_the_try_body_is_rewritten_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "HTTP error {page}" names the failure only: the new message says as much.
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, "RuntimeError", 'f"HTTP error {page}"', '        return f"Error getting page: {e}"')
    assert _fixed(tmp_path) == server.replace(
        '    except Exception as e:\n        return f"Error getting page: {e}"\n',
        '    except Exception as e:\n        logger.exception("Error getting page")\n        raise ToolError("Error getting page") from e\n',
    ).replace("from mcp.server.fastmcp import FastMCP\n", TOOL_ERROR)


def test_a_clause_that_cleans_up_gets_no_pass_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The pass-through would skip the clause's `client.close()` for the author's ValueError.
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, "ValueError", '"page must be at least 1"', '        client.close()\n        return f"Error getting page: {e}"')
    server = server.replace('    """Get a page."""\n', '    """Get a page."""\n    client = httpx.Client()\n')
    write(tmp_path / "pages/server.py", server)
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert "help: Keep the clause: letting the project's errors through first would skip its cleanup (no fix)" in listed.output, listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "pages/server.py").read_text() == server
