"""MCP005 on a failure dict a refusal helper builds whole, outside any branch: `{"ok": False,
"error": {"kind": ..., "message": ...}}` (a structured error object, not text) says its failure
by its literal success flag or status, whatever calls it, so the helper's return is the flow's
anchor when a tool returns its value (through a precondition check, through a project
decorator's wrapper around the helper the tool calls). An envelope whose flag is a variable
(`{"ok": ok, "error": err}`) outside a branch may hold no error: still no finding."""

from __future__ import annotations

from ._support import check


def test_a_refusal_dict_returned_through_a_decorators_wrapper_is_reported_in_its_builder() -> None:
    check(
        """\
import functools
import os

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shelves")
SHELVES: dict[str, list[str]] = {}


def disabled(action: str) -> dict:
    return {"ok": False, "error": {"kind": "disabled", "message": f"'{action}' is disabled. Set WRITES=1."}}  # expect: MCP005


def preconditions(action: str) -> dict | None:
    if not os.environ.get("WRITES"):
        return disabled(action)
    return None


def gated(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        refused = preconditions(fn.__name__)
        if refused is not None:
            return refused
        return fn(*args, **kwargs)

    return wrapper


@gated
def put_plant(shelf: str, plant: str) -> dict:
    SHELVES.setdefault(shelf, []).append(plant)
    return {"ok": True}


@mcp.tool()
def add_plant(shelf: str, plant: str) -> dict:
    \"\"\"Put a plant on a shelf.\"\"\"
    return put_plant(shelf, plant)
"""
    )


def test_the_same_refusal_under_a_status_word_and_other_names_is_reported() -> None:
    check(
        """\
import os

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("estantes")


def sem_token(acao: str) -> dict:
    return {"status": "error", "erro": {"tipo": "auth", "mensagem": f"{acao} exige TOKEN."}}  # expect: MCP005


@mcp.tool()
def guardar(estante: str) -> dict:
    \"\"\"Guarda uma estante.\"\"\"
    if not os.environ.get("TOKEN"):
        return sem_token("guardar")
    return {"status": "ok", "estante": estante}
"""
    )


def test_an_envelope_whose_flag_is_a_variable_stays_an_answer() -> None:
    check(
        """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shelves")
SHELVES: dict[str, list[str]] = {}


def envelope(ok: bool, detail: dict | None) -> dict:
    return {"ok": ok, "error": detail, "shelves": sorted(SHELVES)}


@mcp.tool()
def list_shelves() -> dict:
    \"\"\"List the shelves.\"\"\"
    return envelope(True, None)
"""
    )


def test_a_refusal_that_rewords_the_name_it_is_handed_is_still_built_here() -> None:
    # `group.upper()` rewords the text handed in: the helper writes its message, it does not
    # describe a failure record its callers found (no caller hands one in).
    check(
        """\
import os

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shelves")
GATES = {"write": "WRITES"}


def group_disabled(group: str) -> dict:
    variable = GATES.get(group, f"ENABLE_{group.upper()}")
    return {  # expect: MCP005
        "ok": False,
        "error": {"kind": "disabled", "message": f"Group '{group}' is off. Set {variable}=1."},
    }


def check_group(group: str) -> dict | None:
    if not os.environ.get(GATES.get(group, "")):
        return group_disabled(group)
    return None


@mcp.tool()
def add_shelf(name: str) -> dict:
    \"\"\"Add a shelf.\"\"\"
    refused = check_group("write")
    if refused:
        return refused
    return {"ok": True, "name": name}
"""
    )
