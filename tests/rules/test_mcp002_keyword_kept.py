"""MCP002 on a failed body handed to the project's exception only as a keyword the class's own
`__init__` keeps out of its message (`raise ApiFailure(f"HTTP {status}", body=body)` with
`def __init__(self, message, *, body=None): super().__init__(message); self.body = body`): the
exception's text is the author's words, no body reaches the model (heldout15 CAUSES-MCP002 form
G). Reported as before where the `__init__` puts that keyword into the message, or where the class
is not known to keep it out (`**kwargs`)."""

from __future__ import annotations

from pathlib import Path

from ._support import lint_source, lint_tree, write_tree

SERVER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("parcels")


class ParcelError(RuntimeError):
    def __init__(self, message: str, *, status: int = 0, body: object = None) -> None:
        super().__init__(MESSAGE)
        self.status = status
        self.body = body


@mcp.tool()
async def track(parcel: str) -> dict:
    \"\"\"Track a parcel.\"\"\"
    async with httpx.AsyncClient() as client:
        response = await client.get(f"https://parcels.invalid/{parcel}")
    if response.is_success:
        return response.json()
    body = response.json()
    raise ParcelError(f"Tracking returned {response.status_code}", status=response.status_code, body=body)
"""


def _rows(source: str) -> list[int]:
    return [f.location.row for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


def test_keyword_kept_in_an_attribute_is_no_body() -> None:
    assert _rows(SERVER.replace("MESSAGE", "message")) == []


def test_keyword_put_into_the_message_is_reported() -> None:
    assert _rows(SERVER.replace("MESSAGE", 'f"{message}: {body}"')) == [22]


def test_keyword_taken_by_kwargs_is_reported() -> None:
    source = SERVER.replace("*, status: int = 0, body: object = None", "**details: object").replace(
        "        self.status = status\n        self.body = body\n", "        self.details = details\n"
    )
    assert _rows(source.replace("MESSAGE", "message")) == [21]


def test_class_in_another_module_renamed(tmp_path: Path) -> None:
    # Metamorphic: the class in its own module, other names, the body read as text.
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/errors.py": """\
                class ServicoErro(RuntimeError):
                    def __init__(self, mensagem: str, *, codigo: int = 0, corpo: str = "") -> None:
                        super().__init__(mensagem)
                        self.codigo = codigo
                        self.corpo = corpo
                """,
            "pkg/server.py": """\
                import httpx
                from mcp.server.fastmcp import FastMCP

                from pkg.errors import ServicoErro

                mcp = FastMCP("encomendas")


                @mcp.tool()
                async def rastrear(codigo: str) -> dict:
                    \"\"\"Rastreia uma encomenda.\"\"\"
                    async with httpx.AsyncClient() as cliente:
                        resposta = await cliente.get(f"https://encomendas.invalid/{codigo}")
                    if resposta.is_success:
                        return resposta.json()
                    raise ServicoErro(f"Rastreio devolveu {resposta.status_code}", codigo=resposta.status_code, corpo=resposta.text)
                """,
        },
    )
    assert [f for f in lint_tree(tmp_path) if f.code == "MCP002"] == []
    # The same class wording the keyword into its message: the body is reported.
    errors = tmp_path / "pkg" / "errors.py"
    errors.write_text(errors.read_text().replace("super().__init__(mensagem)", 'super().__init__(f"{mensagem}: {corpo}")'))
    assert [(f.location.row, f.filename.endswith("server.py")) for f in lint_tree(tmp_path) if f.code == "MCP002"] == [(16, True)]
