"""MCP005 on a not-found status code beside a sentence (`{"status": "not_found", "message":
"No people found matching '...'"}`): the code says what its sentence says, so it is read as the
sentence is. An empty search or listing is no failure (LABELING.md); a lookup of one record by
its key that finds nothing is one, as is any such dict with an error key or a false success flag."""

from __future__ import annotations

from pathlib import Path

import pytest

from ._support import check, lint_tree, write_tree

HEADER = """\
import json

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("roster")


async def find_people(query: str) -> list:
    return []


async def load_person(person_id: str) -> dict | None:
    return None
"""


@pytest.mark.parametrize(
    "sentence",
    [
        "No people found matching '{query}' in team '{team}'.",
        "No se encontraron personas para '{query}'.",  # Spanish
        "Keine Personen gefunden für '{query}'.",  # German
    ],
)
def test_an_empty_search_under_a_not_found_code_is_no_failure(sentence: str) -> None:
    source = HEADER + f"""

@mcp.tool()
async def search_roster(query: str, team: str = "") -> str:
    members = await find_people(query)
    if not members:
        return json.dumps({{"status": "not_found", "message": f"{sentence}", "query": query}})
    return json.dumps({{"status": "success", "members": members}})
"""
    check(source)


LOOKUP = HEADER + """

@mcp.tool()
async def get_person(person_id: str) -> str:
    person = await load_person(person_id)
    if person is None:
        return json.dumps({"status": "not_found", "message": f"No person found with id {person_id}"})  # expect: MCP005
    return json.dumps({"status": "success", "person": person})


@mcp.tool()
async def find_members(query: str) -> dict:
    members = await find_people(query)
    if not members:
        return {"status": "not_found", "error": "No members found", "query": query}  # expect: MCP005
    return {"members": members}


@mcp.tool()
async def roster_members(query: str) -> dict:
    members = await find_people(query)
    if not members:
        return {"status": "not_found", "query": query}  # expect: MCP005
    return {"members": members}
"""


def test_a_lookup_miss_an_error_key_or_no_sentence_stays_a_failure() -> None:
    check(LOOKUP)


def test_the_empty_search_in_a_helper_of_another_module_is_no_failure(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "roster/__init__.py": "",
            "roster/people.py": """\
                async def fetch(query: str) -> list:
                    return []


                async def matching(query: str) -> dict:
                    found = await fetch(query)
                    if not found:
                        return {"status": "notfound", "message": f"No records found for '{query}'"}
                    if len(found) > 100:
                        return {"status": "error", "message": "Too many records to list"}
                    return {"status": "ok", "records": found}
                """,
            "roster/server.py": """\
                from mcp.server.fastmcp import FastMCP

                from roster.people import matching

                mcp = FastMCP("roster")


                @mcp.tool()
                async def list_matching(query: str) -> dict:
                    return await matching(query)
                """,
        },
    )
    findings = [f for f in lint_tree(tmp_path) if f.code == "MCP005"]
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("people.py", 10)]
