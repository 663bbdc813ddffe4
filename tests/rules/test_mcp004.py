"""MCP004 mutation-before-validation: a tool changes the world, then rejects the call.

Each source marks the lines where a finding is expected with `# expect: MCPnnn`; the test asserts
the exact set of (code, row) for the whole snippet, so a finding of another rule fails it too.
"""

from __future__ import annotations

import textwrap

import pytest

from mcp_lint.findings import Finding
from mcp_lint.fixing.apply import apply_edits
from mcp_lint.pipeline import lint_source

from ._support import said, check as _check, only as _only, unmasked


MCP1 = """\
import logging
import os
import shutil
import sqlite3
import subprocess

import httpx
import requests
import stripe
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("svc")
db = sqlite3.connect("svc.db")
NOTES: dict[str, str] = {}
"""

MCP2 = MCP1.replace("mcp.server.fastmcp", "mcp.server.mcpserver").replace(
    "FastMCP", "MCPServer"
)
FASTMCP = MCP1.replace(
    "from mcp.server.fastmcp import FastMCP", "from fastmcp import FastMCP"
).replace("mcp.server.fastmcp.exceptions", "fastmcp.exceptions")


# Most snippets' tools do I/O that no `try` handles: MCP007 at the server of these headers (the
# newest mcp 2.x masks the text, so MCP2 never gets it).
MCP1_UNMASKED = unmasked(MCP1)
FASTMCP_UNMASKED = unmasked(FASTMCP)
# The header of SILENT_SHAPES.
SILENT_HEADER = MCP1 + "import asyncio\nfrom pathlib import Path\nROOT = Path('/srv')\n"


def _only_mcp004(source: str) -> Finding:
    """The snippet's one MCP004 finding (`_check` asserts every marked finding, MCP007's too)."""
    [finding] = [f for f in _check(source) if f.code == "MCP004"]
    return finding


def _src(header: str, body: str) -> str:
    return header + "\n" + textwrap.dedent(body)


# -- recall ------------------------------------------------------------------------------------

MUTATIONS = [
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def set_stock(sku: str, quantity: int) -> str:
            db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))  # mutation  # expect: MCP004
            db.commit()
            if quantity < 0:
                raise ToolError(f"quantity must be >= 0, got {quantity}")
            return "updated"
        """,
        "writes to the database (UPDATE)",
        id="db-write-mcp1",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def add_note(title: str) -> str:
            cur = db.execute("INSERT INTO notes (title) VALUES (?)", (title,))  # mutation  # expect: MCP004
            if cur.lastrowid is None:
                raise ToolError("The database did not assign an id; check list_notes before adding again")
            if len(title) > 80:
                raise ToolError(f"title must be at most 80 characters, got {len(title)}")
            return "added"
        """,
        "writes to the database (INSERT)",
        id="db-insert-after-post-check-mcp2",
    ),
    pytest.param(
        FASTMCP_UNMASKED,
        """\
        @mcp.tool
        def save_file(path: str, content: str) -> str:
            with open(path, "w") as handle:  # mutation  # expect: MCP004
                handle.write(content)
            if not content:
                raise ToolError("content must not be empty")
            return "saved"
        """,
        "writes a file",
        id="file-write-fastmcp",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def checkout(branch: str) -> str:
            subprocess.run(["git", "checkout", branch], check=True)  # mutation  # expect: MCP004
            if branch.startswith("-"):
                raise ToolError("branch must not start with '-'")
            return "checked out"
        """,
        "runs a subprocess",
        id="subprocess",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        async def create_issue(title: str, priority: str) -> str:
            async with httpx.AsyncClient() as client:
                await client.post("https://tracker.example.com/issues", json={"title": title})  # mutation  # expect: MCP004
            if priority not in ("low", "high"):
                raise ToolError(f"priority must be 'low' or 'high', got {priority!r}")
            return "created"
        """,
        "sends an HTTP POST",
        id="http-post",
    ),
    pytest.param(
        FASTMCP_UNMASKED,
        """\
        @mcp.tool
        def update_user(user_id: str, email: str) -> str:
            requests.put(f"https://users.example.com/{user_id}", json={"email": email})  # mutation  # expect: MCP004
            if "@" not in email:
                raise ToolError(f"email must contain '@', got {email!r}")
            return "updated"
        """,
        "sends an HTTP PUT",
        id="http-put",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def delete_user(user_id: str) -> dict:
            requests.delete(f"https://users.example.com/{user_id}")  # mutation  # expect: MCP004
            if user_id == "admin":
                return {"error": "the admin user cannot be deleted"}  # expect: MCP005
            return {"deleted": user_id}
        """,
        "sends an HTTP DELETE",
        id="http-delete-then-error-dict",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def put_note(note_id: str, text: str) -> str:
            NOTES[note_id] = text  # mutation  # expect: MCP004
            if len(text) > 1000:
                raise ToolError("text must be at most 1000 characters")
            return "stored"
        """,
        "changes module-level state (NOTES[...])",
        id="module-state",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def clean(path: str) -> str:
            os.remove(path)  # mutation  # expect: MCP004
            if not path.endswith(".tmp"):
                raise ToolError("only .tmp files may be removed")
            return "removed"
        """,
        "changes files (remove)",
        id="file-delete",
    ),
    pytest.param(
        FASTMCP_UNMASKED,
        """\
        @mcp.tool
        def refund(charge_id: str, amount: int) -> str:
            stripe.Refund.create(charge=charge_id, amount=amount)  # mutation  # expect: MCP004
            if amount <= 0:
                raise ToolError(f"amount must be positive, got {amount}")
            return "refunded"
        """,
        "calls stripe.Refund.create()",
        id="saas-create",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def move(src: str, dst: str) -> str:
            shutil.move(src, dst)  # mutation  # expect: MCP004
            if src == dst:
                raise ValueError("src and dst must differ")
            return "moved"
        """,
        "changes files (move)",
        id="plain-exception-rejects",
    ),
]


@pytest.mark.parametrize(("header", "body", "what"), MUTATIONS)
def test_check_after_mutation_is_flagged(header: str, body: str, what: str) -> None:
    source = _src(header, body)
    row = next(
        i
        for i, line in enumerate(source.splitlines(), start=1)
        if "# mutation" in line
    )
    findings = _check(source)
    mcp004 = [f for f in findings if f.code == "MCP004"]
    assert len(mcp004) == 1
    assert mcp004[0].location.row == row
    assert f" {what}, then rejects the call at line " in said(mcp004[0])


def test_message_names_tool_consequence_and_next_step() -> None:
    finding = _only_mcp004(_src(MCP1_UNMASKED, MUTATIONS[0].values[1]))
    assert finding.location.row == 20
    assert finding.message == "Tool 'set_stock' writes to the database (UPDATE), then rejects the call at line 22"
    assert finding.help == "Move the check above the first mutation"


def test_fix_moves_the_check_above_the_mutation_and_the_result_is_silent() -> None:
    source = _src(MCP1_UNMASKED, MUTATIONS[0].values[1])
    finding = _only_mcp004(source)
    assert finding.fix is not None
    assert finding.fix.message == "Move the check above the first mutation"
    fixed = apply_edits(source, finding.fix.edits)
    assert fixed.split("\n@mcp.tool()\n", 1)[1] == textwrap.dedent(
        """\
        def set_stock(sku: str, quantity: int) -> str:
            if quantity < 0:
                raise ToolError(f"quantity must be >= 0, got {quantity}")
            db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))  # mutation  # expect: MCP004
            db.commit()
            return "updated"
        """
    )
    # MCP004's defect is gone; the server still forwards the text of the unwrapped UPDATE's failure.
    assert [(f.code, f.location.row) for f in lint_source(fixed, filename="server.py")] == [("MCP007", 14)]


def test_lowlevel_dispatcher_raising_after_a_side_effect() -> None:
    source = """\
    import httpx
    from mcp.server.lowlevel import Server

    async def handle_call_tool(ctx, params):
        args = params.arguments or {}
        async with httpx.AsyncClient() as client:
            await client.post("https://events.example.com", json=args)  # expect: MCP004
        if "event" not in args:
            raise ValueError("event is required")
        return None

    server = Server("events", on_call_tool=handle_call_tool)
    """
    finding = _only(source)
    assert finding.message.startswith(
        "Tool 'handle_call_tool' sends an HTTP POST, then rejects the call at line 8"
    )


def test_mcp1_lowlevel_handler_raising_after_a_webhook() -> None:
    source = """\
    import httpx
    import mcp.types as types
    from mcp.server.lowlevel import Server

    server = Server("hooks")

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
        async with httpx.AsyncClient() as client:
            await client.post("https://hooks.example.com/notify", json=arguments)  # expect: MCP004
        if "id" not in arguments:
            raise ValueError("id is required; pass the id of the record to notify about")
        return [types.TextContent(type="text", text="notified")]
    """
    finding = _only(source)
    assert finding.message.startswith(
        "Tool 'call_tool' sends an HTTP POST, then rejects the call at line 11"
    )


def test_append_to_empty_module_list_is_module_state() -> None:
    source = """\
    TASKS: list[str] = []

    @mcp.tool()
    def add_task(task: str) -> str:
        TASKS.append(task)  # expect: MCP004
        if not task.strip():
            raise ToolError("task must not be empty")
        return "added"
    """
    _check(_src(MCP1, source))


def test_error_result_after_side_effect_on_lowlevel_server() -> None:
    source = """\
    import httpx
    from mcp.server.lowlevel import Server
    from mcp.types import CallToolResult, TextContent

    async def handle_call_tool(ctx, params) -> CallToolResult:
        args = params.arguments or {}
        async with httpx.AsyncClient() as client:
            await client.post("https://events.example.com", json=args)  # expect: MCP004
        if "event" not in args:
            return CallToolResult(content=[TextContent(type="text", text="event is required")], is_error=True)
        return CallToolResult(content=[TextContent(type="text", text="sent")])

    server = Server("events", on_call_tool=handle_call_tool)
    """
    _check(source)


# -- precision ---------------------------------------------------------------------------------

CORRECT = [
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def set_stock(sku: str, quantity: int) -> str:
            if quantity < 0:
                raise ToolError(f"quantity must be >= 0, got {quantity}")
            cur = db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
            if cur.rowcount == 0:
                raise ToolError(f"No stock row for sku {sku!r}; call list_skus")
            db.commit()
            return "updated"
        """,
        id="check-first-then-post-check",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def purge(ids: list[int]) -> str:
            cur = db.execute("DELETE FROM notes WHERE id IN (?)", (ids,))
            deleted = cur.rowcount
            if deleted != len(ids):
                raise ToolError(f"Only {deleted} of {len(ids)} notes existed; the rest were already gone")
            return "purged"
        """,
        id="post-check-through-a-derived-name",
    ),
    pytest.param(
        FASTMCP_UNMASKED,
        """\
        @mcp.tool
        async def create_issue(title: str) -> str:
            async with httpx.AsyncClient() as client:
                resp = await client.post("https://tracker.example.com/issues", json={"title": title})
            data = resp.json()
            if "id" not in data:
                raise ToolError("The tracker returned no issue id; check list_issues before creating it again")
            return data["id"]
        """,
        id="check-on-name-assigned-after-mutation",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def read_note(note_id: int) -> str:
            row = db.execute("SELECT body FROM notes WHERE id = ?", (note_id,)).fetchone()
            if row is None:
                raise ToolError(f"Note {note_id} not found; call list_notes")
            return row[0]
        """,
        id="read-only-select",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        async def forecast(city: str) -> str:
            async with httpx.AsyncClient() as client:
                resp = await client.get(f"https://weather.example.com/{city}")
            if not city.isalpha():
                raise ToolError("city must contain letters only")
            return resp.text
        """,
        id="read-only-http-get",
    ),
    pytest.param(
        FASTMCP_UNMASKED,
        """\
        @mcp.tool
        def create_user(name: str) -> str:
            logger.info("creating user %s", name)
            if not name:
                raise ToolError("name must not be empty")
            db.execute("INSERT INTO users (name) VALUES (?)", (name,))
            return "created"
        """,
        id="logging-is-not-a-mutation",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def put_note(note_id: str, text: str) -> str:
            NOTES[note_id] = text
            if len(NOTES) > 100:
                raise ToolError("The notebook is full (100 notes); delete_note some before adding more")
            return "stored"
        """,
        id="check-reads-the-mutated-state",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def add_note(title: str, dry_run: bool) -> str:
            if dry_run:
                return "would add"
            elif not title:
                raise ToolError("title must not be empty")
            else:
                db.execute("INSERT INTO notes (title) VALUES (?)", (title,))
            return "added"
        """,
        id="mutation-in-a-later-branch",
    ),
    pytest.param(
        FASTMCP_UNMASKED,
        """\
        @mcp.tool
        def add_note(title: str) -> str:
            db.execute("INSERT INTO notes (title) VALUES (?)", (title,))
            db.commit()
            if len(title) > 80:
                return "Saved; titles longer than 80 characters are shortened in listings"
            return "saved"
        """,
        id="later-branch-does-not-reject",
    ),
    pytest.param(
        MCP1,
        """\
        def record(title: str) -> str:
            db.execute("INSERT INTO notes (title) VALUES (?)", (title,))
            if not title:
                raise ToolError("title must not be empty")
            return "ok"

        @mcp.resource("note://{title}")
        def note(title: str) -> str:
            db.execute("INSERT INTO views (title) VALUES (?)", (title,))
            if not title:
                raise ValueError("title must not be empty")
            return title
        """,
        id="not-a-tool",
    ),
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        def join_paths(path: str) -> str:
            parts = []
            parts.append(path)
            if not path:
                raise ToolError("path must not be empty")
            return "/".join(parts)
        """,
        id="local-container-is-not-state",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def lookup(key: str) -> str:
            resp = requests.get(f"https://kv.example.com/{key}")
            if not key.isalnum():
                raise ToolError("key must be alphanumeric")
            return resp.text
        """,
        id="requests-get",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def read_file(path: str) -> str:
            with open(path) as handle:
                data = handle.read()
            if not data:
                raise ToolError(f"{path} is empty; pass a file with content")
            return data
        """,
        id="open-for-reading",
    ),
    pytest.param(
        FASTMCP_UNMASKED,
        """\
        @mcp.tool
        def deploy(branch: str) -> str:
            if branch.startswith("-"):
                raise ToolError("branch must not start with '-'")
            result = subprocess.run(["deploy", branch], capture_output=True, text=True)
            if result.returncode != 0:
                raise ToolError(f"deploy of {branch} exited with {result.returncode}; see deploy_logs")
            return "deployed"
        """,
        id="check-then-subprocess-then-post-check",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def retitle(note_id: int, title: str) -> str:
            row = db.execute("SELECT id FROM notes WHERE id = ?", (note_id,)).fetchone()
            if row is None or not title:
                raise ToolError(f"Note {note_id} not found or empty title; call list_notes")
            db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))
            db.commit()
            return "retitled"
        """,
        id="read-check-write",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def add_note(title: str) -> str:
            with db:
                if not title:
                    raise ToolError("title must not be empty")
                db.execute("INSERT INTO notes (title) VALUES (?)", (title,))
            return "added"
        """,
        id="check-first-inside-transaction",
    ),
    pytest.param(
        FASTMCP_UNMASKED,
        """\
        @mcp.tool
        def add_note(title: str) -> str:
            db.execute("INSERT INTO notes (title) VALUES (?)", (title,))
            db.commit()
            if len(title) > 80:
                logger.warning("long title stored: %d characters", len(title))
            return "added"
        """,
        id="later-branch-only-logs",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        async def create_issue(title: str) -> str:
            async with httpx.AsyncClient() as client:
                resp = await client.post("https://tracker.example.com/issues", json={"title": title})
            if resp.status_code >= 400:
                raise ToolError(f"The tracker answered HTTP {resp.status_code}; check list_issues before creating it again")
            return "created"
        """,
        id="post-check-on-response-status",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def publish(path: str) -> str:
            try:
                subprocess.run(["publish", path], check=True)
            except subprocess.CalledProcessError as e:
                os.remove(path + ".lock")
                raise ToolError(f"publish of {path} exited with {e.returncode}; fix the file and publish again") from e
            return "published"
        """,
        id="cleanup-in-except-clause",
    ),
    pytest.param(
        MCP2,
        """\
        def validate_title(title: str) -> None:
            if not title or len(title) > 80:
                raise ToolError("title must be 1 to 80 characters")

        @mcp.tool()
        def add_note(title: str) -> str:
            validate_title(title)
            db.execute("INSERT INTO notes (title) VALUES (?)", (title,))
            db.commit()
            return "added"
        """,
        id="validation-helper-first",
    ),
]


@pytest.mark.parametrize(("header", "body"), CORRECT)
def test_correct_order_is_silent(header: str, body: str) -> None:
    _check(_src(header, body))


# -- formerly known gaps ------------------------------------------------------------------------


def test_path_write_text_is_a_file_write() -> None:
    source = """\
    @mcp.tool()
    def save(path: str, content: str) -> str:
        Path(path).write_text(content)  # expect: MCP004
        if not content.strip():
            raise ToolError("content must not be empty")
        return "saved"
    """
    _check(_src(MCP1 + "from pathlib import Path\n", source))


def test_check_on_preexisting_module_flag() -> None:
    source = """\
    READ_ONLY = False

    @mcp.tool()
    def add_note(title: str) -> str:
        db.execute("INSERT INTO notes (title) VALUES (?)", (title,))  # expect: MCP004
        db.commit()
        if READ_ONLY:
            raise ToolError("The server is read-only; notes cannot be added")
        return "added"
    """
    _check(_src(MCP1_UNMASKED, source))


def test_mutation_through_an_instance_attribute() -> None:
    source = """\
    class Notes:
        def __init__(self, collection) -> None:
            self.collection = collection

        def delete_tagged(self, tag: str) -> str:
            self.collection.delete_many({"tag": tag})  # expect: MCP004
            if not tag:
                raise ToolError("tag must not be empty")
            return "deleted"

    notes = Notes(None)
    mcp.add_tool(notes.delete_tagged)
    """
    _check(_src(MCP1, source))


def test_mutation_before_check_inside_a_dispatcher_branch() -> None:
    source = """\
    import mcp.types as types
    from mcp.server.lowlevel import Server

    server = Server("notes")
    NOTES: dict[str, str] = {}

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
        if name == "put_note":
            NOTES[arguments["id"]] = arguments["text"]  # expect: MCP004
            if len(arguments["text"]) > 1000:
                raise ValueError("text must be at most 1000 characters")
            return [types.TextContent(type="text", text="stored")]
        raise ValueError(f"Unknown tool: {name}")
    """
    _check(source)


# -- cause 13: the shapes real servers have ------------------------------------------------------

SHAPES = [
    pytest.param(
        MCP1_UNMASKED,
        """\
        def save_doc(doc_id: str, text: str) -> None:
            (ROOT / f"{doc_id}.md").write_text(text)  # expect: MCP004

        @mcp.tool()
        def publish_doc(doc_id: str, text: str) -> str:
            save_doc(doc_id, text)
            if len(text) > 50_000:
                raise ToolError("text is longer than 50000 characters; split the document")
            return "published"
        """,
        "Helper 'save_doc' changes files (write_text) here; tool 'publish_doc' then rejects the call at line 24\nMove the check above the first mutation",
        id="helper-that-writes",
    ),
    pytest.param(
        MCP1,
        """\
        def store_note(note_id: str, text: str) -> None:
            if note_id:
                NOTES[note_id] = text  # expect: MCP004

        @mcp.tool()
        def put_note(note_id: str, text: str) -> str:
            store_note(note_id, text)
            if len(text) > 1000:
                raise ToolError("text must be at most 1000 characters")
            return "stored"
        """,
        "Helper 'store_note' changes module-level state (NOTES[...]) here; tool 'put_note' then rejects the call at line 25",
        id="helper-that-writes-module-state",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        class NoteStore:
            def apply_changes(self, note_id: str, text: str) -> None:
                with open(f"/srv/notes/{note_id}.md", "w") as handle:  # expect: MCP004
                    handle.write(text)

        store = NoteStore()

        @mcp.tool()
        def edit_note(note_id: str, text: str) -> str:
            store.apply_changes(note_id, text)
            if "\\x00" in text:
                raise ToolError("text must not contain NUL characters")
            return "edited"
        """,
        "Helper 'apply_changes' writes a file here; tool 'edit_note' then rejects the call at line 28",
        id="method-of-a-module-level-instance",
    ),
    pytest.param(
        MCP1,
        """\
        class Tracker:
            def __init__(self, token: str) -> None:
                self.token = token

            def _request(self, method: str, path: str, body: dict) -> dict:
                return {}

            def set_priority(self, issue: str, priority: str) -> str:
                self._request("PATCH", f"/issues/{issue}", {"priority": priority})  # expect: MCP004
                if priority not in ("low", "high"):
                    raise ToolError(f"priority must be 'low' or 'high', got {priority!r}")
                return "updated"

        tracker = Tracker("t")
        mcp.add_tool(tracker.set_priority)
        """,
        "sends an HTTP PATCH, then rejects the call at line 27",
        id="verb-as-string-wrapper",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def drop_branch(client: httpx.Client, branch: str) -> str:
            client.request("DELETE", f"https://git.example.com/branches/{branch}")  # expect: MCP004
            if branch in ("main", "master"):
                raise ToolError("the default branch cannot be deleted")
            return "deleted"
        """,
        "sends an HTTP DELETE, then rejects",
        id="client-request-delete",
    ),
    pytest.param(
        MCP1,
        """\
        from slack_sdk import WebClient
        slack = WebClient(token="x")

        @mcp.tool()
        def announce(channel: str, text: str) -> str:
            slack.chat_postMessage(channel=channel, text=text)  # expect: MCP004
            if not channel.startswith("#"):
                return "Error: channel must start with '#'"  # expect: MCP005
            return "sent"
        """,
        "calls slack.chat_postMessage(), then rejects",
        id="sdk-namespace-verb-and-error-string",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        import boto3
        s3 = boto3.client("s3")

        @mcp.tool()
        def upload(bucket: str, key: str, body: str) -> str:
            try:
                s3.put_object(Bucket=bucket, Key=key, Body=body)  # expect: MCP004
            finally:
                logger.info("upload attempted")
            if key.endswith("/"):
                raise ToolError("key must name an object, not a folder")
            return "uploaded"
        """,
        "calls s3.put_object(), then rejects",
        id="sdk-put-in-try",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def add_documents(client, name: str, ids: list[str], docs: list[str]) -> str:
            collection = client.get_or_create_collection(name)  # expect: MCP004
            existing = collection.get(ids=ids)["ids"]
            if existing:
                raise ToolError(f"ids {existing} already exist; use update_documents")
            collection.add(ids=ids, documents=docs)
            return "added"
        """,
        "calls client.get_or_create_collection(), then rejects",
        id="get-or-create-then-check-on-what-existed",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def tag(note_id: str, tag: str) -> str:
            NOTES_META[note_id].update({"tag": tag})  # expect: MCP004
            if not tag.isidentifier():
                raise ToolError("tag must be a single word")
            return "tagged"

        NOTES_META: dict[str, dict] = {}
        """,
        "changes module-level state (NOTES_META.update)",
        id="item-of-module-state-updated",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def export(src: str, dst: str) -> str:
            shutil.copy2(src, dst)  # expect: MCP004
            for suffix in (".exe", ".sh"):
                if dst.endswith(suffix):
                    raise ToolError(f"dst must not end with {suffix}")
            return "exported"
        """,
        "changes files (copy2), then rejects the call at line 22",
        id="copy-then-check-in-a-loop",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def make_report(out_dir: str, fmt: str) -> str:
            os.makedirs(out_dir)  # expect: MCP004
            if fmt == "pdf":
                kind = "application/pdf"
            elif fmt == "html":
                kind = "text/html"
            else:
                return f"Error: unknown format {fmt}; use pdf or html"  # expect: MCP005
            return kind
        """,
        "changes files (makedirs), then rejects the call at line 25",
        id="makedirs-then-else-return",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def bulk_delete(ids: list[str]) -> str:
            for note_id in ids:
                db.execute("DELETE FROM notes WHERE id = ?", (note_id,))  # expect: MCP004
            assert len(ids) <= 100, "at most 100 ids per call"
            db.commit()
            return "deleted"
        """,
        "writes to the database (DELETE)",
        id="loop-then-assert",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        def validate_path(path: str) -> None:
            if not path.startswith("/srv/"):
                raise ValueError(f"{path} is outside /srv")

        @mcp.tool()
        def archive(path: str) -> str:
            subprocess.run(["tar", "czf", path + ".tgz", path], check=True)  # expect: MCP004
            try:
                validate_path(path)
            except ValueError as e:
                raise ToolError(f"{path} is outside /srv; pass a path under /srv") from e
            return "archived"
        """,
        "runs a subprocess, then rejects the call at line 26",
        id="validator-wrapped-in-try",
    ),
    pytest.param(
        MCP1,
        """\
        from docx import Document

        @mcp.tool()
        def replace_after(path: str, anchor: str, text: str) -> str:
            doc = Document(path)
            doc.paragraphs[-1].text = ""
            doc.save(path)  # expect: MCP004
            doc = Document(path)
            found = None
            for index, paragraph in enumerate(doc.paragraphs):
                if paragraph.text == anchor:
                    found = index
            if found is None:
                raise ToolError(f"anchor {anchor!r} not found; call list_paragraphs")
            return "replaced"
        """,
        "calls doc.save(), then rejects the call at line 30",
        id="save-then-reload-then-check-on-what-existed",
    ),
    pytest.param(
        MCP1,
        """\
        def api_call(path: str, method: str = "GET", body: dict | None = None) -> dict:
            return {}

        @mcp.tool()
        def add_vectors(store, ids: list[str], vectors: list[list[float]]) -> str:
            store.collection.add(ids=ids, embeddings=vectors)  # expect: MCP004
            api_call("/stats", method="POST", body={"added": len(ids)})
            if len(ids) != len(vectors):
                return {"success": False, "error": "ids and vectors must have the same length"}  # expect: MCP005
            return "added"
        """,
        "calls store.collection.add(), then rejects",
        id="store-handle-add-then-error-dict",
    ),
    pytest.param(
        MCP1,
        """\
        def api_call(path: str, method: str = "GET", body: dict | None = None) -> dict:
            return {}

        @mcp.tool()
        def bump(counter: str) -> str:
            api_call(f"/counters/{counter}", method="POST", body={"by": 1})  # expect: MCP004
            if not counter.isidentifier():
                raise ToolError("counter must be an identifier")
            return "bumped"
        """,
        "sends an HTTP POST, then rejects",
        id="verb-as-keyword",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def import_notes(path: str, replace: bool) -> str:
            if replace:
                db.execute("DELETE FROM notes")
                db.commit()
                return "cleared"
            db.execute("INSERT INTO imports (path) VALUES (?)", (path,))  # expect: MCP004
            if not path.endswith(".json"):
                raise ToolError("path must end with .json")
            return "imported"
        """,
        "writes to the database (INSERT), then rejects the call at line 25",
        id="first-mutation-on-the-path-to-the-check",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        class Wiki:
            def __init__(self, http) -> None:
                self._http = http

            def rename_page(self, page: str, title: str) -> str:
                self._http.patch(f"/pages/{page}", json={"title": title})  # expect: MCP004
                if len(title) > 255:
                    raise ToolError("title must be at most 255 characters")
                return "renamed"

        wiki = Wiki(None)
        mcp.add_tool(wiki.rename_page)
        """,
        "sends an HTTP PATCH, then rejects",
        id="http-patch-on-a-private-client",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def publish_branch(repo, branch: str) -> str:
            repo.git.push("origin", branch)  # expect: MCP004
            if branch.startswith("-"):
                raise ToolError("branch must not start with '-'")
            return "pushed"
        """,
        "calls repo.git.push(), then rejects",
        id="git-push",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        async def put_key(client, key: str, value: str, ttl: int) -> str:
            await client.set(key, value, ex=ttl)  # expect: MCP004
            if ttl <= 0:
                raise ToolError(f"ttl must be positive, got {ttl}")
            return "stored"
        """,
        "writes to a key-value store (client.set), then rejects",
        id="key-value-client-set",
    ),
    pytest.param(
        MCP1,
        """\
        CALLS = 0

        @mcp.tool()
        def count(name: str) -> str:
            global CALLS
            CALLS += 1  # expect: MCP004
            if not name:
                raise ToolError("name must not be empty")
            return str(CALLS)
        """,
        "changes module-level state (CALLS)",
        id="global-counter",
    ),
    pytest.param(
        MCP1_UNMASKED,
        """\
        @mcp.tool()
        def run(command: str) -> str:
            match command.split()[0]:
                case "restart":
                    subprocess.run(["systemctl", "restart", "app"])  # expect: MCP004
                case _:
                    pass
            if ";" in command:
                raise ToolError("command must be a single command")
            return "ok"
        """,
        "runs a subprocess",
        id="mutation-in-match-case",
    ),
    pytest.param(
        MCP1,
        """\
        class TaskService:
            def __init__(self, token: str) -> None:
                self.token = token

            def add_task(self, title: str) -> None:
                ...

        @mcp.tool()
        def add_task(token: str, title: str) -> str:
            tasks = TaskService(token)
            tasks.add_task(title)  # expect: MCP004
            if len(title) > 200:
                raise ToolError("title must be at most 200 characters")
            return "added"
        """,
        "calls tasks.add_task()",
        id="service-object-built-here",
    ),
    pytest.param(
        MCP1,
        """\
        class TodoClient:
            def add_task(self, title: str) -> None:
                ...

        @mcp.tool()
        def add_todo(title: str) -> str:
            todo = TodoClient()
            todo.add_task(title)  # expect: MCP004
            if not title.strip():
                raise ToolError("title must not be blank")
            return "added"
        """,
        "calls todo.add_task()",
        id="client-built-here",
    ),
]


@pytest.mark.parametrize(("header", "body", "fragment"), SHAPES)
def test_shapes_of_real_servers(header: str, body: str, fragment: str) -> None:
    assert fragment in said(_only_mcp004(_src(header, body)))


def test_helper_that_mutates_then_rejects_is_reported_in_the_helper() -> None:
    source = """\
    def add_footnote(path: str, text: str, out: str) -> tuple[bool, str]:
        if out != path:
            shutil.copy2(path, out)  # expect: MCP004
        with open(path, "rb") as handle:
            data = handle.read()
        if text not in data.decode():
            return False, f"Text {text!r} not found in the document"
        return True, "added"

    @mcp.tool()
    def footnote(path: str, text: str, out: str) -> str:
        ok, message = add_footnote(path, text, out)
        return message  # expect: MCP005
    """
    finding = _only_mcp004(_src(MCP1_UNMASKED, source))
    assert finding.message.startswith(
        "Helper 'add_footnote' changes files (copy2), then rejects the call at line 23"
    )


def test_helper_in_another_module_that_writes(tmp_path) -> None:
    from ._support import lint_tree, write_tree

    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/store.py": """\
            from pathlib import Path

            def save_doc(name: str, text: str) -> None:
                Path("/srv", name).write_text(text)
            """,
            "app/server.py": """\
            from mcp.server.fastmcp import FastMCP
            from mcp.server.fastmcp.exceptions import ToolError

            from app.store import save_doc

            mcp = FastMCP("docs")

            @mcp.tool()
            def publish(name: str, text: str) -> str:
                save_doc(name, text)
                if not name.endswith(".md"):
                    raise ToolError("name must end with .md")
                return "published"
            """,
        },
    )
    findings = [f for f in lint_tree(tmp_path) if f.code == "MCP004"]
    # At the write, in the helper's module; the tool's call and its check are related places.
    assert [(f.filename.endswith("store.py"), f.location.row) for f in findings] == [(True, 4)]
    assert findings[0].message == "Helper 'save_doc' changes files (write_text) here; tool 'publish' then rejects the call at line 11"
    assert findings[0].help == "Move the check above the first mutation"
    assert [(r.filename.endswith("server.py"), r.location.row) for r in findings[0].related] == [(True, 10), (True, 11)]
    # The fix would move the tool's check, in another file than the finding's: not offered there.
    assert findings[0].fix is None


def test_closing_a_shared_connection_before_a_validator_helper() -> None:
    source = """\
    class Database:
        def __init__(self) -> None:
            self.conn = None
            self.token = None

        def _resolve(self, path: str, token: str | None) -> str:
            if path.startswith("md:") and not token:
                raise ValueError("md: paths need a token")
            return path

        def switch(self, path: str) -> None:
            if self.conn is not None:
                self.conn.close()  # expect: MCP004
                self.conn = None
            self.path = self._resolve(path, self.token)

    database = Database()

    @mcp.tool()
    def switch_database(path: str) -> str:
        database.switch(path)
        return "switched"
    """
    finding = _only(_src(MCP1, source))
    assert "closes self.conn, then rejects the call at line 32" in said(finding)
    assert finding.fix is None


def test_fix_for_a_check_reading_a_name_set_in_between_is_display_only() -> None:
    source = """\
    @mcp.tool()
    def rename(note_id: str, title: str) -> str:
        db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))  # expect: MCP004
        clean = title.strip()
        if not clean:
            raise ToolError("title must not be blank")
        return "renamed"
    """
    finding = _only_mcp004(_src(MCP1_UNMASKED, source))
    assert finding.fix is not None and finding.fix.applicability.value == "display-only"


@pytest.mark.parametrize("move", ["(ROOT / name).replace(ROOT / new_name)", "(ROOT / name).rename(target=ROOT / new_name)"])
def test_a_path_moved_before_a_check_is_still_a_file_change(move: str) -> None:
    source = f"""\
    @mcp.tool()
    def move_note(name: str, new_name: str) -> str:
        {move}  # expect: MCP004
        if not new_name.endswith(".md"):
            raise ToolError("new_name must end with .md")
        return "moved"
    """
    finding = _only_mcp004(_src(SILENT_HEADER, source))
    assert "changes files (" in said(finding)


def test_no_fix_for_an_else_branch() -> None:
    source = """\
    @mcp.tool()
    def upload(path: str, kind: str) -> str:
        os.remove(path)  # expect: MCP004
        if kind == "a":
            return "a"
        else:
            raise ToolError("kind must be 'a'")
    """
    assert _only_mcp004(_src(MCP1_UNMASKED, source)).fix is None


SILENT_SHAPES = [
    pytest.param(
        SILENT_HEADER,
        """\
        @mcp.tool()
        def reword(text: str, old: str, new: str) -> str:
            result = text.replace(old, new)
            if not result:
                raise ToolError("the result would be empty")
            return result
        """,
        id="str-replace-is-not-a-file-write",
    ),
    pytest.param(
        SILENT_HEADER + "from datetime import datetime, timezone\n",
        """\
        @mcp.tool()
        async def list_messages(chat: str, since: datetime) -> str:
            start = since.replace(tzinfo=timezone.utc)
            table = TABLE.rename(columns={"ts": "time"})
            if not chat.startswith("@"):
                raise ToolError(f"chat must be an @handle, got {chat}")
            return table.since(start)
        """,
        id="datetime-replace-and-frame-rename-are-new-values",
    ),
    pytest.param(
        unmasked(SILENT_HEADER),
        """\
        def load(name: str) -> str:
            return (ROOT / name).read_text()

        @mcp.tool()
        def show(name: str) -> str:
            text = load(name)
            if not name.endswith(".md"):
                raise ToolError("name must end with .md")
            return text
        """,
        id="helper-that-only-reads",
    ),
    pytest.param(
        unmasked(SILENT_HEADER),
        """\
        @mcp.tool()
        def submit(job: str) -> str:
            resp = requests.post("https://jobs.example.com", json={"job": job})
            ok = False
            if resp.status_code == 200:
                ok = True
            if not ok:
                raise ToolError("the job service refused the job; see list_jobs")
            return "submitted"
        """,
        id="flag-set-under-the-results-condition",
    ),
    pytest.param(
        SILENT_HEADER,
        """\
        @mcp.tool()
        def save(path: str, text: str, dry_run: bool) -> str:
            if not dry_run:
                Path(path).write_text(text)
                return "saved"
            if not text:
                raise ToolError("text must not be empty")
            return "would save"
        """,
        id="mutating-branch-returns-first",
    ),
    pytest.param(
        SILENT_HEADER,
        """\
        @mcp.tool()
        def save(path: str, text: str, force: bool) -> str:
            if force:
                Path(path).write_text(text)
            else:
                raise ToolError("pass force=True to overwrite")
            return "saved"
        """,
        id="check-in-the-other-branch",
    ),
    pytest.param(
        unmasked(SILENT_HEADER),
        """\
        @mcp.tool()
        def can_write(path: str) -> str:
            with open(path, "a"):
                pass
            if not path.endswith(".log"):
                raise ToolError("path must end with .log")
            return "writable"
        """,
        id="append-mode-probe-writes-nothing",
    ),
    pytest.param(
        SILENT_HEADER,
        """\
        @mcp.tool()
        def dedupe(items: list[str]) -> str:
            seen = set()
            for item in items:
                seen.add(item)
            if len(seen) > 100:
                raise ToolError("at most 100 distinct items")
            return ",".join(sorted(seen))
        """,
        id="local-set-add",
    ),
    pytest.param(
        SILENT_HEADER,
        """\
        _TOKEN_CACHE: dict[str, str] = {}

        @mcp.tool()
        def whoami(token: str) -> str:
            _TOKEN_CACHE[token] = "seen"
            if not token.startswith("tok_"):
                raise ToolError("token must start with tok_")
            return "ok"
        """,
        id="cache-bookkeeping",
    ),
    pytest.param(
        SILENT_HEADER,
        """\
        @mcp.tool()
        async def crunch(n: int) -> str:
            task = asyncio.create_task(asyncio.sleep(0))
            if n < 0:
                raise ToolError("n must be >= 0")
            await task
            return "done"
        """,
        id="create-task-is-not-state",
    ),
    pytest.param(
        unmasked(SILENT_HEADER),
        """\
        @mcp.tool()
        def retitle(note_id: int, title: str) -> str:
            cursor = db.cursor()
            cursor.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))
            if cursor.rowcount == 0:
                raise ToolError(f"Note {note_id} not found; call list_notes")
            db.commit()
            return "retitled"
        """,
        id="post-check-on-the-cursor",
    ),
    pytest.param(
        SILENT_HEADER,
        """\
        @mcp.tool()
        def edit_comment(api, issue: str, comment_id: str, body: str, rich: bool) -> dict:
            if rich:
                result = api.put_comment(issue, comment_id, {"doc": body})
            else:
                result = {"id": comment_id, "body": body}
            if not isinstance(result, dict):
                raise ToolError("the tracker answered with something else than a comment")
            return result
        """,
        id="check-on-the-result-assigned-in-one-branch",
    ),
    pytest.param(
        SILENT_HEADER,
        """\
        def merge_overrides(config: dict, overrides: dict) -> None:
            config.update(overrides)

        @mcp.tool()
        def query(sql: str, overrides: dict) -> str:
            client_config = {"host": "localhost"}
            merge_overrides(client_config, overrides)
            if not sql.strip():
                raise ToolError("sql must not be empty")
            return "ok"
        """,
        id="updating-a-config-dict-is-not-a-store",
    ),
    pytest.param(
        unmasked(SILENT_HEADER),
        """\
        import time

        @mcp.tool()
        def download(url: str, dest: str, budget: float) -> str:
            os.makedirs(dest, exist_ok=True)
            deadline = time.monotonic() + 30
            for attempt in range(3):
                left = deadline - time.monotonic()
                if left < 1.0:
                    raise ToolError("the download timed out after 30 seconds; call download again")
            return "downloaded"
        """,
        id="check-on-a-value-made-after-the-mutation",
    ),
    pytest.param(
        SILENT_HEADER,
        """\
        _client = None

        @mcp.tool()
        def whoami(token: str) -> str:
            global _client
            if _client is None:
                _client = object()
            if not token.startswith("tok_"):
                raise ToolError("token must start with tok_")
            return "ok"
        """,
        id="lazy-global-set-up",
    ),
    pytest.param(
        unmasked(SILENT_HEADER),
        """\
        @mcp.tool()
        def make_dir(path: str) -> str:
            os.makedirs(path, exist_ok=True)
            if not os.path.isdir(path):
                raise ToolError(f"{path} could not be created; pass a writable path")
            return "created"
        """,
        id="post-check-on-the-created-path",
    ),
    pytest.param(
        unmasked(SILENT_HEADER),
        """\
        def check_title(title: str) -> None:
            if not title:
                raise ValueError("title must not be empty")

        @mcp.tool()
        def add(title: str) -> str:
            cur = db.execute("INSERT INTO notes (title) VALUES (?)", (title,))
            check_title(cur.lastrowid)
            return "added"
        """,
        id="validator-on-the-mutations-result",
    ),
    pytest.param(
        SILENT_HEADER,
        """\
        class ValidationReport:
            def __init__(self) -> None:
                self.errors: list[str] = []

            def add_error(self, field: str, message: str) -> None:
                self.errors.append(f"{field}: {message}")

        @mcp.tool()
        def validate_schema(schema: dict, strict: bool = False) -> str:
            report = ValidationReport()
            if "tables" not in schema:
                report.add_error("tables", "the schema names no table")
            if strict and "version" not in schema:
                raise ToolError("a strict validation needs the schema's version")
            return f"{len(report.errors)} problem(s) found"
        """,
        id="filling-in-a-result-object-built-here",
    ),
]


@pytest.mark.parametrize(("header", "body"), SILENT_SHAPES)
def test_silent_shapes(header: str, body: str) -> None:
    _check(_src(header, body))


def test_noqa_on_the_mutation_line_suppresses() -> None:
    source = """\
    @mcp.tool()
    def clean(path: str) -> str:
        os.remove(path)  # noqa: MCP004 - the file is a scratch copy
        if not path.endswith(".tmp"):
            raise ToolError("only .tmp files may be removed")
        return "removed"
    """
    _check(_src(MCP1_UNMASKED, source))


def test_no_applied_fix_when_the_check_reads_a_name_set_inside_the_mutating_block() -> None:
    source = """\
    @mcp.tool()
    def load(path: str) -> str:
        with open(path) as handle:
            text = handle.read()
            db.execute("INSERT INTO loads (path) VALUES (?)", (path,))  # expect: MCP004
        if not text:
            raise ToolError(f"{path} is empty; pass a file with content")
        return "loaded"
    """
    finding = _only_mcp004(_src(MCP1_UNMASKED, source))
    assert finding.fix is not None and finding.fix.applicability.value == "display-only"
