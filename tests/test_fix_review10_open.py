"""Fix shapes review 10 rejected or marked (issue 23), each with the code the fix must write (or the
code left as it was), on made-up servers: a pass-through (`except OwnError: raise`) is never put
before a clause that rolls state back or retries, and the help of a fix whose title is too long for
one line still shows the edit."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write
from tests.test_fix_review8_open import CLIENT, ERRORS, PYPROJECT

SERVER = """\
import json
import logging
import os

from mcp.server.fastmcp import FastMCP

from ledger.client import LedgerClient
from ledger.errors import LedgerError

logger = logging.getLogger(__name__)
mcp = FastMCP("ledger")
client = LedgerClient("token")


@mcp.tool()
def list_entries(book_id: int) -> str:
    \"\"\"List the entries of a book.\"\"\"
    os.environ["LEDGER_BOOK"] = str(book_id)
    try:
        entries = client.get(f"/books/{book_id}/entries")
        return json.dumps(entries)
    except Exception as e:
{clause}        return f"Error listing entries: {e}"
"""


def _ledger(root: Path, clause: str) -> str:
    server = SERVER.replace("{clause}", clause)
    write(root / "pyproject.toml", PYPROJECT)
    write(root / "ledger/__init__.py", "")
    write(root / "ledger/errors.py", ERRORS)
    write(root / "ledger/client.py", CLIENT)
    write(root / "ledger/server.py", server)
    return server


def test_a_clause_that_only_logs_gets_its_pass_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The clause logs and answers: letting the client's own errors through first skips nothing.
    monkeypatch.chdir(tmp_path)
    server = _ledger(tmp_path, '        message = str(e)\n        logger.warning("listing failed: %s", message)\n')
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert "let LedgerError through" in listed.output, listed.output
    assert 'help: Raise ToolError("Error listing entries") from e; let LedgerError through\n' in listed.output, listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "ledger/server.py").read_text() == server.replace(
        "from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n"
    ).replace(
        "        return json.dumps(entries)\n    except Exception as e:\n        message = str(e)\n"
        '        logger.warning("listing failed: %s", message)\n        return f"Error listing entries: {e}"\n',
        "        return json.dumps(entries)\n    except LedgerError:\n        raise\n    except Exception as e:\n        message = str(e)\n"
        '        logger.warning("listing failed: %s", message, exc_info=True)\n        raise ToolError("Error listing entries") from e\n',
    )


@pytest.mark.parametrize(
    "clause",
    [
        '        os.environ.pop("LEDGER_BOOK", None)\n',  # the setting made for the call is rolled back
        '        del os.environ["LEDGER_BOOK"]\n',
        "        client.close()\n",  # the connection is closed
    ],
)
def test_no_pass_through_skips_the_clauses_rollback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clause: str) -> None:
    # `except LedgerError: raise` before this clause would leave the setting in place (or the
    # client open) whenever the client refused: the author's cleanup is skipped. No fix; the
    # finding stays.
    monkeypatch.chdir(tmp_path)
    server = _ledger(tmp_path, clause)
    listed = run("--unsafe-fixes", "--output-format", "concise")
    assert "MCP002 Tool 'list_entries' returns the text of a caught Exception as a normal result" in listed.output, listed.output
    assert "let LedgerError through" not in listed.output
    assert "help: Keep the clause: letting the project's errors through first would skip its cleanup (no fix)" in run("--unsafe-fixes").output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "ledger/server.py").read_text() == server


def test_a_long_title_is_cut_in_its_quote_so_the_help_still_shows_the_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The title with the pass-through said is longer than a help's line: the quoted message is cut
    # (marked with an ellipsis), what the fix adds stays said; never the rule's generic advice.
    monkeypatch.chdir(tmp_path)
    long_text = "Error listing the entries of the book you asked for: {e}. Check the book id and try again."
    server = _ledger(tmp_path, '        logger.warning("listing failed")\n').replace('"Error listing entries: {e}"', f'"{long_text}"')
    write(tmp_path / "ledger/server.py", server)
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert 'help: Raise ToolError("Error listing the entries of the book you asked…) from e; let LedgerError through\n' in listed.output, listed.output
    assert "Log the exception; say which operation failed" not in listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "ledger/server.py").read_text() == server.replace(
        "from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n"
    ).replace(
        "        return json.dumps(entries)\n    except Exception as e:\n"
        '        logger.warning("listing failed")\n'
        f'        return f"{long_text}"\n',
        "        return json.dumps(entries)\n    except LedgerError:\n        raise\n    except Exception as e:\n"
        '        logger.warning("listing failed", exc_info=True)\n'
        '        raise ToolError("Error listing the entries of the book you asked for. Check the book id and try again.") from e\n',
    )


LINKS = """\
import time

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("links")


class LinkError(Exception):
    \"\"\"A refusal of the link service, in words the caller can act on.\"\"\"


class Link:
    def _request(self, path: str) -> dict:
        response = httpx.get(f"https://links.invalid{path}")
        if response.status_code == 401:
            raise LinkError("The key was refused. Set a new key and call connect again.")
        response.raise_for_status()
        return response.json()

    def connect(self) -> None:
        for attempt in range(3):
            try:
                self._request("/")
                return
            except Exception as e:
                if attempt < 2:
                    time.sleep(1)
                else:
                    raise ConnectionError(f"Could not connect after 3 attempts: {e}")


link = Link()


@mcp.tool()
def connect() -> str:
    \"\"\"Connect to the link service.\"\"\"
    link.connect()
    return "connected"
"""


def test_no_pass_through_in_a_retry_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `except LinkError: raise` before the clause would stop retrying on a refused key (and the
    # waits between attempts): the loop exists to retry. No fix; the help says why.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "links"\ndependencies = ["mcp>=1.20,<2", "httpx"]\n')
    write(tmp_path / "server.py", LINKS)
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert "server.py:30:27: MCP002 Helper 'connect' raises ConnectionError with the text of a caught Exception" in listed.output, listed.output
    assert "help: Keep the clause: letting the project's errors through first would skip its cleanup (no fix)" in listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "server.py").read_text() == LINKS
