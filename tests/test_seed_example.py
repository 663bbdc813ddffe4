"""The worked example through the real CLI: one finding per defect, and silence for its fixed twin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# (tool, code, row) of the defects the tools of examples/notes_server/server.py carry: one each,
# and two on the return of import_note (`return f"Error: {e}"`: a failure returned as a success,
# MCP005, whose text is the raw exception's, MCP002).
DEFECTS = [
    # The server's own: on mcp 1.x the text of a database failure no tool catches (the SQL, the
    # file) reaches the model; reported at the constructor, naming the tools.
    ("", "MCP007", 11),
    ("read_note", "MCP001", 22),
    ("import_note", "MCP005", 34),
    ("import_note", "MCP002", 34),
    ("archive_notes", "MCP003", 44),
    ("rename_note", "MCP004", 51),  # reported at the mutation (LABELING.md: line of M)
    ("delete_note", "MCP005", 63),
]


def _check(directory: str) -> tuple[int, list[dict]]:
    completed = subprocess.run(
        [sys.executable, "-m", "mcp_lint", "check", directory, "--output-format", "json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.stderr == ""
    return completed.returncode, json.loads(completed.stdout)


@pytest.fixture(scope="module")
def seed() -> tuple[int, list[dict]]:
    return _check("examples/notes_server")


def test_seed_gets_exactly_one_finding_per_defect(seed: tuple[int, list[dict]]) -> None:
    code, findings = seed
    assert code == 1
    assert [(f["code"], f["location"]["row"]) for f in findings] == [(c, r) for _, c, r in DEFECTS]
    assert {Path(f["filename"]).resolve() for f in findings} == {REPO / "examples" / "notes_server" / "server.py"}


@pytest.mark.parametrize(("tool", "code", "row"), DEFECTS, ids=[f"{d[1]}-{d[2]}" for d in DEFECTS])
def test_each_finding_names_its_tool(seed: tuple[int, list[dict]], tool: str, code: str, row: int) -> None:
    (finding,) = [f for f in seed[1] if f["code"] == code and f["location"]["row"] == row]
    assert finding["message"].startswith(f"Tool '{tool}' " if tool else "Server 'mcp' ")
    assert finding["url"].endswith(f"/{code}.md")


def test_version_dependent_findings_name_the_pin(seed: tuple[int, list[dict]]) -> None:
    # mcp>=1.9,<2 in the example's pyproject.toml is what makes McpError "not a protocol error".
    (mcp001,) = [f for f in seed[1] if f["code"] == "MCP001"]
    assert mcp001["notes"][0].startswith("on mcp 1.x FastMCP (from examples/notes_server/pyproject.toml) it is not a protocol error at all")


def test_fixed_twin_is_silent() -> None:
    assert _check("examples/notes_server_fixed") == (0, [])


def test_fixed_twin_keeps_the_same_tools_and_pins() -> None:
    seed_dir = REPO / "examples" / "notes_server"
    fixed_dir = REPO / "examples" / "notes_server_fixed"
    assert (fixed_dir / "pyproject.toml").read_text() == (seed_dir / "pyproject.toml").read_text()
    fixed = (fixed_dir / "server.py").read_text()
    for tool in {tool for tool, _, _ in DEFECTS if tool}:
        assert f"def {tool}(" in fixed
