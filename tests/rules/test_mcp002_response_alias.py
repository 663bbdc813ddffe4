"""MCP002 on a caught HTTP error's response taken into a local first (`response = exc.response`),
its body then read from the local (`response.text`, `response.json()`): the local is a part of the
exception, its text attributes are the exception's text as `exc.response.text` is (heldout15
CAUSES-MCP002 form H). Silent: the local's status code, or the response object worded whole
(`<Response [500]>` says nothing the upstream wrote)."""

from __future__ import annotations

from ._support import lint_source

HEADER = """\
import requests
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("pages")


def _post(text: str) -> dict:
    reply = requests.post("https://pages.invalid/api", json={"text": text})
    reply.raise_for_status()
    return reply.json()


"""

SUBSCRIPT_STORE = '''\
@mcp.tool()
def publish(text: str) -> dict:
    """Publish a page."""
    try:
        return _post(text)
    except requests.HTTPError as exc:
        response = exc.response
        details = {"error": "publishing failed"}
        if response is not None:
            details["response"] = response.text
        return details
'''


def _rows(body: str) -> list[tuple[int, str]]:
    source = HEADER + body
    return sorted((f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002")


def test_body_read_through_an_alias_of_the_response() -> None:
    assert _rows(SUBSCRIPT_STORE) == [(23, "Tool 'publish' returns the text of a caught requests.HTTPError as a normal result")]


def test_renamed_and_raised_through_the_alias() -> None:
    # Metamorphic: other names, the decoded body, raised as the tool's error.
    body = '''\
@mcp.tool()
def publicar(texto: str) -> dict:
    """Publica una pagina."""
    try:
        return _post(texto)
    except requests.HTTPError as fallo:
        respuesta = fallo.response
        raise ToolError(f"La publicacion fallo: {respuesta.json()}") from fallo
'''
    assert [row for row, _ in _rows(body)] == [21]


def test_status_code_of_the_alias_is_no_text() -> None:
    body = SUBSCRIPT_STORE.replace('details["response"] = response.text', 'details["status"] = response.status_code')
    assert _rows(body) == []


def test_response_object_worded_whole_is_no_text() -> None:
    body = SUBSCRIPT_STORE.replace('details["response"] = response.text', 'details["response"] = f"{response}"')
    assert _rows(body) == []
