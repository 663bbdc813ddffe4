"""The failure vocabulary: a refusal that names what was refused and why ("Query rejected:
read-only server"), a lookup's miss that names the record ("No shelf named {}"), and "not
supported" / "not allowed" in the languages besides English. Reports of what a call rejected,
denied or blocked as its work ("3 requests denied") stay answers."""

from __future__ import annotations

import pytest

from mcp_lint.rules.text import is_failure_text

from ._support import check

REFUSALS = [
    "Query rejected: this server only runs read statements.",
    "Operation blocked: read-only mode is active",
    "Upload refused — the file is over the size limit",
    "No shelf named {}. Available: {}",
    "No plant with id {}",
    "Formato '{}' no soportado. Usa: csv, json.",
    "Operación no permitida en modo de solo lectura",
    "Format '{}' nicht unterstützt",
    "Format non supporté : {}",
    "Formato não suportado: {}",
    "不支持的格式：{}",
    "Consulta rechazada: el servidor es de solo lectura.",
    "Anfrage abgelehnt: nur Lesezugriff",
]

ANSWERS = [
    "{} applications rejected.",
    "3 requests denied",
    "Found 3 rejected: {}",
    "Access blocked for {} users",
    "No plants found for {}",
    "Shelf {} holds {} plants",
]


@pytest.mark.parametrize("text", REFUSALS)
def test_a_refusal_is_a_failure(text: str) -> None:
    assert is_failure_text(text)


@pytest.mark.parametrize("text", ANSWERS)
def test_a_report_of_rejections_is_an_answer(text: str) -> None:
    assert not is_failure_text(text)


def test_a_tool_refusing_in_these_words_is_reported() -> None:
    check(
        """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("nursery")
SHELVES = {"north": ["fern"], "south": ["cactus"]}


@mcp.tool()
def run_statement(sql: str) -> str:
    if not sql.lstrip().lower().startswith("select"):
        return "Statement rejected: this server only runs read statements."  # expect: MCP005
    return "ok"


@mcp.tool()
def shelf_plants(shelf: str) -> str:
    if shelf not in SHELVES:
        return f"No shelf named {shelf!r}. Available: {', '.join(SHELVES)}"  # expect: MCP005
    return ", ".join(SHELVES[shelf])


@mcp.tool()
def set_engine(engine: str) -> str:
    if engine not in ("sqlite", "duckdb"):
        return f"Motor '{engine}' no soportado. Usa: sqlite, duckdb."  # expect: MCP005
    return f"Motor {engine} activo."


@mcp.tool()
def prune_requests(limit: int) -> str:
    denied = min(limit, 3)
    return f"{denied} requests denied"
"""
    )
