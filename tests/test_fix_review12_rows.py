"""MCP002's fix on the shapes of fix review 12's left rows (issue 23): a clause whose bound name
nothing reads after the fix loses its ` as exc` (ruff F841); a `try` whose helpers of this module
raise a builtin class with the author's own sentence lets that class through before the
rewritten clause, unless a library call of the same `try` raises the class too. Made-up servers;
each case with the code written."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write

PYPROJECT = '[project]\nname = "market"\ndependencies = ["mcp>=1.20,<2", "httpx"]\n'

HEAD = """\
import json
import logging
from pathlib import Path

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("market")
"""


def _server(root: Path, body: str) -> str:
    write(root / "pyproject.toml", PYPROJECT)
    server = HEAD + textwrap.dedent(body)
    (root / "server.py").write_text(server)
    return server


def _fixed(root: Path) -> str:
    run("--fix", "--unsafe-fixes")
    return (root / "server.py").read_text()


# --- an `as exc` nothing reads after the fix --------------------------------------------------


FROM_NONE = '''

@mcp.tool()
def market_info() -> str:
    """Public market information."""
    try:
        return httpx.get("https://market.invalid/info").text
    except Exception as exc:
        raise ToolError(f"Failed to fetch market info: {exc}") from None
'''


def test_a_raise_chained_from_none_drops_the_unread_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, FROM_NONE)
    assert _fixed(tmp_path) == server.replace(
        '    except Exception as exc:\n        raise ToolError(f"Failed to fetch market info: {exc}") from None\n',
        '    except Exception:\n        logger.exception("Failed to fetch market info")\n        raise ToolError("Failed to fetch market info") from None\n',
    )
    assert "MCP002" not in run("--unsafe-fixes").output


def test_a_name_still_read_in_the_clause_stays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    body = FROM_NONE.replace("    except Exception as exc:\n", '    except Exception as exc:\n        logger.warning("market info: %s", exc)\n')
    server = _server(tmp_path, body)
    fixed = _fixed(tmp_path)
    assert "    except Exception as exc:\n" in fixed, fixed
    assert 'raise ToolError("Failed to fetch market info") from None\n' in fixed, fixed
    assert fixed != server


def test_a_raise_chained_from_the_exception_keeps_the_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, FROM_NONE.replace(" from None\n", "\n"))
    assert _fixed(tmp_path) == server.replace(
        '        raise ToolError(f"Failed to fetch market info: {exc}")\n',
        '        logger.exception("Failed to fetch market info")\n        raise ToolError("Failed to fetch market info") from exc\n',
    )
