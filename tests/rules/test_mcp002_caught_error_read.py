"""MCP002, the stdlib HTTP client's HTTPError is also the failed response: `e.read()` in its
clause is the upstream error body, put into what the model reads like `e.response.text` is; the
status code alone (`e.code`) is no text."""

from __future__ import annotations

from ._support import lint_source

SERVER = """\
import json
import urllib.error
import urllib.request

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("mail")


def _call(path: str):
    req = urllib.request.Request("https://mail.invalid" + path)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read().decode()), None
    except urllib.error.HTTPError as e:
        return e.code, None, SAID


@mcp.tool()
def list_lists() -> dict:
    \"\"\"List the mailing lists.\"\"\"
    status, data, err = _call("/lists")
    if err:
        return {"error": err}
    return {"lists": data}
"""


def _rows(source: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


def test_the_body_read_from_the_caught_http_error_is_reported() -> None:
    said = 'f"http {e.code}: {e.read().decode()[:200]}"'
    assert _rows(SERVER.replace("SAID", said)) == [(16, "Helper '_call' returns the text of a caught HTTPError as a normal result")]


def test_the_status_code_of_the_caught_http_error_alone_is_not_reported() -> None:
    assert _rows(SERVER.replace("SAID", 'f"the mail service answered HTTP {e.code}"')) == []
