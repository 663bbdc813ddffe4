"""Review 10's "merge with edits" shapes (issue 23), each with the code the fix must write, on
made-up servers: what the library said about the model's own input (an HTTP status raised by the
project's request helper, the kind of OS error) kept in the message, and an operation named for a
helper that only says it sends a request."""

from __future__ import annotations

import libcst

from tests.test_fixes import assert_fixes_to, findings_of, fixed

# --- the HTTP status of a status error raised in the module's own request helper ------------------

ITEMS = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("items")


class ItemsClient:
    def __init__(self, base: str) -> None:
        self.base = base

    def _fetch(self, path: str) -> dict:
        response = httpx.get(f"{self.base}{path}")
        response.raise_for_status()
        return response.json()

    def get_item(self, item_id: str) -> dict:
        return self._fetch(f"/items/{item_id}")

    def get_tag(self, tag_id: str) -> dict:
        try:
            return self._fetch(f"/tags/{tag_id}")
        except httpx.HTTPError:
            return {}


CLIENT = ItemsClient("https://items.invalid")


@mcp.tool()
def get_item(item_id: str) -> dict:
    try:
        return CLIENT.get_item(item_id)
    except Exception as e:
        raise ToolError(f"Could not get item {item_id}: {e}") from e


@mcp.tool()
def get_tag(tag_id: str) -> dict:
    try:
        return CLIENT.get_tag(tag_id)
    except Exception as e:
        raise ToolError(f"Could not get tag {tag_id}: {e}") from e
"""


def test_a_status_error_raised_by_the_modules_request_helper_keeps_its_status() -> None:
    # 404 (a wrong id the model sent) and 401 (a wrong key) ask for different next calls: the
    # helper two calls down lets httpx's status error out, so the tool's broad clause gets a
    # clause for it first, with the status. A helper that catches the status error itself
    # (`get_tag`) lets none out: no clause is added there.
    after = fixed(ITEMS)
    assert (
        "        return CLIENT.get_item(item_id)\n"
        "    except httpx.HTTPStatusError as e:\n"
        '        logger.exception("Could not get item %s (HTTP %s)", item_id, e.response.status_code)\n'
        '        raise ToolError(f"Could not get item {item_id} (HTTP {e.response.status_code})") from e\n'
        "    except Exception as e:\n"
        '        logger.exception("Could not get item %s", item_id)\n'
        '        raise ToolError(f"Could not get item {item_id}") from e\n'
    ) in after, after
    assert (
        "        return CLIENT.get_tag(tag_id)\n"
        "    except Exception as e:\n"
        '        logger.exception("Could not get tag %s", tag_id)\n'
        '        raise ToolError(f"Could not get tag {tag_id}") from e\n'
    ) in after, after
    assert after.count("HTTPStatusError") == 1
    assert_fixes_to(ITEMS, after, None)


def test_the_status_clause_is_not_added_when_the_helper_is_of_another_module() -> None:
    # Nothing of this module raises the status error: the clause would catch what the code does
    # not show (a client library's own errors are its own).
    source = ITEMS.replace("        response.raise_for_status()\n", "        response.json()\n")
    after = fixed(source)
    assert "HTTPStatusError" not in after, after


# --- the reason an OS error gives ----------------------------------------------------------------

NOTES = """\
import logging
from pathlib import Path

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("notes")


@mcp.tool()
def read_note(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError as e:
        raise ToolError(f"Could not read note {path}: {e}. Check the path.") from e


@mcp.tool()
def remove_note(path: str) -> str:
    try:
        Path(path).unlink()
    except (FileNotFoundError, PermissionError) as e:
        return f"Could not remove note {path}: {e}"
    return "removed"


@mcp.tool()
def sync_notes(folder: str) -> str:
    try:
        return Path(folder).read_text()
    except Exception as e:
        raise ToolError(f"Could not sync notes in {folder}: {e}") from e
"""


def test_the_kind_of_os_error_stays_in_the_message() -> None:
    # File not found and permission denied ask for different next calls: Python picks the class
    # from the errno, and its name (no path, no one's text, never None) is kept after the
    # sentence naming what failed, before the author's advice. A broad clause's exception may
    # be anything, except where its `try` only reads or writes a file (issue 23, review 13's
    # #10): then it is the OS's too, and its class stays as well.
    after = fixed(NOTES)
    assert (
        '        logger.exception("Could not read note %s (%s). Check the path.", path, type(e).__name__)\n'
        '        raise ToolError(f"Could not read note {path} ({type(e).__name__}). Check the path.") from e\n'
    ) in after, after
    assert (
        '        logger.exception("Could not remove note %s (%s)", path, type(e).__name__)\n'
        '        raise ToolError(f"Could not remove note {path} ({type(e).__name__})") from e\n'
    ) in after, after
    assert (
        '        logger.exception("Could not sync notes in %s (%s)", folder, type(e).__name__)\n'
        '        raise ToolError(f"Could not sync notes in {folder} ({type(e).__name__})") from e\n'
    ) in after, after
    # Beside another call, a broad clause's class could be anyone's: the text goes whole.
    beside = fixed(NOTES.replace("        return Path(folder).read_text()\n", "        return Path(folder).read_text() + summary(folder)\n"))
    assert '        raise ToolError(f"Could not sync notes in {folder}") from e\n' in beside, beside
    assert_fixes_to(NOTES, after, None)
    # The fix's message is not reported again (the class's name is not its text).
    assert findings_of(after, "MCP002") == []


def test_an_os_errors_strerror_is_still_its_text() -> None:
    # `e.strerror` is part of the exception's text for the label set: still reported, and not
    # what the fix writes.
    source = NOTES.replace("{e}. Check the path.", "{e.strerror}. Check the path.")
    assert [f.location.row for f in findings_of(source, "MCP002")] == [16, 24, 33]


def test_a_timeout_error_gets_no_kind() -> None:
    # asyncio's and socket's timeouts say no more than the class the clause names.
    source = NOTES.replace("except OSError as e:", "except TimeoutError as e:")
    after = fixed(source)
    assert '        raise ToolError(f"Could not read note {path}. Check the path.") from e\n' in after, after


# --- a helper that only says it sends a request -------------------------------------------------

VAULT = """\
import asyncio

import httpx


class VaultError(Exception):
    pass


class VaultClient:
    def __init__(self, base: str) -> None:
        self._client = httpx.AsyncClient(base_url=base)

    async def _make_request(self, method: str, endpoint: str, retries: int = 2) -> dict:
        for attempt in range(retries + 1):
            try:
                response = await self._client.request(method=method, url=endpoint)
                return response.json()
            except httpx.RequestError as e:
                if attempt < retries:
                    await asyncio.sleep(2**attempt)
                    continue
                raise VaultError(f"Request failed: {e}")
        return {}

    async def read_note(self, path: str) -> dict:
        return await self._make_request("GET", f"/vault/{path}")
"""

VAULT_SERVER = """\
from mcp.server.fastmcp import FastMCP

from vault import VaultClient, VaultError

mcp = FastMCP("vault")
VAULT = VaultClient("http://localhost:8080")


@mcp.tool()
async def read_note(path: str) -> str:
    \"\"\"Read a note.\"\"\"
    try:
        return str(await VAULT.read_note(path))
    except VaultError as e:
        return f"Error: {e}"
"""


def _vault(root, module: str = VAULT) -> None:  # type: ignore[no-untyped-def]
    (root / "pyproject.toml").write_text('[project]\nname = "vault"\ndependencies = ["mcp>=1.20,<2", "httpx"]\n')
    (root / "vault.py").write_text(module)
    (root / "server.py").write_text(VAULT_SERVER)


def test_a_request_helper_is_named_by_the_request_it_sent(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # "Could not make request" names nothing the model asked for; the helper's method and
    # endpoint parameters and its class's service do.
    from tests.test_fix_offered_equals_applied import run

    monkeypatch.chdir(tmp_path)
    _vault(tmp_path)
    run("--fix", "--unsafe-fixes")
    written = (tmp_path / "vault.py").read_text()
    assert '                raise VaultError(f"Vault request {method} {endpoint} failed") from e\n' in written, written
    libcst.parse_module(written)


def test_a_request_helper_given_only_a_url_is_not_named_by_it(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # A URL may hold a key in its query: it is not echoed; the method and the service name the
    # failure.
    from tests.test_fix_offered_equals_applied import run

    monkeypatch.chdir(tmp_path)
    _vault(tmp_path, VAULT.replace("method: str, endpoint: str", "method: str, url: str").replace("url=endpoint", "url=url"))
    run("--fix", "--unsafe-fixes")
    written = (tmp_path / "vault.py").read_text()
    assert "{url}" not in written.split("except httpx.RequestError")[1], written
    assert '                raise VaultError(f"Vault request {method} failed") from e\n' in written, written
