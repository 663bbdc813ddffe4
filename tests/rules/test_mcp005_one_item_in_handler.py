"""MCP005 on a dict of one item an `except` clause writes and returns (`except Exception:
return {"title": "API Error - Unknown"}`): the clause runs because the call failed, so its one
text is the report of that failure under whatever key, judged as a text the clause returns is.
Not an empty answer, a value the clause computes, a dict of several items, or a conversion's
fallback."""

from __future__ import annotations

from pathlib import Path

import pytest

from ._support import check, lint_tree, write_tree

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("loom")


async def fetch(pattern: str) -> dict:
    return {}
"""


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("title", "Upstream error - no answer"),
        ("summary", "The loom service could not be reached"),
        ("titel", "Fehler beim Abruf des Musters"),  # German
        ("resumen", "No se pudo leer el patrón"),  # Spanish
    ],
)
def test_the_one_item_a_reporting_clause_writes_is_its_failure(key: str, text: str) -> None:
    check(HEADER + f"""

@mcp.tool()
async def get_pattern(pattern: str) -> dict:
    try:
        return await fetch(pattern)
    except Exception:
        return {{"{key}": "{text}"}}  # expect: MCP005
""")


def test_in_a_client_helper_of_another_module(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "loom/__init__.py": "",
            "loom/client.py": """\
                import httpx


                async def get_json(url: str) -> dict:
                    try:
                        async with httpx.AsyncClient() as client:
                            reply = await client.get(url)
                        return reply.json()
                    except httpx.HTTPError:
                        return {"headline": "Request error - nothing was fetched"}
                """,
            "loom/server.py": """\
                from mcp.server.fastmcp import FastMCP

                from loom.client import get_json

                mcp = FastMCP("loom")


                @mcp.tool()
                async def weave(url: str) -> dict:
                    return await get_json(url)
                """,
        },
    )
    findings = [f for f in lint_tree(tmp_path) if f.code == "MCP005"]
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("client.py", 10)]


NOT_FAILURES = HEADER + """

@mcp.tool()
async def pattern_count(pattern: str) -> dict:
    try:
        return await fetch(pattern)
    except KeyError:
        return {"count": 0}


@mcp.tool()
async def pattern_notes(pattern: str) -> dict:
    try:
        return await fetch(pattern)
    except LookupError:
        return {"notes": "No notes yet for this pattern"}


@mcp.tool()
async def pattern_card(pattern: str) -> dict:
    try:
        return await fetch(pattern)
    except Exception:
        return {"name": pattern, "note": "preview not available"}


@mcp.tool()
async def pattern_size(raw: str) -> dict:
    try:
        return {"size": int(raw)}
    except ValueError:
        return {"size": "unknown size written as text"}
"""


def test_empty_answers_values_and_several_items_are_not_the_failure() -> None:
    check(NOT_FAILURES)
