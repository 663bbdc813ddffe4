"""MCP004: the causes of false alarms and misses found on bench/blind004c (see its CAUSES.md),
each with a case that must be flagged and one that must not, on made-up code.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the
exact set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CAUSES = [
    # -- a document built on either of two branches, and a sheet taken from one, are in memory ----
    case(
        "document-on-two-branches-saved-before-a-check",
        """\
        from slidelib import Presentation, load_presentation

        @mcp.tool()
        def new_deck(out: str, title: str, template: str = "") -> str:
            if template:
                deck = load_presentation(template)
            else:
                deck = Presentation()
            deck.slides.add_slide(title)
            deck.save(out)  # expect: MCP004
            if len(title) > 80:
                raise ToolError("title is longer than 80 characters")
            return out
        """,
    ),
    case(
        "document-on-two-branches-edited-before-a-check",
        """\
        from slidelib import Presentation, load_presentation

        @mcp.tool()
        def new_deck(out: str, title: str, template: str = "") -> str:
            if template:
                deck = load_presentation(template)
            else:
                deck = Presentation()
            deck.slides.add_slide(title)
            if len(title) > 80:
                raise ToolError("title is longer than 80 characters")
            deck.save(out)
            return out
        """,
    ),
    case(
        "cell-written-into-a-sheet-of-a-new-workbook",
        """\
        from sheetmaker import Workbook

        @mcp.tool()
        def table(out: str, rows: list[list[str]], sheet: str) -> str:
            book = Workbook(out)
            page = book.add_worksheet(sheet)
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    page.write(r, c, value)
            if len(sheet) > 31:
                raise ToolError("a sheet name holds at most 31 characters")
            book.close()
            return out
        """,
    ),
    # -- a document saved to a path changed that file: looking at it after is a read-back --------
    case(
        "saved-file-looked-at-after-the-save",
        """\
        from slidelib import Presentation

        @mcp.tool()
        def export(out: str, title: str) -> str:
            deck = Presentation()
            deck.slides.add_slide(title)
            deck.save(out)
            if not os.path.exists(out) or os.path.getsize(out) == 0:
                raise ToolError(f"nothing was written to {out}; check that its folder is writable")
            return out
        """,
    ),
    case(
        "saved-file-then-a-check-of-another-argument",
        """\
        from slidelib import Presentation

        @mcp.tool()
        def export(out: str, title: str) -> str:
            deck = Presentation()
            deck.slides.add_slide(title)
            deck.save(out)  # expect: MCP004
            if not os.path.exists(title):
                raise ToolError(f"no notes file {title}")
            return out
        """,
    ),
    # -- the call's scratch: paths under a temporary directory, a helper's temp file, mkstemp -----
    case(
        "write-under-a-directory-that-is-no-scratch",
        """\
        def make_output_dir() -> str:
            return "/srv/out"

        @mcp.tool()
        def render(name: str, svg: str) -> str:
            out = make_output_dir()
            target = os.path.join(out, name + ".svg")
            with open(target, "w") as handle:  # expect: MCP004
                handle.write(svg)
            if not svg.lstrip().startswith("<svg"):
                raise ToolError("svg must start with <svg")
            return target
        """,
    ),
    case(
        "writes-under-the-calls-temporary-directory",
        """\
        import tempfile
        from xml.etree import ElementTree

        def make_temp_dir() -> str:
            return tempfile.mkdtemp()

        @mcp.tool()
        def render(name: str, svg: str) -> str:
            work = make_temp_dir()
            source = os.path.join(work, "in.svg")
            with open(source, "w") as handle:
                handle.write(svg)
            tree = ElementTree.parse(source)
            tree.write(Path(work) / "out.svg")
            if not svg.lstrip().startswith("<svg"):
                raise ToolError("svg must start with <svg")
            return name
        """,
    ),
    case(
        "document-saved-to-a-path-from-mkstemp",
        """\
        import tempfile
        from slidelib import Presentation

        @mcp.tool()
        def export(out: str, title: str) -> str:
            deck = Presentation()
            deck.slides.add_slide(title)
            handle, staging = tempfile.mkstemp(suffix=".pptx")
            os.close(handle)
            deck.save(staging)
            if len(title) > 80:
                raise ToolError("title is longer than 80 characters")
            os.replace(staging, out)
            return out
        """,
    ),
    case(
        "a-helpers-temp-file-written",
        """\
        class Renderer:
            def _tmpfile(self, suffix: str) -> Path:
                return Path("/tmp") / f"render{suffix}"

            def render(self, svg: str, command: str) -> Path:
                source = self._tmpfile(".svg")
                source.write_bytes(svg.encode())
                if "\\n" in command:
                    raise ToolError("command must be one line")
                return source

        RENDERER = Renderer()

        @mcp.tool()
        def render(svg: str, command: str) -> str:
            return str(RENDERER.render(svg, command))
        """,
    ),
    # -- module state a helper of this module changed, read back after its call -------------------
    case(
        "module-state-a-helper-purged-read-by-the-check",
        """\
        import time
        GRANTS: dict[str, float] = {}

        def purge_expired() -> None:
            for key in [k for k, until in GRANTS.items() if until < time.time()]:
                GRANTS.pop(key, None)

        @mcp.tool()
        def use_grant(grant: str) -> str:
            purge_expired()
            until = GRANTS.get(grant)
            if until is None:
                raise ToolError("the grant is unknown or expired; ask for a new one")
            return "granted"
        """,
    ),
    case(
        "module-state-a-helper-changed-then-an-argument-check",
        """\
        import time
        GRANTS: dict[str, float] = {}

        def purge_expired() -> None:
            for key in [k for k, until in GRANTS.items() if until < time.time()]:
                GRANTS.pop(key, None)  # expect: MCP004

        @mcp.tool()
        def use_grant(grant: str) -> str:
            purge_expired()
            if len(grant) != 32:
                raise ToolError("a grant has 32 characters")
            return "granted"
        """,
    ),
    # -- a preparation for what a helper then writes ---------------------------------------------
    case(
        "directory-prepared-for-a-helpers-write-before-a-check",
        """\
        def save_page(out_dir: str, name: str, text: str) -> None:
            Path(out_dir, name).write_text(text)

        @mcp.tool()
        def publish(out_dir: str, pages: list[str]) -> str:
            os.makedirs(out_dir, exist_ok=True)  # expect: MCP004
            if not pages:
                return "Error: no pages to publish"
            for index, text in enumerate(pages):
                save_page(out_dir, f"{index}.md", text)
            return "published"
        """,
    ),
    case(
        "directory-prepared-for-a-helper-that-only-computes",
        """\
        def process_page(text: str) -> str:
            return text.strip()

        @mcp.tool()
        def publish(out_dir: str, pages: list[str]) -> str:
            os.makedirs(out_dir, exist_ok=True)
            if not pages:
                return "Error: no pages to publish"
            return "".join(process_page(text) for text in pages)
        """,
    ),
    # -- a check in the branch of a post-check runs only when the change failed -------------------
    case(
        "check-nested-in-the-branch-of-a-post-check",
        """\
        @mcp.tool()
        async def create(text: str, files: list[str]) -> str:
            async with httpx.AsyncClient() as client:
                reply = (await client.post("https://notes.example.com/notes", json={"text": text})).json()
            if "error" in reply:
                if files:
                    return f"Error: the note was not created; {len(files)} files were uploaded for it"
                return f"Error: the note was not created: {reply['error']}"
            return reply["id"]
        """,
    ),
    case(
        "check-after-the-branch-of-a-post-check",
        """\
        @mcp.tool()
        async def create(text: str, files: list[str]) -> str:
            async with httpx.AsyncClient() as client:
                reply = (await client.post("https://notes.example.com/notes", json={"text": text})).json()  # expect: MCP004
            if "error" in reply:
                return f"Error: the note was not created: {reply['error']}"
            if len(files) > 10:
                return "Error: at most 10 files per note"
            return reply["id"]
        """,
    ),
    # -- a worker waited for, and a method that returns a changed copy ----------------------------
    case(
        "worker-started-and-left-running",
        """\
        import threading

        @mcp.tool()
        def serve(port: int) -> str:
            worker = threading.Thread(target=print, args=(port,), daemon=True)
            worker.start()  # expect: MCP004
            if port < 1024:
                raise ToolError("port must be 1024 or above")
            return "serving"
        """,
    ),
    case(
        "worker-started-and-joined",
        """\
        import threading

        @mcp.tool()
        def relay(port: int) -> str:
            worker = threading.Thread(target=print, args=(port,), daemon=True)
            worker.start()
            worker.join()
            if port < 1024:
                raise ToolError("port must be 1024 or above")
            return "relayed"
        """,
    ),
    case(
        "drop-on-a-store-handle-kept-as-is",
        """\
        TABLES = {}

        @mcp.tool()
        def reset(name: str) -> str:
            TABLES[name].drop_rows()  # expect: MCP004
            if not name.isidentifier():
                raise ToolError("name must be an identifier")
            return "reset"
        """,
    ),
    case(
        "method-returning-a-changed-copy-assigned-back",
        """\
        from framelib import read_frame

        @mcp.tool()
        def unique(path: str, limit: int) -> str:
            frame = read_frame(path)
            frame = frame.drop_duplicates()
            if limit <= 0:
                raise ToolError("limit must be positive")
            return str(frame)
        """,
    ),
    # -- in a helper, an item of a parameter is no check: the next check is --------------------
    case(
        "helper-item-read-then-a-check-after-the-preparation",
        """\
        def write_table(params: dict) -> str:
            out = params["path"]
            os.makedirs(os.path.dirname(out), exist_ok=True)  # expect: MCP004
            rows = params["rows"]
            if not out.endswith(".csv"):
                raise ValueError("the path must end with .csv")
            with open(out, "w") as handle:
                handle.write(str(rows))
            return out

        @mcp.tool()
        def table(path: str, rows: list) -> str:
            return write_table({"path": path, "rows": rows})
        """,
    ),
    case(
        "helper-item-read-and-no-other-check",
        """\
        def write_table(params: dict) -> str:
            out = params["path"]
            os.makedirs(os.path.dirname(out), exist_ok=True)
            rows = params["rows"]
            with open(out, "w") as handle:
                handle.write(str(rows))
            return out

        @mcp.tool()
        def table(path: str, rows: list) -> str:
            return write_table({"path": path, "rows": rows})
        """,
    ),
    # -- a preparation and the helper that writes what it prepared, before one check ------------------
    case(
        "helpers-write-after-a-preparation-is-the-finding",
        """\
        def create_book(path: str) -> None:
            Path(path).write_text("")  # expect: MCP004

        @mcp.tool()
        def fill(path: str, sheets: dict) -> str:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            if not Path(path).exists():
                create_book(path)
            for name, rows in sheets.items():
                if not rows:
                    raise ToolError(f"sheet {name} has no rows")
            return path
        """,
    ),
    case(
        "preparation-before-a-helper-that-reads-is-the-finding",
        """\
        def count_books(path: str) -> int:
            return len(os.listdir(path))

        def create_book(path: str) -> None:
            Path(path).write_text("")

        @mcp.tool()
        def fill(path: str, sheets: dict) -> str:
            Path(path).parent.mkdir(parents=True, exist_ok=True)  # expect: MCP004
            known = count_books(path)
            for name, rows in sheets.items():
                if not rows:
                    raise ToolError(f"sheet {name} has no rows")
            create_book(path)
            return str(known)
        """,
    ),
    # -- a preparation counts only where the call goes on, after the check, to change something ----
    case(
        "preparation-then-a-check-then-the-write",
        """\
        @mcp.tool()
        def export(folder: str, pattern: str, notes: list[str]) -> str:
            target = ROOT / folder
            target.mkdir(parents=True, exist_ok=True)  # expect: MCP004
            if pattern not in ("date", "id"):
                raise ToolError("pattern must be date or id")
            for index, text in enumerate(notes):
                (target / f"{index}.md").write_text(text)
            return str(target)
        """,
    ),
    case(
        "preparation-then-writes-in-branches-and-the-rejection-last",
        """\
        @mcp.tool()
        def export(folder: str, pattern: str, notes: list[str]) -> str:
            target = ROOT / folder
            target.mkdir(parents=True, exist_ok=True)
            if pattern == "date":
                (target / "all.md").write_text("\\n".join(notes))
                return str(target)
            elif pattern == "id":
                for index, text in enumerate(notes):
                    (target / f"{index}.md").write_text(text)
                return str(target)
            else:
                raise ToolError("pattern must be date or id")
        """,
    ),
    # -- `x.set(key, value)` is a key-value write only on a kept client or a store's name -----------
    case(
        "set-on-a-client-the-object-keeps",
        """\
        class Sessions:
            def __init__(self, kv) -> None:
                self.kv = kv

            def remember(self, key: str, value: str) -> str:
                self.kv.set(key, value)  # expect: MCP004
                if len(key) > 64:
                    raise ToolError("key must be at most 64 characters")
                return "remembered"

        SESSIONS = Sessions(None)

        @mcp.tool()
        def remember(key: str, value: str) -> str:
            return SESSIONS.remember(key, value)
        """,
    ),
    case(
        "set-on-an-element-handed-in-is-no-store-write",
        """\
        def _label(node, spec: dict) -> None:
            node.set("id", spec["id"])
            if spec.get("anchor", "start") not in ("start", "end"):
                raise ToolError("anchor must be start or end")

        @mcp.tool()
        def label(spec: dict) -> str:
            node = {"kind": "text"}
            _label(node, spec)
            return "labelled"
        """,
    ),
    case(
        "set-on-a-local-value-is-no-store-write",
        """\
        from querylib import compile_query

        @mcp.tool()
        def limit_query(query: str, limit: int) -> dict:
            shaped = compile_query(query)
            shaped.set("limit", limit)
            if limit <= 0:
                raise ToolError("limit must be positive")
            return shaped
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)
