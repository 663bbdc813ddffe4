"""MCP004 (issue 21; fix review 12 row 17): closing, releasing or disconnecting what the call holds
(a client, connection, session, file handle, lock) is cleanup, not a mutation; and the fix never
moves a check above a cleanup call, which the rejecting path would then skip (the resource leaks).

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the exact
set of MCP004 rows.
"""

from __future__ import annotations

import textwrap

import pytest

from mcp_lint.fixing.apply import apply_edits

from .test_mcp004_causes import HEADER, _mcp004, case

CAUSES = [
    # -- cleanup is no mutation -----------------------------------------------------------------
    case(
        "a-local-client-closed-before-a-not-found-check",
        """\
        class ChatClient:
            def __init__(self, key: str) -> None:
                self.key = key


        @mcp.tool()
        def get_chat(chat_id: str) -> str:
            client = ChatClient("key")
            chat = client.chats.get(chat_id)
            client.close()
            if chat is None:
                raise ToolError(f"No chat {chat_id!r}; call list_chats to see the ids")
            return str(chat)
        """,
    ),
    case(
        "a-client-from-a-factory-closed-whatever-its-name",
        """\
        def make_client() -> httpx.Client:
            return httpx.Client()


        @mcp.tool()
        def get_item(name: str) -> str:
            svc = make_client()
            item = svc.items.get(name)
            svc.close()
            if item is None:
                raise ToolError(f"No item {name!r}")
            return str(item)
        """,
    ),
    case(
        "a-connection-closed-and-a-lock-released-before-the-check",
        """\
        import threading

        GUARD = threading.Lock()


        @mcp.tool()
        async def count_notes(tag: str) -> str:
            db_conn = sqlite3.connect("notes.db")
            n = db_conn.execute("SELECT COUNT(*) FROM notes WHERE tag = ?", (tag,)).fetchone()[0]
            db_conn.close()
            GUARD.acquire()
            GUARD.release()
            if n == 0:
                raise ToolError(f"No note is tagged {tag!r}")
            return str(n)
        """,
    ),
    # -- the same words on something else are still writes -------------------------------------
    case(
        "closing-an-issue-through-a-client-is-a-write",
        """\
        def make_client() -> httpx.Client:
            return httpx.Client()


        @mcp.tool()
        def close_issue(number: int, reason: str) -> str:
            tracker_client = make_client()
            tracker_client.close_issue(number)  # expect: MCP004
            if reason not in ("done", "dropped"):
                raise ToolError("reason must be 'done' or 'dropped'")
            return "closed"
        """,
    ),
    case(
        "a-write-before-the-close-is-still-the-finding",
        """\
        @mcp.tool()
        def add_row(name: str) -> str:
            conn = sqlite3.connect("rows.db")
            conn.execute("INSERT INTO rows (name) VALUES (?)", (name,))  # expect: MCP004
            conn.commit()
            conn.close()
            if not name.isidentifier():
                raise ToolError("name must be one word")
            return "added"
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_cleanup_cause(body: str) -> None:
    _mcp004(body)


MOVE_ACROSS_CLOSE = """\
@mcp.tool()
def add_row(name: str) -> str:
    conn = sqlite3.connect("rows.db")
    conn.execute("INSERT INTO rows (name) VALUES (?)", (name,))  # expect: MCP004
    {cleanup}
    if not name.isidentifier():
        raise ToolError("name must be one word")
    return "added"
"""


@pytest.mark.parametrize("cleanup", ["conn.close()", "_close(conn)", "self_lock.release()"])
def test_no_fix_moves_the_check_above_a_cleanup(cleanup: str) -> None:
    body = MOVE_ACROSS_CLOSE.replace("{cleanup}", cleanup)
    if cleanup.startswith("_close"):
        body = "def _close(c: sqlite3.Connection) -> None:\n    c.close()\n\n\n" + body
    if cleanup.startswith("self_lock"):
        body = "import threading\n\nself_lock = threading.Lock()\n\n\n" + body
    [finding] = _mcp004(body)
    assert finding.message == "Tool 'add_row' writes to the database (INSERT), then rejects the call at line " + str(finding.related[0].location.row)
    assert finding.fix is None  # moved above the cleanup, the rejecting path would leak the connection


def test_the_fix_is_kept_when_the_cleanup_comes_after_the_check() -> None:
    body = """\
    @mcp.tool()
    def add_row(name: str) -> str:
        conn = sqlite3.connect("rows.db")
        conn.execute("INSERT INTO rows (name) VALUES (?)", (name,))  # expect: MCP004
        if not name.isidentifier():
            raise ToolError("name must be one word")
        conn.close()
        return "added"
    """
    [finding] = _mcp004(body)
    assert finding.fix is not None
    fixed = apply_edits(HEADER + "\n" + textwrap.dedent(body), finding.fix.edits)
    assert "    conn = sqlite3.connect(\"rows.db\")\n    if not name.isidentifier():\n        raise ToolError(\"name must be one word\")\n    conn.execute(" in fixed
