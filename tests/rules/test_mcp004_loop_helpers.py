"""MCP004 (issue 21, loop-carried order): a helper's write late in a loop body runs before the next
item's check at the top of the body, as a direct write does. A helper called after the last check
of the function was never tried, even where a loop runs that check again for the next item.
And an `assert` that a clause around it takes per item (an error entry, then the next item) is no
rejection of the call, as a `raise` there already was not.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the exact
set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from ._support import lint_tree, write_tree
from .test_mcp004_causes import _mcp004, case

CAUSES = [
    case(
        "helper-write-late-in-a-loop-before-the-next-items-check",
        """\
        def _save_sheet(folder: str, name: str, rows: list) -> None:
            (Path(folder) / f"{name}.csv").write_text("\\n".join(map(str, rows)))  # expect: MCP004


        @mcp.tool()
        def write_sheets(folder: str, sheets: dict) -> str:
            for name, rows in sheets.items():
                if not isinstance(rows, list):
                    raise ToolError(f"rows of {name} must be a list")
                _save_sheet(folder, name, rows)
            return "written"
        """,
    ),
    case(
        "helper-write-in-a-loop-after-a-check-made-once-before-it",
        """\
        def _save_sheet(folder: str, name: str, rows: list) -> None:
            (Path(folder) / f"{name}.csv").write_text("\\n".join(map(str, rows)))


        @mcp.tool()
        def write_sheets(folder: str, sheets: dict) -> str:
            if not all(isinstance(rows, list) for rows in sheets.values()):
                raise ToolError("every sheet's rows must be a list")
            for name, rows in sheets.items():
                _save_sheet(folder, name, rows)
            return "written"
        """,
    ),
    case(
        "helper-write-that-ends-the-loop",
        """\
        def _save_sheet(folder: str, name: str, rows: list) -> None:
            (Path(folder) / f"{name}.csv").write_text("\\n".join(map(str, rows)))


        @mcp.tool()
        def write_first_sheet(folder: str, sheets: dict) -> str:
            for name, rows in sheets.items():
                if not isinstance(rows, list):
                    raise ToolError(f"rows of {name} must be a list")
                _save_sheet(folder, name, rows)
                return f"wrote {name}"
            return "nothing to write"
        """,
    ),
    # -- an assert a clause around it takes per item is no rejection of the call ----------------
    case(
        "assert-caught-per-item-after-the-previous-items-write",
        """\
        def _save_sheet(folder: str, name: str, rows: list) -> None:
            (Path(folder) / f"{name}.csv").write_text("\\n".join(map(str, rows)))


        @mcp.tool()
        def write_sheets(folder: str, sheets: dict) -> dict:
            errors = []
            for name, rows in sheets.items():
                try:
                    assert isinstance(rows, list), f"rows of {name} must be a list"
                    _save_sheet(folder, name, rows)
                except Exception as e:
                    errors.append(f"{name}: {e}")
                    continue
            return {"errors": errors}
        """,
    ),
    case(
        "assert-caught-and-turned-into-a-tool-error",
        """\
        def _save_sheet(folder: str, name: str, rows: list) -> None:
            (Path(folder) / f"{name}.csv").write_text("\\n".join(map(str, rows)))  # expect: MCP004


        @mcp.tool()
        def write_sheets(folder: str, sheets: dict) -> str:
            for name, rows in sheets.items():
                try:
                    assert isinstance(rows, list), f"rows of {name} must be a list"
                    _save_sheet(folder, name, rows)
                except AssertionError as e:
                    raise ToolError(str(e)) from e
            return "written"
        """,
    ),
    case(
        "assert-after-a-direct-write-caught-per-item",
        """\
        @mcp.tool()
        def tag_all(ids: list[str], tag: str) -> dict:
            errors = []
            for note_id in ids:
                try:
                    NOTES[note_id]["tag"] = tag
                    assert tag.isidentifier(), "tag must be one word"
                except Exception as e:
                    errors.append({"id": note_id, "error": str(e)})
            return {"errors": errors}
        """,
    ),
    case(
        "assert-after-a-direct-write-not-caught",
        """\
        @mcp.tool()
        def tag_all(ids: list[str], tag: str) -> dict:
            for note_id in ids:
                NOTES[note_id]["tag"] = tag  # expect: MCP004
                assert tag.isidentifier(), "tag must be one word"
            return {"tagged": len(ids)}
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)


SHEETS = """\
import json
from pathlib import Path


def add_sheet(path: str, name: str, rows: list) -> None:
    Path(path, f"{name}.json").write_text(json.dumps(rows))
"""


def test_other_modules_helper_in_the_loop_is_reported_at_its_write(tmp_path) -> None:
    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/sheets.py": SHEETS,
            "app/server.py": """\
from mcp.server.fastmcp import FastMCP

from app.sheets import add_sheet

mcp = FastMCP("sheets")


@mcp.tool()
def write_sheets(path: str, data: dict) -> str:
    for name, rows in data.items():
        if not isinstance(rows, list):
            raise ValueError(f"rows of {name} must be a list")
        add_sheet(path, name, rows)
    return "written"
""",
        },
    )
    found = [(f.filename.rsplit("/", 1)[-1], f.location.row, f.message) for f in lint_tree(tmp_path) if f.code == "MCP004"]
    assert found == [("sheets.py", 6, "Helper 'add_sheet' changes files (write_text) here; tool 'write_sheets' then rejects the call at line 11")]
