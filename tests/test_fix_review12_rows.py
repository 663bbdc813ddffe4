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


# --- the author's sentence in a builtin class, raised by a helper the `try` calls --------------


FROM_FILE = '''

def _read(path: str) -> str:
    source = Path(path)
    if not source.exists():
        raise ValueError(f"File not found: {path}")
    return source.read_text()


@mcp.tool()
def quote_from_file(path: str) -> str:
    """Quote the prices listed in a file."""
    try:
        symbols = _read(path).split()
        return httpx.post("https://market.invalid/quote", json={"symbols": symbols}).text
    except Exception as e:
        logger.error(f"Error quoting from file: {str(e)}")
        raise ValueError(f"Failed to quote from file: {str(e)}")
'''


def test_a_helpers_value_error_sentence_is_let_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Review 12, #10: the helper's "File not found: {path}" reached the model through `{str(e)}`;
    # the rewritten clause would replace it with "Failed to quote from file".
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, FROM_FILE)
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert 'help: Raise ValueError(f"Failed to quote from file (path: {path})") from e; let ValueError through' in listed.output, listed.output
    assert _fixed(tmp_path) == server.replace(
        '    except Exception as e:\n        logger.error(f"Error quoting from file: {str(e)}")\n'
        '        raise ValueError(f"Failed to quote from file: {str(e)}")\n',
        "    except ValueError:\n        raise\n"
        '    except Exception as e:\n        logger.error(f"Error quoting from file: {str(e)}", exc_info=True)\n'
        '        raise ValueError(f"Failed to quote from file (path: {path})") from e\n',
    )
    assert "MCP002" not in run("--unsafe-fixes").output


def test_no_pass_through_where_a_library_call_of_the_try_raises_the_class_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # json.loads raises JSONDecodeError, a ValueError: letting ValueError through would send its
    # text with the author's; the finding stays, with no fix and the help saying why.
    monkeypatch.chdir(tmp_path)
    body = FROM_FILE.replace("symbols = _read(path).split()", "symbols = json.loads(_read(path))")
    server = _server(tmp_path, body)
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert (
        "help: Keep the ValueError of _read in the message; a new one would drop it, and `except ValueError: raise`"
        " would also let loads()'s ValueError through (no fix)"
    ) in listed.output, listed.output
    assert _fixed(tmp_path) == server


def test_a_clause_catching_the_class_by_name_gets_no_pass_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, FROM_FILE.replace("except Exception as e:", "except (ValueError, httpx.HTTPError) as e:"))
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert "help: Keep the ValueError of _read in the message; a new one would drop it (no fix)" in listed.output, listed.output
    assert _fixed(tmp_path) == server


# --- the status of `raise_for_status()` kept when the clause logs first ------------------------


GENERATE = '''

@mcp.tool()
async def generate(text: str, model: str = "small") -> str:
    """Generate a market summary."""
    try:
        async with httpx.AsyncClient() as client:
            response = await client.post("https://market.invalid/generate", json={"text": text, "model": model})
            if response.status_code == 404:
                raise ValueError(f"Model '{model}' not found")
            response.raise_for_status()
            return response.json()["output"]
    except httpx.HTTPError as e:
        logger.error(f"HTTP error during generation: {str(e)}")
        raise ValueError(f"Failed to generate: {str(e)}")
'''


def test_the_status_clause_repeats_the_clauses_log_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Review 12, #8: the statuses the author did not map come from raise_for_status(); the
    # clause logging before it raises kept no status where a one-statement clause kept it.
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, GENERATE)
    assert _fixed(tmp_path) == server.replace(
        '    except httpx.HTTPError as e:\n        logger.error(f"HTTP error during generation: {str(e)}")\n'
        '        raise ValueError(f"Failed to generate: {str(e)}")\n',
        '    except httpx.HTTPStatusError as e:\n        logger.error("HTTP error during generation: %s", e, exc_info=True)\n'
        '        raise ValueError(f"Failed to generate (HTTP {e.response.status_code})") from e\n'
        '    except httpx.HTTPError as e:\n        logger.error(f"HTTP error during generation: {str(e)}", exc_info=True)\n'
        '        raise ValueError("Failed to generate") from e\n',
    )
    assert "MCP002" not in run("--unsafe-fixes").output


def test_a_loguru_log_line_is_repeated_with_logurus_placeholders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # loguru formats with braces, not `%s`: the copy gets loguru's own lazy `{}` arguments.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", PYPROJECT)
    head = HEAD.replace("import logging\n", "").replace("logger = logging.getLogger(__name__)\n", "").replace("import httpx\n", "import httpx\nfrom loguru import logger\n")
    (tmp_path / "server.py").write_text(head + textwrap.dedent(GENERATE))
    fixed = _fixed(tmp_path)
    status_clause = fixed.split("except httpx.HTTPStatusError as e:\n", 1)[1].split("\n", 1)[0]
    assert status_clause.strip().startswith('logger.exception("HTTP error during generation: {}", e)'), fixed


def test_a_clause_doing_more_than_logging_gets_no_status_clause(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    body = GENERATE.replace('        logger.error(f"HTTP error during generation: {str(e)}")\n', "        await asyncio.sleep(0)\n")
    server = _server(tmp_path, body.replace("@mcp.tool()", "import asyncio\n\n\n@mcp.tool()", 1))
    fixed = _fixed(tmp_path)
    assert "HTTPStatusError" not in fixed, fixed
    assert fixed != server



LAYERS = '''\
import json

IMPORT_AT_TOP
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("maps")


@mcp.tool()
def list_layers(workspace: str) -> str:
    """List the layers of a workspace."""
    try:
        IMPORT_IN_TRY
        response = requests.get(f"https://maps.invalid/workspaces/{workspace}/layers", timeout=10)
        response.raise_for_status()
        return json.dumps(response.json())
    except Exception as e:
        raise ToolError(f"Failed to list layers: {e}")
'''


def test_no_status_clause_naming_a_module_the_try_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The added clause would name `requests` where a failure above the import leaves it unbound.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", PYPROJECT)
    (tmp_path / "server.py").write_text(LAYERS.replace("IMPORT_AT_TOP\n", "").replace("IMPORT_IN_TRY", "import requests\n"))
    fixed = _fixed(tmp_path)
    assert "except requests.HTTPError" not in fixed, fixed
    assert 'raise ToolError("Failed to list layers") from e' in fixed, fixed


def test_a_status_clause_names_the_module_imported_at_the_top(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", PYPROJECT)
    (tmp_path / "server.py").write_text(LAYERS.replace("IMPORT_AT_TOP", "import requests").replace("        IMPORT_IN_TRY\n", ""))
    fixed = _fixed(tmp_path)
    assert "    except requests.HTTPError as e:\n" in fixed, fixed
    assert "(HTTP {e.response.status_code})" in fixed, fixed
