"""MCP002, one flow where the foreign text enters (heldout15 CAUSES-MCP002 form A): a helper puts a
failed reply's body into an exception it raises (a builtin class, or the project's own subclass of
one), and a catch elsewhere that names a builtin base (`except RuntimeError as e: return
f"Error: {e}"`) re-words it. When that catch only receives the project's own raises, the raise
is reported, naming the catch that passes its text on; a literal-only raise caught by the same
clause is no finding; a catch that also receives a library call's exception from its own `try`
body stays the finding (form C), as before."""

from __future__ import annotations

from pathlib import Path

from ._support import lint_source, lint_tree, write_tree

SERVER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("addresses")


class VerifyError(RuntimeError):
    pass


def _verify(address: str) -> dict:
    resp = httpx.get("https://verify.invalid/check", params={"address": address})
    if resp.status_code != 200:
        raise RAISED(f"verify failed ({resp.status_code}): {resp.text}")
    return resp.json()


@mcp.tool()
def verify(address: str) -> str:
    \"\"\"Verify an address.\"\"\"
    if not address:
        raise RuntimeError("address must not be empty here")
    try:
        data = _verify(address)
    except CAUGHT as e:
        return f"Error: {e}"
    return str(data.get("ok"))
"""


def _found(source: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


def test_builtin_raise_with_a_body_is_reported_where_the_body_enters() -> None:
    found = [f for f in lint_source(SERVER.replace("RAISED", "RuntimeError").replace("CAUGHT", "RuntimeError"), filename="server.py") if f.code == "MCP002"]
    assert [(f.location.row, f.message) for f in found] == [(14, "Helper '_verify' raises RuntimeError with an upstream error body (resp.text)")]
    assert any("caught on the way: tool 'verify' returns it" in note and ":26)" in note for note in found[0].notes)


def test_own_subclass_caught_by_its_builtin_base_is_reported_at_the_raise() -> None:
    assert _found(SERVER.replace("RAISED", "VerifyError").replace("CAUGHT", "RuntimeError")) == [
        (14, "Helper '_verify' raises VerifyError with an upstream error body (resp.text)")
    ]


def test_literal_only_raise_caught_by_the_same_clause_is_no_finding() -> None:
    source = SERVER.replace('RAISED(f"verify failed ({resp.status_code}): {resp.text}")', 'RuntimeError("the verification service refused the address")')
    assert _found(source.replace("CAUGHT", "RuntimeError")) == []


def test_catch_also_receiving_a_library_call_stays_the_finding() -> None:
    # Form C: the clause's own `try` body calls the library directly, so the clause takes
    # library text in itself; it stays the flow's finding and the helper's raise is not reported.
    source = SERVER.replace("RAISED", "RuntimeError").replace(
        "        data = _verify(address)\n",
        '        data = _verify(address)\n        httpx.post("https://verify.invalid/audit", json={"address": address}).raise_for_status()\n',
    )
    for caught in ("RuntimeError", "Exception"):
        found = _found(source.replace("CAUGHT", caught))
        assert found == [(27, f"Tool 'verify' returns the text of a caught {caught} as a normal result")]


def test_helper_in_another_module_renamed(tmp_path: Path) -> None:
    # Metamorphic: other names, another language, the helper and its class in their own module.
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/cliente.py": """\
                import httpx


                class ServicoErro(RuntimeError):
                    pass


                def consultar(chave: str) -> dict:
                    resposta = httpx.get(f"https://servico.invalid/itens/{chave}")
                    if resposta.status_code >= 400:
                        raise ServicoErro(f"consulta falhou ({resposta.status_code}): {resposta.text}")
                    return resposta.json()
                """,
            "pkg/server.py": """\
                from mcp.server.fastmcp import FastMCP

                from pkg.cliente import consultar

                mcp = FastMCP("itens")


                @mcp.tool()
                def item(chave: str) -> str:
                    \"\"\"Consulta um item.\"\"\"
                    try:
                        dados = consultar(chave)
                    except RuntimeError as erro:
                        return f"Erro: {erro}"
                    return str(dados.get("nome"))
                """,
        },
    )
    found = [(Path(f.filename).name, f.location.row) for f in lint_tree(tmp_path) if f.code == "MCP002"]
    assert found == [("cliente.py", 11)]
