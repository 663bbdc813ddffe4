"""A generic failure constructor named in the server's own language: `def _erro(mensagem,
**extras): return {"erro": mensagem, **extras}` (Portuguese), `fehler_antwort(text)` (German),
`_erreur(message)` (French). A tool that returns its call with its own message reports a failure
as an answer, reported at the call (the caller's message is the failure), as `_fail(msg)` is. A
function whose name only holds such a word inside another word, or a builder of notices, stays
a plain call."""

from __future__ import annotations

import pytest

from ._support import check

SERVER = """\
from typing import Any

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shelves")
SHELVES = {{"north": ["fern"]}}


def {builder}({param}: str, **extras: Any) -> dict[str, Any]:
    return {{"{key}": {param}, **extras}}


@mcp.tool()
def {tool}(name: str) -> dict[str, Any]:
    \"\"\"List the plants of one shelf.\"\"\"
    if not name.strip():
        return {builder}("{empty}"){mark}
    if name not in SHELVES:
        return {builder}("{missing}", shelf=name){mark}
    return {{"plants": SHELVES[name]}}
"""

LANGUAGES = [
    # Portuguese, the shape of a server written for its users
    dict(builder="_erro", param="mensagem", key="erro", tool="listar_estante",
         empty="Informe o nome da estante.", missing="Estante não encontrada."),
    # German, another builder name and parameter (renamed identifiers)
    dict(builder="fehler_antwort", param="text", key="fehler", tool="regal_zeigen",
         empty="Bitte geben Sie einen Regalnamen an.", missing="Regal nicht gefunden."),
    # French
    dict(builder="_erreur", param="message", key="erreur", tool="voir_etagere",
         empty="Veuillez indiquer le nom de l'étagère.", missing="Étagère introuvable."),
    # Spanish names its failures "fallo"
    dict(builder="respuesta_fallo", param="mensaje", key="error", tool="ver_estante",
         empty="Por favor, indique el nombre del estante.", missing="Estante no encontrado."),
]


@pytest.mark.parametrize("words", LANGUAGES, ids=lambda w: w["builder"])
def test_a_failure_constructor_named_in_another_language_is_reported_at_its_calls(words: dict[str, str]) -> None:
    check(SERVER.format(mark="  # expect: MCP005", **words))


@pytest.mark.parametrize(
    "builder",
    [
        "_erros_corrigidos",  # "erros" (a plural noun) is not the builder word
        "_ferro_status",  # "erro" inside a word
        "_aviso",  # a notice, not an error
    ],
)
def test_a_function_not_named_as_a_failure_constructor_stays_a_call(builder: str) -> None:
    # The same dict under a key that names no error: no failure, whatever the name.
    check(
        SERVER.format(
            builder=builder, param="mensagem", key="aviso", tool="listar_estante",
            empty="Informe o nome da estante.", missing="Estante vazia.", mark="",
        )
    )
