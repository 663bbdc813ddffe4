"""The notes server of examples/notes_server_fastmcp with its defects fixed: `mcp-lint probe` passes."""

import logging
import sqlite3

import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("notes")
# fastmcp runs synchronous tools in worker threads: one connection shared by them.
db = sqlite3.connect("notes.db", check_same_thread=False)
db.executescript("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, title TEXT, body TEXT);"
                 "INSERT OR IGNORE INTO notes VALUES (1, 'Welcome', 'The first note.');")


@mcp.tool
def read_note(note_id: int) -> dict:
    """Return one note."""
    row = db.execute("SELECT title, body FROM notes WHERE id = ?", (note_id,)).fetchone()
    if row is None:
        raise ToolError(f"Note {note_id} not found; check the id with the user")
    return {"title": row[0], "body": row[1]}


@mcp.tool
async def import_note(url: str) -> str:
    """Fetch a note from a URL and store it."""
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(url)
            response.raise_for_status()
    except httpx.HTTPStatusError as e:
        logger.exception("import_note: fetching %s failed", url)
        raise ToolError(f"{url} answered HTTP {e.response.status_code}; pass the URL of a plain-text note") from e
    except httpx.HTTPError as e:
        logger.exception("import_note: fetching %s failed", url)
        raise ToolError(f"Could not fetch {url}; check the address, or import the note from another URL") from e
    db.execute("INSERT INTO notes (body) VALUES (?)", (response.text,))
    db.commit()
    return "imported"


@mcp.tool
def rename_note(note_id: int, title: str) -> str:
    """Give a note a new title."""
    # Validate before writing: a rejected call must leave the database untouched.
    if not title.strip():
        raise ToolError("title must not be empty; pass the new title text")
    cur = db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))
    if cur.rowcount == 0:
        db.rollback()
        raise ToolError(f"Note {note_id} not found; check the id with the user")
    db.commit()
    return "renamed"


@mcp.tool
def delete_note(note_id: int) -> str:
    """Delete one note."""
    cur = db.execute("DELETE FROM notes WHERE id = ?", (note_id,))
    if cur.rowcount == 0:
        db.rollback()
        raise ToolError(f"Note {note_id} not found; it may already be deleted")
    db.commit()
    return "deleted"


if __name__ == "__main__":
    mcp.run()
