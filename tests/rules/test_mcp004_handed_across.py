"""MCP004 (issue 21): state handed to a helper in another module that changes its parameter in
place (`put(NOTES, key, item)` with `store[key] = item` in `put`) is a change at the call, as
for a helper of the same module. The helper's summary carries which parameters it changes
(FunctionSummary.changes_params); the tool's call records which arguments are state."""

from __future__ import annotations

from ._support import lint_tree, write_tree

HELPERS = """\
def put(store: dict, key: str, item: dict) -> None:
    store[key] = item


def count(store: dict, key: str) -> int:
    return len(store.get(key, {}))


def remember(item: dict, into: list) -> None:
    into.append(item)


_SEEN: set[str] = set()


def note_seen(store: dict, key: str) -> bool:
    # Writes its own module's record, never the store it is handed.
    _SEEN.add(key)
    return key in store
"""


def _mcp004(tmp_path, server: str) -> list[tuple[bool, int, str, tuple[str, ...]]]:
    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/storage.py": HELPERS,
            "app/server.py": "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\nfrom app.storage import count, note_seen, put, remember\n\nmcp = FastMCP(\"notes\")\nNOTES: dict[str, dict] = {}\nRECENT: list[dict] = []\n\n" + server,
        },
    )
    return [(f.filename.endswith("server.py"), f.location.row, f.message, tuple(f.notes)) for f in lint_tree(tmp_path) if f.code == "MCP004"]


def test_module_state_handed_to_another_modules_helper_that_changes_it(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def add_note(note_id: str, title: str) -> str:
    put(NOTES, note_id, {"title": title})
    if len(title) > 80:
        raise ToolError("title must be at most 80 characters")
    return "added"
""",
    )
    assert [(in_server, row, message) for in_server, row, message, _ in found] == [(True, 12, "Tool 'add_note' calls put(), then rejects the call at line 13")]
    assert found[0][3][0] == "put() changes module-level state (NOTES, in put)"


def test_state_handed_by_keyword(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def add_recent(title: str) -> str:
    remember({"title": title}, into=RECENT)
    if not title.strip():
        raise ToolError("title must not be empty")
    return "added"
""",
    )
    assert [(in_server, row) for in_server, row, _, _ in found] == [(True, 12)]


def test_helper_that_only_reads_what_it_is_handed(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def add_note(note_id: str, title: str) -> str:
    size = count(NOTES, note_id)
    if len(title) > 80 - size:
        raise ToolError("title too long")
    return "ok"
""",
    )
    assert found == []


def test_a_local_container_handed_is_no_state(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def preview(note_id: str, title: str) -> str:
    draft: dict[str, dict] = {}
    put(draft, note_id, {"title": title})
    if len(title) > 80:
        raise ToolError("title must be at most 80 characters")
    return str(draft)
""",
    )
    assert found == []


def test_helper_handed_state_judged_by_what_it_does_to_it_not_by_its_own_writes(tmp_path) -> None:
    # `note_seen` changes its own module's set, not NOTES: handing it NOTES is no change of NOTES.
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def add_note(note_id: str, title: str) -> str:
    if note_seen(NOTES, note_id):
        return "exists"
    if len(title) > 80:
        raise ToolError("title must be at most 80 characters")
    NOTES[note_id] = {"title": title}
    return "added"
""",
    )
    assert found == []


def test_call_handed_state_does_not_hide_the_later_write(tmp_path) -> None:
    # A candidate made only by what it is handed never stands for a later write's finding.
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def add_note(note_id: str, title: str) -> str:
    note_seen(NOTES, note_id)
    RECENT.append({"title": title})
    if len(title) > 80:
        raise ToolError("title must be at most 80 characters")
    return "added"
""",
    )
    assert [(in_server, row, message) for in_server, row, message, _ in found] == [(True, 13, "Tool 'add_note' changes module-level state (RECENT.append), then rejects the call at line 14")]
