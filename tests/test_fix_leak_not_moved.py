"""A fix must not move a leak into the raise (issue 23, review 5's "leak moved"): a tool that
sends a helper's whole failure record on (`json.dumps(data)` of a dict holding a reply's raw body
and the request's headers) raises the author's words without that record."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

_COURSES = """\
import json
from typing import Any

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("courses")
API_KEY = "k"


async def fetch_courses() -> dict[str, Any] | None:
    headers = {"Accept": "application/json", "x-api-key": API_KEY}
    async with httpx.AsyncClient() as client:
        try:
            response = await client.get("https://courses.example/v1/courses", headers=headers)
            response.raise_for_status()
            return response.json()
        except httpx.HTTPStatusError as e:
            return {
                "error": f"HTTP error occurred: {e}",
                "status_code": e.response.status_code,
                "response_text": e.response.text,
                "request_headers": dict(e.request.headers),
            }


@mcp.tool()
async def list_courses() -> str:
    data = await fetch_courses()
    if not data:
        return "Unable to fetch courses."
    if "error" in data:
        return f"Error fetching courses: {json.dumps(data, indent=2)}"
    return json.dumps(data["courses"], indent=2)
"""


def test_a_dumped_failure_record_stays_out_of_the_raised_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "courses"\ndependencies = ["mcp>=1.20,<2"]\n')
    (tmp_path / "server.py").write_text(_COURSES)
    listed = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--unsafe-fixes", "--output-format", "concise"])
    assert "server.py:20:50: MCP002 Helper 'fetch_courses' returns the text of a caught httpx.HTTPStatusError" in listed.output
    fixed = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--fix", "--unsafe-fixes", "--output-format", "concise"])
    assert "Found 3 errors (3 fixed, 0 remaining)." in fixed.output, fixed.output
    expected = (
        _COURSES.replace('return "Unable to fetch courses."', 'raise ToolError("Unable to fetch courses.")')
        .replace('return f"Error fetching courses: {json.dumps(data, indent=2)}"', 'raise ToolError("Error fetching courses")')
        .replace("from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n")
    )
    assert (tmp_path / "server.py").read_text() == expected
