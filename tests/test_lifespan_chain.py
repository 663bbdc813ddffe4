"""A lifespan yielding a dict, read in one chain: `ctx.request_context.lifespan_context["api"]
.fetch(x)` (or `.get("api")`) runs the method of what the lifespan put under that key, as
`api = ctx.request_context.lifespan_context["api"]; api.fetch(x)` does."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import invoke_in

API = """\
import httpx
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData


class ItemsApi:
    def fetch(self, item: str) -> str:
        try:
            return httpx.get("https://items.invalid/" + item).text
        except httpx.HTTPError as e:
            return f"Error: {e}"

    def reserve(self, item: str) -> str:
        try:
            return httpx.post("https://items.invalid/" + item).text
        except httpx.HTTPError:
            raise McpError(ErrorData(code=INTERNAL_ERROR, message="Item service unavailable"))
"""

SERVER = """\
from contextlib import asynccontextmanager
from typing import AsyncIterator

HEAD

from app.api import ItemsApi


@asynccontextmanager
async def lifespan(server) -> AsyncIterator[dict]:
    yield {"api": ItemsApi()}


mcp = FastMCP("items", lifespan=lifespan)


@mcp.tool()
def lookup_item(item: str, ctx: Context) -> str:
    \"\"\"Look an item up.\"\"\"
    return ctx.request_context.lifespan_context["api"].fetch(item)


@mcp.tool()
def reserve_item(item: str, ctx: Context) -> str:
    \"\"\"Reserve an item.\"\"\"
    return ctx.request_context.lifespan_context.get("api").reserve(item)
"""

HEADS = {
    "mcp1": ("mcp>=1.9,<2", "from mcp.server.fastmcp import Context, FastMCP"),
    "fastmcp2": ("fastmcp>=2.10,<3", "from fastmcp import Context, FastMCP"),
}


def _write(root: Path, server: str, requirement: str) -> Path:
    files = {"pyproject.toml": f'[project]\nname = "app"\nversion = "0"\ndependencies = ["{requirement}"]\n', "app/__init__.py": "", "app/api.py": API, "app/server.py": server}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _check(root: Path) -> list[str]:
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--output-format", "concise", "-q", "."])
    return sorted(f"{line.split(':')[0]}:{line.split(':')[1]}: {line.split(' ')[1]}" for line in result.output.splitlines() if " MCP" in line)


@pytest.mark.parametrize("flavour", sorted(HEADS))
def test_a_method_called_on_a_lifespan_entry_read_in_one_chain_is_on_the_tools_path(tmp_path: Path, flavour: str) -> None:
    requirement, head = HEADS[flavour]
    found = _check(_write(tmp_path, SERVER.replace("HEAD", head), requirement))
    assert "app/api.py:11: MCP002" in found
    assert "app/api.py:17: MCP001" in found


def test_an_entry_the_lifespan_does_not_yield_types_nothing(tmp_path: Path) -> None:
    requirement, head = HEADS["mcp1"]
    server = SERVER.replace("HEAD", head).replace('yield {"api": ItemsApi()}', 'yield {"store": ItemsApi()}')
    assert not [line for line in _check(_write(tmp_path, server, requirement)) if line.startswith("app/api.py")]
