"""MCP004 (issue 21, blind004h's rule errors, bench/blind004h/CAUSES.md): a validator whose raise
sits in a function nested in it (`def walk(v): ... raise`, then `walk(plan)`) rejects bad arguments
as one with the raise in its own body; a write after a loop does not hide the loop-carried order
of the loop's own write and the next turn's validator; a folder made in the loop for the file
written there is reported at the write, not beside it; a clause around a write whose body after
it only calls a method of the object with no value reports the write's own failure; a local
that starts as `None` and is then a scratch path stays scratch.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the exact
set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CAUSES = [
    # -- a validator's raise in a function nested in it -----------------------------------------
    case(
        "validator-with-its-raise-in-a-nested-function-after-a-write",
        """\
        def _check_spec(spec: dict) -> None:
            def walk(value: object) -> None:
                if isinstance(value, str):
                    if "{{" in value:
                        raise ValueError("template syntax is not allowed")
                    return
                if isinstance(value, dict):
                    for item in value.values():
                        walk(item)

            walk(spec)


        @mcp.tool()
        def render(out: str, spec: dict, text: str) -> str:
            (Path(out) / "notes.txt").write_text(text)  # expect: MCP004
            _check_spec(spec)
            return "rendered"
        """,
    ),
    case(
        "nested-function-that-checks-module-data-not-the-arguments",
        """\
        DEFAULTS = {"title": "x"}


        def _check_defaults(spec: dict) -> None:
            def walk(value: object) -> None:
                if isinstance(value, str) and "{{" in value:
                    raise ValueError("template syntax is not allowed")

            walk(DEFAULTS)


        @mcp.tool()
        def render(out: str, spec: dict, text: str) -> str:
            (Path(out) / "notes.txt").write_text(text)
            _check_defaults(spec)
            return "rendered"
        """,
    ),
    case(
        "nested-validator-defined-but-never-called",
        """\
        def _check_spec(spec: dict) -> dict:
            def walk(value: object) -> None:
                if isinstance(value, str) and "{{" in value:
                    raise ValueError("template syntax is not allowed")

            return dict(spec)


        @mcp.tool()
        def render(out: str, spec: dict, text: str) -> str:
            (Path(out) / "notes.txt").write_text(text)
            _check_spec(spec)
            return "rendered"
        """,
    ),
    # -- a write after the loop does not hide the loop-carried order --------------------------
    case(
        "loop-write-before-the-next-items-validator-with-a-write-after-the-loop",
        """\
        def _safe_path(rel: str, root: Path) -> Path:
            if ".." in rel.split("/"):
                raise ValueError(f"unsafe path {rel}")
            return root / rel


        @mcp.tool()
        def write_files(out: str, files: dict, readme: str) -> str:
            root = Path(out)
            for rel, content in files.items():
                dest = _safe_path(rel, root)
                dest.write_text(content)  # expect: MCP004
            (root / "README.md").write_text(readme)
            return "written"
        """,
    ),
    case(
        "loop-write-into-the-folder-the-next-items-validator-looks-at",
        """\
        def _fits(rel: str, root: Path) -> Path:
            if sum(1 for _ in root.iterdir()) > 100:
                raise ValueError("the folder is full")
            return root / rel


        @mcp.tool()
        def write_files(out: str, files: dict, readme: str) -> str:
            root = Path(out)
            for rel, content in files.items():
                _fits(rel, root)
                root.joinpath(rel).write_text(content)
            (root / "README.md").write_text(readme)
            return "written"
        """,
    ),
    # -- a folder made in the loop for the file written there -----------------------------------
    case(
        "folder-made-in-the-loop-reported-at-the-write-it-prepares",
        """\
        def _safe_path(rel: str, root: Path) -> Path:
            if ".." in rel.split("/"):
                raise ValueError(f"unsafe path {rel}")
            return root / rel


        def _check_title(title: str) -> None:
            if not title.strip():
                raise ValueError("title must not be empty")


        def write_tree(files: dict, title: str, root: Path) -> Path:
            for rel, content in files.items():
                dest = _safe_path(rel, root)
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_text(content)  # expect: MCP004
            _check_title(title)
            return root


        @mcp.tool()
        def generate(out: str, files: dict, title: str) -> str:
            return str(write_tree(files, title, Path(out)))
        """,
    ),
    # -- a clause around the write reports the write's own failure --------------------------------
    case(
        "clause-around-a-write-whose-body-after-it-only-refreshes-the-object",
        """\
        class ValidationError(Exception):
            pass


        class Store:
            def __init__(self) -> None:
                self.conn = sqlite3.connect("store.db")
                self.names: list[str] = []

            def _refresh(self) -> None:
                self.names = [r[0] for r in self.conn.execute("SELECT name FROM sqlite_master")]

            def rename(self, old: str, new: str) -> dict:
                try:
                    if new in self.names:
                        raise ValidationError(f"table {new} exists")
                    self.conn.execute(f"ALTER TABLE {old} RENAME TO {new}")
                    self.conn.commit()
                    self._refresh()
                    return {"success": True}
                except (ValidationError, sqlite3.Error) as e:
                    raise ToolError(f"rename failed: {e}")


        STORE = Store()


        @mcp.tool()
        def rename_table(old: str, new: str) -> dict:
            return STORE.rename(old, new)
        """,
    ),
    case(
        "clause-around-a-write-and-a-parse-of-an-argument-after-it",
        """\
        class ValidationError(Exception):
            pass


        class Store:
            def __init__(self) -> None:
                self.conn = sqlite3.connect("store.db")
                self.names: list[str] = []

            def _refresh(self) -> None:
                self.names = [r[0] for r in self.conn.execute("SELECT name FROM sqlite_master")]

            def rename(self, old: str, new: str, limit: str) -> dict:
                try:
                    self.conn.execute(f"ALTER TABLE {old} RENAME TO {new}")  # expect: MCP004
                    self.conn.commit()
                    count = int(limit)
                    self._refresh()
                    return {"success": True, "count": count}
                except (ValidationError, sqlite3.Error) as e:
                    raise ToolError(f"rename failed: {e}")


        STORE = Store()


        @mcp.tool()
        def rename_table(old: str, new: str, limit: str) -> dict:
            return STORE.rename(old, new, limit)
        """,
    ),
    # -- a scratch path first set to None -------------------------------------------------------
    case(
        "scratch-file-removed-where-its-local-starts-as-none",
        """\
        import tempfile


        @mcp.tool()
        def convert(path: str, video: bool, fmt: str) -> str:
            audio = None
            if video:
                audio = os.path.join(tempfile.gettempdir(), "audio.wav")
            if audio and os.path.exists(audio):
                os.remove(audio)
            if fmt not in ("wav", "mp3"):
                raise ToolError(f"unsupported format {fmt}")
            return path
        """,
    ),
    case(
        "file-in-the-callers-folder-removed-where-its-local-starts-as-none",
        """\
        @mcp.tool()
        def convert(path: str, video: bool, fmt: str) -> str:
            audio = None
            if video:
                audio = os.path.join(os.path.dirname(path), "audio.wav")
            if audio and os.path.exists(audio):
                os.remove(audio)  # expect: MCP004
            if fmt not in ("wav", "mp3"):
                raise ToolError(f"unsupported format {fmt}")
            return path
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)
