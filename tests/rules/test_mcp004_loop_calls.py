"""MCP004 (issue 21, loop order through a helper): a tool calls a helper once per item of a loop,
and the helper checks the item before it writes. Reporting that (dc9a15f) was taken out: on the
held-out blind004g it raised 2 false alarms (by counts, still 2 after narrowing it to loops over
items handed in and to checks computing on the item), and it found none of the labeled loop-order
rows of the tuning sets. The shapes below stay silent; a direct check at the top of a loop body
(tests/rules/test_mcp004_blind004f.py) is still loop order.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the exact
set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CAUSES = [
    case(
        "helper-checks-only-what-every-turn-passes-the-same",
        """\
        def _save_item(folder: str, item: dict) -> None:
            if not folder:
                raise ToolError("folder is required")
            (Path(folder) / f"{item['name']}.json").write_text(json.dumps(item))


        @mcp.tool()
        def save_items(folder: str, items: list[dict]) -> str:
            for item in items:
                _save_item(folder, item)
            return f"saved {len(items)}"
        """,
    ),
    case(
        "helper-writes-before-its-check",
        """\
        def _save_item(folder: str, item: dict) -> None:
            (Path(folder) / f"{item['name']}.json").write_text(json.dumps(item))  # expect: MCP004
            if not item.get("name"):
                raise ToolError("every item needs a name")


        @mcp.tool()
        def save_items(folder: str, items: list[dict]) -> str:
            for item in items:
                _save_item(folder, item)
            return f"saved {len(items)}"
        """,
    ),
    case(
        "helper-called-once-outside-a-loop",
        """\
        def _save_item(folder: str, item: dict) -> None:
            if not item.get("name"):
                raise ToolError("every item needs a name")
            (Path(folder) / f"{item['name']}.json").write_text(json.dumps(item))


        @mcp.tool()
        def save_item(folder: str, item: dict) -> str:
            _save_item(folder, item)
            return "saved"
        """,
    ),
    case(
        "helper-rejection-taken-per-item",
        """\
        def _save_item(folder: str, item: dict) -> None:
            if not item.get("name"):
                raise ValueError("every item needs a name")
            (Path(folder) / f"{item['name']}.json").write_text(json.dumps(item))


        @mcp.tool()
        def save_items(folder: str, items: list[dict]) -> dict:
            errors = []
            for item in items:
                try:
                    _save_item(folder, item)
                except ValueError as e:
                    errors.append(str(e))
            return {"errors": errors}
        """,
    ),
    case(
        "items-checked-in-a-loop-of-their-own-first",
        """\
        def _check_item(item: dict) -> None:
            if not item.get("name"):
                raise ToolError("every item needs a name")


        def _save_item(folder: str, item: dict) -> None:
            (Path(folder) / f"{item['name']}.json").write_text(json.dumps(item))


        @mcp.tool()
        def save_items(folder: str, items: list[dict]) -> str:
            for item in items:
                _check_item(item)
            for item in items:
                _save_item(folder, item)
            return f"saved {len(items)}"
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)


# -- a read-back of a helper's effect is a post-check (issue 21) --------------------------------
READ_BACKS = [
    case(
        "file-the-helper-wrote-read-back-and-checked",
        """\
        def _registry_file() -> Path:
            return ROOT / "registry.json"


        def ensure_registry() -> None:
            path = _registry_file()
            if not path.exists():
                path.write_text("{}")


        @mcp.tool()
        def registered_names() -> list[str]:
            path = _registry_file()
            ensure_registry()
            data = json.loads(path.read_text())
            if not isinstance(data, dict):
                raise ToolError(f"the registry at {path} is not an object")
            return sorted(data)
        """,
    ),
    case(
        "output-the-helper-was-handed-looked-at-after-it",
        """\
        def render_page(source: str, out: str) -> None:
            subprocess.run(["render", source, "-o", out], check=True)


        @mcp.tool()
        def render(source: str, out: str) -> str:
            render_page(source, out)
            if not os.path.exists(out):
                raise ToolError(f"the renderer wrote nothing to {out}")
            return out
        """,
    ),
    case(
        "input-argument-the-helper-was-not-handed-checked-after-it",
        """\
        def save_note(name: str, text: str) -> None:
            (ROOT / f"{name}.md").write_text(text)  # expect: MCP004


        @mcp.tool()
        def add_note(name: str, text: str, template: str) -> str:
            save_note(name, text)
            if not os.path.exists(template):
                raise ToolError(f"template {template} not found")
            return name
        """,
    ),
    case(
        "file-looked-at-after-a-helper-that-changes-the-database",
        """\
        def save_row(name: str) -> None:
            db.execute("INSERT INTO names (name) VALUES (?)", (name,))  # expect: MCP004


        @mcp.tool()
        def add_name(name: str) -> str:
            path = ROOT / "names.txt"
            save_row(name)
            if not path.exists():
                raise ToolError(f"{path} is missing")
            return name
        """,
    ),
]


READ_BACKS.append(
    case(
        "input-made-from-an-argument-the-helper-was-not-handed-checked-after-it",
        """\
        def save_note(name: str, text: str) -> None:
            (ROOT / f"{name}.md").write_text(text)  # expect: MCP004


        @mcp.tool()
        def add_note(name: str, text: str, attachments: list[str]) -> str:
            save_note(name, text)
            for attachment in attachments:
                source = Path(attachment).expanduser()
                if not source.exists():
                    raise ToolError(f"attachment {source} not found")
            return name
        """,
    )
)
READ_BACKS.append(
    case(
        "output-of-a-program-the-helper-drives-looked-at-after-it",
        """\
        class Shell:
            def __init__(self) -> None:
                self.proc = subprocess.Popen(["shell"], stdin=subprocess.PIPE)

            def run(self, command: str) -> None:
                self.proc.stdin.write(command.encode())


        class Exporter:
            def __init__(self) -> None:
                self.shell = Shell()

            def export_png(self, source: str) -> str:
                out = ROOT / "out.png"
                self.shell.run(f"export {source} {out}")
                if not out.exists():
                    raise ToolError("nothing was exported")
                return str(out)


        EXPORTER = Exporter()


        @mcp.tool()
        def export_png(source: str) -> str:
            return EXPORTER.export_png(source)
        """,
    )
)


@pytest.mark.parametrize("body", READ_BACKS)
def test_read_back(body: str) -> None:
    _mcp004(body)


# -- heldout13's false alarms: a draft saved later, a POST asking for an export -----------------
HELDOUT13 = [
    case(
        "item-made-in-memory-and-saved-after-the-check",
        """\
        from datetime import datetime

        @mcp.tool()
        def add_event(app_name: str, title: str, start: str) -> str:
            app = Application(app_name)
            event = app.CreateItem(1)
            event.Subject = title
            event.Start = datetime.fromisoformat(start)
            event.Save()
            return "added"
        """,
    ),
    case(
        "item-created-and-never-saved-before-the-check",
        """\
        from datetime import datetime

        @mcp.tool()
        def add_event(title: str, start: str) -> str:
            client = httpx.Client()
            client.post("https://calendar.example/events", json={"title": title})  # expect: MCP004
            datetime.fromisoformat(start)
            return "added"
        """,
    ),
    case(
        "post-verb-string-to-an-export-endpoint",
        """\
        @mcp.tool()
        def export_items(ids: list[str], fmt: str) -> str:
            client = httpx.Client()
            resp = client.request("POST", "/items/export", json={"ids": ids})
            if fmt not in ("json", "yaml"):
                raise ToolError(f"fmt must be json or yaml, got {fmt!r}")
            return resp.text
        """,
    ),
    case(
        "post-verb-string-to-a-collection",
        """\
        @mcp.tool()
        def add_items(ids: list[str], fmt: str) -> str:
            client = httpx.Client()
            resp = client.request("POST", "/items", json={"ids": ids})  # expect: MCP004
            if fmt not in ("json", "yaml"):
                raise ToolError(f"fmt must be json or yaml, got {fmt!r}")
            return resp.text
        """,
    ),
]


@pytest.mark.parametrize("body", HELDOUT13)
def test_heldout13_causes(body: str) -> None:
    _mcp004(body)
