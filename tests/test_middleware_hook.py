"""An author-written fastmcp middleware's `on_call_tool` runs around every tool call: what it
returns is the call's result and what it raises reaches the framework as the tool's own
exception would, so the tool rules read it as tool code (model/registration.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli
from mcp_lint.pipeline import lint_source
from test_cross_module import findings as package_findings

HEAD = "import httpx\nfrom fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nfrom fastmcp.server.middleware import Middleware\n"

def middleware(name: str, hook: str) -> str:
    """A middleware class whose `hook` re-words an HTTP failure with its text (line 11 as the first)."""
    return f"""
class {name}(Middleware):
    async def {hook}(self, context, call_next):
        try:
            return await call_next(context)
        except httpx.HTTPError as e:
            raise ToolError(f"The catalogue service failed: {{e}}")
"""


REWORDING = middleware("UpstreamErrors", "on_call_tool")
TIMING = middleware("Timing", "on_request")  # runs around every request, not as a tool call

TOOL = "\n@mcp.tool()\ndef lookup(item_id: str) -> str:\n    return item_id\n"

FORMS = {
    "add-middleware": "mcp = FastMCP('x')\nmcp.add_middleware(UpstreamErrors())\n",
    "constructor-list": "mcp = FastMCP('x', middleware=[Timing(), UpstreamErrors()])\n",
}


def found(source: str, code: str = "MCP002") -> list[tuple[int, str]]:
    return [(f.location.row, f.message) for f in lint_source(source, "server.py") if f.code == code]


@pytest.mark.parametrize("form", FORMS.values(), ids=FORMS.keys())
def test_what_the_middleware_raises_is_on_every_tools_path(form: str) -> None:
    source = HEAD + REWORDING + TIMING + form + TOOL
    assert found(source) == [(11, "Tool 'UpstreamErrors.on_call_tool' puts the text of a caught httpx.HTTPError into ToolError")]


def test_a_middleware_that_is_never_added_is_not_on_any_path() -> None:
    assert found(HEAD + REWORDING + "mcp = FastMCP('x')\n" + TOOL) == []


def test_a_middleware_without_on_call_tool_is_not_on_the_tools_path() -> None:
    assert found(HEAD + TIMING + "mcp = FastMCP('x')\nmcp.add_middleware(Timing())\n" + TOOL) == []


def test_middleware_added_to_a_web_app_is_not_mcp_middleware() -> None:
    source = HEAD + REWORDING + "from starlette.applications import Starlette\napp = Starlette()\napp.add_middleware(UpstreamErrors())\n"
    assert found(source) == []


def test_a_middleware_of_another_module(tmp_path: Path) -> None:
    files = {
        "guards.py": HEAD + REWORDING,
        "server.py": "from fastmcp import FastMCP\nfrom .guards import UpstreamErrors\nmcp = FastMCP('x')\nmcp.add_middleware(UpstreamErrors())\n" + TOOL,
    }
    assert package_findings(tmp_path, files, "MCP002") == [("guards.py", "on_call_tool")]


def test_verbose_run_lists_the_middleware_beside_the_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "server.py").write_text(HEAD + REWORDING + TIMING + "mcp = FastMCP('x', middleware=[Timing(), UpstreamErrors()])\n" + TOOL)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "-v", "--output-format", "concise", "."], catch_exceptions=False)
    lines = [line for line in result.stderr.splitlines() if line.startswith("mcp-lint: server")]
    assert len(lines) == 1
    assert lines[0].endswith("2 tools: UpstreamErrors.on_call_tool (middleware around every tool), lookup")


FINDER = """
class CatalogueError(Exception):
    hint = "Check the item id."

def cause_of(exception, kind):
    while exception is not None:
        if isinstance(exception, kind):
            return {returned}
        exception = exception.__cause__
    return None

class Translate(Middleware):
    async def on_call_tool(self, context, call_next):
        try:
            return await call_next(context)
        except Exception as raised:
            if found := cause_of(raised, CatalogueError):
                raise ToolError(found.hint)
            raise ToolError("The catalogue call failed; the server log has the cause.")

mcp = FastMCP('x', middleware=[Translate()])
"""


def test_a_helper_handing_back_the_exception_object_whole_is_not_its_text() -> None:
    assert found(HEAD + FINDER.format(returned="exception") + TOOL) == []


def test_a_helper_returning_the_exceptions_text_is() -> None:
    assert found(HEAD + FINDER.format(returned="str(exception)") + TOOL) == [
        (12, "Helper 'cause_of' returns the text of the exception passed in 'exception' as a normal result")
    ]
