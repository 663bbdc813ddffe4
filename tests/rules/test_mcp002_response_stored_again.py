"""MCP002, upstream bodies: a branch that found a response failed and then fetches it again
(`if resp.status_code == 401: resp = get(...); resp.raise_for_status(); return resp.json()`)
returns the new response's data, not the failed one's body; a branch that reads the tested
response itself still sends its body."""

from __future__ import annotations

from ._support import lint_source

SERVER = """\
import requests
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("files")


def refresh_token() -> bool:
    return True


def fetch(url: str) -> dict:
    response = requests.get(url, timeout=10)
    if response.status_code == 401:
        BRANCH
    response.raise_for_status()
    return response.json()


@mcp.tool()
def list_files() -> dict:
    \"\"\"List the files.\"\"\"
    return fetch("https://files.invalid/list")
"""


def _mcp002(source: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


def test_a_response_fetched_again_after_the_failure_test_is_not_the_failed_body() -> None:
    branch = 'if refresh_token():\n            response = requests.get(url, timeout=10)\n            response.raise_for_status()\n            return response.json()\n        raise RuntimeError("the token expired; sign in again")'
    assert _mcp002(SERVER.replace("BRANCH", branch)) == []


def test_the_tested_response_read_in_its_failure_branch_is_still_its_body() -> None:
    branch = 'return {"error": f"unauthorised: {response.text}"}'
    assert _mcp002(SERVER.replace("BRANCH", branch)) == [(14, "Helper 'fetch' returns an upstream error body (response.text) as a normal result")]
