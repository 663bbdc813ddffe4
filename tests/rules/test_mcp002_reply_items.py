"""MCP002 on an item of a decoded reply's list (`for item in data["requests"]:`) whose own failure
field the branch tests (`if "errors" in item:`) and puts into the raised text: the item is a part
of the upstream reply, as a field of the reply is (heldout15 CAUSES-MCP002 form B, heldout12's
2xx error-field rows). Silent: items of a list the project built itself, and items no branch found
failed."""

from __future__ import annotations

from ._support import lint_source

SERVER = """\
import requests
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orders")


def _submit(path: str, payload: dict) -> dict:
    resp = requests.post(f"https://orders.invalid{path}", json=payload)
    if not resp.ok:
        raise RuntimeError(f"POST {path} -> {resp.status_code}")
    data = resp.json()
    for entry in ITEMS:
        if TEST:
            raise RuntimeError(f"Order service error: {entry['errors']}")
    return data


@mcp.tool()
def order(item: str) -> dict:
    \"\"\"Place an order.\"\"\"
    return _submit("/orders", {"item": item})
"""


def _rows(source: str) -> list[tuple[int, str]]:
    return sorted((f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002")


def test_failed_item_of_a_reply_list_is_an_upstream_body() -> None:
    source = SERVER.replace("ITEMS", 'data.get("requests", [])').replace("TEST", '"errors" in entry')
    assert _rows(source) == [(14, "Helper '_submit' raises RuntimeError with an upstream error body (entry['errors'])")]


def test_subscripted_list_and_error_key_in_another_language() -> None:
    # Metamorphic: the list subscripted, the error key in German, read by `.get`.
    source = (
        SERVER.replace("ITEMS", 'data["requests"]')
        .replace("TEST", 'entry.get("fehler")')
        .replace("{entry['errors']}", "{entry.get('fehler')}")
    )
    assert [row for row, _ in _rows(source)] == [14]


def test_items_the_project_built_are_silent() -> None:
    source = SERVER.replace("ITEMS", '[{"errors": "missing item"}]').replace("TEST", '"errors" in entry')
    assert _rows(source) == []


def test_items_not_found_failed_are_silent() -> None:
    source = SERVER.replace("ITEMS", 'data.get("requests", [])').replace("TEST", '"id" not in entry')
    assert _rows(source) == []
