"""MCP004: causes read on the spent set bench/blind004f (bench/blind004f/CAUSES.md), each with a
case that must be flagged and one that must not. Generic fixtures in the project's style.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the exact
set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CAUSES = [
    # -- in-memory sinks and document parts (CAUSES.md F1-F5) -----------------------------------
    case(
        "drawing-on-a-canvas-built-on-a-memory-buffer-is-no-change",
        """\
        import io
        from reportlab.pdfgen import canvas

        @mcp.tool()
        def stamp(text: str, out: str) -> str:
            buffer = io.BytesIO()
            c = canvas.Canvas(buffer)
            c.setFont("Helvetica", 9)
            c.drawString(10, 10, text)
            c.save()
            if len(text) > 80:
                raise ToolError("text is longer than 80 characters")
            Path(out).write_bytes(buffer.getvalue())  # the change, after the check
            return out
        """,
    ),
    case(
        "drawing-on-a-canvas-built-on-a-file-path-is-a-change",
        """\
        from reportlab.pdfgen import canvas

        @mcp.tool()
        def stamp(text: str, out: str) -> str:
            c = canvas.Canvas(out)
            c.drawString(10, 10, text)
            c.save()  # expect: MCP004
            if len(text) > 80:
                raise ToolError("text is longer than 80 characters")
            return out
        """,
    ),
    case(
        "a-writer-writing-into-a-memory-buffer-is-no-change",
        """\
        import io
        from pypdf import PdfReader, PdfWriter

        @mcp.tool()
        def overlay(src: str, out: str, stamp_path: str) -> str:
            reader = PdfReader(src)
            stamp = PdfReader(stamp_path)
            writer = PdfWriter()
            for index, page in enumerate(reader.pages):
                page.merge_page(stamp.pages[0])
                writer.add_page(page)
            output = io.BytesIO()
            writer.write(output)
            if not out.endswith(".pdf"):
                raise ToolError("out must end with .pdf")
            Path(out).write_bytes(output.getvalue())
            return out
        """,
    ),
    case(
        "a-writer-writing-to-the-output-path-is-a-change",
        """\
        from pypdf import PdfReader, PdfWriter

        @mcp.tool()
        def overlay(src: str, out: str) -> str:
            reader = PdfReader(src)
            writer = PdfWriter()
            for page in reader.pages:
                writer.add_page(page)
            writer.write(out)  # expect: MCP004
            if not out.endswith(".pdf"):
                raise ToolError("out must end with .pdf")
            return out
        """,
    ),
]


READ_BACKS = [
    # -- the output of a command a helper ran, looked for by a path the call holds (CAUSES.md F8) --
    case(
        "looking-for-the-output-of-a-command-a-helper-ran-is-a-read-back",
        """\
        def _run(cmd: list[str]) -> dict:
            proc = subprocess.run(cmd)
            return {"ok": proc.returncode == 0}


        def _run_tool(cmd: list[str], output_path: str) -> dict:
            result = _run(cmd)
            if not result["ok"]:
                return {"success": False, "error": "the command failed"}
            if not Path(output_path).exists():
                return {"success": False, "error": f"no output was written to {output_path}"}
            return {"success": True, "output_path": output_path}


        @mcp.tool()
        def shrink(src: str, out: str) -> dict:
            return _run_tool(["shrink", src, "-o", out], out)
        """,
    ),
    case(
        "looking-at-an-input-after-a-helper-ran-a-command-spelled-out-here-is-a-check",
        """\
        def _run(cmd: list[str]) -> None:
            subprocess.run(cmd, check=True)


        @mcp.tool()
        def shrink(src: str, out: str, profile: str) -> str:
            _run(["shrink", src, "-o", out])  # expect: MCP004 (the helper runs what the call names)
            if not Path(profile).exists():
                raise ToolError(f"no profile file at {profile}")
            return out
        """,
    ),
]


@pytest.mark.parametrize("body", READ_BACKS)
def test_read_back(body: str) -> None:
    _mcp004(body)


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)


LOOPS = [
    # A direct check at the top of the body rejects the next item handed in after this item's write.
    case(
        "a-check-of-the-next-item-of-a-list-handed-in-is-loop-order",
        """\
        @mcp.tool()
        def save_all(names: list[str], text: str) -> str:
            for name in names:
                if not name.isidentifier():
                    raise ToolError(f"{name!r} is not a valid name")
                (ROOT / f"{name}.md").write_text(text)  # expect: MCP004
            return "saved"
        """,
    ),
    # -- a helper called per item: not reported (loop order through a helper was taken out) -----
    case(
        "a-helper-called-per-file-the-call-lists-itself-is-no-loop-order-case",
        """\
        def _convert_one(path: Path, out: Path) -> None:
            if path.suffix not in (".png", ".jpg"):
                raise ToolError(f"{path.name} is not an image")
            subprocess.run(["convert", str(path), str(out / path.name)], check=True)


        @mcp.tool()
        def convert_folder(folder: str, out: str) -> str:
            for path in sorted(Path(folder).iterdir()):
                _convert_one(path, Path(out))
            return "done"
        """,
    ),
    case(
        "a-helper-whose-check-asks-the-file-system-is-no-loop-order-case",
        """\
        def _write_one(folder: Path, item: dict) -> None:
            target = folder / f"{item['name']}.json"
            if target.exists():
                raise ToolError(f"{target.name} exists")
            target.write_text(str(item))


        @mcp.tool()
        def write_items(folder: str, items: list[dict]) -> str:
            for item in items:
                _write_one(Path(folder), item)
            return "written"
        """,
    ),
]


@pytest.mark.parametrize("body", LOOPS)
def test_loop(body: str) -> None:
    _mcp004(body)
