"""MCP002 through helpers (issue 20, global flow): a helper a few calls down puts a caught library
exception's text into a builtin exception it raises; the tool catches that builtin class and hands
the exception to a describer that returns its text. One finding, at the raise that took the text in,
naming the clause that passes it on; the origin of the tool's `except RuntimeError` is decided by
what its `try` body lets out, even where it also calls code the project cannot follow."""

from __future__ import annotations

from pathlib import Path

from ._support import lint_tree, write_tree

COMMON = """\
def tool_error(exc: Exception) -> dict:
    return {"status": "error", "message": str(exc)}
"""

# Two calls down from the tool, behind a helper that reads its argument with `dict.get` (a method
# of an untyped parameter: a call the project cannot follow).
SERVICE = """\
import requests


def _session() -> requests.Session:
    return requests.Session()


def _metadata(key: str) -> dict:
    try:
        meta = _session().get(f"https://shelf.invalid/meta/{key}").json()
    except requests.RequestException as exc:
        RAISE
    return meta


def resolve_target(fields: dict) -> dict:
    key = str(fields.get("shelf", {}).get("key", "")).strip()
    if not key:
        raise RuntimeError("fields must include shelf.key so the target can be resolved.")
    return {"shelves": _metadata(key).get("shelves", [])}
"""

SERVER = """\
from mcp.server.fastmcp import FastMCP

from shelf.common import tool_error
from shelf.service import resolve_target

mcp = FastMCP("shelf")


@mcp.tool()
def create_book(fields: dict) -> dict:
    try:
        target = resolve_target(fields)
        return {"status": "created", **target}
    except RuntimeError as exc:
        HANDLE
"""

LIBRARY_TEXT = 'raise RuntimeError(f"Could not read the shelf metadata for {key}: {exc}.") from exc'
OWN_TEXT = 'raise RuntimeError(f"Could not read the shelf metadata for {key}; check the key.") from exc'


def _lint(tmp_path: Path, raise_: str = LIBRARY_TEXT, handle: str = "return tool_error(exc)", server: str = SERVER) -> list[tuple[str, int, str]]:
    write_tree(
        tmp_path,
        {
            "shelf/__init__.py": "",
            "shelf/common.py": COMMON,
            "shelf/service.py": SERVICE.replace("RAISE", raise_),
            "shelf/server.py": server.replace("HANDLE", handle),
        },
    )
    return [(Path(f.filename).name, f.location.row, f.message) for f in lint_tree(tmp_path) if f.code == "MCP002"]


def test_library_text_raised_two_calls_down_and_described_by_the_tool_is_reported_at_the_raise(tmp_path: Path) -> None:
    findings = _lint(tmp_path)
    assert [(name, row) for name, row, _ in findings] == [("service.py", 12)]
    assert "raises RuntimeError with the text of a caught requests.RequestException" in findings[0][2]


def test_the_finding_names_the_tool_clause_that_passes_the_text_on(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "shelf/__init__.py": "",
            "shelf/common.py": COMMON,
            "shelf/service.py": SERVICE.replace("RAISE", LIBRARY_TEXT),
            "shelf/server.py": SERVER.replace("HANDLE", "return tool_error(exc)"),
        },
    )
    (finding,) = [f for f in lint_tree(tmp_path) if f.code == "MCP002"]
    assert any("tool 'create_book' passes it to 'tool_error'" in note for note in finding.notes)


def test_library_text_returned_by_the_tool_clause_itself_is_reported_at_the_raise_too(tmp_path: Path) -> None:
    findings = _lint(tmp_path, handle='return {"status": "error", "message": str(exc)}')
    assert [(name, row) for name, row, _ in findings] == [("service.py", 12)]


def test_the_authors_own_text_raised_down_the_helpers_is_not_reported(tmp_path: Path) -> None:
    assert _lint(tmp_path, raise_=OWN_TEXT) == []


def test_a_helper_only_non_tools_call_is_not_reported(tmp_path: Path) -> None:
    script = SERVER.replace("@mcp.tool()\n", "")
    assert _lint(tmp_path, server=script) == []


PROJECT_CLASS = """\
import requests


class ShelfError(Exception):
    pass


def _session() -> requests.Session:
    return requests.Session()


def _metadata(key: str) -> dict:
    try:
        meta = _session().get(f"https://shelf.invalid/meta/{key}").json()
    except requests.RequestException as exc:
        raise ShelfError(f"Could not read the shelf metadata for {key}; check the key.") from exc
    return meta


def resolve_target(fields: dict) -> dict:
    key = str(fields.get("shelf", {}).get("key", "")).strip()
    return {"shelves": _metadata(key).get("shelves", [])}
"""


def test_the_projects_own_class_with_the_authors_text_is_not_reported(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "shelf/__init__.py": "",
            "shelf/common.py": COMMON,
            "shelf/service.py": PROJECT_CLASS,
            "shelf/server.py": SERVER.replace("RuntimeError", "ShelfError")
            .replace("from shelf.service import resolve_target", "from shelf.service import ShelfError, resolve_target")
            .replace("HANDLE", "return tool_error(exc)"),
        },
    )
    assert [f for f in lint_tree(tmp_path) if f.code == "MCP002"] == []


# The tool side of a helper's error dict: a first test of the value for another state (`"empty"`)
# that returns does not make later code hold its success value where a later branch finds it
# failed again and returns its message.
CLIENT = """\
import httpx


class Api:
    def __init__(self) -> None:
        self.client = httpx.AsyncClient()

    async def get_board(self, board: str) -> dict:
        r = await self.client.get(f"https://board.invalid/{board}")
        r.raise_for_status()
        return r.json()

    async def summary(self, board: str) -> dict:
        try:
            data = await self.get_board(board)
            if not data.get("values"):
                return {"status": "empty", "message": "No values", "board": board}
            return {"status": "ok", "data": data["values"]}
        except Exception as e:
            return {"status": "error", "message": f"Failed: {str(e)}", "board": board}
"""

TOOL = """\
from mcp.server.fastmcp import FastMCP

from client import Api

mcp = FastMCP("boards")
api = Api()


@mcp.tool()
async def board_summary(board: str) -> str:
    result = await api.summary(board)
    if result.get("status") == "empty":
        return f"No values for {board}."
    BRANCH
    return str(result["data"])
"""


def _board(tmp_path: Path, branch: str) -> list[tuple[str, int]]:
    write_tree(tmp_path, {"client.py": CLIENT, "server.py": TOOL.replace("BRANCH", branch)})
    return [(Path(f.filename).name, f.location.row) for f in lint_tree(tmp_path) if f.code == "MCP002"]


def test_an_error_dict_returned_in_a_branch_that_finds_it_failed_after_another_check_is_reported(tmp_path: Path) -> None:
    branch = 'if result.get("status") == "error":\n        return f"Error: {result.get(\'message\', \'Unknown error\')}"'
    assert _board(tmp_path, branch) == [("client.py", 20)]


def test_a_branch_that_tests_no_failure_after_the_check_sends_the_success_value(tmp_path: Path) -> None:
    branch = 'if result.get("board"):\n        return f"Board: {result.get(\'message\', \'\')}"'
    assert _board(tmp_path, branch) == []


def test_the_error_branch_in_the_tools_own_words_sends_nothing(tmp_path: Path) -> None:
    branch = 'if result.get("status") == "error":\n        return "The board could not be read; try again later."'
    assert _board(tmp_path, branch) == []


# A call on an object typed by a project `typing.Protocol` runs the method of the project class
# that implements the protocol (without inheriting it): its raises reach the tool.
STORE = """\
from typing import Protocol

import httpx


class StoreError(Exception):
    pass


class StoreProtocol(Protocol):
    async def read(self, key: str) -> str: ...

    async def remove(self, key: str) -> None: ...


class HttpStore:
    async def read(self, key: str) -> str:
        try:
            return httpx.get(f"https://store.invalid/{key}").text
        except httpx.HTTPError as exc:
            raise StoreError(f"Store API error: {exc}") from exc

    REMOVE
"""

STORE_SERVER = """\
from dataclasses import dataclass

from fastmcp import Context, FastMCP

from store import StoreError, StoreProtocol

mcp = FastMCP("store")


@dataclass
class AppContext:
    store: StoreProtocol


def _app(ctx: Context) -> AppContext:
    return ctx.request_context.lifespan_context


@mcp.tool()
async def read_item(key: str, ctx: Context) -> dict:
    app = _app(ctx)
    try:
        return {"text": await app.store.read(key)}
    except StoreError as exc:
        return {"isError": True, "error": str(exc)}
"""

REMOVE = """async def remove(self, key: str) -> None:
        httpx.delete(f"https://store.invalid/{key}")"""


def _store(tmp_path: Path, remove: str) -> list[tuple[str, int]]:
    write_tree(tmp_path, {"store.py": STORE.replace("REMOVE", remove), "server.py": STORE_SERVER})
    return [(Path(f.filename).name, f.location.row) for f in lint_tree(tmp_path) if f.code == "MCP002"]


def test_a_method_called_on_a_protocol_typed_attribute_runs_the_implementing_class(tmp_path: Path) -> None:
    assert _store(tmp_path, REMOVE) == [("store.py", 21)]


def test_a_class_that_does_not_implement_the_whole_protocol_is_not_taken_for_it(tmp_path: Path) -> None:
    assert _store(tmp_path, "pass") == []


# A describer whose value an exception factory puts into the exception it returns, raised by the
# factory's caller (`raise self._map(exc) from exc`): the describer takes the text in.
FACTORY = """\
import httpx
from fastmcp import FastMCP


class StoreError(Exception):
    pass


class AuthError(StoreError):
    pass


def _auth_message(status: int, exc: object) -> str:
    DESCRIBE


def _map(exc: httpx.HTTPStatusError) -> StoreError:
    status = exc.response.status_code
    if status in (401, 403):
        return AuthError(_auth_message(status, exc))
    return StoreError(f"The store answered HTTP {status}.")


def read(key: str) -> str:
    try:
        return httpx.get(f"https://store.invalid/{key}").text
    except httpx.HTTPStatusError as exc:
        raise _map(exc) from exc


mcp = FastMCP("store")


@mcp.tool()
def read_item(key: str) -> dict:
    try:
        return {"text": read(key)}
    except StoreError as exc:
        return {"isError": True, "error": str(exc)}
"""


def _factory(tmp_path: Path, describe: str, tool: bool = True) -> list[tuple[int, str]]:
    source = FACTORY.replace("DESCRIBE", describe)
    if not tool:
        source = source.replace("@mcp.tool()\n", "")
    write_tree(tmp_path, {"server.py": source})
    return [(f.location.row, f.message) for f in lint_tree(tmp_path) if f.code == "MCP002"]


def test_a_describer_inside_an_exception_factory_the_caller_raises_is_reported_at_the_describer(tmp_path: Path) -> None:
    findings = _factory(tmp_path, 'return f"Permission denied (HTTP {status}): {exc}. Check the key."')
    assert [row for row, _ in findings] == [14]
    assert "which a caller raises in AuthError" in findings[0][1]


def test_a_describer_in_the_authors_words_inside_a_factory_is_not_reported(tmp_path: Path) -> None:
    assert _factory(tmp_path, 'return f"Permission denied (HTTP {status}); check the key."') == []


def test_a_factory_chain_no_tool_reaches_is_not_reported(tmp_path: Path) -> None:
    assert _factory(tmp_path, 'return f"Permission denied (HTTP {status}): {exc}."', tool=False) == []
