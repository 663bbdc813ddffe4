"""MCP005, one finding per flow: a caller that copies the error item of what a helper returned
into a dict of its own shape (`{"rows": [], "error": r["error"]}`) passes the helper's failure
on; when the helper builds that failure itself (and a tool receives it from there), the flow is
reported there only."""

from __future__ import annotations

from mcp_lint.pipeline import lint_source

HEAD = "import httpx\nfrom fastmcp import FastMCP\nmcp = FastMCP('x')\n"

# A helper that builds its own failure (line 6), and a tool that re-shapes its result (line 12).
UPLOAD = HEAD + (
    "def upload(path: str, data: bytes) -> dict:\n"
    "    if not data:\n"
    "        return {'path': path, 'error': 'the upload was refused: the file is empty'}\n"
    "    return {'path': path, 'error': None}\n"
    "@mcp.tool()\n"
    "def save(path: str, text: str) -> dict:\n"
    "    result = upload(path, text.encode())\n"
    "    if result['error']:\n"
    "        return {'path': path, 'bytes': 0, 'error': ERROR}\n"
    "    return {'path': path, 'bytes': len(text), 'error': None}\n"
)
# Another tool that returns the helper's value whole: the helper's own finding stands.
SEND = "@mcp.tool()\ndef send(path: str, text: str) -> dict:\n    return upload(path, text.encode())\n"


def reported(source: str) -> list[tuple[str, int]]:
    return sorted((f.context, f.location.row) for f in lint_source(source, "server.py") if f.code == "MCP005")


def test_re_shaping_a_helpers_own_failure_is_reported_at_the_helper_only() -> None:
    assert reported(UPLOAD.replace("ERROR", "result['error']") + SEND) == [("upload", 6)]


def test_re_shaping_a_failure_no_tool_receives_from_the_helper_is_reported_at_the_caller() -> None:
    assert reported(UPLOAD.replace("ERROR", "result['error']")) == [("save", 12)]


def test_an_error_item_written_by_the_caller_is_its_own_finding() -> None:
    assert reported(UPLOAD.replace("ERROR", "f'could not save {path}'") + SEND) == [("save", 12), ("upload", 6)]


def test_re_shaping_the_error_of_a_helper_that_only_passes_data_on_is_reported_at_the_caller() -> None:
    source = HEAD + (
        "def fetch(url: str) -> dict:\n"
        "    return httpx.get(url).json()\n"
        "@mcp.tool()\n"
        "def lookup(url: str) -> dict:\n"
        "    body = fetch(url)\n"
        "    if body.get('error'):\n"
        "        return {'items': [], 'error': body.get('error')}\n"  # line 10
        "    return {'items': body['items'], 'error': None}\n"
    )
    assert reported(source) == [("lookup", 10)]
