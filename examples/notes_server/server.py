"""A small notes server with one error-channel defect per tool (mcp-lint's worked example)."""

import sqlite3
import traceback

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("notes")
db = sqlite3.connect("notes.db")
db.executescript("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, title TEXT, body TEXT);"
                 "INSERT OR IGNORE INTO notes VALUES (1, 'Welcome', 'The first note.');")


@mcp.tool()
def read_note(note_id: int) -> str:
    """Return the text of one note."""
    row = db.execute("SELECT body FROM notes WHERE id = ?", (note_id,)).fetchone()
    if row is None:
        raise McpError(ErrorData(code=INVALID_PARAMS, message=f"Note {note_id} not found"))
    return row[0]


@mcp.tool()
async def import_note(url: str) -> str:
    """Fetch a note from a URL and store it."""
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(url)
            response.raise_for_status()
    except Exception:
        return f"Error: {traceback.format_exc()}"
    db.execute("INSERT INTO notes (body) VALUES (?)", (response.text,))
    db.commit()
    return "imported"


@mcp.tool()
def archive_notes(older_than_days: int) -> str:
    """Archive notes older than the given number of days."""
    if older_than_days > 3650:
        raise ValueError("The operation failed. Please try again.")
    return "archived"


@mcp.tool()
def rename_note(note_id: int, title: str) -> str:
    """Give a note a new title."""
    db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))
    db.commit()
    if not title.strip():
        raise ValueError("title must not be empty")
    return "renamed"


@mcp.tool()
def delete_note(note_id: int) -> str:
    """Delete one note."""
    cur = db.execute("DELETE FROM notes WHERE id = ?", (note_id,))
    if cur.rowcount == 0:
        return f"Note {note_id} not found"
    db.commit()
    return "deleted"


if __name__ == "__main__":
    mcp.run()
