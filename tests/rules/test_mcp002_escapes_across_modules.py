"""MCP002: who wrote a caught builtin exception's text, decided by what the `try` body lets escape
through the project's modules (model.escapes: per-function `Exit`s composed at link time, with the
library raise table), not by how the calls are written."""

from __future__ import annotations

from pathlib import Path

from ._support import lint_tree, write_tree

SERVER = """\
from fastmcp import FastMCP

from shop import catalog

mcp = FastMCP("shop")


@mcp.tool
async def show_item(item_id: str) -> str:
    try:
        item = await catalog.fetch_item(item_id)
    except ValueError as exc:
        return f"Could not read the item: {exc}"
    return item["title"]
"""


def _mcp002(root: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    write_tree(root, {"shop/__init__.py": "", **files})
    return [(Path(f.filename).name, f.location.row, f.message) for f in lint_tree(root) if f.code == "MCP002"]


def test_a_library_decode_error_escaping_another_modules_helper_is_reported(tmp_path: Path) -> None:
    catalog = """\
    import httpx


    async def fetch_item(item_id: str) -> dict:
        async with httpx.AsyncClient() as client:
            reply = await client.get(f"https://catalog.invalid/items/{item_id}")
        return reply.json()
    """
    found = _mcp002(tmp_path, {"shop/server.py": SERVER, "shop/catalog.py": catalog})
    assert found == [("server.py", 13, "Tool 'show_item' returns the text of a caught ValueError as a normal result")]


def test_a_library_error_two_modules_down_is_reported(tmp_path: Path) -> None:
    catalog = """\
    from shop import transport


    async def fetch_item(item_id: str) -> dict:
        return await transport.get_json(f"/items/{item_id}")
    """
    transport = """\
    import json
    import urllib.request


    async def get_json(path: str) -> dict:
        with urllib.request.urlopen("https://catalog.invalid" + path) as reply:
            raw = reply.read()
        return json.loads(raw)
    """
    found = _mcp002(tmp_path, {"shop/server.py": SERVER, "shop/catalog.py": catalog, "shop/transport.py": transport})
    assert [(name, row) for name, row, _ in found] == [("server.py", 13)]


def test_only_the_authors_own_value_errors_escaping_another_module_are_not_reported(tmp_path: Path) -> None:
    catalog = """\
    ITEMS = {"a1": {"title": "Lamp"}}


    async def fetch_item(item_id: str) -> dict:
        if not item_id:
            raise ValueError("item_id is required")
        if item_id not in ITEMS:
            raise ValueError(f"no item {item_id}; list the items first")
        return ITEMS.get(item_id, {})
    """
    assert _mcp002(tmp_path, {"shop/server.py": SERVER, "shop/catalog.py": catalog}) == []


def test_a_library_error_caught_inside_the_helper_does_not_reach_the_tool(tmp_path: Path) -> None:
    catalog = """\
    import json

    CACHE = {"a1": '{"title": "Lamp"}'}


    async def fetch_item(item_id: str) -> dict:
        if item_id not in CACHE:
            raise ValueError(f"no item {item_id}; list the items first")
        try:
            return json.loads(CACHE[item_id])
        except ValueError:
            return {"title": "unknown"}
    """
    assert _mcp002(tmp_path, {"shop/server.py": SERVER, "shop/catalog.py": catalog}) == []


def test_a_library_call_the_table_says_raises_another_class_does_not_make_the_text_foreign(tmp_path: Path) -> None:
    catalog = """\
    async def fetch_item(item_id: str) -> dict:
        if not item_id.isalnum():
            raise ValueError("item_id takes letters and digits only")
        handle = open(f"/srv/items/{item_id}")
        return {"title": handle.name}
    """
    assert _mcp002(tmp_path, {"shop/server.py": SERVER, "shop/catalog.py": catalog}) == []


SERVICE_SERVER = """\
from fastmcp import FastMCP

from shop.service import ItemService

mcp = FastMCP("shop")
items = ItemService()


@mcp.tool
def show_item(item_id: str) -> str:
    try:
        return items.find(item_id)
    except ValueError as exc:
        return f"Could not read the item: {exc}"
"""


def test_a_pattern_call_beside_the_authors_own_value_error_is_not_library_text(tmp_path: Path) -> None:
    catalog = """\
    import re

    KINDS = {"LAMP": "Lamp", "DESK_CHAIR": "Desk chair"}


    async def fetch_item(item_id: str) -> dict:
        key = re.sub(r"[\\s-]+", "_", item_id.strip()).upper()
        if key not in KINDS:
            raise ValueError(f"unknown kind {item_id!r}; use one of {', '.join(KINDS)}")
        return {"title": KINDS.get(key, "")}
    """
    assert _mcp002(tmp_path, {"shop/server.py": SERVER, "shop/catalog.py": catalog}) == []


def test_a_library_call_the_table_does_not_list_keeps_the_files_verdict(tmp_path: Path) -> None:
    catalog = """\
    from urllib.parse import parse_qs


    async def fetch_item(item_id: str) -> dict:
        options = parse_qs(item_id.partition("?")[2])
        if "kind" not in options:
            raise ValueError("say which kind of item: add ?kind=lamp")
        return {"title": options["kind"][0]}
    """
    assert _mcp002(tmp_path, {"shop/server.py": SERVER, "shop/catalog.py": catalog}) == []


def test_a_service_method_that_raises_only_its_own_value_errors_is_author_text(tmp_path: Path) -> None:
    service = """\
    class ItemService:
        def __init__(self) -> None:
            self.items = {"a1": "Lamp"}

        def find(self, item_id: str) -> str:
            if item_id not in self.items:
                raise ValueError(f"no item {item_id}; list the items first")
            return self.items[item_id]
    """
    assert _mcp002(tmp_path, {"shop/server.py": SERVICE_SERVER, "shop/service.py": service}) == []


def test_a_service_method_that_parses_stored_text_lets_a_library_error_out(tmp_path: Path) -> None:
    service = """\
    import json


    class ItemService:
        def __init__(self) -> None:
            self.rows = {"a1": '{"title": "Lamp"}'}

        def find(self, item_id: str) -> str:
            if item_id not in self.rows:
                raise ValueError(f"no item {item_id}; list the items first")
            return json.loads(self.rows[item_id])["title"]
    """
    found = _mcp002(tmp_path, {"shop/server.py": SERVICE_SERVER, "shop/service.py": service})
    assert [(name, row) for name, row, _ in found] == [("server.py", 14)]


def test_a_table_call_raising_the_caught_class_on_stored_text_is_reported(tmp_path: Path) -> None:
    catalog = """\
    STOCK = {"a1": "3"}


    async def fetch_item(item_id: str) -> dict:
        return {"title": item_id, "stock": int(STOCK.get(item_id, "?"))}
    """
    found = _mcp002(tmp_path, {"shop/server.py": SERVER, "shop/catalog.py": catalog})
    assert [(name, row) for name, row, _ in found] == [("server.py", 13)]


def test_a_parser_of_the_tools_own_argument_in_another_module_is_not_reported(tmp_path: Path) -> None:
    catalog = """\
    import json


    async def fetch_item(item_id: str) -> dict:
        return json.loads(item_id)
    """
    assert _mcp002(tmp_path, {"shop/server.py": SERVER, "shop/catalog.py": catalog}) == []
