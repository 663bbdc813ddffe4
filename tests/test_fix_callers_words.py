"""A helper's raise read after its callers' own words (issue 23, review 11's caller stutter).

A client helper raises its own class with `f"Records request failed: {exc}"`; every caller
catches it and writes `f"Records request failed: {exc}. File left unchanged."`. The fix that
keeps only the operation's words in the helper would make the caller's sentence say them twice,
so where every caller puts the text after words naming the same operation the helper's new
message says only why (the HTTP status, the error's class), and the helper logs the failure with
its traceback (the callers log only the short text). A caller that reads the text alone, or lets
the exception escape, keeps today's fix."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mcp_lint.cli import cli


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", *args], catch_exceptions=False)


CLIENT = """\
from __future__ import annotations

import httpx


class RecordsError(Exception):
    \"\"\"Raised when the records service cannot answer.\"\"\"


async def fetch_record(client: httpx.AsyncClient, record_id: str) -> dict:
    try:
        response = await client.get(f"https://records.invalid/items/{record_id}")
        response.raise_for_status()
    except httpx.HTTPError as exc:
        raise RecordsError(f"Records request failed: {exc}") from exc
    return response.json()
"""

EXPORT = """\
from __future__ import annotations

import logging
from dataclasses import dataclass

import httpx

from pkg.clients.records import RecordsError, fetch_record

logger = logging.getLogger(__name__)


@dataclass
class ExportResult:
    status: str
    message: str = ""


async def export_record(client: httpx.AsyncClient, record_id: str) -> ExportResult:
    try:
        await fetch_record(client, record_id)
    except RecordsError as exc:
        logger.warning("Records error for %s: %s", record_id, exc)
        return ExportResult(status="error", message=f"Records request failed: {exc}. File left unchanged.")
    return ExportResult(status="ok")
"""

SEARCH = """\
from __future__ import annotations

import logging

import httpx

from pkg.clients.records import RecordsError, fetch_record

logger = logging.getLogger(__name__)


async def find_records(client: httpx.AsyncClient, ids: list[str]) -> list[dict]:
    found = []
    for record_id in ids:
        try:
            found.append(await fetch_record(client, record_id))
        except RecordsError as exc:
            logger.warning("Records lookup failed for %s: %s", record_id, exc)
            found.append({"id": record_id, "error_code": "source_unavailable"})
    return found
"""

SERVER = """\
from __future__ import annotations

import httpx
from fastmcp import FastMCP

from pkg.services.export import ExportResult, export_record
from pkg.services.search import find_records

mcp = FastMCP("records")


@mcp.tool()
async def export(record_id: str) -> ExportResult:
    async with httpx.AsyncClient() as client:
        return await export_record(client, record_id)


@mcp.tool()
async def search(ids: list[str]) -> list[dict]:
    async with httpx.AsyncClient() as client:
        return await find_records(client, ids)
"""


def _project(root: Path, export: str = EXPORT) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/clients/__init__.py": "",
        "pkg/services/__init__.py": "",
        "pkg/clients/records.py": CLIENT,
        "pkg/services/export.py": export,
        "pkg/services/search.py": SEARCH,
        "pkg/server.py": SERVER,
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


REASON_ONLY = """\
from __future__ import annotations

import logging

import httpx

logger = logging.getLogger(__name__)


class RecordsError(Exception):
    \"\"\"Raised when the records service cannot answer.\"\"\"


async def fetch_record(client: httpx.AsyncClient, record_id: str) -> dict:
    try:
        response = await client.get(f"https://records.invalid/items/{record_id}")
        response.raise_for_status()
    except httpx.HTTPStatusError as exc:
        logger.exception("Records request failed (HTTP %s)", exc.response.status_code)
        raise RecordsError(f"HTTP {exc.response.status_code}") from exc
    except httpx.HTTPError as exc:
        logger.exception("Records request failed")
        raise RecordsError(type(exc).__name__) from exc
    return response.json()
"""


def test_callers_naming_the_operation_get_the_reason_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # export's sentence now reads "Records request failed: HTTP 404. File left unchanged." (not
    # "Records request failed: Records request failed (HTTP 404). ..."); search reads no text
    # but its log; the transport's words go to the helper's own log line, with the traceback.
    _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    shown = run("--unsafe-fixes", "--output-format", "full")
    assert "   = help: Log the exception and raise RecordsError(type(exc).__name__) from exc; HTTPStatusError clause first\n" in shown.output, shown.output
    first = run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert "error:" not in first.output, first.output
    assert (tmp_path / "pkg/clients/records.py").read_text() == REASON_ONLY
    assert (tmp_path / "pkg/services/export.py").read_text() == textwrap.dedent(EXPORT)  # the callers' words stay theirs
    second = run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert "fixed" not in second.output and "MCP002" not in second.output, second.output


TODAYS = """\
    except httpx.HTTPStatusError as exc:
        raise RecordsError(f"Records request failed (HTTP {exc.response.status_code})") from exc
    except httpx.HTTPError as exc:
        raise RecordsError("Records request failed") from exc
"""


@pytest.mark.parametrize(
    "message",
    [
        # The caller's words name no operation: the helper's sentence is what says which failed.
        'f"Error: {exc}. File left unchanged."',
        # The caller hands the text on alone.
        "str(exc)",
        # The caller names another operation than the helper's words do.
        'f"Export of {record_id} stopped: {exc}"',
    ],
)
def test_a_caller_that_does_not_say_the_operation_keeps_todays_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, message: str) -> None:
    _project(tmp_path, EXPORT.replace('f"Records request failed: {exc}. File left unchanged."', message))
    monkeypatch.chdir(tmp_path)
    run("--fix", "--unsafe-fixes", "--output-format", "concise")
    after = (tmp_path / "pkg/clients/records.py").read_text()
    assert TODAYS in after, after
    assert "logger" not in after, after


def test_a_caller_letting_the_exception_escape_keeps_todays_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The search tool calls the helper outside any `try`: the framework sends the helper's text
    # alone, so it must still say which operation failed.
    _project(tmp_path)
    (tmp_path / "pkg/server.py").write_text(
        textwrap.dedent(SERVER)
        + textwrap.dedent(
            """\


            @mcp.tool()
            async def get_record(record_id: str) -> dict:
                from pkg.clients.records import fetch_record

                async with httpx.AsyncClient() as client:
                    return await fetch_record(client, record_id)
            """
        )
    )
    monkeypatch.chdir(tmp_path)
    run("--fix", "--unsafe-fixes", "--output-format", "concise")
    after = (tmp_path / "pkg/clients/records.py").read_text()
    assert TODAYS in after, after



TOOL_MODULE = """\
from __future__ import annotations

import httpx
from fastmcp import FastMCP

mcp = FastMCP("records")


class RecordsError(Exception):
    \"\"\"Raised when the records service cannot answer.\"\"\"


@mcp.tool()
async def get_record(record_id: str) -> dict:
    async with httpx.AsyncClient() as client:
        try:
            response = await client.get(f"https://records.invalid/items/{record_id}")
            response.raise_for_status()
        except httpx.HTTPError as exc:
            raise RecordsError(f"Records request failed: {exc}") from exc
    return response.json()
"""

SMOKE_SCRIPT = """\
from __future__ import annotations

import asyncio

from pkg.server import RecordsError, get_record


async def main() -> None:
    try:
        await get_record("1")
    except RecordsError as exc:
        print(f"Records request failed while testing: {exc}")


if __name__ == "__main__":
    asyncio.run(main())
"""


def test_a_wrapping_caller_no_tool_reaches_does_not_choose_the_reason_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The tool raises itself (the framework sends its text alone); only a smoke script puts the
    # text after the operation's words, and the model never reads the script's sentence: the
    # tool's message must still say which operation failed.
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("")
    (tmp_path / "pkg/server.py").write_text(TOOL_MODULE)
    (tmp_path / "pkg/smoke.py").write_text(SMOKE_SCRIPT)
    monkeypatch.chdir(tmp_path)
    shown = run("--unsafe-fixes", "--output-format", "concise")
    assert "pkg/server.py:" in shown.output and "MCP002" in shown.output, shown.output
    run("--fix", "--unsafe-fixes", "--output-format", "concise")
    after = (tmp_path / "pkg/server.py").read_text()
    assert 'raise RecordsError("Records request failed") from exc' in after or "Records request failed (HTTP" in after, after
    assert "type(exc).__name__" not in after, after
def test_a_wrapping_caller_on_a_tool_path_still_chooses_the_reason_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A script beside the export tool's wrapping caller changes nothing: the tool's caller decides.
    _project(tmp_path)
    (tmp_path / "pkg/smoke.py").write_text(SMOKE_SCRIPT.replace("from pkg.server import RecordsError, get_record", "from pkg.clients.records import RecordsError, fetch_record as get_record"))
    monkeypatch.chdir(tmp_path)
    run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert (tmp_path / "pkg/clients/records.py").read_text() == REASON_ONLY


def test_a_helper_that_is_itself_a_tool_keeps_its_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The tool get_record raises itself and another tool wraps its text: a model calling
    # get_record directly reads its message alone, so it keeps the operation's words.
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("")
    (tmp_path / "pkg/server.py").write_text(
        TOOL_MODULE
        + textwrap.dedent(
            """\


            @mcp.tool()
            async def export(record_id: str) -> str:
                try:
                    await get_record(record_id)
                except RecordsError as exc:
                    return f"Records request failed: {exc}. File left unchanged."
                return "exported"
            """
        )
    )
    monkeypatch.chdir(tmp_path)
    run("--fix", "--unsafe-fixes", "--output-format", "concise")
    after = (tmp_path / "pkg/server.py").read_text()
    assert "type(exc).__name__" not in after, after


REASON_ONLY_QUIET = """\
from __future__ import annotations

import httpx


class RecordsError(Exception):
    \"\"\"Raised when the records service cannot answer.\"\"\"


async def fetch_record(client: httpx.AsyncClient, record_id: str) -> dict:
    try:
        response = await client.get(f"https://records.invalid/items/{record_id}")
        response.raise_for_status()
    except httpx.HTTPStatusError as exc:
        raise RecordsError(f"HTTP {exc.response.status_code}") from exc
    except httpx.HTTPError as exc:
        raise RecordsError(type(exc).__name__) from exc
    return response.json()
"""


@pytest.mark.parametrize(
    ("export_log", "search_log"),
    [
        ('logger.exception("Records error for %s", record_id)', 'logger.warning("Records lookup failed for %s", record_id, exc_info=True)'),
        ('logger.error("Records error for %s", record_id, exc_info=exc)', 'logger.exception("Records lookup failed for %s", record_id)'),
    ],
)
def test_callers_that_log_the_traceback_get_no_second_log_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, export_log: str, search_log: str) -> None:
    # Every caller already logs the failure with its traceback (the chained cause holds the
    # transport's text): the helper's reason-only fix adds no log line, so it is logged once.
    export = EXPORT.replace('logger.warning("Records error for %s: %s", record_id, exc)', export_log)
    search = SEARCH.replace('logger.warning("Records lookup failed for %s: %s", record_id, exc)', search_log)
    assert export != EXPORT and search != SEARCH
    _project(tmp_path, export)
    (tmp_path / "pkg/services/search.py").write_text(textwrap.dedent(search))
    monkeypatch.chdir(tmp_path)
    shown = run("--unsafe-fixes", "--output-format", "full")
    assert "   = help: Raise RecordsError(type(exc).__name__) from exc; HTTPStatusError clause first\n" in shown.output, shown.output
    first = run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert "error:" not in first.output, first.output
    assert (tmp_path / "pkg/clients/records.py").read_text() == REASON_ONLY_QUIET


def test_one_caller_logging_without_the_traceback_keeps_the_helpers_log_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # export logs the traceback, search only the short text: the helper logs the failure itself.
    export = EXPORT.replace('logger.warning("Records error for %s: %s", record_id, exc)', 'logger.exception("Records error for %s", record_id)')
    _project(tmp_path, export)
    monkeypatch.chdir(tmp_path)
    run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert (tmp_path / "pkg/clients/records.py").read_text() == REASON_ONLY
