"""Fix shapes review 9 marked (issue 23), each with the code the fix must write, on made-up servers:
an error dict's lists of what to fix kept in the raised message (MCP005), and the HTTP status kept
when MCP002's fix drops an HTTP client error's text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write

PYPROJECT = '[project]\nname = "batches"\ndependencies = ["mcp>=1.20,<2", "httpx", "requests"]\n'

# --- MCP005: an error dict's lists of what to fix --------------------------------------------------

BATCHES = """\
import json
from typing import Any

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("batches")


def _problems(lines: list[str]) -> list[dict[str, str]]:
    return [{"rule": line[:4], "text": line[4:]} for line in lines]


@mcp.tool()
def submit_batch(entries: list[dict[str, Any]]) -> str:
    \"\"\"Submit a batch of entries.\"\"\"
    incomplete: list[dict[str, Any]] = []
    required = {"name", "size"}
    for index, entry in enumerate(entries):
        missing = sorted(required - set(entry))
        if missing:
            incomplete.append({"index": index, "missing": missing})
    if incomplete:
        return json.dumps(
            {
                "error": "invalid_input",
                "message": "Each entry must include all required fields.",
                "required_fields": sorted(required),
                "invalid_entries": incomplete,
                "checked_count": len(entries),
            },
            indent=2,
        )
    return json.dumps({"accepted": len(entries)})


@mcp.tool()
def build_link(path: str) -> dict:
    \"\"\"Build a link for a draft.\"\"\"
    errs = [part for part in path.split("/") if part.startswith("E")]
    if errs:
        return {
            "path": path,
            "ok": False,
            "reason": "Draft has errors; fix them before building a link.",
            "findings": _problems(errs),
        }
    return {"path": path, "ok": True, "link": "https://example.invalid/" + path}


@mcp.tool()
def get_entry(entry_id: str) -> dict:
    \"\"\"Get an entry.\"\"\"
    if not entry_id:
        return {"error": "Entry id is required.", "status": "error", "retry_count": 0, "headers": {"accept": "json"}}
    return {"id": entry_id}
"""


def test_an_error_dicts_lists_of_what_to_fix_go_into_the_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The dict told the model which fields are required and which entries miss which; the
    # findings of the draft. Raised as the message alone, the model would no longer see them:
    # they follow it in parentheses. A count, a status word, a flag or a record of the exchange
    # (headers) is nothing to act on.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", PYPROJECT)
    write(tmp_path / "server.py", BATCHES)
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert "help: Raise ToolError(f\"Each entry must include all required fields (required_f...) instead" in listed.output, listed.output
    run("--fix", "--unsafe-fixes")
    fixed = (tmp_path / "server.py").read_text()
    assert fixed == BATCHES.replace(
        "from mcp.server.fastmcp import FastMCP\n",
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
    ).replace(
        """        return json.dumps(
            {
                "error": "invalid_input",
                "message": "Each entry must include all required fields.",
                "required_fields": sorted(required),
                "invalid_entries": incomplete,
                "checked_count": len(entries),
            },
            indent=2,
        )
""",
        "        raise ToolError(f\"Each entry must include all required fields (required_fields: {sorted(required)}, invalid_entries: {incomplete}).\")\n",
    ).replace(
        """        return {
            "path": path,
            "ok": False,
            "reason": "Draft has errors; fix them before building a link.",
            "findings": _problems(errs),
        }
""",
        "        raise ToolError(f\"Draft has errors; fix them before building a link (findings: {_problems(errs)}).\")\n",
    ).replace(
        '        return {"error": "Entry id is required.", "status": "error", "retry_count": 0, "headers": {"accept": "json"}}\n',
        '        raise ToolError("Entry id is required.")\n',
    )
    assert run("--unsafe-fixes").exit_code == 0


def test_a_list_that_cannot_go_into_the_literal_leaves_no_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The list is written with the message's own quote: it cannot go inside the f-string before
    # Python 3.12 without rewriting it, so the dict stays (no fix rather than a lost list).
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", PYPROJECT)
    server = BATCHES.replace('"required_fields": sorted(required),', '"required_fields": sorted(required, key=lambda f: f.strip("\\\\n")),')
    write(tmp_path / "server.py", server)
    run("--fix", "--unsafe-fixes")
    assert "Each entry must include all required fields.\",\n" in (tmp_path / "server.py").read_text()


# --- MCP002: the HTTP status kept with the library's text dropped -------------------------------------

WALLET = """\
import requests


class WalletError(Exception):
    pass


class Wallet:
    def owner(self) -> str:
        try:
            response = requests.get("https://wallet.invalid/owner")
            response.raise_for_status()
            if response.status_code == 204:
                raise WalletError("The reply names no owner")
            return response.json()["name"]
        except requests.RequestException as e:
            raise WalletError(f"Error getting owner: {e}")

    def history(self) -> list:
        try:
            response = requests.get("https://wallet.invalid/history")
            if response.status_code == 204:
                raise WalletError("The reply names no entries")
            return response.json()
        except requests.RequestException as e:
            raise WalletError(f"Error getting history: {e}")

    def payees(self) -> list:
        try:
            response = requests.get("https://wallet.invalid/payees")
            response.raise_for_status()
            if response.status_code == 204:
                raise WalletError("The reply names no payees")
            return response.json()
        except requests.HTTPError as e:
            raise WalletError(f"Payees refused: {e}")
        except requests.RequestException as e:
            raise WalletError(f"Error getting payees: {e}")
"""

FUNDS = """\
import httpx

from wallet import WalletError


async def funds() -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get("https://wallet.invalid/funds")
            response.raise_for_status()
            return response.text
    except Exception as e:
        raise WalletError(f"Error getting funds: {e}")
"""

MAIN = """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

from funds import funds
from wallet import Wallet, WalletError

mcp = FastMCP("wallet")


@mcp.tool()
def owner() -> str:
    \"\"\"The owner.\"\"\"
    try:
        return Wallet().owner() + str(Wallet().history()) + str(Wallet().payees())
    except WalletError as e:
        raise ToolError(str(e)) from e


@mcp.tool()
async def balance() -> str:
    \"\"\"The balance.\"\"\"
    try:
        return await funds()
    except WalletError as e:
        raise ToolError(str(e)) from e


@mcp.tool()
async def get_limits() -> str:
    \"\"\"The limits.\"\"\"
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get("https://wallet.invalid/limits")
            response.raise_for_status()
            return response.text
    except httpx.HTTPStatusError as e:
        return f"HTTP Error: {e.response.status_code} - {e.response.text}"
"""


def _wallet(root: Path) -> None:
    write(root / "pyproject.toml", PYPROJECT)
    write(root / "wallet.py", WALLET)
    write(root / "funds.py", FUNDS)
    write(root / "main.py", MAIN)


def test_a_broad_clause_around_raise_for_status_gets_a_status_clause_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 401 (a wrong key), 404, 5xx: the status is what the user acts on, and no text of anyone.
    # The broad clause's exception may have no `.response`: the status error gets its own clause
    # before it, named as the module names the library. Without `raise_for_status()` in the
    # `try` (history), or with a clause for the status error already (payees), none is added.
    monkeypatch.chdir(tmp_path)
    _wallet(tmp_path)
    listed = run("--unsafe-fixes", "--output-format", "full")
    # The help says the clause added (the help is the edit applied).
    assert 'help: Raise WalletError("Error getting owner") from e; HTTPError clause first' in listed.output, listed.output
    assert 'help: Raise WalletError("Error getting funds") from e; HTTPStatusError clause first' in listed.output
    assert 'help: Raise WalletError("Error getting history") from e\n' in listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "wallet.py").read_text() == WALLET.replace(
        '        except requests.RequestException as e:\n            raise WalletError(f"Error getting owner: {e}")\n',
        "        except requests.HTTPError as e:\n"
        '            raise WalletError(f"Error getting owner (HTTP {e.response.status_code})") from e\n'
        '        except requests.RequestException as e:\n            raise WalletError("Error getting owner") from e\n',
    ).replace(
        'raise WalletError(f"Error getting history: {e}")', 'raise WalletError("Error getting history") from e'
    ).replace(
        'raise WalletError(f"Payees refused: {e}")', 'raise WalletError(f"Payees refused (HTTP {e.response.status_code})") from e'
    ).replace(
        'raise WalletError(f"Error getting payees: {e}")', 'raise WalletError("Error getting payees") from e'
    )
    assert (tmp_path / "funds.py").read_text() == FUNDS.replace(
        '    except Exception as e:\n        raise WalletError(f"Error getting funds: {e}")\n',
        "    except httpx.HTTPStatusError as e:\n"
        '        raise WalletError(f"Error getting funds (HTTP {e.response.status_code})") from e\n'
        '    except Exception as e:\n        raise WalletError("Error getting funds") from e\n',
    )
    main = (tmp_path / "main.py").read_text()
    # The clause catching the status error keeps it; "HTTP Error" said only what the status says.
    assert '        raise ToolError(f"Could not get limits (HTTP {e.response.status_code})") from e\n' in main, main
    assert 'logger.exception("Could not get limits (HTTP %s)", e.response.status_code)\n' in main, main
    assert "{e.response.text}" not in main
    assert run("--unsafe-fixes").exit_code == 0


# --- MCP005: a docstring documenting the error result the fix removes ------------------------------

CATALOG = """\
import json

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("catalog")
ITEMS: dict[str, dict] = {}


@mcp.tool()
def describe_item(item_id: str) -> str:
    \"\"\"Describe a catalog item.

    Returns the item's fields as JSON. On unknown item returns {"error": "<msg>"}.
    \"\"\"
    try:
        item = ITEMS.get(item_id)
        if not item:
            return json.dumps({"error": f"catalog item not found: {item_id}"})
        return json.dumps(item)
    except Exception as e:
        raise ToolError(f"describe_item failed: {e}") from e


@mcp.tool()
def count_items(kind: str) -> str:
    \"\"\"Count the items of a kind. Returns an error message for an empty kind.\"\"\"
    if not kind:
        return json.dumps({"error": "kind is required"})
    return json.dumps({"count": len(ITEMS)})
"""


def test_a_docstring_documenting_the_error_dict_is_named_in_the_notes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The docstring is the tool's description for the model: after the fix its sentence about
    # the error dict is stale. Prose is the author's to rewrite, so the finding says so; a
    # docstring that names no key of the dict gets no such note.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", PYPROJECT)
    write(tmp_path / "server.py", CATALOG)
    listed = json.loads(run("--unsafe-fixes", "--select", "MCP005", "--output-format", "json", "--exit-zero").output)
    notes = {finding["location"]["row"]: finding["notes"] for finding in listed}
    assert notes.keys() == {19, 29}
    assert (
        "the docstring (the tool's description for the model) documents the error result the fix removes: "
        "'On unknown item returns {\"error\": \"<msg>\"}.'; update it with the fix"
    ) in notes[19]
    assert not any("docstring" in note for note in notes[29])
    run("--fix", "--unsafe-fixes", "--select", "MCP005")
    assert 'raise ToolError(f"catalog item not found: {item_id}")' in (tmp_path / "server.py").read_text()


# --- MCP002: a structlog module's log call gets key-values, with the status ------------------------

STRUCTLOG = """\
import httpx
import structlog
from mcp.server.fastmcp import FastMCP

log = structlog.get_logger(__name__)
mcp = FastMCP("weather")


@mcp.tool()
async def get_forecast(city: str) -> str:
    \"\"\"The forecast of a city.\"\"\"
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"https://api.example.com/forecast/{city}")
            response.raise_for_status()
            return response.text
    except httpx.HTTPStatusError as e:
        return f"Forecast for {city} failed: {e}"
"""


def test_a_structlog_module_logs_an_event_and_key_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # structlog's event is a short phrase and the values are key-values (never `%s` or a
    # half-sentence with its values cut out): the status under its own name.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", PYPROJECT)
    write(tmp_path / "server.py", STRUCTLOG)
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "server.py").read_text() == STRUCTLOG.replace(
        "from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n"
    ).replace(
        '        return f"Forecast for {city} failed: {e}"\n',
        '        log.exception("Forecast failed", city=city, status_code=e.response.status_code)\n'
        '        raise ToolError(f"Forecast for {city} failed (HTTP {e.response.status_code})") from e\n',
    )
