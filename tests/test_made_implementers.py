"""Clients typed by what no annotation names as a class with the method called:

* a project `typing.Protocol` (`store: RecordStore`) whose implementer is made in the server
  factory, in a module that never names the protocol: once a protocol's method is called, the
  classes the analysed functions make are asked for (Lookup.MADE_CLASS), and the one defining
  every method of the protocol runs the call;
* an attribute made by a factory annotated with a module-level union alias (`def build_auth() ->
  AuthStrategy`, `AuthStrategy = TokenAuth | KeyAuth`): the alias names no class with the method,
  so the classes the factory returns do, each of them.

Nothing is reached when the made class does not implement the protocol, or when the factory
returns no project object."""

from __future__ import annotations

from pathlib import Path

from cli_support import invoke_in

STORE = """\
import httpx


class HttpStore:
    def __init__(self, base: str) -> None:
        self.base = base

    def fetch(self, key: str) -> str:
        try:
            return httpx.get(self.base + key).text
        except httpx.HTTPError as exc:
            return f"Error: {exc}"
"""

PROTOCOL = {
    "app/contracts.py": "from typing import Protocol\n\n\nclass RecordStore(Protocol):\n    def fetch(self, key: str) -> str: ...\n",
    "app/http_store.py": STORE,
    "app/tools.py": """\
from fastmcp import FastMCP

from app.contracts import RecordStore


def register_record_tools(mcp: FastMCP, store: RecordStore) -> None:
    @mcp.tool()
    def lookup(key: str) -> str:
        return store.fetch(key)
""",
    "app/server.py": """\
from fastmcp import FastMCP

from app.contracts import RecordStore
from app.http_store import HttpStore
from app.tools import register_record_tools


def create_server(store: RecordStore | None = None) -> FastMCP:
    mcp = FastMCP("records")
    register_record_tools(mcp, store or HttpStore("https://records.invalid/"))
    return mcp
""",
}

AUTH = """\
import httpx


class TokenAuth:
    def token(self) -> str:
        return "t"


class KeyAuth:
    def token(self) -> str:
        try:
            return httpx.post("https://auth.invalid/key").text
        except httpx.HTTPError as exc:
            return f"Error: {exc}"


AuthStrategy = TokenAuth | KeyAuth


def build_auth(kind: str) -> AuthStrategy:
    if kind == "token":
        return TokenAuth()
    return KeyAuth()
"""

UNION = {
    "app/auth.py": AUTH,
    "app/server.py": """\
from fastmcp import FastMCP

from app.auth import build_auth

mcp = FastMCP("records")


class Client:
    def __init__(self, kind: str) -> None:
        self._auth = build_auth(kind)

    def whoami(self) -> str:
        return self._auth.token()


client = Client("key")


@mcp.tool()
def whoami() -> str:
    return client.whoami()
""",
}

FOUND_STORE = ["app/http_store.py:12:13: MCP005", "app/http_store.py:12:20: MCP002"]
FOUND_AUTH = ["app/auth.py:14:13: MCP005", "app/auth.py:14:20: MCP002"]


def _check(root: Path, files: dict[str, str]) -> list[str]:
    files = {"pyproject.toml": '[project]\nname = "app"\nversion = "0"\ndependencies = ["fastmcp>=2.10"]\n', "app/__init__.py": "", **files}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--select", "MCP002,MCP005", "--output-format", "concise", "."])
    return sorted(f"{line.split(':')[0]}:{line.split(':')[1]}:{line.split(':')[2]}: {line.split(' ')[1]}" for line in result.output.splitlines() if ": MCP" in line)


def test_a_protocols_implementer_made_in_the_server_factory_runs_its_method(tmp_path: Path) -> None:
    assert _check(tmp_path, PROTOCOL) == FOUND_STORE


def test_a_made_class_that_does_not_implement_the_protocol_runs_nothing(tmp_path: Path) -> None:
    files = {**PROTOCOL, "app/http_store.py": STORE.replace("def fetch(", "def get(")}
    assert _check(tmp_path, files) == []


def test_each_class_a_union_alias_factory_returns_runs_the_method(tmp_path: Path) -> None:
    assert _check(tmp_path, UNION) == FOUND_AUTH


def test_a_union_alias_factory_returning_no_project_object_reaches_nothing(tmp_path: Path) -> None:
    auth = AUTH.replace("        return TokenAuth()\n    return KeyAuth()\n", "        return httpx.Client()\n    return httpx.Client()\n")
    assert _check(tmp_path, {**UNION, "app/auth.py": auth}) == []
