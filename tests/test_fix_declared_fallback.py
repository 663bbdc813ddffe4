"""A server that imports one framework and falls back to the other (`try: from fastmcp import
FastMCP` / `except ImportError: from mcp.server.fastmcp import FastMCP`): which of the two runs is
the one the project's declared requirements install (issue 23). The findings name that framework
and the fix raises its ToolError, imported from it: importing the other's would fail on an install
of the declared requirements. Made-up servers; each case with the code the fix writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write

FASTMCP_FIRST = "try:\n    from fastmcp import FastMCP\nexcept ImportError:\n    from mcp.server.fastmcp import FastMCP\n"
MCP_FIRST = "try:\n    from mcp.server.fastmcp import FastMCP\nexcept ImportError:\n    from fastmcp import FastMCP\n"
# mcp 2.x's class first, mcp 1.x's when it is missing: the declared range of mcp decides.
MCP2_FIRST = "try:\n    from mcp.server.mcpserver import MCPServer as FastMCP\nexcept ImportError:\n    from mcp.server.fastmcp import FastMCP\n"

SERVER = """\
import logging

import httpx

{imports}
logger = logging.getLogger(__name__)
mcp = FastMCP("notes")


@mcp.tool()
def get_note(note_id: str) -> str:
    \"\"\"Get a note.\"\"\"
    try:
        return httpx.get(f"https://notes.invalid/n/{{note_id}}").text
    except Exception as e:
        return f"Error getting note: {{e}}"
"""

FIXED_CLAUSE = '    except Exception as e:\n        logger.exception("Error getting note")\n        raise ToolError("Error getting note") from e\n'


def _project(root: Path, requirements: str, imports: str) -> str:
    write(root / "pyproject.toml", f'[project]\nname = "notes"\ndependencies = [{requirements}, "httpx"]\n')
    write(root / "notes/__init__.py", "")
    server = SERVER.format(imports=imports)
    write(root / "notes/server.py", server)
    return server


def _fixed(root: Path, server: str, tool_error_import: str) -> None:
    run("--fix", "--unsafe-fixes")
    assert (root / "notes/server.py").read_text() == server.replace(
        '    except Exception as e:\n        return f"Error getting note: {e}"\n', FIXED_CLAUSE
    ).replace("import httpx\n", f"import httpx\n{tool_error_import}\n")


@pytest.mark.parametrize(
    ("requirements", "imports", "framework", "tool_error"),
    [
        ('"mcp>=1.20,<2"', FASTMCP_FIRST, "mcp 1.x FastMCP", "from mcp.server.fastmcp.exceptions import ToolError"),
        ('"fastmcp>=2.13,<3"', MCP_FIRST, "fastmcp 2.x", "from fastmcp.exceptions import ToolError"),
        ('"mcp>=1.20,<2"', MCP2_FIRST, "mcp 1.x FastMCP", "from mcp.server.fastmcp.exceptions import ToolError"),
    ],
)
def test_the_fallback_the_requirements_declare_decides_the_framework(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, requirements: str, imports: str, framework: str, tool_error: str
) -> None:
    monkeypatch.chdir(tmp_path)
    server = _project(tmp_path, requirements, imports)
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert f"note: on {framework} (from pyproject.toml) the wire says isError: false" in listed.output, listed.output
    _fixed(tmp_path, server, tool_error)


def test_with_both_frameworks_declared_the_try_import_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    server = _project(tmp_path, '"mcp>=1.20,<2", "fastmcp>=2.13,<3"', FASTMCP_FIRST)
    _fixed(tmp_path, server, "from fastmcp.exceptions import ToolError")


def test_a_fallback_import_of_tool_error_is_used_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The module already binds ToolError to the declared framework's class in its fallback.
    monkeypatch.chdir(tmp_path)
    imports = (
        "try:\n    from fastmcp import FastMCP\n    from fastmcp.exceptions import ToolError\n"
        "except ImportError:\n    from mcp.server.fastmcp import FastMCP\n    from mcp.server.fastmcp.exceptions import ToolError\n"
    )
    server = _project(tmp_path, '"mcp>=1.20,<2"', imports)
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "notes/server.py").read_text() == server.replace(
        '    except Exception as e:\n        return f"Error getting note: {e}"\n', FIXED_CLAUSE
    )
