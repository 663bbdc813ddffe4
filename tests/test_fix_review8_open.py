"""Fix shapes review 8 rejected (issue 23), each with the code the fix must write (or the code left
as it was), on made-up servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write

# --- a broad clause whose `try` raises the project's own exceptions through another module -------

PYPROJECT = '[project]\nname = "ledger"\ndependencies = ["mcp>=1.20,<2", "httpx"]\n'

ERRORS = """\
class LedgerError(Exception):
    \"\"\"Base of the ledger client's errors; their text is written for the model.\"\"\"


class QuotaError(LedgerError):
    def __init__(self, message: str, wait: int = 60) -> None:
        super().__init__(message)
        self.wait = wait


class LoginError(LedgerError):
    pass
"""

CLIENT = """\
import httpx

from ledger.errors import LoginError, QuotaError


class LedgerClient:
    def __init__(self, token: str) -> None:
        self._http = httpx.Client(base_url="https://ledger.invalid", headers={"Authorization": token})

    def get(self, path: str) -> dict:
        response = self._http.get(path)
        if response.status_code == 401:
            raise LoginError("The token was refused. Ask the user for a new token and call login again.")
        if response.status_code == 429:
            wait = response.headers.get("Retry-After", "60")
            raise QuotaError(f"Too many requests. Retry after {wait}s.", wait=int(wait))
        response.raise_for_status()
        return response.json()
"""

SERVER = """\
import json
import logging

from mcp.server.fastmcp import FastMCP

from ledger.client import LedgerClient{imports}

logger = logging.getLogger(__name__)
mcp = FastMCP("ledger")
client = LedgerClient("token")


@mcp.tool()
def list_entries(book_id: int) -> str:
    \"\"\"List the entries of a book.\"\"\"
    try:
        entries = client.get(f"/books/{{book_id}}/entries")
        return json.dumps(entries)
    except Exception as e:
        return f"Error listing entries: {{e}}"
"""


def _ledger(root: Path, server: str, client: str = CLIENT) -> None:
    write(root / "pyproject.toml", PYPROJECT)
    write(root / "ledger/__init__.py", "")
    write(root / "ledger/errors.py", ERRORS)
    write(root / "ledger/client.py", client)
    write(root / "ledger/server.py", server)


def test_the_clients_own_advice_passes_a_rewritten_broad_clause(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The client raises its own classes with the author's advice ("Retry after 60s", "call login
    # again"); the tool's `{e}` passed it on. The rewritten clause would replace it with "Error
    # listing entries": their base, which the tool module imports, goes through first.
    monkeypatch.chdir(tmp_path)
    server = SERVER.format(imports="\nfrom ledger.errors import LedgerError")
    _ledger(tmp_path, server)
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert "help: Log the exception and raise ToolError(\"Error listing entries\") from e; let LedgerError through" in listed.output, listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "ledger/server.py").read_text() == server.replace(
        "        return json.dumps(entries)\n    except Exception as e:\n        return f\"Error listing entries: {e}\"\n",
        "        return json.dumps(entries)\n    except LedgerError:\n        raise\n    except Exception as e:\n"
        "        logger.exception(\"Error listing entries\")\n        raise ToolError(\"Error listing entries\") from e\n",
    ).replace("from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n")
    assert run("--unsafe-fixes").exit_code == 0


def test_no_name_for_the_clients_classes_leaves_the_clause_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The tool module names none of the client's classes: no pass-through can go before the
    # clause, and a rewrite would drop the advice. The finding stays, without a fix.
    monkeypatch.chdir(tmp_path)
    server = SERVER.format(imports="")
    _ledger(tmp_path, server)
    listed = run("--unsafe-fixes", "--output-format", "concise")
    assert "ledger/server.py:20:16: MCP002 Tool 'list_entries' returns the text of a caught Exception as a normal result" in listed.output, listed.output
    assert "[*]" not in listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "ledger/server.py").read_text() == server


def test_a_class_also_raised_with_library_text_is_not_let_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The client also raises QuotaError with a caught library exception's text: letting LedgerError
    # through would send that text on. No fix.
    monkeypatch.chdir(tmp_path)
    server = SERVER.format(imports="\nfrom ledger.errors import LedgerError")
    client = CLIENT.replace(
        "        response.raise_for_status()\n",
        "        try:\n            response.raise_for_status()\n        except httpx.HTTPStatusError as exc:\n"
        "            raise QuotaError(f\"Request failed: {exc}\") from exc\n",
    )
    _ledger(tmp_path, server, client)
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "ledger/server.py").read_text() == server


def test_a_library_error_only_is_rewritten_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A client raising no class of its own: the broad clause is rewritten, nothing let through.
    monkeypatch.chdir(tmp_path)
    server = SERVER.format(imports="")
    client = CLIENT.replace("from ledger.errors import LoginError, QuotaError\n", "").replace(
        "        if response.status_code == 401:\n            raise LoginError(\"The token was refused. Ask the user for a new token and call login again.\")\n"
        "        if response.status_code == 429:\n            wait = response.headers.get(\"Retry-After\", \"60\")\n"
        "            raise QuotaError(f\"Too many requests. Retry after {wait}s.\", wait=int(wait))\n",
        "",
    )
    _ledger(tmp_path, server, client)
    run("--fix", "--unsafe-fixes")
    fixed = (tmp_path / "ledger/server.py").read_text()
    assert "    except Exception as e:\n        logger.exception(\"Error listing entries\")\n        raise ToolError(\"Error listing entries\") from e\n" in fixed
    assert "raise\n    except" not in fixed


# --- MCP008's class swap in a helper that code outside the server calls -------------------------

SETTINGS = """\
import os


def require_token() -> str:
    token = os.environ.get("DNS_TOKEN")
    if not token:
        raise RuntimeError("DNS_TOKEN is not set. Add it to the server's environment.")
    return token
"""

DNS_SERVER = """\
from mcp.server.mcpserver import MCPServer

from dns.settings import require_token

mcp = MCPServer("dns")


@mcp.tool()
def list_records(zone: str) -> str:
    \"\"\"List a zone's records.\"\"\"
    token = require_token()
    return f"{zone}: {len(token)}"
"""

POLLER = """\
import time

from dns.settings import require_token


def poll_forever() -> None:
    token = require_token()
    while True:
        print(token)
        time.sleep(60)
"""


@pytest.mark.parametrize("poller", [False, True], ids=["tools-only", "a-daemon-calls-it"])
def test_a_class_swap_is_not_offered_where_code_outside_the_server_calls_the_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, poller: bool
) -> None:
    # mcp 2.x hides a RuntimeError's text from the model: MCP008 reports the helper's raise. Its
    # fix raises ToolError instead; a daemon module that imports no framework calls the helper
    # too and gets RuntimeError today: there the swap is no fix (the finding stays).
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "dns"\ndependencies = ["mcp>=2,<3"]\n')
    write(tmp_path / "dns/__init__.py", "")
    write(tmp_path / "dns/settings.py", SETTINGS)
    write(tmp_path / "dns/server.py", DNS_SERVER)
    if poller:
        write(tmp_path / "dns/poller.py", POLLER)
    listed = run("--unsafe-fixes", "--output-format", "concise")
    assert "dns/settings.py:7:9: MCP008" in listed.output, listed.output
    # `check --unsafe-fixes` lists exactly the fixes `--fix --unsafe-fixes` applies: it reads the
    # daemon module too (the prefilter alone would leave it out and list the swap).
    assert ("dns/settings.py:7:9: MCP008 [*]" in listed.output) is not poller, listed.output
    run("--fix", "--unsafe-fixes")
    settings = (tmp_path / "dns/settings.py").read_text()
    if poller:
        assert settings == SETTINGS
    else:
        assert 'raise ToolError("DNS_TOKEN is not set. Add it to the server\'s environment.")' in settings


# --- an import fallback between two frameworks ------------------------------------------------

FALLBACK_SERVER = """\
import httpx

try:
    from mcp.server.fastmcp import FastMCP
except ImportError:
    from fastmcp import FastMCP

mcp = FastMCP("rates")


@mcp.tool()
def get_rate(currency: str) -> str:
    \"\"\"Get an exchange rate.\"\"\"
    try:
        response = httpx.get(f"https://rates.invalid/{currency}")
        response.raise_for_status()
        return response.text
    except httpx.HTTPError as e:
        return f"Could not get the rate: {e}"
"""


def test_the_primary_import_of_a_framework_fallback_decides_where_tool_error_comes_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The project declares mcp only; fastmcp is a fallback behind `except ImportError`. A top-level
    # `from fastmcp.exceptions import ToolError` would fail to import with the declared
    # requirements: ToolError comes from mcp's FastMCP, the module the `try` imports first.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "rates"\ndependencies = ["mcp>=1.20,<2", "httpx"]\n')
    write(tmp_path / "server.py", FALLBACK_SERVER)
    run("--fix", "--unsafe-fixes")
    fixed = (tmp_path / "server.py").read_text()
    assert "fastmcp.exceptions" not in fixed.replace("mcp.server.fastmcp.exceptions", ""), fixed
    assert "from mcp.server.fastmcp.exceptions import ToolError\n" in fixed, fixed
    assert 'raise ToolError("Could not get the rate") from e' in fixed, fixed


OWN_TOOL_ERROR = """\
from mcp.server.mcpserver.exceptions import ToolError


class DnsToolError(ToolError):
    \"\"\"Every failure the model must read; anything else stays on the server.\"\"\"
"""


def test_a_project_with_its_own_tool_error_gets_no_class_swap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The project raises its own ToolError subclass for the failures the model reads; a plain
    # RuntimeError elsewhere is kept on the server by design. The finding stays, with no fix,
    # and the help says why.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "dns"\ndependencies = ["mcp>=2,<3"]\n')
    write(tmp_path / "dns/__init__.py", "")
    write(tmp_path / "dns/settings.py", SETTINGS)
    write(tmp_path / "dns/errors.py", OWN_TOOL_ERROR)
    write(tmp_path / "dns/server.py", DNS_SERVER.replace("from dns.settings import require_token\n", "from dns.errors import DnsToolError\nfrom dns.settings import require_token\n").replace(
        "    token = require_token()\n", "    token = require_token()\n    if not zone:\n        raise DnsToolError(\"Pass a zone name.\")\n"
    ))
    listed = run("--unsafe-fixes")
    assert "dns/settings.py:7:9: MCP008 Helper 'require_token' raises RuntimeError" in listed.output, listed.output
    assert "help: No fix: the project raises its own DnsToolError for what the model reads; raise DnsToolError here if the model must read this" in listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "dns/settings.py").read_text() == SETTINGS


# --- an Enum built from the tool's argument under `except ValueError` ----------------------------

FORMATS = """\
from enum import Enum


class Layout(str, Enum):
    TABLE = "table"
    JSON = "json"
"""

REPORTS_SERVER = """\
import httpx
from mcp.server.fastmcp import FastMCP

from reports.formats import Layout

mcp = FastMCP("reports")


@mcp.tool()
def get_report(report_id: str, layout: str = "table") -> str:
    \"\"\"Get a report.\"\"\"
    try:
        chosen = Layout(layout.lower())
        response = httpx.get(f"https://reports.invalid/{report_id}")
        return f"{chosen.value}: {response.text}"
    except ValueError as e:
        return f"Invalid parameter value: {e}"
"""


@pytest.mark.parametrize("enum", [True, False], ids=["an-enum", "a-plain-class"])
def test_an_enum_of_the_tools_argument_keeps_its_value_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, enum: bool) -> None:
    # `Layout("xml")` raises "'xml' is not a valid Layout": the clause tells the model which
    # argument was wrong. A rewritten message would drop it: no fix (the finding stays: a
    # ValueError of the request may come through the same clause).
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "reports"\ndependencies = ["mcp>=1.20,<2", "httpx"]\n')
    write(tmp_path / "reports/__init__.py", "")
    write(tmp_path / "reports/formats.py", FORMATS if enum else "class Layout:\n    def __init__(self, value: str) -> None:\n        self.value = value\n")
    write(tmp_path / "reports/server.py", REPORTS_SERVER)
    run("--fix", "--unsafe-fixes")
    fixed = (tmp_path / "reports/server.py").read_text()
    if enum:
        assert fixed == REPORTS_SERVER
    else:
        assert fixed != REPORTS_SERVER
