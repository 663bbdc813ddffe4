"""MCP005 on failure wording that names what the call lacked (issue 20, cause W): a connection,
a permission, a usable answer from the service, a well-formed argument, in any of the
vocabulary's languages. Not the same words in a success ("Conexión establecida")."""

from __future__ import annotations

from ._support import check

SOURCE = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("almacen")

_conexion = None


def consultar(sql: str) -> list:
    return []


@mcp.tool()
def listar_tablas() -> str:
    if _conexion is None:
        return "No hay ninguna conexión activa. Usa la herramienta 'conectar' primero."  # expect: MCP005
    return ", ".join(consultar("SHOW TABLES"))


@mcp.tool()
def conectar(url: str) -> str:
    global _conexion
    _conexion = url
    return "Conexión establecida"


@mcp.tool()
def get_shelf(shelf_id: str) -> str:
    if not shelf_id.isdigit():
        return f"{shelf_id!r} doesn't look like a shelf id. Ids are digits only."  # expect: MCP005
    rows = consultar(shelf_id)
    if not isinstance(rows, list):
        return "The store returned an unexpected response shape for this shelf."  # expect: MCP005
    return str(rows)


@mcp.tool()
def drop_shelf(shelf_id: str, role: str) -> str:
    if role != "admin":
        return f"当前角色：{role} 权限不足"  # expect: MCP005
    return f"Shelf {shelf_id} dropped"
"""


def test_wording_of_what_the_call_lacked_is_a_failure() -> None:
    check(SOURCE)
