"""MCP004 preparation policy (issue 21): a directory made only when it is missing
(`if not os.path.exists(d): os.makedirs(d)`) is as idempotent as `makedirs(d, exist_ok=True)`:
it never counts alone, only where the call goes on past the check to write there.
Flagged and silent cases on made-up code (`# expect: MCP004` marks the rows).
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CASES = [
    case(
        "guarded-makedirs-alone-before-the-check",
        """\
        @mcp.tool()
        def export_note(note_id: str, out_dir: str, fmt: str) -> str:
            if not os.path.exists(out_dir):
                os.makedirs(out_dir)
            if fmt not in ("md", "txt"):
                raise ToolError("fmt must be md or txt")
            return "exported"
        """,
    ),
    case(
        "guarded-mkdir-then-the-check-then-the-write-it-prepared",
        """\
        @mcp.tool()
        def export_note(note_id: str, out_dir: str, fmt: str) -> str:
            folder = Path(out_dir)
            if not folder.is_dir():
                folder.mkdir()  # expect: MCP004
            if fmt not in ("md", "txt"):
                raise ToolError("fmt must be md or txt")
            (folder / f"{note_id}.{fmt}").write_text(NOTES[note_id]["text"])
            return "exported"
        """,
    ),
    case(
        "unguarded-makedirs-before-the-check-is-a-change",
        """\
        @mcp.tool()
        def export_note(note_id: str, out_dir: str, fmt: str) -> str:
            os.makedirs(out_dir)  # expect: MCP004
            if fmt not in ("md", "txt"):
                raise ToolError("fmt must be md or txt")
            return "exported"
        """,
    ),
    case(
        "makedirs-of-another-path-than-the-one-looked-at",
        """\
        @mcp.tool()
        def export_note(note_id: str, out_dir: str, backup_dir: str, fmt: str) -> str:
            if not os.path.exists(out_dir):
                os.makedirs(backup_dir)  # expect: MCP004
            if fmt not in ("md", "txt"):
                raise ToolError("fmt must be md or txt")
            return "exported"
        """,
    ),
]


@pytest.mark.parametrize("body", CASES)
def test_preparation_policy(body: str) -> None:
    _mcp004(body)
