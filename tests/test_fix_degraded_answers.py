"""A helper that degrades on purpose keeps answering (issue 23, review 12's broken-contract reject).

The helper's `except` records the failure into the answer it goes on to give (a note appended
to the result, a warnings list, a partial flag) and a tool serves that partial answer. The
exception's text in the note is MCP002's finding, but the fix keeps the flow: the note stays,
in the author's words without the exception's text, and the failure goes to the log. It never
raises (the tool would fail where it answered, and the note would be left dead).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mcp_lint.cli import cli


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", *args], catch_exceptions=False)


HEADER = """\
import logging

import httpx
from mcp.server.fastmcp import FastMCP

logger = logging.getLogger(__name__)
mcp = FastMCP("prices")


async def _price_info(client: httpx.AsyncClient, symbol: str) -> dict:
    info = {"symbol": symbol, "limit": None, "notes": []}
    try:
        resp = await client.get("/limits")
        resp.raise_for_status()
        info["limit"] = resp.json()[symbol]
"""

TOOL = """

@mcp.tool()
async def order_size(symbol: str, budget: float) -> dict:
    async with httpx.AsyncClient(base_url="https://prices.invalid") as client:
        info = await _price_info(client, symbol)
    size = budget if info["limit"] is None else min(budget, info["limit"])
    return {"symbol": symbol, "size": size, "notes": info["notes"]}
"""

KEPT = """\
    except Exception:
        logger.exception("could not fetch the limits list")
        info["notes"].append("could not fetch the limits list")
"""


@pytest.mark.parametrize(
    ("after", "kept_after"),
    [
        # The note, then the answer returned after the `try`.
        ("    return info\n", "    return info\n"),
        # The note and a partial flag, then the answer returned from the clause itself.
        ('        info["partial"] = True\n        return info\n    return info\n', '        info["partial"] = True\n        return info\n    return info\n'),
    ],
)
def test_the_note_stays_without_the_exception_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, after: str, kept_after: str) -> None:
    clause = '    except Exception as e:\n        info["notes"].append(f"could not fetch the limits list: {e}")\n'
    (tmp_path / "server.py").write_text(HEADER + clause + after + TOOL)
    monkeypatch.chdir(tmp_path)
    shown = run("--unsafe-fixes", "--output-format", "full")
    assert "MCP002 [*] Helper '_price_info' returns the text of a caught Exception as a normal result" in shown.output, shown.output
    assert "raise" not in shown.output
    run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert (tmp_path / "server.py").read_text() == HEADER + KEPT + kept_after + TOOL
    again = run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert "MCP002" not in again.output, again.output


def test_a_note_in_a_loop_that_goes_on_keeps_the_item(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = (
        "import httpx\nfrom fastmcp import FastMCP\n\nmcp = FastMCP(\"erp\")\n\n\n"
        "@mcp.tool\ndef sync_items(skus: list[str]) -> dict:\n"
        "    errors = []\n"
        "    for sku in skus:\n"
        "        try:\n"
        '            httpx.post("https://erp.invalid/sync", json={"sku": sku}).raise_for_status()\n'
        "        except httpx.HTTPError as exc:\n"
        '            errors.append(f"Could not sync {sku}: {exc}")\n'
        "            continue\n"
        '    return {"synced": len(skus) - len(errors), "errors": errors}\n'
    )
    (tmp_path / "server.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    run("--fix", "--unsafe-fixes", "--output-format", "concise")
    out = (tmp_path / "server.py").read_text()
    assert '            errors.append(f"Could not sync {sku}")\n' in out, out
    assert "raise ToolError" not in out


def test_a_list_built_in_the_clause_is_no_degraded_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The clause builds its own failure report and returns it: the call failed, no degraded
    # answer; the note rewrite is not offered (nor is any fix: the reply is a joined list).
    source = (
        "import httpx\nfrom fastmcp import FastMCP\n\nmcp = FastMCP(\"erp\")\n\n\n"
        "@mcp.tool\ndef sync_item(sku: str) -> str:\n"
        "    try:\n"
        '        httpx.post("https://erp.invalid/sync", json={"sku": sku}).raise_for_status()\n'
        "    except httpx.HTTPError as exc:\n"
        "        lines = []\n"
        '        lines.append(f"Could not sync {sku}: {exc}")\n'
        '        return "\\n".join(lines)\n'
        '    return f"Synced {sku}"\n'
    )
    (tmp_path / "server.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    shown = run("--unsafe-fixes", "--output-format", "concise")
    assert "MCP002" in shown.output, shown.output
    run("--fix", "--unsafe-fixes", "--output-format", "concise")
    out = (tmp_path / "server.py").read_text()
    assert out == source, out
