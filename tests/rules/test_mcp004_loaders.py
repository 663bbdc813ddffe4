"""MCP004 (issue 21, blind004f N1): a document loader handed the tool's own path argument
(`load_workbook(path)`, `Presentation(path)`, `PdfReader(path)`) is an implicit check: a file that
is no such document raises, and where no clause takes that failure and goes on, the call is
rejected after what came before it. A loader opens the file its path names: after a write to that
file it reads the write back (a copy loaded back too, though its content is the source's: open,
blind004f N13/N14). A loader of a file the call wrote, of the server's own file, or whose failure a clause takes and goes on from,
is no such check.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the exact
set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CASES = [
    case(
        "a-folder-made-then-a-workbook-argument-loaded-then-files-written",
        """\
        from openpyxl import load_workbook


        @mcp.tool()
        def export_sheets(workbook: str, out_dir: str) -> str:
            try:
                target = Path(out_dir)
                target.mkdir(parents=True, exist_ok=True)  # expect: MCP004
                wb = load_workbook(workbook, read_only=True)
                for ws in wb.worksheets:
                    (target / f"{ws.title}.csv").write_text(str(ws.max_row))
                return "exported"
            except Exception as exc:
                return f"Error: could not export: {exc}"
        """,
    ),
    case(
        "a-state-write-then-a-presentation-argument-loaded",
        """\
        from pptx import Presentation


        @mcp.tool()
        def register_deck(name: str, deck_path: str) -> str:
            NOTES[name] = {"deck": deck_path}  # expect: MCP004
            deck = Presentation(deck_path)
            return f"{len(deck.slides)} slides"
        """,
    ),
    case(
        "the-file-just-written-loaded-back-is-a-post-check",
        """\
        from openpyxl import load_workbook


        @mcp.tool()
        def save_book(target: str, payload: str) -> str:
            Path(target).write_bytes(payload.encode())
            wb = load_workbook(target)
            return wb.sheetnames[0]
        """,
    ),
    case(
        "the-servers-own-workbook-loaded-is-no-check-of-the-arguments",
        """\
        from openpyxl import load_workbook

        TEMPLATE = "/srv/template.xlsx"


        @mcp.tool()
        def remember(name: str, text: str) -> str:
            NOTES[name] = {"text": text}
            wb = load_workbook(TEMPLATE)
            return wb.sheetnames[0]
        """,
    ),
    case(
        "a-loader-failure-taken-and-gone-on-from",
        """\
        from openpyxl import load_workbook


        @mcp.tool()
        def remember(name: str, book: str) -> str:
            NOTES[name] = {"book": book}
            try:
                wb = load_workbook(book)
            except Exception:
                wb = None
            return "remembered" if wb is None else wb.sheetnames[0]
        """,
    ),
]


@pytest.mark.parametrize("body", CASES)
def test_document_loaders(body: str) -> None:
    _mcp004(body)
