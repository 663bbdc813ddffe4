"""MCP001 on shapes a server may use beyond the tool body (issue 20: the rule carries to new servers).

Each test pairs a protocol error made in one of these shapes (a raised local, a project subclass
of McpError/MCPError, a JSON-RPC error dict serialized with json.dumps, a client reached through
an unannotated lifespan) with its negative: the same shape where the catalogue says nothing is
wrong (a plain exception class, a subclass caught in the tool, the -32021 capability refusal, the
unknown-tool branch, a lifespan member that raises no protocol error).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from mcp_lint.pipeline import lint_source

from ._support import lint_tree, write_tree


def _mcp001(source: str, target: str | None = None) -> list[tuple[int, str]]:
    findings = lint_source(textwrap.dedent(source), filename="server.py", target=target)
    return [(f.location.row, f.message) for f in findings if f.code == "MCP001"]


def _tree_mcp001(root: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    write_tree(root, files)
    return [(Path(f.filename).name, f.location.row, f.message) for f in lint_tree(root) if f.code == "MCP001"]


# -- a raised local ------------------------------------------------------------------------------

RAISED_LOCAL = """\
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}

@mcp.tool()
def read_note(note_id: str) -> str:
    if note_id not in NOTES:
        error = McpError(ErrorData(code=INTERNAL_ERROR, message=f"Note {note_id} not found"))
        raise error
    return NOTES[note_id]
"""


def test_raised_local_holding_a_protocol_error_is_flagged_at_the_raise() -> None:
    assert _mcp001(RAISED_LOCAL) == [(12, "Tool 'read_note' raises McpError for a missing record")]


def test_raised_local_fix_replaces_the_constructor_where_it_is_built() -> None:
    findings = [f for f in lint_source(RAISED_LOCAL, filename="server.py") if f.code == "MCP001"]
    assert findings[0].fix is not None
    assert 'ToolError(f"Note {note_id} not found")' in [edit.content for edit in findings[0].fix.edits]


def test_raised_local_holding_a_plain_exception_is_silent() -> None:
    source = RAISED_LOCAL.replace("McpError(ErrorData(code=INTERNAL_ERROR, message=f\"Note {note_id} not found\"))", 'LookupError(f"Note {note_id} not found")')
    assert _mcp001(source) == []


# -- a project subclass of McpError --------------------------------------------------------------

SUBCLASS = """\
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}


class NoteError(McpError):
    def __init__(self, message: str) -> None:
        super().__init__(ErrorData(code=INTERNAL_ERROR, message=message))


class MissingNote(NoteError):
    pass


class Unrelated(Exception):
    pass


def load(note_id: str) -> str:
    if note_id not in NOTES:
        raise MissingNote(f"Note {note_id} not found")
    if not note_id.isalnum():
        raise Unrelated(f"Note id {note_id} has a bad character")
    return NOTES[note_id]


@mcp.tool()
def read_note(note_id: str) -> str:
    return load(note_id)
"""


def test_project_subclass_of_mcperror_in_a_helper_is_flagged() -> None:
    assert _mcp001(SUBCLASS) == [(24, "Helper 'load' raises MissingNote (a subclass of McpError) for a missing record")]


def test_project_subclass_caught_in_the_tool_is_silent() -> None:
    source = SUBCLASS.replace(
        "    return load(note_id)\n",
        "    try:\n        return load(note_id)\n    except NoteError:\n        return 'unknown note'\n",
    )
    assert _mcp001(source) == []


def test_subclass_of_another_module_is_judged_by_its_ancestors(tmp_path: Path) -> None:
    found = _tree_mcp001(
        tmp_path,
        {
            "notes_server/__init__.py": "",
            "notes_server/errors.py": """\
                from mcp.shared.exceptions import McpError
                from mcp.types import INTERNAL_ERROR, ErrorData


                class ServiceError(McpError):
                    def __init__(self, message: str) -> None:
                        super().__init__(ErrorData(code=INTERNAL_ERROR, message=message))


                class NotFound(ServiceError):
                    pass


                class PlainError(Exception):
                    pass
                """,
            "notes_server/server.py": """\
                from mcp.server.fastmcp import FastMCP

                from notes_server.errors import NotFound, PlainError

                mcp = FastMCP("notes")
                NOTES: dict[str, str] = {}


                def load(note_id: str) -> str:
                    if note_id not in NOTES:
                        raise NotFound(f"Note {note_id} not found")
                    if not note_id.isalnum():
                        raise PlainError("Note ids are letters and digits")
                    return NOTES[note_id]


                @mcp.tool()
                def read_note(note_id: str) -> str:
                    return load(note_id)
                """,
        },
    )
    assert found == [("server.py", 11, "Helper 'load' raises NotFound (a subclass of McpError) for a missing record")]


def test_subclass_raised_with_the_capability_code_is_silent() -> None:
    source = """\
    from mcp import MCPError
    from mcp.server.mcpserver import MCPServer

    mcp = MCPServer("notes")


    class NeedsCapability(MCPError):
        pass


    @mcp.tool()
    def read_note(note_id: str) -> str:
        raise NeedsCapability(-32021, "the client must support sampling")
    """
    assert _mcp001(source) == []


# -- a JSON-RPC error dict serialized -------------------------------------------------------------

SERIALIZED = """\
import json

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
NOTES: dict[str, str] = {}

@mcp.tool()
def read_note(note_id: str) -> str:
    if note_id not in NOTES:
        return json.dumps({"jsonrpc": "2.0", "error": {"code": -32603, "message": f"Note {note_id} not found"}})
    return json.dumps({"jsonrpc": "2.0", "result": {"text": NOTES[note_id]}})
"""


def test_serialized_jsonrpc_error_dict_is_flagged() -> None:
    assert [row for row, _ in _mcp001(SERIALIZED)] == [11]


def test_serialized_jsonrpc_result_dict_is_silent() -> None:
    assert _mcp001(SERIALIZED.replace('"error": {"code": -32603, "message": f"Note {note_id} not found"}', '"result": {"text": ""}')) == []


# -- a client held by an unannotated lifespan ----------------------------------------------------

LIFESPAN_SERVER = """\
from contextlib import asynccontextmanager
from dataclasses import dataclass

from mcp.server.fastmcp import Context, FastMCP

from notes_server.client import NotesClient


@dataclass
class AppContext:
    client: NotesClient


@asynccontextmanager
async def lifespan(server):
    yield AppContext(client=NotesClient())


mcp = FastMCP("notes", lifespan=lifespan)


@mcp.tool()
async def read_note(note_id: str, ctx: Context) -> str:
    client = ctx.request_context.lifespan_context.client
    return await client.fetch(note_id)
"""

LIFESPAN_CLIENT = """\
import httpx
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData


class NotesClient:
    async def fetch(self, note_id: str) -> str:
        try:
            async with httpx.AsyncClient() as http:
                response = await http.get(f"https://notes.example/{note_id}")
                response.raise_for_status()
        except httpx.HTTPError as exc:
            raise McpError(ErrorData(code=INTERNAL_ERROR, message="The notes service did not answer")) from exc
        return response.text
"""


def test_client_method_reached_through_an_unannotated_lifespan_is_flagged(tmp_path: Path) -> None:
    found = _tree_mcp001(
        tmp_path,
        {"notes_server/__init__.py": "", "notes_server/server.py": LIFESPAN_SERVER, "notes_server/client.py": LIFESPAN_CLIENT},
    )
    assert found == [("client.py", 13, "Helper 'fetch' raises McpError for a failure of its own execution")]


def test_lifespan_client_without_a_protocol_error_is_silent(tmp_path: Path) -> None:
    client = LIFESPAN_CLIENT.replace(
        'raise McpError(ErrorData(code=INTERNAL_ERROR, message="The notes service did not answer")) from exc',
        'raise RuntimeError("The notes service did not answer") from exc',
    )
    found = _tree_mcp001(
        tmp_path,
        {"notes_server/__init__.py": "", "notes_server/server.py": LIFESPAN_SERVER, "notes_server/client.py": client},
    )
    assert found == []


def test_unknown_tool_branch_of_a_lowlevel_dispatcher_stays_silent_with_a_raised_local() -> None:
    source = """\
    from mcp import MCPError
    from mcp.server.lowlevel import Server
    from mcp.types import INVALID_PARAMS, CallToolRequestParams, CallToolResult, TextContent


    async def handle_call_tool(ctx, params: CallToolRequestParams) -> CallToolResult:
        if params.name != "echo":
            error = MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}")
            raise error
        return CallToolResult(content=[TextContent(type="text", text=str(params.arguments))])


    server = Server("echo", on_call_tool=handle_call_tool)
    """
    assert _mcp001(source) == []


# -- an error builder inherited from a base class of another module -------------------------------

BASE_CLIENT = """\
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData


class BaseClient:
    def _error(self, message: str) -> McpError:
        return McpError(ErrorData(code=INTERNAL_ERROR, message=message))

    def _plain(self, message: str) -> Exception:
        return LookupError(message)
"""

NOTES_CLIENT = """\
from notes_server.base import BaseClient


class NotesClient(BaseClient):
    def fetch(self, note_id: str) -> str:
        if not note_id:
            raise self._error("A note id is required")
        if not note_id.isalnum():
            raise self._plain("Note ids are letters and digits")
        if note_id == "archive":
            raise self._from_library("Archived notes cannot be read")
        return note_id
"""

BUILDER_SERVER = """\
from mcp.server.fastmcp import FastMCP

from notes_server.client import NotesClient

mcp = FastMCP("notes")
client = NotesClient()


@mcp.tool()
def read_note(note_id: str) -> str:
    return client.fetch(note_id)
"""


def test_inherited_error_builder_of_another_module_is_flagged_only_where_it_builds_mcperror(tmp_path: Path) -> None:
    found = _tree_mcp001(
        tmp_path,
        {
            "notes_server/__init__.py": "",
            "notes_server/base.py": BASE_CLIENT,
            "notes_server/client.py": NOTES_CLIENT,
            "notes_server/server.py": BUILDER_SERVER,
        },
    )
    assert [(name, row) for name, row, _ in found] == [("client.py", 7)]
    assert found[0][2].startswith("Helper 'fetch' raises the McpError that _error() builds")


# -- a client handed over by a lifespan that yields a dict ---------------------------------------

DICT_LIFESPAN = """\
from contextlib import asynccontextmanager

from mcp.server.fastmcp import Context, FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData


class NotesApi:
    def fetch(self, note_id: str) -> str:
        if not note_id:
            raise McpError(ErrorData(code=INTERNAL_ERROR, message="A note id is required"))
        return note_id


@asynccontextmanager
async def lifespan(server):
    yield {"notes": NotesApi()}


mcp = FastMCP("notes", lifespan=lifespan)


@mcp.tool()
def read_note(note_id: str, ctx: Context) -> str:
    notes = ctx.request_context.lifespan_context["notes"]
    return notes.fetch(note_id)
"""


def test_method_of_a_dict_lifespan_entry_is_flagged() -> None:
    assert _mcp001(DICT_LIFESPAN) == [(11, "Helper 'fetch' raises McpError for an invalid argument value")]


def test_dict_lifespan_entry_read_with_get_is_flagged() -> None:
    source = DICT_LIFESPAN.replace('lifespan_context["notes"]', 'lifespan_context.get("notes")')
    assert [row for row, _ in _mcp001(source)] == [11]


def test_dict_lifespan_entry_never_read_by_a_tool_is_silent() -> None:
    source = DICT_LIFESPAN.replace('notes = ctx.request_context.lifespan_context["notes"]\n    return notes.fetch(note_id)', "return note_id")
    assert _mcp001(source) == []


# -- a client from a lazy singleton getter -------------------------------------------------------

SINGLETON_CLIENT = """\
from mcp.shared.exceptions import MCPError
from mcp.types import INTERNAL_ERROR


class StoreClient:
    def update(self, item: str) -> str:
        if item == "locked":
            raise MCPError(INTERNAL_ERROR, "Item is locked")
        return "ok"


class CacheClient:
    def update(self, item: str) -> str:
        return "ok"
"""

SINGLETON_SERVER = """\
from mcp.server import MCPServer

mcp = MCPServer("items")

_client = None


def get_client():
    global _client
    if _client is not None:
        return _client
    from pkg.client import StoreClient

    _client = StoreClient()
    return _client


@mcp.tool()
async def update_item(item: str) -> str:
    client = get_client()
    return client.update(item)
"""


def test_method_of_a_lazy_singleton_getters_object_is_flagged(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/client.py": SINGLETON_CLIENT, "pkg/server.py": SINGLETON_SERVER}
    found = _tree_mcp001(tmp_path, files)
    assert [(name, row) for name, row, _ in found] == [("client.py", 8)]
    assert found[0][2].startswith("Helper 'update' raises MCPError")


def test_lazy_singleton_getter_of_another_class_is_silent(tmp_path: Path) -> None:
    server = SINGLETON_SERVER.replace("StoreClient", "CacheClient")
    assert _tree_mcp001(tmp_path, {"pkg/__init__.py": "", "pkg/client.py": SINGLETON_CLIENT, "pkg/server.py": server}) == []


# -- the wrapper of a project decorator on a helper ---------------------------------------------

HANDLER_DECORATOR = """\
import functools

from mcp.shared.exceptions import MCPError
from mcp.types import INTERNAL_ERROR


def handle_errors(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except KeyError as e:
            msg = f"Not found: {e}"
            raise MCPError(INTERNAL_ERROR, msg)

    return wrapper
"""

DECORATED_HELPER_SERVER = """\
from mcp.server import MCPServer

from pkg.errors import handle_errors

mcp = MCPServer("items")
ITEMS: dict[str, str] = {}


class Store:
    @handle_errors
    def read(self, item: str) -> str:
        return ITEMS[item]


@mcp.tool()
async def read_item(item: str) -> str:
    store = Store()
    return store.read(item)
"""


def test_wrapper_of_a_decorated_helper_a_tool_calls_is_flagged(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/errors.py": HANDLER_DECORATOR, "pkg/server.py": DECORATED_HELPER_SERVER}
    found = _tree_mcp001(tmp_path, files)
    assert [(name, row) for name, row, _ in found] == [("errors.py", 14)]
    assert found[0][2].startswith("Helper 'wrapper' raises MCPError for a missing record")


def test_wrapper_of_a_decorated_helper_no_tool_calls_is_silent(tmp_path: Path) -> None:
    server = DECORATED_HELPER_SERVER.replace("    store = Store()\n    return store.read(item)\n", "    return ITEMS.get(item, '')\n")
    files = {"pkg/__init__.py": "", "pkg/errors.py": HANDLER_DECORATOR, "pkg/server.py": server}
    assert _tree_mcp001(tmp_path, files) == []


def test_wrapper_of_a_decorated_helper_caught_by_the_tool_is_silent(tmp_path: Path) -> None:
    server = DECORATED_HELPER_SERVER.replace("from pkg.errors", "from mcp.server.mcpserver.exceptions import ToolError\nfrom mcp.shared.exceptions import MCPError\nfrom pkg.errors").replace(
        "    return store.read(item)\n", "    try:\n        return store.read(item)\n    except MCPError as e:\n        raise ToolError(str(e)) from e\n"
    )
    files = {"pkg/__init__.py": "", "pkg/errors.py": HANDLER_DECORATOR, "pkg/server.py": server}
    assert _tree_mcp001(tmp_path, files) == []
