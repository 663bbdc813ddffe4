"""lint_source lints an in-memory module: the pyproject.toml of the working directory is not its project."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mcp_lint.pipeline import lint_source
from rules._support import said

SERVER = textwrap.dedent(
    """\
    from mcp.server.fastmcp import FastMCP
    from mcp.shared.exceptions import McpError
    from mcp.types import INVALID_PARAMS, ErrorData

    mcp = FastMCP("notes")


    @mcp.tool()
    def read_note(note_id: int) -> str:
        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"Note {note_id} not found"))
    """
)


def test_the_working_directory_pyproject_does_not_pin_an_in_memory_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A checkout whose own package has an optional extra on mcp (as mcp-lint's [probe] does).
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "tool"\nversion = "1"\n[project.optional-dependencies]\nprobe = ["mcp>=1.9"]\n')
    monkeypatch.chdir(tmp_path)
    (finding,) = lint_source(SERVER, filename="server.py")
    assert "from pyproject.toml" not in said(finding)
    assert finding.message == "Tool 'read_note' raises McpError for a missing record"
    assert finding.notes[0].startswith("on mcp 1.x FastMCP it is not a protocol error at all")


def test_target_still_pins_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (finding,) = lint_source(SERVER, filename="server.py", target="mcp>=1.9,<2")
    assert "[tool.mcp-lint] target" in said(finding)
