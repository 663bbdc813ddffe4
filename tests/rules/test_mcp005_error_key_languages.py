"""The error key of a failure dict in the languages servers answer in: a client that returns
`{"erreur": f"HTTP {status}"}` (French) or `{"fehler": ...}` (German) on a failed reply, and a tool
that tests that key and returns its text, report a failure as an answer, as with `"error"`. A key
that names no error in any language stays data."""

from __future__ import annotations

import pytest

from ._support import check

# The client's I/O runs outside any `try`, so MCP007 is expected at the server (mcp 1.x forwards
# such a crash's text).
CLIENT = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shelves")  # expect: MCP007


class Client:
    def __init__(self, session) -> None:
        self._session = session

    async def fetch(self, path: str):
        resp = await self._session.get(path)
        if resp.status_code >= 400:
            return {{"{key}": f"HTTP {{resp.status_code}}"}}
        return resp.json()


api = Client(None)


@mcp.tool()
async def show_shelf(shelf_id: str) -> str:
    \"\"\"Show one shelf.\"\"\"
    data = await api.fetch(f"/shelves/{{shelf_id}}")
    if isinstance(data, dict) and "{key}" in data:
        return data["{key}"]{mark}
    return f"Shelf {{data.get('name')}}"
"""


@pytest.mark.parametrize("key", ["erreur", "fehler", "erro", "错误"])
def test_the_error_item_of_a_failure_dict_keyed_in_another_language_is_reported(key: str) -> None:
    check(CLIENT.format(key=key, mark="  # expect: MCP005"))


@pytest.mark.parametrize("key", ["remarque", "hinweis", "note"])
def test_an_item_whose_key_names_no_error_stays_an_answer(key: str) -> None:
    check(CLIENT.format(key=key, mark=""))


def test_a_dict_with_an_error_key_in_another_language_is_a_failure_dict() -> None:
    check(
        """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shelves")
SHELVES = {"north": ["fern"]}


@mcp.tool()
def list_shelf(name: str) -> dict:
    \"\"\"List the plants of one shelf.\"\"\"
    if name not in SHELVES:
        return {"fehler": f"Regal {name} nicht gefunden"}  # expect: MCP005
    return {"plants": SHELVES[name]}
"""
    )
