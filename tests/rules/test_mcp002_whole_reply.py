"""MCP002 on a decoded upstream reply whose own failure field the branch tests (`if not
data.get("success"):`) and that is then put WHOLE into the text (`f"API returned error: {data}"`,
`str(data)`): all of it is what the upstream sent, as a field of it is. The reply may come from a
function of the module that hands back a decoded reply on every return (`resp.raise_for_status();
return resp.json()`): the caller holds the upstream's answer (heldout15 CAUSES-MCP002 form B).
Silent: a response object worded whole (`<Response [500]>`), a reply no branch found failed, and
a helper that may return its own words."""

from __future__ import annotations

from ._support import lint_source

HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("quotes")


"""

THIN_HELPER = '''\
async def _fetch(path: str) -> dict:
    async with httpx.AsyncClient() as client:
        resp = await client.get(path)
        resp.raise_for_status()
        return resp.json()


@mcp.tool()
async def quote(symbol: str) -> str:
    """Latest quote of a symbol."""
    data = await _fetch(f"https://quotes.invalid/{symbol}")
    if not data.get("success"):
        return f"Quote service refused: {data}"
    return str(data.get("price"))
'''


def _rows(body: str) -> list[tuple[int, str]]:
    source = HEADER + body
    return sorted((f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002")


def test_whole_reply_of_a_decoding_helper_is_an_upstream_body() -> None:
    assert _rows(THIN_HELPER) == [(19, "Tool 'quote' returns an upstream error body (data) as a normal result")]


def test_renamed_raised_and_worded_by_str() -> None:
    # Metamorphic: other names, an error key instead of a success flag, `str()` instead of an
    # f-string, raised instead of returned.
    body = (
        THIN_HELPER.replace("_fetch", "_load")
        .replace("data", "payload")
        .replace('if not payload.get("success"):', 'if payload.get("error"):')
        .replace('return f"Quote service refused: {payload}"', 'raise RuntimeError("refused: " + str(payload))')
    )
    assert _rows(body) == [(19, "Tool 'quote' raises RuntimeError with an upstream error body (payload)")]


def test_error_key_in_another_language() -> None:
    # Metamorphic: the reply's error key in German, decoded in the tool itself.
    body = '''\
@mcp.tool()
async def kurs(symbol: str) -> str:
    """Kurs eines Symbols."""
    async with httpx.AsyncClient() as client:
        antwort = await client.get(f"https://quotes.invalid/{symbol}")
    daten = antwort.json()
    if daten.get("fehler"):
        return f"Dienst meldet: {daten}"
    return str(daten.get("kurs"))
'''
    assert [row for row, _ in _rows(body)] == [14]


def test_response_object_worded_whole_is_no_body() -> None:
    body = '''\
@mcp.tool()
async def quote(symbol: str) -> str:
    """Latest quote of a symbol."""
    async with httpx.AsyncClient() as client:
        resp = await client.get(f"https://quotes.invalid/{symbol}")
    if not resp.is_success:
        return f"Quote service refused: {resp}"
    return resp.text
'''
    assert _rows(body) == []


def test_reply_not_found_failed_is_silent() -> None:
    # The branch tests the tool's own argument, not the reply's failure field.
    assert _rows(THIN_HELPER.replace('if not data.get("success"):', "if not symbol.isupper():")) == []


def test_helper_that_may_return_its_own_words_is_silent() -> None:
    body = THIN_HELPER.replace(
        "        resp.raise_for_status()\n",
        '        if resp.status_code == 404:\n            return {"success": False, "reason": "unknown symbol"}\n',
    )
    assert _rows(body) == []
