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
    # A path-resolving helper whose default folder comes from a lazy accessor that only makes
    # it: the accessor adds no change, so the helper is set-up for the path its caller passes.
    case(
        "path-resolving-helper-with-a-lazy-default-folder-then-a-check-then-a-write",
        """\
        _default_dir: Path | None = None

        def _output_dir() -> Path:
            global _default_dir
            if _default_dir is None:
                folder = ROOT / "renders"
                folder.mkdir(parents=True, exist_ok=True)
                _default_dir = folder
            return _default_dir

        def _resolve_output(path: str | None) -> Path:
            if path:
                target = Path(path).resolve()
                target.parent.mkdir(parents=True, exist_ok=True)  # expect: MCP004
                return target
            return _output_dir() / "render.png"

        @mcp.tool()
        def render(note_id: str, out: str, scale: int) -> str:
            target = _resolve_output(out or None)
            if not 1 <= scale <= 4:
                raise ToolError("scale must be 1..4")
            NOTES[note_id]["render"] = str(target)
            return str(target)
        """,
    ),
    # A path-resolving helper whose default folder comes from a lazy accessor that only makes
    # it: the accessor adds no change, so the helper is set-up for the path its caller passes.
    case(
        "path-resolving-helper-then-a-check-and-nothing-changed-after",
        """\
        _default_dir: Path | None = None

        def _output_dir() -> Path:
            global _default_dir
            if _default_dir is None:
                folder = ROOT / "renders"
                folder.mkdir(parents=True, exist_ok=True)
                _default_dir = folder
            return _default_dir

        def _resolve_output(path: str | None) -> Path:
            if path:
                target = Path(path).resolve()
                target.parent.mkdir(parents=True, exist_ok=True)
                return target
            return _output_dir() / "render.png"

        @mcp.tool()
        def render(note_id: str, out: str, scale: int) -> str:
            target = _resolve_output(out or None)
            if not 1 <= scale <= 4:
                raise ToolError("scale must be 1..4")
            return str(target)
        """,
    ),
    # A path-resolving helper whose default folder comes from a lazy accessor that only makes
    # it: the accessor adds no change, so the helper is set-up for the path its caller passes.
    case(
        "path-resolving-helper-then-a-look-at-what-it-resolved",
        """\
        _default_dir: Path | None = None

        def _output_dir() -> Path:
            global _default_dir
            if _default_dir is None:
                folder = ROOT / "renders"
                folder.mkdir(parents=True, exist_ok=True)
                _default_dir = folder
            return _default_dir

        def _resolve_output(path: str | None) -> Path:
            if path:
                target = Path(path).resolve()
                target.parent.mkdir(parents=True, exist_ok=True)
                return target
            return _output_dir() / "render.png"

        @mcp.tool()
        def render(note_id: str, out: str, scale: int) -> str:
            target = _resolve_output(out or None)
            if target.exists():
                raise ToolError("the output already exists")
            NOTES[note_id]["render"] = str(target)
            return str(target)
        """,
    ),
    # The path a set-up helper returns, handed to a library's method after the check: the
    # library writes there, so the helper's folder was made for a refused call.
    case(
        "prepared-path-handed-to-a-library-after-the-check",
        """\
        from sdk import Client, Logger

        client = Client()
        logger = Logger()

        def _resolve_output(path: str) -> Path:
            target = Path(path).resolve()
            target.parent.mkdir(parents=True, exist_ok=True)  # expect: MCP004
            return target

        @mcp.tool()
        def fetch(url: str, out: str, scale: int) -> str:
            target = _resolve_output(out)
            if not 1 <= scale <= 4:
                raise ToolError("scale must be 1..4")
            client.download(url, str(target))
            return str(target)
        """,
    ),
    # The path a set-up helper returns, handed to a library's method after the check: the
    # library writes there, so the helper's folder was made for a refused call.
    case(
        "prepared-path-only-named-in-a-log-line-after-the-check",
        """\
        from sdk import Client, Logger

        client = Client()
        logger = Logger()

        def _resolve_output(path: str) -> Path:
            target = Path(path).resolve()
            target.parent.mkdir(parents=True, exist_ok=True)
            return target

        @mcp.tool()
        def fetch(url: str, out: str, scale: int) -> str:
            target = _resolve_output(out)
            if not 1 <= scale <= 4:
                raise ToolError("scale must be 1..4")
            logger.info("would save %s", target)
            return str(target)
        """,
    ),
]


@pytest.mark.parametrize("body", CASES)
def test_preparation_policy(body: str) -> None:
    _mcp004(body)
