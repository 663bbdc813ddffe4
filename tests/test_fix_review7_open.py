"""Fix shapes review 7 rejected (issue 23), each with the code the fix must write (or the code left
as it was), on made-up servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write

# --- a catch-all dispatcher tool calls the other tools through a registry it fills later --------

NOTES = """\
from typing import Any

from mcp.server.fastmcp import FastMCP


def list_notes(folder: str) -> dict[str, Any]:
    \"\"\"List the notes of a folder.\"\"\"
    if not folder:
        return {"success": False, "error": "No folder given. Pass the folder name."}
    return {"success": True, "notes": [folder]}


def register_note_tools(mcp: FastMCP) -> None:
    mcp.tool()(list_notes)
"""

DISPATCH = """\
import inspect
from typing import Any, Callable

from mcp.server.fastmcp import FastMCP

HANDLERS: dict[str, Callable[..., Any]] = {}


def _build() -> None:
    if HANDLERS:
        return
    from notes.tools import list_notes

    HANDLERS.update({"list_notes": list_notes})


async def run_tool(name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    \"\"\"Run any tool by name.\"\"\"
    _build()
    func = HANDLERS[name]
    try:
        if inspect.iscoroutinefunction(func):
            result = await func(**(arguments or {}))
        else:
            result = func(**(arguments or {}))
        return result
    except Exception as e:
        return {"success": False, "error": f"Tool execution failed: {e!s}"}


def register_dispatch(mcp: FastMCP) -> None:
    mcp.tool()(run_tool)
"""

SERVER = """\
from mcp.server.fastmcp import FastMCP

from notes.dispatch import register_dispatch

mcp = FastMCP("notes")
register_dispatch(mcp)
"""

FILLED_BY_KEY = DISPATCH.replace('    HANDLERS.update({"list_notes": list_notes})\n', '    HANDLERS["list_notes"] = list_notes\n')


@pytest.mark.parametrize("dispatch", [DISPATCH, FILLED_BY_KEY], ids=["update", "by-key"])
def test_a_tool_a_catch_all_dispatcher_calls_keeps_its_return(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dispatch: str) -> None:
    # The dispatcher calls list_notes through the registry inside `except Exception`: a raise in
    # place of list_notes' refusal would become "Tool execution failed" (or the dispatcher's
    # own rewritten text). list_notes' finding stays, with no fix; the dispatcher's own clause is
    # rewritten as usual.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "notes"\ndependencies = ["mcp>=1.20,<2"]\n')
    write(tmp_path / "notes/__init__.py", "")
    write(tmp_path / "notes/tools.py", NOTES)
    write(tmp_path / "notes/dispatch.py", dispatch)
    write(tmp_path / "notes/server.py", SERVER)
    listed = run("--unsafe-fixes", "--output-format", "concise")
    assert "notes/tools.py:9:9: MCP005 Tool 'list_notes' returns a failure dict as a normal result" in listed.output, listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "notes/tools.py").read_text() == NOTES
    assert 'raise ToolError("Could not run tool") from e' in (tmp_path / "notes/dispatch.py").read_text()
