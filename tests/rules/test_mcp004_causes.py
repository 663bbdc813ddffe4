"""MCP004: each cause of a missed defect or a false alarm, one case that must be flagged and one
that must not.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the
exact set of MCP004 rows (the other rules' findings on these snippets are theirs to test).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mcp_lint.findings import Finding
from mcp_lint.pipeline import lint_source

from ._support import expected, lint_tree, write_tree

HEADER = """\
import os
import sqlite3
import subprocess
from datetime import timedelta
from pathlib import Path

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("svc")
db = sqlite3.connect("svc.db")
NOTES: dict[str, dict] = {}
ROOT = Path("/srv/notes")
"""


def _mcp004(body: str) -> list[Finding]:
    """Lint HEADER + body; assert MCP004 is reported exactly on the marked rows."""
    source = HEADER + "\n" + textwrap.dedent(body)
    findings = [f for f in lint_source(source, filename="server.py") if f.code == "MCP004"]
    want = {row for code, row in expected(source) if code == "MCP004"}
    assert {f.location.row for f in findings} == want, [(f.location.row, f.message) for f in findings]
    return findings


def case(id_: str, body: str) -> object:
    return pytest.param(body, id=id_)


CAUSES = [
    # -- checks inside `except` clauses ---------------------------------------------------------
    case(
        "except-clause-check-after-a-write",
        """\
        from datetime import datetime

        @mcp.tool()
        def reschedule(note_id: str, when: str) -> str:
            NOTES[note_id]["when"] = when  # expect: MCP004
            try:
                datetime.fromisoformat(when)
            except ValueError:
                raise ToolError(f"when must be an ISO date, got {when!r}")
            return "rescheduled"
        """,
    ),
    case(
        "except-clause-reporting-the-mutations-own-failure",
        """\
        @mcp.tool()
        def publish(path: str) -> str:
            try:
                subprocess.run(["publish", path], check=True)
                print("published", path)
            except subprocess.CalledProcessError as e:
                raise ToolError(f"publish exited with {e.returncode}; fix the file and publish again") from e
            except Exception as e:
                raise ToolError("publishing failed; see the server log") from e
            return "published"
        """,
    ),
    # -- loop-carried order -----------------------------------------------------------------------
    case(
        "write-late-in-a-loop-before-the-next-turns-check",
        """\
        @mcp.tool()
        def import_titles(titles: list[str]) -> str:
            for title in titles:
                if len(title) > 80:
                    raise ToolError(f"title {title!r} is longer than 80 characters; nothing after it was imported")
                db.execute("INSERT INTO notes (title) VALUES (?)", (title,))  # expect: MCP004
            return "imported"
        """,
    ),
    case(
        "every-item-checked-in-a-loop-before-the-writing-loop",
        """\
        @mcp.tool()
        def import_titles(titles: list[str]) -> str:
            for title in titles:
                if len(title) > 80:
                    raise ToolError(f"title {title!r} is longer than 80 characters")
            for title in titles:
                db.execute("INSERT INTO notes (title) VALUES (?)", (title,))
            return "imported"
        """,
    ),
    # -- a raise an enclosing `except` turns into a per-item error entry ----------------------------
    case(
        "raise-caught-and-reported-per-item",
        """\
        @mcp.tool()
        def tag_all(ids: list[str], tag: str) -> dict:
            errors = []
            for note_id in ids:
                try:
                    NOTES[note_id]["tag"] = tag
                    if not tag.isidentifier():
                        raise ValueError("tag must be one word")
                except ValueError as e:
                    errors.append({"id": note_id, "error": "tag must be one word"})
            return {"errors": errors}
        """,
    ),
    case(
        "raise-caught-and-turned-into-a-tool-error",
        """\
        @mcp.tool()
        def tag_all(ids: list[str], tag: str) -> dict:
            for note_id in ids:
                try:
                    NOTES[note_id]["tag"] = tag  # expect: MCP004
                    if not tag.isidentifier():
                        raise ValueError("tag must be one word")
                except ValueError as e:
                    raise ToolError(f"tag must be one word, got {tag!r}") from e
            return {"tagged": len(ids)}
        """,
    ),
    # -- value flow on the graph ------------------------------------------------------------------
    case(
        "a-name-the-write-set-then-reassigned-from-the-arguments-on-every-path",
        """\
        @mcp.tool()
        def store(note_id: int, text: str, fmt: str) -> str:
            body = db.execute("INSERT INTO notes (id, text) VALUES (?, ?)", (note_id, text))  # expect: MCP004
            if fmt == "md":
                body = text.strip()
            else:
                body = text
            if len(body) > 1000:
                raise ToolError("text must be at most 1000 characters")
            return "stored"
        """,
    ),
    case(
        "a-name-the-write-set-reassigned-on-one-path-only",
        """\
        @mcp.tool()
        def store(note_id: int, text: str, fmt: str) -> str:
            body = db.execute("INSERT INTO notes (id, text) VALUES (?, ?)", (note_id, text))
            if fmt == "md":
                body = text.strip()
            if not body:
                raise ToolError("the note was not stored; call list_notes before storing it again")
            return "stored"
        """,
    ),
    # -- checks that call something ---------------------------------------------------------------
    case(
        "check-computing-with-timedelta",
        """\
        @mcp.tool()
        def snooze(note_id: str, days: int) -> str:
            NOTES[note_id]["snooze"] = days  # expect: MCP004
            if timedelta(days=days) > timedelta(days=30):
                raise ToolError("a note can be snoozed for at most 30 days")
            return "snoozed"
        """,
    ),
    case(
        "check-resolving-a-path",
        """\
        @mcp.tool()
        def attach(note_id: str, path: str) -> str:
            NOTES[note_id]["file"] = path  # expect: MCP004
            if not Path(path).resolve().is_relative_to(ROOT):
                raise ToolError(f"{path} is outside {ROOT}; pass a file under it")
            return "attached"
        """,
    ),
    case(
        "check-asking-the-store-again-is-a-post-check",
        """\
        @mcp.tool()
        async def put(store, key: str, value: str) -> str:
            await store.set(key, value)
            if not await store.exists(key):
                raise ToolError(f"the store did not keep {key}; try again later")
            return "stored"
        """,
    ),
    # -- rejections built by helpers or worded as nothing to do -------------------------------------
    case(
        "rejection-built-by-a-helper-with-a-flag",
        """\
        def _result(text: str, error: bool = False) -> dict:
            return {"text": text, "is_error": error}

        @mcp.tool()
        def retitle(note_id: str, title: str) -> dict:
            NOTES[note_id]["title"] = title  # expect: MCP004
            if len(title) > 80:
                return _result("title must be at most 80 characters", error=True)
            return _result("retitled")
        """,
    ),
    case(
        "rejection-built-by-a-fail-helper",
        """\
        def _fail(message: str) -> dict:
            return {"error": message}

        @mcp.tool()
        def retitle(note_id: str, title: str) -> dict:
            NOTES[note_id]["title"] = title  # expect: MCP004
            if len(title) > 80:
                return _fail("title must be at most 80 characters")
            return {"ok": True}
        """,
    ),
    case(
        "nothing-to-update-wording",
        """\
        @mcp.tool()
        def update_note(note_id: str, fields: dict) -> str:
            NOTES[note_id].update(fields)  # expect: MCP004
            if not fields:
                return "No fields to update"
            return "updated"
        """,
    ),
    case(
        "no-data-provided-wording",
        """\
        @mcp.tool()
        def update_note(note_id: str, fields: dict) -> str:
            NOTES[note_id].update(fields)  # expect: MCP004
            if not fields:
                return "No data provided"
            return "updated"
        """,
    ),
    case(
        "a-normal-result-after-a-write",
        """\
        def _result(text: str, error: bool = False) -> dict:
            return {"text": text, "is_error": error}

        @mcp.tool()
        def update_note(note_id: str, fields: dict) -> dict:
            NOTES[note_id].update(fields)
            if not fields:
                return _result("Saved; the note has no fields yet")
            return _result("updated")
        """,
    ),
    # -- post-checks: what M's effect is, read back -------------------------------------------------
    case(
        "path-name-is-not-the-file-written",
        """\
        @mcp.tool()
        def save(name: str, text: str) -> str:
            path = ROOT / name
            path.write_text(text)  # expect: MCP004
            if path.suffix != ".md":
                raise ToolError(f"{name} must end with .md")
            return "saved"
        """,
    ),
    case(
        "the-file-written-read-back",
        """\
        @mcp.tool()
        def save(name: str, text: str) -> str:
            path = ROOT / name
            path.write_text(text)
            if not path.exists():
                raise ToolError(f"{path} was not written; check the disk and save again")
            return "saved"
        """,
    ),
    case(
        "another-tables-select-through-the-same-handle",
        """\
        @mcp.tool()
        def assign(note_id: int, user: str) -> str:
            db.execute("UPDATE notes SET owner = ? WHERE id = ?", (user, note_id))  # expect: MCP004
            row = db.execute("SELECT id FROM users WHERE name = ?", (user,)).fetchone()
            if row is None:
                raise ToolError(f"No user named {user!r}; call list_users")
            return "assigned"
        """,
    ),
    case(
        "the-written-tables-select-through-the-same-handle",
        """\
        @mcp.tool()
        def assign(note_id: int, user: str) -> str:
            db.execute("UPDATE notes SET owner = ? WHERE id = ?", (user, note_id))
            row = db.execute("SELECT owner FROM notes WHERE id = ?", (note_id,)).fetchone()
            if row is None:
                raise ToolError(f"Note {note_id} does not exist; call list_notes")
            return "assigned"
        """,
    ),
    case(
        "files-a-subprocess-wrote-found-by-glob",
        """\
        @mcp.tool()
        def render(src: str, out_dir: str) -> str:
            subprocess.run(["render", src, "--out", out_dir], check=True)
            pages = sorted(Path(out_dir).glob("*.png"))
            if not pages:
                raise ToolError(f"rendering {src} produced no pages; check that it is a document")
            return f"{len(pages)} pages"
        """,
    ),
    case(
        "a-subprocess-then-a-check-of-the-argument",
        """\
        @mcp.tool()
        def render(src: str, out_dir: str) -> str:
            subprocess.run(["render", src, "--out", out_dir], check=True)  # expect: MCP004
            if not src.endswith(".pdf"):
                raise ToolError(f"{src} is not a PDF; pass a .pdf file")
            return "rendered"
        """,
    ),
    case(
        "result-of-a-call-made-after-it",
        """\
        @mcp.tool()
        async def create_issue(client: httpx.AsyncClient, title: str) -> str:
            await client.post("https://tracker.example.com/issues", json={"title": title})
            issues = (await client.get("https://tracker.example.com/issues")).json()
            if title not in [issue["title"] for issue in issues]:
                raise ToolError("the tracker did not list the new issue; call list_issues before creating it again")
            return "created"
        """,
    ),
    # -- a later change's result is its outcome ---------------------------------------------------
    case(
        "a-later-changes-result-through-self-is-its-outcome",
        """\
        class Repo:
            def _run_git(self, *args: str) -> subprocess.CompletedProcess:
                return subprocess.run(["git", *args], capture_output=True, text=True)

            def commit(self, message: str) -> None:
                self._run_git("add", "-A")
                result = self._run_git("commit", "-m", message)
                if result.returncode != 0:
                    raise ToolError(f"git commit failed: {result.stderr}")

        repo = Repo()

        @mcp.tool()
        def save(message: str) -> str:
            repo.commit(message)
            return "saved"
        """,
    ),
    # -- a helper's raise after its early returns, reached by `return helper(x)` -----------------------
    case(
        "returned-converter-raises-after-its-early-returns",
        """\
        class Text:
            text = ""

        def _only_text(parts: list) -> str:
            if not parts:
                return ""
            first = parts[0]
            if isinstance(first, Text):
                return first.text
            raise ToolError(f"expected text, got {type(first).__name__}")

        @mcp.tool()
        def rewrite(path: str, parts: list, edited: str) -> str:
            Path(path).write_text(edited)  # expect: MCP004
            return _only_text(parts)
        """,
    ),
    case(
        "returned-converter-of-the-writes-own-result",
        """\
        class Text:
            text = ""

        def _only_text(parts: list) -> str:
            if not parts:
                return ""
            first = parts[0]
            if isinstance(first, Text):
                return first.text
            raise ToolError(f"expected text, got {type(first).__name__}")

        @mcp.tool()
        def rewrite(path: str, edited: str) -> str:
            written = httpx.post("https://files.example.com/rewrite", json={"path": path, "text": edited})
            return _only_text(written.json()["parts"])
        """,
    ),
    case(
        "returned-helper-whose-early-returns-ask-the-world",
        """\
        def _require_indexed(name: str) -> str:
            if db.execute("SELECT 1 FROM notes WHERE name = ?", (name,)).fetchone():
                return name
            raise ToolError(f"{name} is not indexed")

        @mcp.tool()
        def rewrite(path: str, edited: str) -> str:
            Path(path).write_text(edited)
            return _require_indexed(path)
        """,
    ),
    # -- a read with a change as its fallback; a new document built in memory -----------------------
    case(
        "get-or-create-helper-creates-before-the-check",
        """\
        import json

        def _create_book(path: str) -> dict:
            book = {"sheets": []}
            Path(path).write_text(json.dumps(book))  # expect: MCP004
            return book

        def get_or_create_book(path: str) -> dict:
            try:
                return json.loads(Path(path).read_text())
            except FileNotFoundError:
                return _create_book(path)

        @mcp.tool()
        def add_sheet(path: str, sheet: str) -> str:
            book = get_or_create_book(path)
            if not sheet.isidentifier():
                raise ToolError("sheet must be one word")
            return f"{len(book['sheets'])} sheets"
        """,
    ),
    case(
        "get-or-create-with-no-arguments-is-lazy-set-up",
        """\
        import json

        def _create_book() -> dict:
            book = {"sheets": []}
            (ROOT / "book.json").write_text(json.dumps(book))
            return book

        def get_or_create_book() -> dict:
            try:
                return json.loads((ROOT / "book.json").read_text())
            except FileNotFoundError:
                return _create_book()

        @mcp.tool()
        def add_sheet(sheet: str) -> str:
            book = get_or_create_book()
            if not sheet.isidentifier():
                raise ToolError("sheet must be one word")
            return f"{len(book['sheets'])} sheets"
        """,
    ),
    case(
        "get-helper-only-reads-before-the-check",
        """\
        import json

        def get_book(path: str) -> dict:
            try:
                return json.loads(Path(path).read_text())
            except FileNotFoundError:
                return {"sheets": []}

        @mcp.tool()
        def add_sheet(path: str, sheet: str) -> str:
            book = get_book(path)
            if not sheet.isidentifier():
                raise ToolError("sheet must be one word")
            return f"{len(book['sheets'])} sheets"
        """,
    ),
    case(
        "new-document-edited-then-rejected-before-its-save",
        """\
        from ledgerdoc import Workbook

        @mcp.tool()
        def new_book(path: str, sheet: str) -> str:
            wb = Workbook()
            wb.create_sheet(sheet)
            if not sheet.isidentifier():
                raise ToolError("sheet must be one word")
            wb.save(path)
            return "created"
        """,
    ),
    case(
        "new-document-saved-then-rejected",
        """\
        from ledgerdoc import Workbook

        @mcp.tool()
        def new_book(path: str, sheet: str) -> str:
            wb = Workbook()
            wb.create_sheet(sheet)
            wb.save(path)  # expect: MCP004
            if not sheet.isidentifier():
                raise ToolError("sheet must be one word")
            return "created"
        """,
    ),
    # -- implicit checks: a parser of the argument raises after the change -------------------------
    case(
        "parser-of-an-argument-raises-after-the-write",
        """\
        import json
        from datetime import datetime

        @mcp.tool()
        def schedule(note_id: str, start: str, extra: str) -> str:
            (ROOT / f"{note_id}.md").write_text("scheduled")  # expect: MCP004
            when = datetime.fromisoformat(start)
            fields = json.loads(extra)
            return f"scheduled at {when} with {len(fields)} fields"
        """,
    ),
    case(
        "parser-failure-taken-by-a-clause-that-goes-on",
        """\
        from datetime import datetime

        @mcp.tool()
        def schedule(note_id: str, start: str) -> str:
            (ROOT / f"{note_id}.md").write_text("scheduled")
            try:
                when = datetime.fromisoformat(start)
            except ValueError:
                when = None
            return f"scheduled at {when}"
        """,
    ),
    case(
        "parser-of-the-mutations-own-response",
        """\
        import json

        @mcp.tool()
        def create(title: str) -> str:
            resp = httpx.post("https://tracker.example.com/issues", json={"title": title})
            created = json.loads(resp.text)
            return f"created {created['id']}"
        """,
    ),
    case(
        "parser-before-the-write",
        """\
        from datetime import datetime

        @mcp.tool()
        def schedule(note_id: str, start: str) -> str:
            when = datetime.fromisoformat(start)
            (ROOT / f"{note_id}.md").write_text(f"scheduled at {when}")
            return "scheduled"
        """,
    ),
    # -- mutations recognised by what they do, not by names ------------------------------------------
    case(
        "key-value-set-on-a-client",
        """\
        import kvstore
        r = kvstore.Client()

        @mcp.tool()
        def remember(key: str, value: str) -> str:
            r.set(key, value)  # expect: MCP004
            if len(key) > 64:
                raise ToolError("key must be at most 64 characters")
            return "remembered"
        """,
    ),
    case(
        "one-argument-set-is-no-store-write",
        """\
        from contextvars import ContextVar
        current: ContextVar[str] = ContextVar("current")

        @mcp.tool()
        def remember(key: str) -> str:
            current.set(key)
            if len(key) > 64:
                raise ToolError("key must be at most 64 characters")
            return "remembered"
        """,
    ),
    case(
        "store-verbs-on-a-client-from-a-factory-whatever-its-name",
        """\
        import kvstore
        r = kvstore.Cache.from_url("kv://localhost")

        @mcp.tool()
        def forget(key: str, reason: str) -> str:
            r.hdel("notes", key)  # expect: MCP004
            if not reason.strip():
                raise ToolError("reason must not be blank")
            return "forgotten"
        """,
    ),
    case(
        "store-verbs-on-a-local-client-from-connect",
        """\
        import kvstore

        @mcp.tool()
        def tag(key: str, label: str) -> str:
            bucket_of_tags = kvstore.connect("kv://localhost")
            bucket_of_tags.sadd(key, label)  # expect: MCP004
            if len(label) > 32:
                raise ToolError("label must be at most 32 characters")
            return "tagged"
        """,
    ),
    case(
        "a-client-made-after-the-change-asked-about-another-thing",
        """\
        import kvstore

        @mcp.tool()
        def attach(name: str, server_url: str, folder: str) -> str:
            NOTES.pop(name, None)  # expect: MCP004
            files = kvstore.FolderClient(server_url)
            listing = files.contents.list_folder(folder)
            if name not in listing:
                return f"Error: {name} is not in {folder}; call list_folder first"
            return "attached"
        """,
    ),
    case(
        "store-verbs-on-a-value-not-from-a-factory",
        """\
        import kvstore
        r = kvstore.Settings(path="kv.toml")

        @mcp.tool()
        def forget(key: str, reason: str) -> str:
            r.hdel("notes", key)
            if not reason.strip():
                raise ToolError("reason must not be blank")
            return "forgotten"
        """,
    ),
    case(
        "add-on-a-collection-obtained-from-a-client",
        """\
        @mcp.tool()
        def add_doc(client, name: str, doc_id: str, text: str) -> str:
            col = client.get_collection(name)
            col.add(ids=[doc_id], documents=[text])  # expect: MCP004
            if not text.strip():
                raise ToolError("text must not be blank")
            return "added"
        """,
    ),
    case(
        "add-on-a-local-set",
        """\
        @mcp.tool()
        def add_doc(doc_ids: list[str]) -> str:
            seen = set()
            for doc_id in doc_ids:
                seen.add(doc_id)
            if len(seen) != len(doc_ids):
                raise ToolError("doc_ids must be distinct")
            return "ok"
        """,
    ),
    case(
        "sql-text-held-in-a-variable",
        """\
        @mcp.tool()
        def retitle(note_id: int, title: str) -> str:
            statement = "UPDATE notes SET title = ? WHERE id = ?"
            db.execute(statement, (title, note_id))  # expect: MCP004
            if len(title) > 80:
                raise ToolError("title must be at most 80 characters")
            return "retitled"
        """,
    ),
    case(
        "select-text-held-in-a-variable",
        """\
        @mcp.tool()
        def show(note_id: int, fmt: str) -> str:
            statement = "SELECT title FROM notes WHERE id = ?"
            row = db.execute(statement, (note_id,)).fetchone()
            if fmt not in ("text", "json"):
                raise ToolError("fmt must be text or json")
            return str(row)
        """,
    ),
    case(
        "composed-sql",
        """\
        from psycopg import sql

        @mcp.tool()
        def drop_rows(conn, table: str, before: int) -> str:
            conn.execute(sql.SQL("DELETE FROM {} WHERE id < %s").format(sql.Identifier(table)), (before,))  # expect: MCP004
            if before < 0:
                raise ToolError("before must be >= 0")
            return "dropped"
        """,
    ),
    case(
        "composed-select",
        """\
        from psycopg import sql

        @mcp.tool()
        def count_rows(conn, table: str, before: int) -> str:
            row = conn.execute(sql.SQL("SELECT count(*) FROM {} WHERE id < %s").format(sql.Identifier(table)), (before,))
            if before < 0:
                raise ToolError("before must be >= 0")
            return str(row)
        """,
    ),
    case(
        "in-place-change-through-a-local-alias-of-module-state",
        """\
        @mcp.tool()
        def retitle(note_id: str, title: str) -> str:
            note = NOTES.get(note_id)
            note.update({"title": title})  # expect: MCP004
            if len(title) > 80:
                raise ToolError("title must be at most 80 characters")
            return "retitled"
        """,
    ),
    case(
        "change-of-a-copy-of-module-state",
        """\
        @mcp.tool()
        def preview(note_id: str, title: str) -> str:
            note = dict(NOTES[note_id])
            note.update({"title": title})
            if len(title) > 80:
                raise ToolError("title must be at most 80 characters")
            return str(note)
        """,
    ),
    case(
        "verb-passed-to-a-project-helper-that-sends",
        """\
        def _tracker(method: str, path: str, body: dict | None = None) -> dict:
            return httpx.request(method, "https://tracker.example.com" + path, json=body).json()

        @mcp.tool()
        def close_issue(issue: str, reason: str) -> str:
            _tracker("POST", f"/issues/{issue}/close", {"reason": reason})  # expect: MCP004
            if reason not in ("done", "wontfix"):
                raise ToolError("reason must be done or wontfix")
            return "closed"
        """,
    ),
    case(
        "get-passed-to-a-project-helper-that-sends",
        """\
        def _tracker(method: str, path: str, body: dict | None = None) -> dict:
            return httpx.request(method, "https://tracker.example.com" + path, json=body).json()

        @mcp.tool()
        def show_issue(issue: str, fmt: str) -> str:
            data = _tracker("GET", f"/issues/{issue}")
            if fmt not in ("text", "json"):
                raise ToolError("fmt must be text or json")
            return str(data)
        """,
    ),
    case(
        "verb-given-to-a-helper-that-sends-no-request",
        """\
        def allowed(action: str, resource: str) -> bool:
            return action in ("GET", "DELETE") and bool(resource)

        @mcp.tool()
        def drop_note(note_id: str, reason: str) -> str:
            permitted = allowed("DELETE", note_id)
            if reason not in ("done", "wontfix"):
                raise ToolError("reason must be done or wontfix")
            return str(permitted)
        """,
    ),
    case(
        "verb-set-on-a-request-builder",
        """\
        @mcp.tool()
        def purge(http, key: str) -> str:
            http.new_request().method("DELETE").url(f"https://cache.example.com/{key}").send()  # expect: MCP004
            if not key.isalnum():
                raise ToolError("key must be alphanumeric")
            return "purged"
        """,
    ),
    case(
        "verb-assigned-on-a-built-request",
        """\
        import urllib.request

        @mcp.tool()
        def purge(key: str) -> str:
            req = urllib.request.Request(f"https://cache.example.com/{key}")
            req.method = "DELETE"
            urllib.request.urlopen(req)  # expect: MCP004
            if not key.isalnum():
                raise ToolError("key must be alphanumeric")
            return "purged"
        """,
    ),
    case(
        "read-verb-on-a-request-builder",
        """\
        @mcp.tool()
        def peek(http, key: str) -> str:
            body = http.new_request().method("GET").url(f"https://cache.example.com/{key}").send()
            if not key.isalnum():
                raise ToolError("key must be alphanumeric")
            return body
        """,
    ),
    case(
        "a-write-subprocess",
        """\
        @mcp.tool()
        def commit(repo: str, message: str) -> str:
            subprocess.run(["git", "commit", "-am", message], cwd=repo, check=True)  # expect: MCP004
            if len(message) > 72:
                raise ToolError("message must be at most 72 characters")
            return "committed"
        """,
    ),
    case(
        "a-read-only-subprocess",
        """\
        @mcp.tool()
        def head(repo: str, ref: str) -> str:
            out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout
            if ref.startswith("-"):
                raise ToolError("ref must not start with '-'")
            return out
        """,
    ),
    case(
        "idempotent-directory-alone",
        """\
        @mcp.tool()
        def list_notes(folder: str) -> str:
            (ROOT / folder).mkdir(parents=True, exist_ok=True)
            if "/" in folder:
                raise ToolError("folder must be one name")
            return ",".join(os.listdir(ROOT / folder))
        """,
    ),
    case(
        "idempotent-directory-as-the-first-step-of-a-write",
        """\
        @mcp.tool()
        def save(folder: str, name: str, text: str) -> str:
            os.makedirs(ROOT / folder, exist_ok=True)  # expect: MCP004
            if not name.endswith(".md"):
                raise ToolError("name must end with .md")
            (ROOT / folder / name).write_text(text)
            return "saved"
        """,
    ),
    # -- a document loaded into memory for this call, edited, rejected before it is saved ----------
    case(
        "in-memory-document-saved-before-the-check",
        """\
        from sheets import load_workbook

        @mcp.tool()
        def add_tab(path: str, tab: str, first_cell: str) -> str:
            book = load_workbook(path)
            page = book.create_page(tab)
            book.save(path)  # expect: MCP004
            if not first_cell[:1].isalpha():
                raise ToolError("first_cell must start with a column letter")
            page.fill(first_cell)
            return "added"
        """,
    ),
    case(
        "in-memory-document-edited-then-rejected-unsaved",
        """\
        from sheets import load_workbook

        @mcp.tool()
        def add_tab(path: str, tab: str, first_cell: str) -> str:
            book = load_workbook(path)
            page = book.create_page(tab)
            part = book[tab]
            part.merge_range(first_cell)
            if not first_cell[:1].isalpha():
                raise ToolError("first_cell must start with a column letter")
            book.save(path)
            return "added"
        """,
    ),
    # -- writing a prompt to a stream the caller handed in -----------------------------------------
    case(
        "stream-parameter-prompt-is-output",
        """\
        from typing import TextIO

        @mcp.tool()
        def confirm_code(code: str, out: TextIO, reply: TextIO) -> str:
            out.write("Type the code shown on the device: ")
            out.flush()
            if len(code) != 6:
                raise ToolError("the code has six digits")
            return reply.readline().strip()
        """,
    ),
    case(
        "file-opened-for-writing-is-still-a-write",
        """\
        from typing import TextIO

        @mcp.tool()
        def confirm_code(code: str, out: TextIO, log_path: str) -> str:
            out.write("Type the code shown on the device: ")
            Path(log_path).write_text(code)  # expect: MCP004
            if len(code) != 6:
                raise ToolError("the code has six digits")
            return "ok"
        """,
    ),
    # -- a pass-through helper: the caller names what is sent, so the write is the caller's -------
    case(
        "pass-through-request-helper-reported-at-the-callers-call",
        """\
        api = httpx.Client(base_url="https://tracker.example")

        def _send(path: str, body: dict) -> dict:
            response = api.post(path, json=body)
            return response.json()

        @mcp.tool()
        def add_label(name: str, colour: str) -> str:
            _send("/labels", {"name": name})  # expect: MCP004
            if not colour.startswith("#"):
                raise ToolError("colour must be a hex code like #aa3300")
            return "added"
        """,
    ),
    case(
        "helper-that-chooses-its-own-request-reported-at-the-write",
        """\
        api = httpx.Client(base_url="https://tracker.example")

        def _create_label(name: str) -> dict:
            response = api.post("/labels", json={"name": name})  # expect: MCP004
            return response.json()

        @mcp.tool()
        def add_label(name: str, colour: str) -> str:
            _create_label(name)
            if not colour.startswith("#"):
                raise ToolError("colour must be a hex code like #aa3300")
            return "added"
        """,
    ),
    case(
        "pass-through-command-helper-reported-at-the-callers-call",
        """\
        def _run_git(args: list[str]) -> str:
            command = ["git"] + args
            return subprocess.run(command, capture_output=True, text=True, check=True).stdout

        @mcp.tool()
        def switch(branch: str, message: str) -> str:
            _run_git(["checkout", branch])  # expect: MCP004
            if len(message) > 72:
                raise ToolError("message subject is at most 72 characters")
            return "switched"
        """,
    ),
    # -- the outcome of a later change is no check that could run first -----------------------------
    case(
        "outcome-of-a-later-commit-is-a-post-check",
        """\
        from vcs_tools import vcs_commit

        def append_note(page: Path, text: str) -> None:
            with page.open("a") as handle:
                handle.write(text)

        @mcp.tool()
        def jot(topic: str, text: str) -> str:
            page = ROOT / f"{topic}.md"
            append_note(page, text)
            committed, detail = vcs_commit(page, f"jot: {topic}")
            if not committed:
                return f"Error: saved but not committed: {detail}"
            return "saved"
        """,
    ),
    case(
        "validator-helper-result-after-the-write-is-a-check",
        """\
        from rules_tools import lint_publish_title

        @mcp.tool()
        def jot(topic: str, text: str) -> str:
            page = ROOT / f"{topic}.md"
            page.write_text(text)  # expect: MCP004
            allowed, detail = lint_publish_title(topic)
            if not allowed:
                return f"Error: {detail}"
            return "saved"
        """,
    ),
    # -- cleanup of an object this call made ------------------------------------------------------
    case(
        "deleting-the-calls-own-object-is-cleanup",
        """\
        class Frame:
            def __init__(self, view: str) -> None:
                self.view = view

            def render(self, out: str) -> None:
                Path(out).write_bytes(self.view.encode())

            def delete(self) -> None:
                self.view = ""

        @mcp.tool()
        def export_view(view: str, out: str) -> str:
            frame = Frame(view)
            frame.delete()
            if not out.endswith(".png"):
                raise ToolError("out must name a .png file")
            return out
        """,
    ),
    case(
        "deleting-an-object-found-in-the-world-is-a-mutation",
        """\
        from viewer import find_frame

        @mcp.tool()
        def drop_view(view: str, out: str) -> str:
            frame = find_frame(view)
            frame.delete()  # expect: MCP004
            if not out.endswith(".png"):
                raise ToolError("out must name a .png file")
            return out
        """,
    ),
    # -- helpers: a mutation under a flag parameter -------------------------------------------------
    case(
        "helper-mutating-only-under-a-flag-no-tool-passes",
        """\
        def store(note_id: str, title: str, commit: bool = False) -> None:
            if commit:
                db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))

        @mcp.tool()
        def preview_title(note_id: str, title: str) -> str:
            store(note_id, title)
            if len(title) > 80:
                raise ToolError("title must be at most 80 characters")
            return "ok"
        """,
    ),
    case(
        "helper-mutating-under-a-flag-the-tool-passes",
        """\
        def store(note_id: str, title: str, commit: bool = False) -> None:
            if commit:
                db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))  # expect: MCP004

        @mcp.tool()
        def set_title(note_id: str, title: str) -> str:
            store(note_id, title, commit=True)
            if len(title) > 80:
                raise ToolError("title must be at most 80 characters")
            return "ok"
        """,
    ),
    case(
        "helper-checking-after-a-write-under-a-flag-no-caller-passes",
        """\
        def save(note_id: str, title: str, dry_run: bool = True) -> str:
            if not dry_run:
                db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))
            if len(title) > 80:
                raise ToolError("title must be at most 80 characters")
            return "saved"

        @mcp.tool()
        def check_title(note_id: str, title: str) -> str:
            return save(note_id, title)
        """,
    ),
    case(
        "helper-checking-after-a-write-under-a-flag-a-caller-passes",
        """\
        def save(note_id: str, title: str, dry_run: bool = True) -> str:
            if not dry_run:
                db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))  # expect: MCP004
            if len(title) > 80:
                raise ToolError("title must be at most 80 characters")
            return "saved"

        @mcp.tool()
        def set_title(note_id: str, title: str) -> str:
            return save(note_id, title, dry_run=False)
        """,
    ),
    # -- an object handed to the mutation, asked afterwards --------------------------------------
    case(
        "check-asking-the-object-the-writing-helper-was-handed-is-a-post-check",
        """\
        class Mailbox:
            def open(self):
                return httpx.Client(base_url="https://mail.example.com")

            def _archive(self, conn, ids: list[int]) -> None:
                conn.post("/archive", json={"ids": ids})

            def empty(self, folder: str) -> str:
                conn = self.open()
                self._archive(conn, [1, 2])
                left = conn.get(f"/folders/{folder}/count").json()["count"]
                if left:
                    raise ToolError(f"{left} messages arrived meanwhile; the folder was kept")
                return "emptied"

        BOX = Mailbox()

        @mcp.tool()
        def empty_folder(folder: str) -> str:
            return BOX.empty(folder)
        """,
    ),
    case(
        "check-on-an-argument-after-handing-an-object-to-the-write",
        """\
        class Mailbox:
            def open(self):
                return httpx.Client(base_url="https://mail.example.com")

            def _archive(self, conn, ids: list[int]) -> None:
                conn.post("/archive", json={"ids": ids})  # expect: MCP004

            def empty(self, folder: str) -> str:
                conn = self.open()
                self._archive(conn, [1, 2])
                if not folder.strip():
                    raise ToolError("folder must not be empty")
                return "emptied"

        BOX = Mailbox()

        @mcp.tool()
        def empty_folder(folder: str) -> str:
            return BOX.empty(folder)
        """,
    ),
    case(
        "output-a-subprocess-wrote-into-a-handed-file-read-back",
        """\
        import tempfile

        @mcp.tool()
        def apply_patch(repo: str) -> str:
            with tempfile.TemporaryFile() as out:
                proc = subprocess.run(["patcher", "apply", repo], stdout=out)
                out.seek(0)
                raw = out.read(1_000_001)
            if len(raw) > 1_000_000:
                raise ToolError("the patch output is larger than 1 MB; apply a smaller change")
            return "applied"
        """,
    ),
    # -- names an `except` clause assigns report a failure ------------------------------------
    case(
        "check-on-the-error-a-retry-loop-kept",
        """\
        @mcp.tool()
        def send(note_id: str) -> str:
            last_error = None
            for _ in range(3):
                try:
                    httpx.post("https://hooks.example.com/notes", json={"id": note_id})
                    return "sent"
                except httpx.HTTPError as e:
                    last_error = e
            if last_error is not None:
                raise ToolError(f"the hook did not answer after 3 tries: {last_error}")
            return "sent"
        """,
    ),
    case(
        "check-on-an-argument-after-a-retry-loop",
        """\
        @mcp.tool()
        def send(note_id: str, channel: str) -> str:
            last_error = None
            for _ in range(3):
                try:
                    httpx.post("https://hooks.example.com/notes", json={"id": note_id})  # expect: MCP004
                    break
                except httpx.HTTPError as e:
                    last_error = e
            if channel not in ("mail", "chat"):
                raise ToolError(f"channel must be mail or chat, got {channel!r}")
            return "sent"
        """,
    ),
    # -- lazy set-up helpers --------------------------------------------------------------------
    case(
        "set-up-helper-with-no-arguments-before-a-check",
        """\
        def _ensure_schema() -> None:
            db.execute("CREATE TABLE IF NOT EXISTS notes (id TEXT, title TEXT)")
            db.commit()

        @mcp.tool()
        def search(limit: int) -> str:
            _ensure_schema()
            if limit < 1 or limit > 100:
                raise ToolError("limit must be between 1 and 100")
            return "found"
        """,
    ),
    case(
        "helper-given-the-calls-data-before-a-check",
        """\
        def _ensure_tag(tag: str) -> None:
            db.execute("INSERT OR IGNORE INTO tags (name) VALUES (?)", (tag,))  # expect: MCP004
            db.commit()

        @mcp.tool()
        def tag_note(note_id: str, tag: str) -> str:
            _ensure_tag(tag)
            if not note_id.isdigit():
                raise ToolError(f"note_id must be a number, got {note_id!r}")
            return "tagged"
        """,
    ),
    # -- what an `except ValueError` clause reports -----------------------------------------------
    case(
        "log-line-item-store-and-own-raise-are-not-what-a-value-error-clause-catches",
        """\
        CACHE: dict[str, str] = {}

        @mcp.tool()
        def save(name: str, fields: dict) -> str:
            try:
                ok = db.execute("UPDATE notes SET body = ? WHERE name = ?", (str(fields), name))
                if not ok:
                    raise RuntimeError(f"note {name} was not saved")
                CACHE[name] = name
                print("saved", list(fields))
            except ValueError as e:
                raise ToolError(f"bad fields: {e}") from e
            return "saved"
        """,
    ),
    case(
        "a-parse-after-the-write-in-the-value-error-clauses-try",
        """\
        CACHE: dict[str, str] = {}

        @mcp.tool()
        def save(name: str, count: str) -> str:
            try:
                db.execute("UPDATE notes SET count = ? WHERE name = ?", (count, name))  # expect: MCP004
                CACHE[name] = count
                size = int(count)
            except ValueError as e:
                raise ToolError(f"count must be a number, got {count!r}") from e
            return f"saved {size}"
        """,
    ),
    # -- building the reply is no check of the arguments ---------------------------------------
    case(
        "reply-built-after-a-write-and-a-post-check-is-not-what-a-value-error-clause-catches",
        """\
        class Reply:
            def __init__(self, ok: bool, text: str = "") -> None:
                self.ok, self.text = ok, text

            def dump(self) -> dict:
                return {"ok": self.ok, "text": self.text}

        @mcp.tool()
        def rename(note_id: str, title: str) -> dict:
            try:
                done = db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))
                if not done:
                    return Reply(ok=False, text=f"note {note_id} was not renamed").dump()
                reply = Reply(ok=True, text=f"renamed {note_id}")
                return reply.dump()
            except ValueError as e:
                raise ToolError(f"bad title: {e}") from e
        """,
    ),
    case(
        "a-conversion-of-an-argument-after-the-write-before-the-reply",
        """\
        class Reply:
            def __init__(self, ok: bool, text: str = "") -> None:
                self.ok, self.text = ok, text

            def dump(self) -> dict:
                return {"ok": self.ok, "text": self.text}

        @mcp.tool()
        def rename(note_id: str, title: str, rank: str) -> dict:
            try:
                db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))  # expect: MCP004
                position = int(rank)
                reply = Reply(ok=True, text=f"renamed {note_id} at {position}")
                return reply.dump()
            except ValueError as e:
                raise ToolError(f"rank must be a whole number: {e}") from e
        """,
    ),
    # -- a temporary file is the call's scratch -------------------------------------------------
    case(
        "writing-a-temporary-file-before-a-check",
        """\
        import tempfile

        @mcp.tool()
        def convert(text: str, fmt: str) -> str:
            with tempfile.NamedTemporaryFile(delete=False, suffix=".txt") as tmp:
                tmp.write(text.encode())
            if fmt not in ("pdf", "html"):
                raise ToolError(f"unknown format {fmt!r}; use pdf or html")
            return tmp.name
        """,
    ),
    case(
        "writing-a-named-file-before-a-check",
        """\
        @mcp.tool()
        def convert(text: str, fmt: str) -> str:
            with open(ROOT / "input.txt", "w") as out:  # expect: MCP004
                out.write(text)
            if fmt not in ("pdf", "html"):
                raise ToolError(f"unknown format {fmt!r}; use pdf or html")
            return "converted"
        """,
    ),
    # -- a check repeated from before the mutation cannot fail -----------------------------------
    case(
        "the-same-test-already-rejected-before-the-write",
        """\
        class Exporter:
            def __init__(self, remote) -> None:
                self.remote = remote

            async def export(self, name: str, is_remote: bool) -> str:
                if is_remote and not self.remote:
                    raise ToolError("a remote export needs a remote connection")
                subprocess.run(["convert", name])
                if is_remote and not self.remote:
                    raise ToolError("a remote export needs a remote connection")
                return "exported"

        EXPORTER = Exporter(None)

        @mcp.tool()
        async def export(name: str, is_remote: bool) -> str:
            return await EXPORTER.export(name, is_remote)
        """,
    ),
    case(
        "the-same-test-after-its-value-changed",
        """\
        class Exporter:
            def __init__(self, remote) -> None:
                self.remote = remote

            async def export(self, name: str, is_remote: bool) -> str:
                if is_remote and not self.remote:
                    raise ToolError("a remote export needs a remote connection")
                subprocess.run(["convert", name])  # expect: MCP004
                self.remote = None
                if is_remote and not self.remote:
                    raise ToolError("a remote export needs a remote connection")
                return "exported"

        EXPORTER = Exporter(None)

        @mcp.tool()
        async def export(name: str, is_remote: bool) -> str:
            return await EXPORTER.export(name, is_remote)
        """,
    ),
    # -- a lookup after a change of local files: handed the changed path or not ------------------
    case(
        "a-lookup-of-other-things-after-a-directory-made-for-the-export",
        """\
        BOOKS: list[dict] = []

        def _find_books(author: str) -> list[dict]:
            return [b for b in BOOKS if b["author"] == author]

        @mcp.tool()
        def export_books(author: str, out: str) -> dict:
            target = Path(out)
            target.parent.mkdir(parents=True, exist_ok=True)  # expect: MCP004
            books = _find_books(author)
            if not books:
                return {"success": False, "error": f"No books by {author} to export"}
            with target.open("w", encoding="utf-8") as handle:
                handle.write(str(books))
            return {"success": True}
        """,
    ),
    case(
        "a-lookup-handed-the-directory-made-reads-it-back",
        """\
        def _find_exports(folder: Path) -> list[Path]:
            return sorted(folder.iterdir())

        @mcp.tool()
        def export_books(author: str, out: str) -> dict:
            target = Path(out)
            target.parent.mkdir(parents=True, exist_ok=True)
            earlier = _find_exports(target.parent)
            if len(earlier) > 100:
                return {"success": False, "error": "Too many exports in the folder; remove some first"}
            with target.open("w", encoding="utf-8") as handle:
                handle.write(author)
            return {"success": True}
        """,
    ),
    # -- a path object opened for writing -------------------------------------------------------
    case(
        "a-path-opened-for-writing-before-a-check",
        """\
        @mcp.tool()
        def save(name: str, text: str) -> str:
            with (ROOT / name).open("w", encoding="utf-8") as handle:  # expect: MCP004
                handle.write(text)
            if len(text) > 10_000:
                raise ToolError("text is longer than 10000 characters")
            return "saved"
        """,
    ),
    case(
        "a-path-opened-for-reading-before-a-check",
        """\
        @mcp.tool()
        def peek(name: str, limit: int) -> str:
            with (ROOT / name).open("r", encoding="utf-8") as handle:
                head = handle.read(limit)
            if limit > 10_000:
                raise ToolError("limit is larger than 10000 characters")
            return head
        """,
    ),
    # -- a length test guards the items in the part it guards, not the others ---------------------
    case(
        "an-item-read-outside-the-part-a-length-test-guards",
        """\
        @mcp.tool()
        def create_deck(name: str, fields: list) -> str:
            NOTES[name] = {"cards": []}  # expect: MCP004
            front = "{{" + fields[0] + "}}"
            back = fields[1] if len(fields) > 1 else front
            NOTES[name]["template"] = front + back
            return name
        """,
    ),
    case(
        "items-read-only-where-a-length-test-guards-them",
        """\
        @mcp.tool()
        def create_deck(name: str, fields: list) -> str:
            NOTES[name] = {"cards": []}
            back = fields[1] if len(fields) > 1 else "back"
            front = fields and fields[0]
            if fields:
                NOTES[name]["first"] = fields[0]
            count = len(fields)
            NOTES[name]["last"] = fields[-1] if count > 0 else ""
            NOTES[name]["template"] = f"{front}/{back}"
            return name
        """,
    ),
    # -- work handed to a thread runner -------------------------------------------------------
    case(
        "a-write-handed-to-a-thread-runner-before-a-check",
        """\
        import asyncio
        import shutil

        def _write_backup(path: Path, text: str) -> bool:
            path.write_text(text)  # expect: MCP004
            return True

        @mcp.tool()
        async def backup(name: str, text: str) -> str:
            await asyncio.get_event_loop().run_in_executor(None, _write_backup, ROOT / name, text)
            if len(text) > 100:
                raise ToolError("text is longer than 100 characters")
            return "backed up"

        @mcp.tool()
        async def copy(src: str, dst: str) -> str:
            await asyncio.to_thread(shutil.copy2, src, dst)  # expect: MCP004
            if not dst.endswith(".md"):
                raise ToolError("dst must end with .md")
            return "copied"
        """,
    ),
    case(
        "a-read-handed-to-a-thread-runner-before-a-check",
        """\
        import asyncio

        def _read_backup(path: Path) -> str:
            return path.read_text()

        @mcp.tool()
        async def restore(name: str, limit: int) -> str:
            text = await asyncio.get_event_loop().run_in_executor(None, _read_backup, ROOT / name)
            if limit > 100:
                raise ToolError("limit is larger than 100 characters")
            return text[:limit]

        @mcp.tool()
        async def peek(src: str, limit: int) -> str:
            text = await asyncio.to_thread(Path(src).read_text)
            if limit > 100:
                raise ToolError("limit is larger than 100 characters")
            return text[:limit]
        """,
    ),
    # -- a failure path that takes the change back ---------------------------------------------
    case(
        "partial-file-removed-by-the-clause-the-rejection-passes",
        """\
        @mcp.tool()
        def download(url: str, dest: str, cap: int) -> str:
            written = 0
            try:
                with open(dest, "wb") as f:
                    for chunk in httpx.get(url).iter_bytes():
                        written += len(chunk)
                        if written > cap:
                            raise ToolError(f"the download is larger than {cap} bytes")
                        f.write(chunk)
            except BaseException:
                os.unlink(dest)
                raise
            return "downloaded"
        """,
    ),
    case(
        "partial-file-kept-by-a-clause-that-only-logs",
        """\
        @mcp.tool()
        def download(url: str, dest: str, cap: int) -> str:
            written = 0
            try:
                with open(dest, "wb") as f:  # expect: MCP004
                    for chunk in httpx.get(url).iter_bytes():
                        written += len(chunk)
                        if written > cap:
                            raise ToolError(f"the download is larger than {cap} bytes")
                        f.write(chunk)
            except BaseException:
                print("download failed", url)
                raise
            return "downloaded"
        """,
    ),
    # -- a helper that rejects values it computes from its arguments ----------------------------
    case(
        "helper-rejecting-a-value-computed-from-its-arguments-after-a-write",
        """\
        MAX_URL = 2000

        def _link(action: str, text: str) -> str:
            return f"notes://{action}?text={text}"

        def _open_link(action: str, text: str) -> None:
            url = _link(action, text)
            size = len(url.encode())
            if size > MAX_URL:
                raise ValueError(f"the text is too long for a link ({size} bytes)")
            subprocess.run(["open", url], check=True)

        @mcp.tool()
        def replace(note_id: str, text: str) -> str:
            (ROOT / f"{note_id}.bak").write_text(text)  # expect: MCP004
            _open_link("replace", text)
            return "replaced"
        """,
    ),
    case(
        "helper-rejecting-a-value-it-asked-a-store-for-after-a-write",
        """\
        class Links:
            def __init__(self) -> None:
                self.store = httpx.Client()

            def open_link(self, action: str, text: str) -> None:
                size = self.store.get(f"/size/{action}").json()["size"]
                if size > 2000:
                    raise ValueError(f"the store is full ({size} links)")
                subprocess.run(["open", action], check=True)

        LINKS = Links()

        @mcp.tool()
        def replace(note_id: str, text: str) -> str:
            (ROOT / f"{note_id}.bak").write_text(text)
            LINKS.open_link("replace", text)
            return "replaced"
        """,
    ),
    # -- each later mutation with a check of its own ------------------------------------------
    case(
        "a-second-mutation-after-the-first-check-with-a-later-check-of-its-own",
        """\
        @mcp.tool()
        def update(note_id: str, title: str, cover: str, fmt: str) -> str:
            db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))  # expect: MCP004
            if not Path(cover).exists():
                raise ToolError(f"cover {cover} not found")
            subprocess.run(["cover-tool", "set", note_id, cover], check=True)  # expect: MCP004
            if fmt not in ("pdf", "epub"):
                raise ToolError(f"fmt must be pdf or epub, got {fmt!r}")
            return "updated"
        """,
    ),
    case(
        "a-second-mutation-before-the-same-check-is-one-finding",
        """\
        @mcp.tool()
        def update(note_id: str, title: str, cover: str) -> str:
            db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))  # expect: MCP004
            db.execute("UPDATE covers SET path = ? WHERE id = ?", (cover, note_id))
            if not cover.endswith(".png"):
                raise ToolError(f"cover must be a .png file, got {cover}")
            return "updated"
        """,
    ),
    # -- a preparation and the change it prepared before one check -------------------------------
    case(
        "directory-prepared-then-file-written-before-a-check-reported-at-the-write",
        """\
        @mcp.tool()
        def backup(note_id: str, text: str) -> str:
            (ROOT / "backups").mkdir(exist_ok=True)
            (ROOT / "backups" / f"{note_id}.md").write_text(text)  # expect: MCP004
            if len(text) > 10_000:
                raise ToolError("text must be at most 10000 characters")
            return "backed up"
        """,
    ),
    case(
        "directory-prepared-before-a-check-and-written-after-it-is-reported-at-the-preparation",
        """\
        @mcp.tool()
        def backup(note_id: str, text: str) -> str:
            (ROOT / "backups").mkdir(exist_ok=True)  # expect: MCP004
            if len(text) > 10_000:
                raise ToolError("text must be at most 10000 characters")
            (ROOT / "backups" / f"{note_id}.md").write_text(text)
            return "backed up"
        """,
    ),
    case(
        "validator-handed-what-a-writing-helper-was-handed-reads-it-back",
        """\
        def _write_doc(doc: str, text: str) -> None:
            Path(doc).write_text(text)

        def open_package(doc: str) -> str:
            kind = doc.rsplit(".", 1)[-1].lower()
            if kind not in ("docx", "xlsx"):
                raise ValueError(f"{doc}: unsupported kind {kind}")
            return Path(doc).read_text()

        @mcp.tool()
        def rewrite(doc: str, text: str) -> str:
            db.execute("INSERT INTO edits (doc) VALUES (?)", (doc,))
            _write_doc(doc, text)
            open_package(doc)
            return "rewritten"
        """,
    ),
    case(
        "helper-returning-a-refusal-the-caller-reports-as-a-success-entry",
        """\
        def link_policy(kind: str) -> tuple[bool, str | None]:
            if kind not in ("cites", "mentions"):
                return False, f"links of kind {kind} are not allowed"
            return True, None

        @mcp.tool()
        def add_link(source: str, target: str, kind: str) -> dict:
            db.execute("INSERT INTO links (source, target) VALUES (?, ?)", (source, target))
            allowed, reason = link_policy(kind)
            if not allowed:
                return {"linked": True, "kind_errors": [reason]}
            return {"linked": True}
        """,
    ),
    # -- a cache of the process is bookkeeping ---------------------------------------------------
    case(
        "reordering-a-cache-attribute-before-a-check",
        """\
        class Pool:
            def __init__(self) -> None:
                self.cache: dict[str, object] = {}

            def lease(self, key: str, users: int) -> object:
                self.cache.move_to_end(key)
                if users <= 0:
                    raise ToolError("users must be positive")
                return self.cache[key]

        POOL = Pool()

        @mcp.tool()
        def lease(key: str, users: int) -> str:
            return str(POOL.lease(key, users))
        """,
    ),
    case(
        "moving-an-item-of-a-queue-attribute-before-a-check",
        """\
        class Jobs:
            def __init__(self) -> None:
                self.queue = httpx.Client(base_url="https://jobs.example.com")

            def bump(self, key: str, users: int) -> None:
                self.queue.move_to_end(key)  # expect: MCP004
                if users <= 0:
                    raise ToolError("users must be positive")

        JOBS = Jobs()

        @mcp.tool()
        def bump(key: str, users: int) -> str:
            JOBS.bump(key, users)
            return "bumped"
        """,
    ),
    case(
        "a-mutation-after-the-check-of-a-helpers-finding-with-a-later-check-of-its-own",
        """\
        def save_fields(note_id: str, title: str) -> None:
            db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))  # expect: MCP004

        @mcp.tool()
        def update(note_id: str, title: str, cover: str, fmt: str) -> str:
            save_fields(note_id, title)
            if not cover.endswith(".png"):
                raise ToolError(f"cover must be a .png file, got {cover}")
            subprocess.run(["cover-tool", "set", note_id, cover], check=True)  # expect: MCP004
            if fmt not in ("pdf", "epub"):
                raise ToolError(f"fmt must be pdf or epub, got {fmt!r}")
            return "updated"
        """,
    ),
    case(
        "a-mutation-before-the-check-of-a-helpers-finding-is-that-finding",
        """\
        def save_fields(note_id: str, title: str) -> None:
            db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))  # expect: MCP004

        @mcp.tool()
        def update(note_id: str, title: str, cover: str) -> str:
            save_fields(note_id, title)
            subprocess.run(["cover-tool", "set", note_id, cover], check=True)
            if not cover.endswith(".png"):
                raise ToolError(f"cover must be a .png file, got {cover}")
            return "updated"
        """,
    ),
    # -- implicit checks: a constant item of an argument ---------------------------------------
    case(
        "an-item-of-an-argument-read-after-a-write-rejects-a-malformed-argument",
        """\
        @mcp.tool()
        def create_deck(name: str, outline: dict, fields: list) -> str:
            NOTES[name] = {"slides": []}  # expect: MCP004
            title = outline["title"]
            first = fields[0]
            return f"{title}: {first}"

        @mcp.tool()
        def import_deck(name: str, outline: dict) -> str:
            NOTES[name] = {"slides": []}  # expect: MCP004
            if "cover" in outline:
                cover = outline["cover"]
                NOTES[name]["cover"] = cover.get("text", "")
            for slide in outline.get("slides", []):
                kind = slide["kind"]
                NOTES[name]["slides"].append(kind)
            return name
        """,
    ),
    case(
        "an-item-of-an-argument-read-first-tested-or-of-a-local",
        """\
        @mcp.tool()
        def create_deck(name: str, outline: dict) -> str:
            title = outline["title"]
            NOTES[name] = {"slides": [], "title": title}
            return title

        @mcp.tool()
        def add_slide(name: str, slide: dict, fields: list) -> str:
            if "title" not in slide or not fields:
                raise ToolError("a slide needs a title and fields")
            NOTES[name]["slides"].append(slide)
            return slide["title"] + fields[0]

        @mcp.tool()
        def rename(name: str, title: str) -> str:
            note = NOTES[name]
            NOTES[name] = {"title": title}
            return note["title"]

        @mcp.tool()
        def tag_deck(name: str, tags: list) -> str:
            NOTES[name] = {"tags": []}
            known = {t["name"]: t["id"] for t in NOTES.get("tags", {}).get("all", [])}
            for t in tags:
                NOTES[name]["tags"].append(known.get(t, t))
            return name

        @mcp.tool()
        def import_deck(name: str, outline: dict) -> str:
            NOTES[name] = {"slides": []}
            for slide in outline.get("slides", []):
                if "kind" not in slide:
                    continue
                kind = slide["kind"]
                NOTES[name]["slides"].append(kind)
            return name

        def store_summary(report: dict) -> str:
            NOTES["summary"] = {"text": ""}
            health = report["queue"]["health"]
            return str(health)

        @mcp.tool()
        def summarize(name: str) -> str:
            return store_summary({"queue": {"health": len(name)}})
        """,
    ),
    # -- a factory of a write context is not the write -----------------------------------------
    case(
        "the-writes-through-a-handed-out-write-scope-are-the-mutation",
        """\
        def _writing():
            return db.write_scope()

        def save_title(item_id: int, title: str) -> None:
            with _writing() as session:
                session.execute("UPDATE items SET title = ? WHERE id = ?", (title, item_id))  # expect: MCP004

        @mcp.tool()
        def retitle(item_id: int, title: str, cover: str) -> str:
            save_title(item_id, title)
            if not cover.endswith(".png"):
                raise ToolError(f"cover must be a .png file, got {cover}")
            return "retitled"
        """,
    ),
    case(
        "a-handed-out-write-scope-used-only-for-reads",
        """\
        def _writing():
            return db.write_scope()

        def sync_title(item_id: int) -> str:
            with _writing() as session:
                return session.title(item_id)

        @mcp.tool()
        def show(item_id: int, cover: str) -> str:
            title = sync_title(item_id)
            if not cover.endswith(".png"):
                raise ToolError(f"cover must be a .png file, got {cover}")
            return title
        """,
    ),
    # -- objects built by this call from data ---------------------------------------------------
    case(
        "an-object-built-from-data-in-this-call-is-filled-before-it-is-saved",
        """\
        class Board:
            def __init__(self) -> None:
                self.cards: list[dict] = []

            @classmethod
            def from_dict(cls, data: dict) -> "Board":
                board = cls()
                board.cards = list(data["cards"])
                return board

            def add_card(self, card: dict) -> None:
                self.cards.append(card)

        @mcp.tool()
        def build(name: str, cards: list[dict], base: dict | None = None) -> str:
            if base is None:
                board = Board()
            else:
                board = Board.from_dict(base)
            for card in cards:
                if card.get("kind") not in ("text", "link"):
                    raise ToolError(f"unknown card kind {card.get('kind')!r}")
                board.add_card(card)
            (ROOT / name).write_text(str(board.cards))
            return name
        """,
    ),
    case(
        "a-client-built-from-data-still-writes",
        """\
        class BoardClient:
            @classmethod
            def from_settings(cls, data: dict) -> "BoardClient":
                return cls()

            def add_card(self, card: dict) -> None:
                httpx.post("https://boards.example/cards", json=card)

        @mcp.tool()
        def publish(cards: list[dict], settings: dict) -> str:
            api = BoardClient.from_settings(settings)
            for card in cards:
                api.add_card(card)  # expect: MCP004
                if card.get("kind") not in ("text", "link"):
                    raise ToolError(f"unknown card kind {card.get('kind')!r}")
            return "published"
        """,
    ),
    case(
        "a-transaction-scope-commits-what-its-callers-block-did",
        """\
        from contextlib import contextmanager

        @contextmanager
        def transaction():
            session = db.cursor()
            yield session
            db.commit()

        def save_fields(item_id: int, fields: dict) -> None:
            with transaction() as session:
                for key, value in fields.items():
                    session.setattr(item_id, key, value)

        @mcp.tool()
        def update_item(item_id: int, fields: dict, cover: str) -> str:
            save_fields(item_id, fields)  # expect: MCP004
            if not cover.endswith(".png"):
                raise ToolError(f"cover must be a .png file, got {cover}")
            return "updated"
        """,
    ),
    case(
        "a-scope-that-writes-its-own-file-is-reported-at-that-write",
        """\
        from contextlib import contextmanager

        @contextmanager
        def write_lock(name: str):
            (ROOT / f"{name}.lock").write_text("held")  # expect: MCP004
            yield
            db.commit()

        @mcp.tool()
        def edit(name: str, text: str) -> str:
            with write_lock(name):
                if len(text) > 100:
                    raise ToolError("text must be at most 100 characters")
            return "edited"
        """,
    ),
    # -- a POST that asks for a computed result ------------------------------------------------
    case(
        "a-post-to-an-endpoint-named-for-a-computation-changes-nothing",
        """\
        @mcp.tool()
        def speak(text: str, voice: str) -> str:
            audio = httpx.post(f"https://speech.example/v1/text:synthesize?voice={voice}", json={"text": text})
            hits = httpx.post("https://index.example/v2/search", json={"q": text})
            if len(text) > 500:
                raise ToolError("text must be at most 500 characters")
            return audio.text + hits.text
        """,
    ),
    case(
        "a-post-that-creates-a-record-before-the-check",
        """\
        @mcp.tool()
        def file_ticket(title: str, voice: str) -> str:
            created = httpx.post(f"https://tickets.example/v1/tickets?voice={voice}", json={"title": title})  # expect: MCP004
            if len(title) > 500:
                raise ToolError("title must be at most 500 characters")
            return created.text
        """,
    ),
    # -- a service's answer does not see local files ---------------------------------------------
    case(
        "a-response-fetched-after-a-local-write-is-no-read-back",
        """\
        @mcp.tool()
        def fetch_image(url: str, name: str) -> str:
            images = ROOT / "images"
            images.mkdir(exist_ok=True)  # expect: MCP004
            with httpx.Client() as client:
                response = client.get(url)
                if not response.headers.get("content-type", "").startswith("image/"):
                    return f"Error: {url} is not an image"
            (images / name).write_bytes(response.content)
            return str(images / name)
        """,
    ),
    case(
        "a-response-after-a-remote-write-or-a-file-look-after-a-local-one",
        """\
        @mcp.tool()
        def upload(url: str, name: str) -> str:
            with httpx.Client() as client:
                client.put(f"{url}/files/{name}", content=b"x")
                listing = client.get(f"{url}/files")
                if name not in listing.text:
                    return f"Error: {name} was not stored"
            return name

        @mcp.tool()
        def save(name: str, text: str) -> str:
            target = ROOT / name
            target.write_text(text)
            if not target.exists():
                return f"Error: {name} was not written"
            return name
        """,
    ),
    # -- starting a background worker ----------------------------------------------------------
    case(
        "a-thread-started-before-a-check-keeps-running",
        """        import json
        import threading

        def serve_downloads() -> None:
            NOTES["port"] = {"value": 8000}

        @mcp.tool()
        def render(payload: str) -> str:
            worker = threading.Thread(target=serve_downloads)
            worker.start()  # expect: MCP004
            data = json.loads(payload)
            if "title" not in data:
                raise ToolError("payload needs a title")
            return data["title"]
        """,
    ),
    case(
        "a-thread-started-after-the-checks-and-a-thread-only-built",
        """        import json
        from threading import Thread

        def serve_downloads() -> None:
            NOTES["port"] = {"value": 8000}

        @mcp.tool()
        def render(payload: str) -> str:
            data = json.loads(payload)
            if "title" not in data:
                raise ToolError("payload needs a title")
            Thread(target=serve_downloads).start()
            return data["title"]

        @mcp.tool()
        def plan(payload: str) -> str:
            worker = Thread(target=serve_downloads)
            if not payload:
                raise ToolError("payload is empty")
            return worker.name
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)


def test_a_helpers_write_is_reported_at_the_write_with_the_tools_as_related_places() -> None:
    [finding] = _mcp004(
        """\
        def save_doc(name: str, text: str) -> None:
            (ROOT / name).write_text(text)  # expect: MCP004

        @mcp.tool()
        def publish(name: str, text: str) -> str:
            save_doc(name, text)
            if not name.endswith(".md"):
                raise ToolError("name must end with .md")
            return "published"

        @mcp.tool()
        def publish_draft(name: str, text: str) -> str:
            save_doc(name, text)
            if len(text) > 10_000:
                raise ToolError("a draft holds at most 10000 characters")
            return "published"
        """
    )
    assert finding.message.startswith("Helper 'save_doc' changes files (write_text) here; tool 'publish' then")
    # One finding for the write; each tool's call and check are its related places.
    assert sorted((r.location.row, r.message.split(" ")[1]) for r in finding.related) == [
        (21, "'publish'"),
        (22, "check"),
        (28, "'publish_draft'"),
        (29, "check"),
    ]


def test_a_write_three_calls_down_is_reported_at_the_write_with_the_tools_as_related_places() -> None:
    [finding] = _mcp004(
        """\
        def _write(path: Path, text: str) -> None:
            path.write_text(text)  # expect: MCP004

        def _store(name: str, text: str) -> None:
            _write(ROOT / name, text)

        def save_note(name: str, text: str) -> None:
            _store(name, text)

        @mcp.tool()
        def publish(name: str, text: str) -> str:
            save_note(name, text)
            if not name.endswith(".md"):
                raise ToolError("name must end with .md")
            return "published"

        @mcp.tool()
        def publish_draft(name: str, text: str) -> str:
            save_note(name, text)
            if len(text) > 10_000:
                raise ToolError("a draft holds at most 10000 characters")
            return "published"
        """
    )
    assert finding.message.startswith("Helper '_write' changes files (write_text) here; tool 'publish' then")
    assert sorted((r.location.row, r.message.split(" ")[1]) for r in finding.related) == [
        (27, "'publish'"),
        (28, "check"),
        (34, "'publish_draft'"),
        (35, "check"),
    ]


def test_a_read_three_calls_down_is_no_mutation() -> None:
    _mcp004(
        """\
        def _read(path: Path) -> str:
            return path.read_text()

        def _load(name: str) -> str:
            return _read(ROOT / name)

        def load_note(name: str) -> str:
            return _load(name)

        @mcp.tool()
        def show(name: str, limit: int) -> str:
            text = load_note(name)
            if limit > 10_000:
                raise ToolError("limit is at most 10000 characters")
            return text[:limit]
        """
    )


def test_a_direct_finding_relates_its_check() -> None:
    [finding] = _mcp004(
        """\
        @mcp.tool()
        def retitle(note_id: str, title: str) -> str:
            NOTES[note_id]["title"] = title  # expect: MCP004
            if len(title) > 80:
                raise ToolError("title must be at most 80 characters")
            return "retitled"
        """
    )
    assert [(r.location.row, r.message) for r in finding.related] == [(19, "the check that rejects the call, which could run first")]


def test_a_caller_catching_a_helpers_raise_per_item_is_no_rejection(tmp_path: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/store.py": """\
        import sqlite3

        db = sqlite3.connect("notes.db")

        def tag(note_id: int, tag: str) -> None:
            db.execute("UPDATE notes SET tag = ? WHERE id = ?", (tag, note_id))
            if not tag.isidentifier():
                raise ValueError(f"tag must be one word, got {tag!r}")
        """,
        "app/server.py": """\
        from mcp.server.fastmcp import FastMCP

        from app.store import tag

        mcp = FastMCP("notes")

        @mcp.tool()
        def tag_all(ids: list[int], label: str) -> dict:
            errors = []
            for note_id in ids:
                try:
                    tag(note_id, label)
                except ValueError:
                    errors.append({"id": note_id, "error": "tag must be one word"})
            return {"errors": errors}

        @mcp.tool()
        def tag_one(note_id: int, label: str) -> str:
            tag(note_id, label)
            return "tagged"
        """,
    }
    write_tree(tmp_path, files)
    # `tag_one` lets the raise end its call: the write is flagged.
    [finding] = [f for f in lint_tree(tmp_path) if f.code == "MCP004"]
    assert (Path(finding.filename).name, finding.location.row) == ("store.py", 6)
    # Without that tool, the only caller turns the raise into an error entry and goes on.
    files["app/server.py"] = files["app/server.py"].split("@mcp.tool()\n        def tag_one")[0]
    write_tree(tmp_path, files)
    assert [f for f in lint_tree(tmp_path) if f.code == "MCP004"] == []


def test_a_project_modules_function_is_judged_by_what_it_does(tmp_path: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/registry.py": """\
        ENTRIES = {"a": {"env": "x"}}

        def push_entry(name: str):
            return ENTRIES.get(name)
        """,
        "app/server.py": """\
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        from . import registry

        mcp = FastMCP("notes")

        @mcp.tool()
        def wake(name: str) -> str:
            entry = registry.push_entry(name)
            if not name.isidentifier():
                raise ToolError("name must be one word")
            return "woken" if entry else "unknown"
        """,
    }
    write_tree(tmp_path, files)
    # A getter whose name starts with a write verb: its body reads, so nothing is flagged.
    assert [f for f in lint_tree(tmp_path) if f.code == "MCP004"] == []
    # The same call of a function that writes a file is flagged at the write.
    files["app/registry.py"] = """\
        from pathlib import Path

        def push_entry(name: str):
            Path("/srv/queue", name).write_text("wake")
        """
    write_tree(tmp_path, files)
    [finding] = [f for f in lint_tree(tmp_path) if f.code == "MCP004"]
    assert (Path(finding.filename).name, finding.location.row) == ("registry.py", 4)
